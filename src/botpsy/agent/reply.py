"""What a person reads after a turn: each call's outcome in words, and the reply.

A tool returns data for the model (compact JSON); a person should read "Added a
reminder: call Anna, Mon 7 Dec at 09:00.", not that JSON. ``ReplyWriter`` turns
each step of a turn into words with the ``ToolWords`` registered for its tool
(``botpsy.assistant.describe`` for the assistant's own tools; a plain rendering of
the values for any other tool), says a failure as a sentence, and decides whether
the model's own final text may stand.

The model's text is kept when it is a good reply (``ReplyWriter.good``):

- prose: no JSON, no call syntax, no echo of a tool result;
- after calls that all ran and worked (a failure is said by the agent, in words);
- grounded: it shares a word with what the results say, or, when they found
  nothing, it says so ("no", "none", "nothing", ...);
- and every number it states is in the request, the calls' arguments, the results'
  text or their descriptions (a made-up time or date fails this).

Otherwise the answer is the calls' descriptions. Blocked, denied and pending calls
are not described here: the loop adds their notices either way (``compose_final``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from pydantic_core import to_jsonable_python

from botpsy.agent.intent import MESSAGE_TOOLS, dictated, is_lookup, latest_request
from botpsy.agent.run_events import AgentStep, failed
from botpsy.agent.selection import CHANGE_NOTHING
from botpsy.answers import json_echo, tool_values
from botpsy.safety.audit import AuditDecision
from botpsy.tools import ToolErrorKind
from botpsy.types import Message

MAX_LINES = 8  # list lines shown before "...and N more."
MAX_DETAIL_CHARS = 240  # an error's detail, in a sentence


@dataclass(frozen=True)
class ToolOutcome:
    """What a describer reads: the call, the tool's return value as JSON data (dicts,
    lists, strings: the same whether the result is fresh or was stored as JSON), and
    the current moment in the user's time zone."""

    name: str
    arguments: dict[str, Any]
    data: Any
    now: datetime
    max_lines: int = MAX_LINES


Describer = Callable[[ToolOutcome], str]


@dataclass(frozen=True)
class ToolWords:
    """How one tool's outcome is said: ``describe`` for a result, ``action`` (a verb
    phrase, "add the reminder") for "I could not add the reminder: ..."."""

    describe: Describer
    action: str


def listing(header: str, lines: Sequence[str], max_lines: int = MAX_LINES,
            left_out: int = 0) -> str:
    """``header: line.`` for one line; otherwise the header and one short line per item,
    cut after ``max_lines`` with a count of what was left out (plus ``left_out`` items
    the tool itself did not return)."""
    shown = list(lines[:max_lines])
    more = len(lines) - len(shown) + left_out
    if len(shown) == 1 and not more:
        return f"{header}: {sentence(shown[0])}"
    text = f"{header}:\n" + "\n".join(f"- {line}" for line in shown)
    return text + (f"\n\u2026and {more} more." if more else "")


def sentence(text: str) -> str:
    """``text`` ending with a full stop (unless it ends with other punctuation)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?\u2026:" else text + "."


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def as_data(result_data: Any, content: str) -> Any:
    """A result's value as JSON data; from its text when the value was not kept."""
    if result_data is not None:
        return to_jsonable_python(result_data, fallback=str)
    try:
        return json.loads(content)
    except ValueError:
        return content


def _plain(value: Any) -> str:
    """A value on one line for people: ``key: value`` pairs, lists joined by commas."""
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items() if v not in (None, "", []))
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value)
    return str(value)


def describe_any(outcome: ToolOutcome) -> str:
    """The words for a tool without a describer: its text, or its values, never JSON."""
    data, name = outcome.data, outcome.name
    if data in (None, "", [], {}):
        return f"{name} found nothing." if name.startswith(("list", "search", "find", "get")) \
            else f"Done ({name})."
    if isinstance(data, list):
        return listing(f"{name}, {plural(len(data), 'result')}",
                       [_plain(item) for item in data], outcome.max_lines)
    return sentence(f"{name}: {_plain(data)}" if isinstance(data, dict) else str(data))


# -- times for people -------------------------------------------------------------------------
def local(text: str | None, now: datetime) -> datetime | None:
    """An ISO time from a tool in the user's zone (a time without an offset is local)."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=now.tzinfo)).astimezone(now.tzinfo)


def day_name(day: date, now: datetime, relative: bool = True) -> str:
    """"today", "tomorrow", "yesterday" (when ``relative``), else "Mon 7 Dec" (the year
    only when it is not this one)."""
    offset = (day - now.date()).days
    if relative and offset in (-1, 0, 1):
        return ("yesterday", "today", "tomorrow")[offset + 1]
    text = f"{day:%a} {day.day} {day:%b}"
    return text if day.year == now.year else f"{text} {day.year}"


def at(text: str | None, now: datetime, relative: bool = False) -> str:
    """"Mon 7 Dec at 09:00" ("tomorrow at 09:00" when ``relative``)."""
    moment = local(text, now)
    return "" if moment is None else f"{day_name(moment.date(), now, relative)} at {moment:%H:%M}"


# -- failures as sentences -----------------------------------------------------------------
_ISO_MOMENT = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:\d{2})?")


def _detail(step: AgentStep, now: datetime) -> str:
    """A failed call's error as a clause for a person, built from the step's fields (its
    ``error_kind`` and ``detail``: the tool's or the rule's words without the hint meant
    for the model), never by reading the model's error text; times local."""
    result = step.result
    kind = step.error_kind or (result.error_kind if result is not None else None)
    text = step.detail or ((result.detail or result.error) if result is not None
                           else step.reason) or ""
    text = _ISO_MOMENT.sub(lambda m: at(m.group(), now) or m.group(), text.strip())
    if kind is ToolErrorKind.invalid_arguments:
        what = re.sub(r"\s*\([^()]*\)", "", text)  # schema notes: not for people
        text = f"the model's call was incomplete or wrong ({what.rstrip('.')})"
    elif kind is ToolErrorKind.unknown_tool:
        text = "the model asked for a tool that does not exist"
    if "{" in text or "Traceback" in text:
        text = "the tool failed"
    return _clipped(text).rstrip(".")


def _clipped(text: str) -> str:
    """``text`` on one line, cut to ``MAX_DETAIL_CHARS`` with an ellipsis."""
    text = " ".join(text.split())
    if len(text) > MAX_DETAIL_CHARS:
        text = text[: MAX_DETAIL_CHARS - 1].rstrip() + "\u2026"
    return text


def _unsent(step: AgentStep) -> str:
    """The words of a message a failed call would have sent or drafted, as a sentence after
    the error, so the user loses none of them ("write Priya that I'm late, don't send it,
    just show me the text": the send is refused and the text is the answer). Only in a
    turn with no untrusted data: a message built from a stranger's mail is not repeated."""
    body = step.call.arguments.get("body")
    if step.call.name not in MESSAGE_TOOLS or step.taint.tainted or not isinstance(body, str):
        return ""
    body = _clipped(body)
    return f" The message: \u201c{body}\u201d" if body else ""


def _kept_in_chat(steps: Sequence[AgentStep], request: str) -> str:
    """The message a request dictates and keeps in the chat ("write me a quick msg for my
    landlord that someone will be home tuesday morning. just show it here, don't send or
    save anything"), in the user's words, where no call ran or showed it: the model tried
    to save it as a file, which was refused, and the answer held no message at all."""
    if not CHANGE_NOTHING.search(request) or any(_ran(s) and s.writes for s in steps):
        return ""
    if any(_unsent(s) for s in steps if failed(s)):
        return ""  # a refused message's words are shown with its error
    said = dictated(request)
    return f"The message, kept here: \u201c{said.body}\u201d" if said else ""


# -- is the model's reply good? --------------------------------------------------------------
_RAW = re.compile(r"[{\[]\s*\"|\"\s*:|->|</?tool_(?:call|response)>")
_WORD = re.compile(r"[^\W\d_]{4,}")
_NUMBER = re.compile(r"\d+")
_NEGATIVE = re.compile(r"\b(?:no|none|nothing|empty|not|free|any|zero)\b|n't\b", re.IGNORECASE)
_STOP = frozenset((
    "about", "after", "again", "also", "been", "before", "being", "from", "have", "here",
    "into", "just", "more", "most", "only", "other", "over", "same", "some", "such", "than",
    "that", "their", "them", "then", "there", "these", "they", "this", "those", "very",
    "were", "what", "when", "where", "which", "while", "will", "with", "your", "yours"))
_ISO_HOUR = re.compile(r"T(\d{2}):\d{2}")


def _numbers(text: str) -> set[int]:
    found = {int(n) for n in _NUMBER.findall(text)}
    found |= {int(h) % 12 or 12 for h in _ISO_HOUR.findall(text)}  # 15:00 may be said "3pm"
    return found


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _STOP


def _ran(step: AgentStep) -> bool:
    return (step.decision in (AuditDecision.executed, AuditDecision.confirmed)
            and step.result is not None and step.result.ok)


class ReplyWriter:
    """Says the outcome of a turn's calls in words, for people (see the module doc).

    ``words`` maps tool names to their ``ToolWords``; ``clock`` gives the current moment
    in the user's time zone (default: this machine's)."""

    def __init__(self, words: Mapping[str, ToolWords] | None = None, *,
                 clock: Callable[[], datetime] | None = None, max_lines: int = MAX_LINES):
        self.words = dict(words or {})
        self.clock = clock or (lambda: datetime.now().astimezone())
        self.max_lines = max_lines

    def describe(self, step: AgentStep) -> str:
        """One step in words: its result when it ran, the error sentence when it failed,
        "" for a blocked, denied or pending call (their notices speak for them)."""
        if failed(step):
            return self.error(step)
        if not _ran(step):
            return ""
        result = step.result
        outcome = ToolOutcome(step.call.name, dict(step.call.arguments),
                              as_data(result.data, result.content), self.clock(), self.max_lines)
        words = self.words.get(step.call.name)
        if words is not None:
            try:
                return words.describe(outcome)
            except (KeyError, TypeError, ValueError, AttributeError):
                pass  # data of another shape (a tool changed): say it plainly instead
        return describe_any(outcome)

    def action(self, name: str) -> str:
        words = self.words.get(name)
        return words.action if words is not None else f"run {name}"

    def error(self, step: AgentStep) -> str:
        """A failed call as a sentence: what could not be done, and why; a message that
        did not go out is shown (``_unsent``)."""
        detail = _detail(step, self.clock())
        return sentence(f"I could not {self.action(step.call.name)}"
                        + (f": {detail}" if detail else "")) + _unsent(step)

    def report(self, steps: Sequence[AgentStep], messages: Sequence[Message] = ()) -> str:
        """The turn's answer from its calls: what each call that worked gave, and each
        failure that no later call of the same tool (or of the one its refusal named
        instead) made good. Once a change was made, the
        lookups that led to it are left out unless the request asked to be shown something
        (``intent.is_lookup``): after "Remind me to call Anna" a person wants to read the
        reminder, not that the list of reminders was empty."""
        parts: list[str] = []
        changed = any(_ran(s) and s.writes for s in steps) and \
            not is_lookup(latest_request(list(messages)))
        for index, step in enumerate(steps):
            later = steps[index + 1:]
            if not _ran(step) and any(_ran(s) and (s.call.name == step.call.name
                                                   or s.call.name in step.instead) for s in later):
                continue  # the retry worked, or the tool its refusal named instead
            if changed and _ran(step) and not step.writes:
                continue
            text = self.describe(step)
            if text and text not in parts:
                parts.append(text)
        kept = _kept_in_chat(steps, latest_request(list(messages)))
        return "\n\n".join([*parts, kept] if kept else parts)

    def reply(self, text: str, steps: Sequence[AgentStep], messages: Sequence[Message] = ()) -> str:
        """The model's ``text`` when it is a good reply to the turn's calls, else the
        agent's own report of them (text alone when the turn made no call)."""
        if not steps:
            return text
        if self.good(text, steps, latest_request(list(messages))):
            return text
        return self.report(steps, messages)

    def good(self, text: str, steps: Sequence[AgentStep], request: str = "") -> bool:
        """Whether the model's text can stand as the answer (see the module doc)."""
        body = text.strip()
        if not body or json_echo(body) or _RAW.search(body):
            return False
        if any(f"{s.call.name}(" in body for s in steps) or any(failed(s) for s in steps):
            return False
        ran = [s for s in steps if _ran(s)]
        if not ran:
            return False
        outputs = [json.dumps(as_data(s.result.data, s.result.content)) for s in ran]
        values = [v for v in tool_values(outputs) if not v.isdigit()]  # ids say nothing
        described = " ".join(self.describe(s) for s in ran)
        if values:  # a word of the results themselves: the descriptions' own words are generic
            if not _words(body) & _words(" ".join(values)):
                return False
        elif not _NEGATIVE.search(body):
            return False
        arguments = " ".join(json.dumps(s.call.arguments) for s in steps)
        allowed = _numbers(" ".join([request, arguments, described, *values]))
        return _numbers(body) <= allowed
