"""Grading the text answer an assistant gives after tool output.

``botpsy.rewards`` grades calls. After a tool has answered, the right next move is
usually text, and the call grader can only say "no call: 1". A model that answers
"Done!" after ``{"temperature": 20, "condition": "light rain"}`` gets the same
credit as one that relays the weather. This module closes that gap with a check
that needs no judge model:

- ``answer_facts``: the values of the tool output (JSON leaves: strings and numbers)
  that the reference answer repeats. They are what the user asked for: the
  reference ``"Bogota: light rain, 20 degrees."`` over
  ``{"city": "Bogota", "condition": "light rain", "temperature": 20}`` gives
  ``["Bogota", "light rain", "20"]``; a note's id the reference never says is not
  a fact.
- ``fact_recall``: the share of those facts that a candidate answer states, each
  matched case-insensitively as a whole phrase (``"20"`` is not found in ``"2025"``,
  ``"2025-03-20"``, ``"20.5"`` or ``"20:30"``);
- ``answer_score``: recall, less for an answer much longer than the reference, and 0
  for one that pastes the tool's JSON back: recall alone would pay both.

>>> facts = answer_facts("Bogota: light rain, 20 degrees.",
...                      ['{"city": "Bogota", "condition": "light rain", "temperature": 20}'])
>>> facts
['Bogota', 'light rain', '20']
>>> round(fact_recall("It is 20 degrees with light rain.", facts), 3)
0.667
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

# Leaves shorter than this are noise ("a", "1" would match nearly any answer).
_MIN_FACT_CHARS = 2


def _leaves(value: Any) -> Iterator[str]:
    """The strings and numbers inside a JSON value, as text (integral floats as ints)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, float) and value.is_integer():
        yield str(int(value))
    elif isinstance(value, (int, float, str)):
        yield str(value).strip()


def _pattern(fact: str) -> re.Pattern[str]:
    """``fact`` as a whole phrase: not inside a longer word, nor inside a number, a date or
    a time (no digit joined to it by ``.``, ``,``, ``:`` or ``-``)."""
    return re.compile(rf"(?<!\w)(?<!\d[.,:-]){re.escape(fact.lower())}(?!\w)(?![.,:-]\d)")


def mentions(text: str, fact: str) -> bool:
    """Does ``text`` state ``fact`` as a whole phrase (case-insensitive)?"""
    return _pattern(fact).search(text.lower()) is not None


def tool_values(outputs: Sequence[str]) -> list[str]:
    """The distinct JSON leaves of tool outputs, in order; non-JSON outputs give none
    (free text has no reliable unit of fact)."""
    values: list[str] = []
    for output in outputs:
        try:
            parsed = json.loads(output)
        except (TypeError, ValueError):
            continue
        for leaf in _leaves(parsed):
            if len(leaf) >= _MIN_FACT_CHARS and leaf not in values:
                values.append(leaf)
    return values


def answer_facts(reference: str, outputs: Sequence[str]) -> list[str]:
    """The tool-output values the reference answer states: what a good answer relays."""
    return [value for value in tool_values(outputs) if mentions(reference, value)]


def fact_recall(text: str, facts: Sequence[str]) -> float:
    """The share of ``facts`` that ``text`` states; 1.0 when there are none."""
    if not facts:
        return 1.0
    return sum(mentions(text, fact) for fact in facts) / len(facts)


def json_echo(text: str) -> bool:
    """Whether ``text`` is a JSON object or array (a tool result pasted back), not prose."""
    body = text.strip()
    if not body or body[0] not in "{[":
        return False
    try:
        json.loads(body)
    except ValueError:
        return False
    return True


# An answer may run this many times the reference's length before it loses credit.
_LENGTH_SLACK = 2.0


def answer_score(text: str, facts: Sequence[str], reference_chars: int) -> float:
    """Fact recall of a final answer, scaled down once it runs past ``_LENGTH_SLACK`` times
    the reference's length (``reference_chars``; 0: no limit), and 0 for a JSON echo."""
    body = text.strip()
    if json_echo(body):
        return 0.0
    recall = fact_recall(body, facts)
    if reference_chars <= 0 or len(body) <= _LENGTH_SLACK * reference_chars:
        return recall
    return recall * _LENGTH_SLACK * reference_chars / len(body)
