"""The file a request names by its name: "add 'call the bank' to the bottom of todo.md".

Asked that, the 135M default model wrote ``append_to_file(path="call the bank")``: the
text where the file goes. A request that names one file by its name (a word with an
extension, not an address or a link) fixes the ``path`` of the file tools that act on
an existing one (not ``write_file``: "summarize notes.txt into a new file" names the
file read, not the one written): ``PathCheck`` holds it to that name, or to the path of a shown file of that name,
before the call (``agent.checks.Anticipating``), and refuses a call that names another.

A new file the request places ("make a file personal/gift_budget.txt", "a file called
books.txt in personal") fixes ``write_file``'s path the same way: the 135M model wrote
"person/gift_budget.txt" and "books.txt", a file nobody asked for in a folder nobody
named (``new_file``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.intent import APPEND_VERB
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import creates, name_family
from botpsy.extract import file_names, file_word, same_file_name, values
from botpsy.types import ToolSpec

# Where a request names the file it makes: "a file personal/x.txt", "called x.txt", "save
# it as x.txt", "into x.txt" (not "Read work/vendor_call.md": a file read, not written)
_MADE = r"\b(?:file|called|named|as|into)\s+"
# "make a file personal/gift_budget.txt": a file name with its folders
_FOLDERED = re.compile(_MADE + r"((?:[\w-]+/)+[\w-]+\.[A-Za-z][A-Za-z0-9]{1,3})(?![\w@/-]|\.\w)",
                       re.IGNORECASE)
# "a file called books.txt in personal", "as notes.md in the work folder": a file name, then
# its folder
_IN_FOLDER = re.compile(_MADE + r"(?P<name>[\w-]+\.[A-Za-z][A-Za-z0-9]{1,3})\s+(?:in|into|under)\s+"
                        r"(?:the\s+|my\s+)?(?P<folder>[\w-]+)(?:\s+folder)?\b", re.IGNORECASE)
# "that says: ...", "saying: ...", "with the text: ...", "containing: ...": what a new file holds,
# word for word, after the colon
_DICTATED = re.compile(r"\b(?:says?|saying|reads?|containing|contains|with(?:\s+the\s+(?:text|words|"
                       r"lines?))?)\s*:\s*(?P<content>\S.*?)\s*$", re.IGNORECASE | re.DOTALL)
# A request that asks for a file of its own: "a new file", "into a file", "a file called x"
_NEW_FILE = re.compile(r"\b(?:new|another|separate|second|an?)\s+(?:[\w-]+\s+)?file\b"
                       r"|\bfile\s+(?:called|named)\b", re.IGNORECASE)
# A request that opens by adding something to somewhere: "add the titles from my note to
# notes/todo.md", "stick 'book flights' onto my todo file"
_ADDS_TO = re.compile(r"^\W*(?:please\s+)?(?:add|append|stick|put|include)\b[^.?!]*?\b(?:to|onto)\s",
                      re.IGNORECASE)
# Words after "in" that name no folder of the files area
_NO_FOLDER = frozenset({"files", "file", "folder", "folders", "it", "there", "here", "a", "an"})


def new_file(request: str) -> str | None:
    """The one path a request places a file at, with its folder ("make a file
    personal/gift_budget.txt", "a file called books.txt in personal"), or None: also
    when the request names another file as well."""
    found = set(_FOLDERED.findall(request))
    found |= {f"{m.group('folder')}/{m.group('name')}" for m in _IN_FOLDER.finditer(request)
              if m.group("folder").lower() not in _NO_FOLDER}
    names = {posixpath.basename(p) for p in found} | set(named_files(request))
    # "summarize work/report.txt into summary.txt": the file read, beside the one written
    return found.pop() if len(found) == 1 and len(names) == 1 else None


def dictated_content(request: str) -> str | None:
    """What a request dictates a new file to hold, after a colon, or None."""
    match = _DICTATED.search(request)
    return match.group("content") if match else None


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def named_files(request: str) -> list[str]:
    """The file names a request writes, in order ("todo.md"), without web addresses."""
    return list(values(file_names(request)))


class PathCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (None for a tool it does not know)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None]):
        self._spec_of = spec_of

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        placed = _placed(context)
        allowed = [placed] if placed is not None else _allowed(context)
        held = {"path": {"enum": allowed}} if allowed else {}
        if placed is not None and (content := _content(context)) is not None:
            held["content"] = {"enum": [content]}
        return held

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        """A file the request names by words ("add umbrella to my packing list file"), to
        change or add to, with none of that name shown yet: the files are looked up first
        (``agent.checks.Prerequisite``). Why: the 135M model wrote the path
        "your_packing_list" and the call failed, as no file has that name."""
        spec = context.tool
        properties = (spec.parameters or {}).get("properties") or {}
        if (name_family(spec.name) != "file" or "path" not in properties
                or spec.name.startswith("list") or creates(spec.name)
                or (spec.name.startswith("write") and _NEW_FILE.search(context.request))):
            return ()
        word = file_word(context.request)
        if word is None:
            return ()
        shown = shown_paths(context)
        return () if any(same_file_name(word, _stem(p)) for p in shown) else ("file",)

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        spec = context.spec or self._spec_of(call.name)
        placed = _placed(context, spec) if spec is not None else None
        written = call.arguments.get("path")
        if placed is not None and (not isinstance(written, str)
                                   or written.strip().strip("/") != placed):
            return Refusal(f"path {written!r} is not where the request puts the file: {placed}",
                           {"path": {"enum": [placed]}})
        if placed is not None and (content := _content(context, spec)) is not None:
            held = call.arguments.get("content")
            missing = set(_words(content)) - set(_words(held if isinstance(held, str) else ""))
            if missing:
                return Refusal(f"content leaves out what the request dictates ({', '.join(sorted(missing))}): "
                               f"write {content!r}", {"content": {"enum": [content]}})
        if placed is None and (other := _other_file(context, spec, written,
                                                           self._spec_of)) is not None:
            return other
        if (over := _written_over(context, spec, written, self._spec_of)) is not None:
            return over
        allowed = _allowed(context, spec) if spec is not None else []
        if not allowed or (isinstance(written, str)
                           and posixpath.basename(written.strip("/")) in _names(allowed)):
            return None  # the file's own name, in whatever folder the tool finds it
        return Refusal(f"path {written!r} is not the file the request names: "
                       f"{' or '.join(allowed)}", {"path": {"enum": allowed}})


def _other_file(context: CallContext, spec: ToolSpec | None, written: object,
                spec_of: Callable[[str], ToolSpec | None]) -> Refusal | None:
    """A ``write_file`` of a file the request never named, where it names one file by
    its name and asks for no new one ("stick 'book flights' at the bottom of my todo.md"):
    the 135M model wrote a new file called "book flights". The named file is one to add
    to, which the refusal says; held to that name, the write would replace its lines."""
    if spec is None or name_family(spec.name) != "file" or not spec.name.startswith("write"):
        return None
    names = named_files(context.request)
    if len(names) != 1 or _NEW_FILE.search(context.request) or not isinstance(written, str):
        return None
    if posixpath.basename(written.strip().strip("/")) == names[0]:
        return None
    adder = _adder(spec)
    hint = f"; {adder} adds to it" if spec_of(adder) is not None else ""
    return Refusal(f"path {written!r} is a new file the request never asked for: it names "
                   f"{names[0]}, a file to add to or change{hint}")


def _written_over(context: CallContext, spec: ToolSpec | None, written: object,
                  spec_of: Callable[[str], ToolSpec | None]) -> Refusal | None:
    """A ``write_file`` over a file a lookup showed, where the request asks to add to it
    ("add the titles from my books-to-read note to notes/todo.md as open items"): the
    135M model replaced the to-do file with the titles, and its lines were gone. Adding
    is the tool that adds; the refusal sends the retry there (``Refusal.instead``)."""
    if spec is None or name_family(spec.name) != "file" or not spec.name.startswith("write"):
        return None
    if not isinstance(written, str) or not _ADDS_TO.match(context.request):
        return None
    path = written.strip().strip("/")
    shown = shown_paths(context)
    if (path not in shown and path not in context.request
            and posixpath.basename(path) not in named_files(context.request)):
        return None  # a new file: nothing to write over
    adder = _adder(spec)
    if spec_of(adder) is None:
        return None
    return Refusal(f"the request adds to {path}; writing it would replace its lines: "
                   f"{adder} adds to it", instead=(adder,))


def shown_paths(context: CallContext) -> list[str]:
    """The paths of the files the conversation's tool results showed, in order."""
    return [obj["path"] for family, obj in context.objects
            if family == "file" and isinstance(obj.get("path"), str)]


def _adder(spec: ToolSpec) -> str:
    """The tool that adds to an item of ``spec``'s family ("append_to_file")."""
    return f"{APPEND_VERB}_to_{name_family(spec.name)}"


def _placed(context: CallContext, spec: ToolSpec | None = None) -> str | None:
    """The path a call of ``write_file`` (``spec``, by default the context's) must write:
    the one the request places a new file at (``new_file``), or None."""
    spec = spec or context.spec
    if spec is None or name_family(spec.name) != "file" or not spec.name.startswith("write"):
        return None
    if "path" not in ((spec.parameters or {}).get("properties") or {}):
        return None
    return new_file(context.request)


def _content(context: CallContext, spec: ToolSpec | None = None) -> str | None:
    """The content a ``write_file`` call must hold: the words the request dictates, where
    the tool takes a content (``dictated_content``)."""
    spec = spec or context.spec
    if spec is None or "content" not in ((spec.parameters or {}).get("properties") or {}):
        return None
    return dictated_content(context.request)


def _names(paths: list[str]) -> set[str]:
    return {posixpath.basename(p) for p in paths}


def _allowed(context: CallContext, spec: ToolSpec | None = None) -> list[str]:
    """The paths a call of a file tool (``spec``, by default the context's) may write: the
    one file the request names, as written and as the paths of shown files of that name
    (or, named by a word, "my todo file", the shown files of that name).
    None for other tools, for a request that names no file or several, and for a tool
    that lists a folder."""
    spec = spec or context.spec
    if spec is None:
        return []
    properties = (spec.parameters or {}).get("properties") or {}
    if (name_family(spec.name) != "file" or "path" not in properties
            or spec.name.startswith(("list", "write")) or creates(spec.name)):
        return []  # a folder, or a file the call may make under a name of its own
    names = named_files(context.request)
    paths = shown_paths(context)
    if not names and (word := file_word(context.request)):
        # "my todo file": the shown files of that name, whatever their extension
        return sorted({p for p in paths if same_file_name(word, _stem(p))})
    if len(names) != 1:
        return []
    shown = {p for p in paths if posixpath.basename(p) == names[0]}
    return sorted(shown) or names


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0].casefold()
