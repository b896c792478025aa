"""A request's misspelt key words read as meant, before anything reads the request.

The selector, the clause reader and the day and time checks key on words: "remind",
"tomorrow", "address", "calendar". Typed fast, a request says "remnd me the evening
before", "a call with Marta tommorow 3pm", "whats the dentists adress", and every one of
those readers misses it: no reminder tool is shown, the day is unread, and the model
writes a wrong day that nothing can check. ``read_request`` corrects those words only
(``botpsy.spelling.Speller`` over ``VOCABULARY``: one edit, two for words of eight
letters or more, same first letter, no word of its own in the six languages), and
leaves alone what the user chose to write: names (a capitalised word that does not open
a sentence), quoted text ("add 'Piranesi' to ...") and the words of a path, a file name,
an address or a link ("make a file personal/gift_budget.txt" was read as
"person/gift_budget.txt", and the file was written in a folder nobody named).

After changing the vocabulary (the selector's synonyms and action words), rebuild the
known-words file (pyspellchecker is in the ``dev`` extra)::

    python -m botpsy.agent.spelling
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from botpsy.agent.corrections import self_corrected
from botpsy.agent.selection import ACTION_WORDS, DEFAULT_SYNONYMS, LOOK_VERBS, QUOTED
from botpsy.language import MONTHS, RELATIVE_DAYS, WEEKDAYS, full_names
from botpsy.spelling import Correction, Speller

KNOWN_WORDS_FILE = Path(__file__).with_name("spelling_known_words.txt")
# The words of times and of the items a request names, beside the selector's own.
_TIME_WORDS = (*RELATIVE_DAYS["en"], "weekend", "morning", "afternoon",
               "evening", "noon", "midnight", "minutes", "hours", "week", "month", "next",
               "before", "after", "until", "every", "calendar", "reminder", "reminders",
               "meeting", "appointment", "contact", "contacts", "email", "emails", "address",
               "number", "phone", "birthday", "note", "notes", "file", "files", "message",
               "please", "schedule", "what", "when", "where", "which",
               # what bills are for: they arrive by mail and are asked about misspelt
               "electricity", "internet", "insurance")
# Short forms people type for the words the readers key on ("who's in the review tmrw?"),
# and misspellings that are words of their own: the speller cannot reach them.
SHORTHAND = {"tmrw": "tomorrow", "tmr": "tomorrow", "tmrow": "tomorrow", "tomoz": "tomorrow",
             "2moro": "tomorrow", "2day": "today", "tdy": "today", "tonite": "tonight",
             "msg": "message", "msgs": "messages", "appt": "appointment",
             "appts": "appointments", "mtg": "meeting", "mtgs": "meetings", "bday": "birthday",
             "b-day": "birthday", "addr": "address",
             # a misspelling that is a word of its own (a press for cloth), which the
             # speller leaves alone: "put yoga on my calender" made a reminder
             "calender": "calendar", "calenders": "calendars"}
_SHORT = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, SHORTHAND)) + r")(?![\w-])",
                    re.IGNORECASE)
_WORD = re.compile(r"[a-z]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+)$")
# A token that is a path, a file name, an address or a link: a slash, an at sign, or a dot
# between two word characters ("notes/todo.md", "ines@example.org", "budget.txt")
_NAMED_THING = re.compile(r"[/\\@]|\w\.\w")


def _vocabulary() -> frozenset[str]:
    phrases = [*DEFAULT_SYNONYMS, *ACTION_WORDS, *(w for ws in ACTION_WORDS.values() for w in ws),
               *LOOK_VERBS, *_TIME_WORDS, *full_names(WEEKDAYS), *full_names(MONTHS)]
    return frozenset(w for p in phrases for w in _WORD.findall(p.lower()) if len(w) >= 4)


VOCABULARY = _vocabulary()


@cache
def speller() -> Speller:
    """The request speller over ``VOCABULARY``."""
    return Speller(VOCABULARY, KNOWN_WORDS_FILE, long_word=8,
                   source="python -m botpsy.agent.spelling")


def _chosen(text: str, fix: Correction, quoted: list[range]) -> bool:
    """Whether the word at ``fix`` is the user's choice, not a slip to correct: a name
    (capitalised, not opening a sentence), a word inside quotes, or a part of a path,
    file name, address or link."""
    if any(fix.start in span for span in quoted):
        return True
    if _NAMED_THING.search(_token(text, fix.start, fix.end)):
        return True
    return text[fix.start].isupper() and not _SENTENCE_START.search(text[:fix.start])


def _token(text: str, start: int, end: int) -> str:
    """The whitespace-delimited token that holds ``text[start:end]``."""
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end]


def read_request(text: str) -> str:
    """``text`` with its misspelt key words read as meant, and a time the user corrected
    at its end in place of the one corrected (``agent.corrections``); unchanged when it
    has neither."""
    return self_corrected(_spelled(text))


def _spelled(text: str) -> str:
    """``text`` with its misspelt key words read as meant (unchanged when it has none)."""
    quoted = [range(m.start(), m.end()) for m in QUOTED.finditer(text)]
    found = [fix for fix in speller().corrections(text) if not _chosen(text, fix, quoted)]
    short = [Correction(m.start(), m.end(), SHORTHAND[m.group().lower()])
             for m in _SHORT.finditer(text) if not any(m.start() in span for span in quoted)]
    found = sorted([*found, *(s for s in short if all(s.start != f.start for f in found))],
                   key=lambda fix: fix.start)
    reading = speller().reading(text, found) if found else None
    return reading.text if reading else text


if __name__ == "__main__":
    print(f"{KNOWN_WORDS_FILE}: {speller().write_known_words()} words")
