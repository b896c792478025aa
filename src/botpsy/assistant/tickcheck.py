"""A line ticked off in a to-do file: "tick off slides for dan in todo.md".

No file tool ticks a line: a check box in a file is ticked by writing the file again with
that one line changed. Asked so, the 135M default model completed the reminder "Add
latency slide for Dan" instead, a change in another store to an item nobody named.

``TickCheck`` reads which lines the request ticks off (``extract.ticked_lines``) and,
for the tool that writes a file:

- before the call, asks for the file to be found (``agent.checks.Prerequisite``) and read
  in full (``agent.checks.Reading``);
- once it is read, holds the path to it and the content to its text with those lines'
  boxes ticked, and nothing else changed (``agent.checks.Anticipating``), and refuses a
  write that differs.

It has no say where the lines are not all open boxes of the file, one each, or the file
was cut short when read: a whole file is not rewritten from part of it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from botpsy.agent.checks import ReadFirst, Refusal
from botpsy.agent.grounding import words
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import name_family
from botpsy.assistant.pathcheck import named_files
from botpsy.extract import file_word, same_file_name, ticked_lines
from botpsy.types import ToolSpec

# an open check box of a Markdown list: "- [ ] slides for Dan", "* [ ] milk"
_OPEN_BOX = re.compile(r"^(?P<lead>\s*[-*+]\s*\[) (?P<rest>\]\s*(?P<text>.*))$")


def ticked(content: str, items: list[str]) -> str | None:
    """``content`` with the open box of the line each item names ticked ("[ ]" -> "[x]"),
    or None when an item names no open line or several (which to tick is unclear)."""
    lines = content.split("\n")
    for item in items:
        wanted = words(item)
        fitting = [i for i, line in enumerate(lines)
                   if (box := _OPEN_BOX.match(line)) and wanted and wanted <= words(box["text"])]
        if len(fitting) != 1:
            return None
        box = _OPEN_BOX.match(lines[fitting[0]])
        lines[fitting[0]] = f"{box['lead']}x{box['rest']}"
    return "\n".join(lines)


def _writes_file(spec: ToolSpec | None) -> bool:
    if spec is None:
        return False
    properties = (spec.parameters or {}).get("properties") or {}
    return (name_family(spec.name) == "file" and spec.name.startswith("write")
            and {"path", "content"} <= set(properties))


def _is_named(path: str, request: str) -> bool:
    """Whether ``path`` is the file the request names, by its name or by words."""
    base = posixpath.basename(path)
    if base in named_files(request) or path in request:
        return True
    word = file_word(request)
    return word is not None and same_file_name(word, posixpath.splitext(base)[0])


class TickCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (None for a tool it does not know)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None]):
        self._spec_of = spec_of

    def _spec(self, context: CallContext) -> ToolSpec | None:
        return context.spec or self._spec_of(context.call.name)

    def _file(self, context: CallContext) -> dict[str, Any] | None:
        """The file the request names, as the conversation last showed it (read in full,
        when it was)."""
        shown = [obj for family, obj in context.objects if family == "file"
                 and isinstance(obj.get("path"), str) and _is_named(obj["path"], context.request)]
        read = [obj for obj in shown if isinstance(obj.get("content"), str)]
        return (read or shown or [None])[-1]

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        if not _writes_file(self._spec(context)) or not ticked_lines(context.request):
            return ()
        return () if self._file(context) is not None else ("file",)

    def reads_first(self, context: CallContext) -> tuple[ReadFirst, ...]:
        if not _writes_file(self._spec(context)) or not ticked_lines(context.request):
            return ()
        found = self._file(context)
        if found is None or isinstance(found.get("content"), str):
            return ()
        return (ReadFirst("file", "path", found["path"]),)

    def _wanted(self, context: CallContext) -> tuple[str, str] | None:
        """The path and new content of the file whose lines the request ticks off."""
        items = ticked_lines(context.request)
        found = self._file(context) if items and _writes_file(self._spec(context)) else None
        if found is None or not isinstance(found.get("content"), str) or found.get("truncated"):
            return None
        content = ticked(found["content"], items)
        return (found["path"], content) if content is not None else None

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        wanted = self._wanted(context)
        if wanted is None:
            return {}
        return {"path": {"enum": [wanted[0]]}, "content": {"enum": [wanted[1]]}}

    def judge(self, context: CallContext) -> Refusal | None:
        wanted = self._wanted(context)
        if wanted is None:
            return None
        path, content = wanted
        call = context.call
        if call.arguments.get("path") == path and call.arguments.get("content") == content:
            return None
        return Refusal(f"the request ticks off lines of {path}: write its text with those "
                       "boxes ticked and nothing else changed",
                       {"path": {"enum": [path]}, "content": {"enum": [content]}})
