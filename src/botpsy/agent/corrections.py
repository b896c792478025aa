"""A time the user corrects as they write, read as corrected.

"remind me to ring mom tonight at 8... no wait, make that 7": typed as thought, the
request names two times, and every reader of it (the day and time checks, the model)
took the first. The user meant the second. ``self_corrected`` writes the corrected time
where the first one stood and drops the correction ("remind me to ring mom tonight at
7"), so that everything after reads one time. Only a correction that closes the request
and gives a bare time is read; anything else is left as written.
"""

from __future__ import annotations

import re

from botpsy.extract import WHEN, times

# The correction at the end of a request: a turn back ("no wait", "sorry", "actually", "I
# mean") or "make that/it", then the new time alone.
_CORRECTION = re.compile(
    r"(?:\s*[.…,;:!–—-]+\s*|\s+)"
    r"(?:(?:no|nah|oh|oops|sorry|wait|actually|hmm|i\s+mean|or\s+rather|rather)\b[\s,.…!-]*)+"
    r"(?:make\s+(?:that|it)\s+|i\s+mean\s+)?"
    r"(?:at\s+)?(?P<new>(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?\s*(?:am|pm)?)\s*[.!…]*\s*$"
    r"|(?:\s*[.…,;:!–—-]+\s*|\s+)make\s+(?:that|it)\s+(?:at\s+)?"
    r"(?P<made>(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?\s*(?:am|pm)?)\s*[.!…]*\s*$",
    re.IGNORECASE)
# The time being corrected: the last clock time or bare "at N" before the correction.
_EARLIER = re.compile(
    r"(?<![\w:.])(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?\s*(?:am|pm)\b"
    r"|(?<![\w:.])(?:[01]?\d|2[0-3]):[0-5]\d\b"
    r"|(?<=\bat\s)(?:[01]?\d|2[0-3])\b(?![:.]\d)", re.IGNORECASE)


# A day (and time) corrected at the end: "... actually no, make it saturday at 10am
# instead", "- no wait, the 17th, same time": a turn back, then words that only say when,
# then at most a word that keeps the rest ("instead", "same time")
_WHEN_CORRECTION = re.compile(
    r"(?:\s*[.…,;:!–—-]+\s*|\s+)"
    r"(?:(?:no|nah|oh|oops|sorry|wait|actually|hmm|i\s+mean|or\s+rather|rather)\b[\s,.…!-]*)+"
    r"(?:(?:make|change)\s+(?:that|it)\s+(?:to\s+)?|i\s+mean\s+)?"
    r"(?P<when>[^.!…]+?)(?P<keeps>(?:[\s,]+(?:instead|same\s+time|please))*)\s*[.!…]*\s*$",
    re.IGNORECASE)


def self_corrected(text: str) -> str:
    """``text`` with a time or day corrected at its end written in place of the one it
    corrects (unchanged where there is no such correction, or nothing earlier to correct)."""
    match = _CORRECTION.search(text)
    if match is None:
        return _day_corrected(text)
    new = (match["new"] or match["made"]).strip()
    head = text[:match.start()]
    earlier = list(_EARLIER.finditer(head))
    if not earlier:
        return text
    old = earlier[-1]
    if not re.search(r"(?:am|pm)$", new, re.IGNORECASE):
        # "at 8pm ... make that 7": the new hour keeps the old one's half of the day
        half = re.search(r"(am|pm)$", old.group(), re.IGNORECASE)
        new = f"{new}{half.group(1)}" if half and ":" not in new else new
    return head[:old.start()] + new + head[old.end():]


def _day_corrected(text: str) -> str:
    """``text`` with a day, or a day and a time, corrected at its end written in place of
    the earlier ones ("set a reminder for friday 5pm to book the train tickets... actually
    no, make it saturday at 10am instead" -> "... for saturday at 10am to book ..."; "on
    the 18th at 6pm - no wait, the 17th, same time" keeps 6pm). Why: the 135M model read
    "instead" as a change of an event and moved the user's bouldering to Saturday."""
    match = _WHEN_CORRECTION.search(text)
    if match is None:
        return text
    new = match["when"].strip(" ,")
    said = list(WHEN.finditer(new))
    if not said or WHEN.sub("", new).strip(" ,"):
        return text  # more than a day and a time: left as written
    head = text[:match.start()]
    run = _last_when_run(head)
    if not run:
        return text
    new_days = [m for m in said if not times(m.group())]
    new_times = [m for m in said if times(m.group())]
    if not new_days:
        return text  # a time alone is ``_CORRECTION``'s
    if new_times:  # a day and a time: both replace the earlier ones
        start, end = run[0].start(), run[-1].end()
        return head[:start] + new + head[end:]
    days = [m for m in run if not times(m.group())]
    if not days:
        return text
    return head[:days[0].start()] + new + head[days[-1].end():]


def _last_when_run(text: str) -> list[re.Match[str]]:
    """The last phrases of ``text`` that say when, next to each other ("for friday 5pm",
    "on the 18th at 6pm")."""
    found = list(WHEN.finditer(text))
    run: list[re.Match[str]] = []
    for m in reversed(found):
        if run and text[m.end():run[0].start()].strip(" ,"):
            break
        run.insert(0, m)
    return run
