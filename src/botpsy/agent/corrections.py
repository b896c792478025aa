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


def self_corrected(text: str) -> str:
    """``text`` with a time corrected at its end written in place of the one it corrects
    (unchanged where there is no such correction, or no earlier time)."""
    match = _CORRECTION.search(text)
    if match is None:
        return text
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
