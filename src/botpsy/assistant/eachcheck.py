"""A new item for each entry of a list the request names.

"look at my todo file and make a reminder for each thing that's not ticked yet, tomorrow
9am" asks for as many reminders as the file has open entries, each with one entry's text.
A search shows a file by its name or one line, a note by a snippet: the entries are not in
view until the item is read, and the 135M model made one reminder with the request's own
words ("make a reminder for tomorrow 9am").

``EachCheck`` reads whether the request asks for an item per entry (``asks_each``) and of
what kind the list is (a file or a note), and:

- before the action, has the kind looked up (``agent.checks.Prerequisite``) and the
  listed item read in full (``agent.checks.Reading``): the shown file or note that shares
  the most words with the request;
- once it is read, holds each new item's text to the entries not made yet
  (``agent.checks.Anticipating``), and refuses a text that is none of them; before any
  lookup showed the list, refuses the item and sends the retry to the kind's finders (the
  request's own words are no entry: "ticked" was made a reminder);
- says how many items the request asks for (``agent.checks.Repeating``), so that the loop
  makes the next one until each entry has its own.

Entries are the list lines of the text ("- x", "* x", "1. x", "- [ ] x"); where it has
none, the parts of a one-line list ("milk, eggs, spinach"). Where the request asks only
for what is left ("not done yet", "not ticked", "open"), a ticked line ("- [x] ...") is
none.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from botpsy.agent.checks import ReadFirst, Refusal
from botpsy.agent.grounding import words
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import creates, name_family
from botpsy.assistant.carrycheck import READ_ARGUMENTS, SHOWN_TEXT
from botpsy.extract import file_names
from botpsy.tools.registry import finders_in_words
from botpsy.types import ToolSpec

# "a reminder for each thing", "one for every item", "for each of them"
_EACH = re.compile(r"\bfor\s+(?:each|every|all)\s+(?:one|thing|item|task|line|entry|point|"
                   r"todo|to-do|of\s+them|of\s+those)s?\b", re.IGNORECASE)
# "not done yet", "not ticked", "still open", "unchecked", "that's left"
_OPEN_ONLY = re.compile(r"\bnot\s+(?:yet\s+)?(?:done|ticked|checked|finished|completed|crossed)\b"
                        r"|\bstill\s+open\b|\bopen\s+(?:ones|items|entries|tasks|todos)\b"
                        r"|\bunchecked\b|\bunticked\b|\b(?:that's|that\s+is|still|what's)\s+left\b",
                        re.IGNORECASE)
# a list line: its marker, an optional checkbox, the entry
_LINE = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+(?:\[(?P<box>[ xX])\]\s*)?(?P<entry>\S.*?)\s*$")
_FILE_WORDS = re.compile(r"\b(?:file|csv|doc|document)\b", re.IGNORECASE)
_NOTE_WORDS = re.compile(r"\b(?:note|list)\b", re.IGNORECASE)
_TEXT_ARGUMENTS = ("text", "title")


def asks_each(request: str) -> bool:
    """Whether the request asks for a new item per entry of a list ("for each thing")."""
    return bool(_EACH.search(request))


def listed_family(request: str) -> str | None:
    """The kind the list is kept as: a file where the request says so or names one by its
    name, else a note ("my groceries note", "my packing list"), or None."""
    if _FILE_WORDS.search(request) or file_names(request):
        return "file"
    return "note" if _NOTE_WORDS.search(request) else None


def entries(text: str, open_only: bool) -> list[str]:
    """The entries of a list's text, each once, in order (see the module docstring)."""
    found = []
    for line in text.splitlines():
        match = _LINE.match(line)
        if match and not (open_only and (match.group("box") or " ") != " "):
            found.append(match.group("entry"))
    if not found and len(lines := [ln for ln in text.splitlines() if ln.strip()]) == 1:
        found = [part.strip() for part in lines[0].split(",") if part.strip()]
    return list(dict.fromkeys(found))


def _text_argument(spec: ToolSpec) -> str | None:
    properties = (spec.parameters or {}).get("properties") or {}
    return next((a for a in _TEXT_ARGUMENTS if a in properties), None)


class EachCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (None for a tool it does not know)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None],
                 finders: Callable[[str], list[str]] = lambda family: []):
        """``finders`` gives the look tools that list or search a kind's items
        (``grounding.finders``): where a write refused before the list was found looks."""
        self._spec_of = spec_of
        self._finders = finders

    def _spec(self, context: CallContext) -> ToolSpec | None:
        return context.spec or self._spec_of(context.call.name)

    def _applies(self, spec: ToolSpec | None, request: str) -> str | None:
        """The kind of the list, where ``spec`` makes a new item with a text per entry."""
        if spec is None or not creates(spec.name) or _text_argument(spec) is None:
            return None
        family = listed_family(request) if asks_each(request) else None
        return family if family != name_family(spec.name) else None

    def _listed(self, context: CallContext, family: str) -> tuple[Any, str | None] | None:
        """The shown item of ``family`` that shares the most words with the request: the
        value that names it to its reading tool, and its text once read (else None)."""
        key, field = SHOWN_TEXT[family]
        wanted = words(context.request)
        best: tuple[int, Any] | None = None
        for kind, obj in context.objects:
            value = obj.get(key)
            label = obj.get("title") if family == "note" else (
                posixpath.basename(value) if isinstance(value, str) else None)
            if kind != family or value is None or not isinstance(label, str):
                continue
            score = len(words(re.sub(r"[_.-]+", " ", label)) & wanted)
            if score and (best is None or score > best[0]):
                best = (score, value)
        if best is None:
            return None
        text = next((obj[field] for kind, obj in context.objects if kind == family
                     and obj.get(key) == best[1] and isinstance(obj.get(field), str)), None)
        return best[1], text

    def listed_entries(self, context: CallContext) -> list[str] | None:
        """The entries the request asks an item for, once the list is read; else None."""
        family = self._applies(self._spec(context), context.request)
        listed = self._listed(context, family) if family else None
        if listed is None or listed[1] is None:
            return None
        return entries(listed[1], bool(_OPEN_ONLY.search(context.request))) or None

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        family = self._applies(context.tool, context.request)
        if family is None or any(kind == family for kind, _ in context.objects):
            return ()
        return (family,)

    def reads_first(self, context: CallContext) -> tuple[ReadFirst, ...]:
        family = self._applies(context.tool, context.request)
        listed = self._listed(context, family) if family else None
        if family is None or listed is None or listed[1] is not None:
            return ()
        return (ReadFirst(family, READ_ARGUMENTS[family], listed[0]),)

    def times(self, context: CallContext) -> int:
        """How many new items the request asks for: one per entry (0: no say)."""
        found = self.listed_entries(context)
        return len(found) if found else 0

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        left = self._left(context)
        arg = _text_argument(context.tool)
        return {arg: {"enum": left}} if left and arg else {}

    def judge(self, context: CallContext) -> Refusal | None:
        spec = self._spec(context)
        family = self._applies(spec, context.request)
        if family is not None and self._listed(context, family) is None:
            # an item per entry of a list not found yet would hold the request's own words
            named = tuple(self._finders(family)[:2])
            return Refusal(f"the request asks for an item per entry of a {family} that no "
                           f"lookup has shown yet: find that {family} first, or say it was "
                           f"not found", finders=named,
                           hint=finders_in_words(named, f"{family}s"))
        arg = _text_argument(spec) if spec is not None else None
        left = self._left(context) if arg else []
        written = context.call.arguments.get(arg) if arg else None
        if not left or not isinstance(written, str) or written.strip() in left:
            return None
        return Refusal(f"{arg} {written!r} is none of the entries the request asks an item "
                       f"for ({', '.join(repr(e) for e in left)})", {arg: {"enum": left}})

    def _left(self, context: CallContext) -> list[str]:
        """The entries no item of the call's kind shown in this conversation has yet."""
        found = self.listed_entries(context) or []
        family = name_family(context.call.name)
        made = [words(item.label) for item in context.shown if item.family == family]
        return [e for e in found if words(e) not in made]
