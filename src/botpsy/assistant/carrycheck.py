"""What a request asks a message or a new note to carry from a note or a file.

"send jamie my reading list from my notes", "Draft Mom an email with the gift ideas for
Dad from my notes", "Copy my Hamburg packing list from the files into a new note": the
135M default model found the note, then wrote the email's body "Partner" (Jamie's
contact card) or the new note's body "your note text". A search shows a note's title
and a snippet, a file's name and one line: the text to carry is not in view yet.

``CarryCheck`` reads which kind the request takes the text from (``source_families``:
notes or files), picks the item a search showed that the request names (the most of its
words in the item's title or path), and:

- before the action, asks for that item to be read in full (``agent.checks.Reading``);
- once it is read, holds the message's subject to the item's title and its body (or the
  new note's body) to the item's text (``agent.checks.Anticipating``), and refuses a
  call that leaves the text out;
- while no item a lookup showed is the one the request names, refuses the write and
  sends the retry to the kind's search (``finders``): asked to make "a new note 'shopping
  sat' with everything from the groceries note", the 135M model searched the notes for
  "shopping", found none, and wrote the body "the groceries note". A text it has not
  seen cannot be carried; a write of the request's own words is a junk item.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from botpsy.agent.checks import ReadFirst, Refusal
from botpsy.agent.grounding import words
from botpsy.agent.intent import APPEND_VERB, MESSAGE_TOOLS
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import SOURCE, creates, name_family, source_families
from botpsy.assistant.cellcheck import asked_cells
from botpsy.assistant.includecheck import text_argument
from botpsy.extract import file_names
from botpsy.tools.registry import finders_in_words
from botpsy.types import ToolSpec

# The kinds whose items hold a text worth carrying, and the argument that names one to
# its kind's reading tool.
READ_ARGUMENTS = {"note": "note_id", "file": "path"}
# Per kind, the field of a shown item that identifies it and the one that holds its text.
SHOWN_TEXT = {"note": ("id", "body"), "file": ("path", "content")}
# A text longer than this is not copied into a message by a grammar (a generation of
# its every token); the model writes the message itself.
MAX_CARRIED_CHARS = 1500
# "the p95 from the last week in latency_numbers.csv": a value inside the file the request
# names (a file name right after these words), not the file's whole text
_FROM_OR_IN = re.compile(r"\b(?:from|in)\s+$", re.IGNORECASE)


@dataclass(frozen=True)
class Carried:
    """The item a request takes its text from: its kind, the argument and value that
    name it to the kind's reading tool, its title, and its text once read (else None)."""

    family: str
    key: str
    value: Any
    title: str
    text: str | None


def carried_family(request: str) -> str | None:
    """The kind of item (note or file) whose whole text the request passes on, or None (a
    request that takes a value inside a file takes no whole text)."""
    families = [f for f in source_families(request) if f in READ_ARGUMENTS]
    return families[0] if families and not _value_in_file(request) else None


# "whats on the packing list for hamburg? make a note called hamburg with those things +
# umbrella": a question about what a list holds, then an item made "with those things"
_ASKS_LIST = re.compile(r"\bwhat(?:'s|\u2019s|s| is| are)?\s+(?:on|in)\s+(?:my|the|our)\s+"
                        r"(?:[\w'-]+\s+){0,3}?(?:list|note|file)\b[^?]*\?", re.IGNORECASE)
_REFERS_BACK = re.compile(r"\bwith\s+(?:all\s+)?(?:those|these|them|that|it)\b"
                          r"|\b(?:those|these)\s+(?:things|items)\b", re.IGNORECASE)


def carried_families(request: str) -> tuple[str, ...]:
    """The kinds whose item's whole text the request passes on: its source
    (``carried_family``), else, where it asks what a list holds and then makes something
    "with those things", both kinds a list may be kept as (the question's lookup found it)."""
    family = carried_family(request)
    if family is not None and SOURCE.search(request) is None:
        # a list named without its kind ("email mom my packing list for hamburg") may be
        # kept as a note or as a file: whichever a lookup showed
        return (family, *(f for f in READ_ARGUMENTS if f != family))
    if family is not None:
        return (family,)
    asks = _ASKS_LIST.search(request)
    if asks and _REFERS_BACK.search(request[asks.end():]):
        return tuple(READ_ARGUMENTS)
    return ()


def carried(context: CallContext) -> Carried | None:
    """The note or file whose text the latest request asks to carry, once a search of its
    kind showed it (None before, or when no item shown shares a word with the request)."""
    request = context.request
    families = carried_families(request)
    if not families or asked_cells(context) is not None:
        return None  # a value inside the file, not its whole text
    wanted = words(request)
    best: tuple[int, Carried] | None = None
    for kind, obj in context.objects:
        found = _item(kind, obj) if kind in families else None
        if found is None:
            continue
        score = len(words(found.title.replace("_", " ")) & wanted)
        if score and (best is None or score > best[0]):
            best = (score, found)
    if best is None:
        return None
    return _with_text(best[1], context)


def _value_in_file(request: str) -> bool:
    """Whether the request asks for something inside a file it names ("... from x.csv")."""
    return any(_FROM_OR_IN.search(request[:found.span[0]]) for found in file_names(request))


def _item(family: str, obj: dict) -> Carried | None:
    """A shown note (its id and title) or file (its path, the file's name as title)."""
    if family == "note" and isinstance(obj.get("id"), int) and isinstance(obj.get("title"), str):
        return Carried(family, READ_ARGUMENTS[family], obj["id"], obj["title"], None)
    if family == "file" and isinstance(obj.get("path"), str):
        name = posixpath.splitext(posixpath.basename(obj["path"]))[0]
        return Carried(family, READ_ARGUMENTS[family], obj["path"], name, None)
    return None


def _with_text(item: Carried, context: CallContext) -> Carried:
    """``item`` with its full text, when a read of it is in view and the text is whole
    and short enough to carry."""
    key, field = SHOWN_TEXT[item.family]
    for family, obj in context.objects:
        text = obj.get(field)
        if (family == item.family and obj.get(key) == item.value and isinstance(text, str)
                and text.strip() and not obj.get("truncated")
                and len(text) <= MAX_CARRIED_CHARS):
            return Carried(item.family, item.key, item.value, item.title, text.strip())
    return item


class CarryCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (None for a tool it does not know)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None],
                 finders: Callable[[str], list[str]] = lambda family: []):
        """``finders`` gives the look tools that list or search a kind's items
        (``grounding.finders``): where a refused write's retry looks."""
        self._spec_of = spec_of
        self._finders = finders

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        """The kind of item a message, note or file passes on, until a lookup showed one of
        that kind ("copy my books-to-read list into a file called books.txt": the notes;
        the 135M model listed a folder named after the new file) (``agent.checks.Prerequisite``)."""
        family = carried_family(context.request) if _carries(context.tool) else None
        kinds = carried_families(context.request)
        if family is None or any(kind in kinds for kind, _ in context.objects):
            return ()
        return kinds  # a list named without its kind: a note or a file

    def reads_first(self, context: CallContext) -> tuple[ReadFirst, ...]:
        spec = context.tool
        if not _carries(spec):
            return ()
        item = carried(context)
        if item is None or item.text is not None:
            return ()
        return (ReadFirst(item.family, item.key, item.value),)

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        spec = context.tool
        if not _carries(spec):
            return {}
        item = carried(context)
        if item is None or item.text is None:
            return {}
        properties = (spec.parameters or {}).get("properties") or {}
        text = _with_extra(item.text, context.request)
        held: dict[str, dict[str, Any]] = {_text_argument(spec) or "body": {"enum": [text]}}
        if spec.name in MESSAGE_TOOLS and "subject" in properties:
            held["subject"] = {"enum": [item.title]}
        return {arg: keywords for arg, keywords in held.items() if arg in properties}

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        spec = context.spec or self._spec_of(call.name)
        if spec is None or not _carries(spec):
            return None
        item = carried(context)
        arg = _text_argument(spec)
        if item is None and arg is not None:
            return self._unseen(context)
        if item is None or item.text is None or arg is None:
            return None
        written = call.arguments.get(arg)
        if isinstance(written, str) and _squeezed(item.text) in _squeezed(written):
            return None
        return Refusal(f"the request asks to pass on the text of {item.title!r}: write it "
                       f"into {arg}", {arg: {"enum": [item.text]}})

    def _unseen(self, context: CallContext) -> Refusal | None:
        """Why a write that passes on a note's or file's text runs before any lookup
        showed that item (see the module doc), or None."""
        kinds = carried_families(context.request)
        if carried_family(context.request) is None or asked_cells(context) is not None:
            return None
        # a list named without its kind may be a note or a file: the search of each
        named = tuple(f for kind in kinds for f in self._finders(kind)[:2 // len(kinds)])
        said = " or ".join(kinds)
        return Refusal(f"the request passes on the text of a {said} that no lookup has "
                       f"shown yet: find that {said} first, or say it was not found",
                       finders=named, hint=finders_in_words(named, f"{kinds[0]}s"))


def _carries(spec: ToolSpec) -> bool:
    """Whether ``spec`` sends a message, makes a note, writes a file or appends to one of
    them (what a text can be carried into: "export my books to read list into a file
    called books.txt")."""
    return _text_argument(spec) is not None


def _text_argument(spec: ToolSpec) -> str | None:
    """The argument a carried text goes into: a message's body, a new note's body, a
    written file's content, the text appended to a note or a file."""
    family = name_family(spec.name)
    if spec.name in MESSAGE_TOOLS or (creates(spec.name) and family == "note"):
        return text_argument(spec)
    properties = (spec.parameters or {}).get("properties") or {}
    if family == "file" and spec.name.startswith("write") and "content" in properties:
        return "content"
    # an append carries it too ("copy the stuff from my groceries note into todo.md"): the
    # 135M model appended the note's first two words
    if family in READ_ARGUMENTS and spec.name.startswith(APPEND_VERB) and "text" in properties:
        return "text"
    return None


# "... with everything from the groceries note plus birthday candles", "+ umbrella": a
# thing the request adds to the text it carries
_EXTRA = re.compile(r"(?:\bplus\b|\+|\band also\b)\s+(?P<extra>[^,.;+]+?)\s*[.!]?$", re.IGNORECASE)


def _with_extra(text: str, request: str) -> str:
    """The carried text and what the request adds after it, as a line of its own."""
    extra = _EXTRA.search(request)
    return f"{text}\n{extra.group('extra').strip()}" if extra else text


def _squeezed(text: str) -> str:
    return " ".join(text.casefold().split())
