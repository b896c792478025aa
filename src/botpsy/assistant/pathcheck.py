"""The file a request names by its name: "add 'call the bank' to the bottom of todo.md".

Asked that, the 135M default model wrote ``append_to_file(path="call the bank")``: the
text where the file goes. A request that names one file by its name (a word with an
extension, not an address or a link) fixes the ``path`` of the file tools that act on
an existing one (not ``write_file``: "summarize notes.txt into a new file" names the
file read, not the one written): ``PathCheck`` holds it to that name, or to the path of a shown file of that name,
before the call (``agent.checks.Anticipating``), and refuses a call that names another.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import creates, name_family
from botpsy.extract import file_names, values
from botpsy.types import ToolSpec


def named_files(request: str) -> list[str]:
    """The file names a request writes, in order ("todo.md"), without web addresses."""
    return list(values(file_names(request)))


class PathCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (None for a tool it does not know)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None]):
        self._spec_of = spec_of

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        allowed = _allowed(context)
        return {"path": {"enum": allowed}} if allowed else {}

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        spec = context.spec or self._spec_of(call.name)
        allowed = _allowed(context, spec) if spec is not None else []
        written = call.arguments.get("path")
        if not allowed or (isinstance(written, str)
                           and posixpath.basename(written.strip("/")) in _names(allowed)):
            return None  # the file's own name, in whatever folder the tool finds it
        return Refusal(f"path {written!r} is not the file the request names: "
                       f"{' or '.join(allowed)}", {"path": {"enum": allowed}})


def _names(paths: list[str]) -> set[str]:
    return {posixpath.basename(p) for p in paths}


def _allowed(context: CallContext, spec: ToolSpec | None = None) -> list[str]:
    """The paths a call of a file tool (``spec``, by default the context's) may write: the
    one file the request names, as written and as the paths of shown files of that name.
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
    if len(names) != 1:
        return []
    shown = {obj["path"] for family, obj in context.objects
             if family == "file" and isinstance(obj.get("path"), str)
             and posixpath.basename(obj["path"]) == names[0]}
    return sorted(shown) or names
