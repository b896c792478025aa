"""Titles that say only when: "Monday" as the title of a call with the bank.

Asked to "schedule a call with the bank on Monday from 9:00 to 9:30", the 135M default
model stores an event titled "Monday" on the right day, at all four times of day
(everyday requests, docs/assistant/default-model). The day check passes it, as it
should: the day is right. ``TitleCheck`` refuses a call of an act tool whose ``title``
or ``text`` holds no word beyond days, times and numbers, and narrows the retry to a
value that contains one of the request's own words (``agent.checks.Refusal``), so the
grammar-constrained retry writes "call with the bank" instead of "Monday" again.

It judges nothing else about a title: "Shopping list" for "note down milk and eggs" is
the model's wording, not a made-up one, and passes.
"""

from __future__ import annotations

import re

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import acts_on_items, user_text
from botpsy.agent.selection import STOPWORDS, stem_words
from botpsy.types import Message, ToolCall

TITLE_ARGUMENTS = ("title", "text")
_WHEN = (
    "monday tuesday wednesday thursday friday saturday sunday today tonight tomorrow "
    "yesterday morning afternoon evening night noon midnight am pm next this week weekend "
    "day month year hour minute january february march april may june july august "
    "september october november december at on from to until"
)
WHEN_STEMS = frozenset(stem_words(_WHEN))
_WORD = re.compile(r"[^\W\d_]{3,}")
MAX_WORDS_IN_PATTERN = 8


def what_words(text: str) -> set[str]:
    """The stems of ``text`` that say what, not when: days, times and numbers aside."""
    return {w for w in stem_words(text) if w not in WHEN_STEMS and not any(c.isdigit() for c in w)}


def request_words(text: str) -> list[str]:
    """The user's own words that say what (as written, first use first), for the pattern."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text):
        lower = word.lower()
        if lower not in STOPWORDS and what_words(lower):
            seen.setdefault(lower, None)
    return list(seen)[:MAX_WORDS_IN_PATTERN]


def title_pattern(words: list[str]) -> str:
    """A JSON-schema ``pattern``: any text holding one of ``words`` (lower or capitalised);
    no quote or backslash, which would end or escape the JSON string under a grammar."""
    options = sorted({form for w in words for form in (w, w[:1].upper() + w[1:])})
    return '^[^"\\\\]*(' + "|".join(re.escape(o) for o in options) + ')[^"\\\\]*$'


class TitleCheck:
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring."""

    def __call__(self, call: ToolCall, messages: list[Message]) -> Refusal | None:
        if not acts_on_items(call.name):
            return None
        for arg in TITLE_ARGUMENTS:
            value = call.arguments.get(arg)
            if not isinstance(value, str) or not value.strip() or what_words(value):
                continue
            words = request_words(user_text(messages))
            if not words:
                return None  # the request says nothing but when: nothing better to ask for
            return Refusal(
                f"{arg} {value!r} says only when, not what; use the request's own words "
                f"(e.g. {' '.join(words[:4])!r})",
                {arg: {"pattern": title_pattern(words)}},
            )
        return None
