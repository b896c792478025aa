"""Reading tool definitions from a JSON file (no implementations attached).

Accepted: an OpenAI ``tools`` list, bare ``{name, description, parameters}``
objects, BFCL function docs (mixed freely), a single such object, an object
with a ``tools`` list, or JSON Lines (BFCL ships its multi-turn docs that way).
Every problem is reported with the file and, where it applies, the entry.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from botpsy.tools.bfcl import BfclDocError, is_bfcl_doc
from botpsy.tools.tool import Tool


class ToolsFileError(ValueError):
    """A tools file that cannot be read; the message names the file and the problem."""


def load_tools_file(path: str | Path) -> list[Tool]:
    """The tools described in a JSON (or JSON Lines) file, as schema-only Tools."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ToolsFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ToolsFileError(f"{path}: cannot be read ({exc})") from None
    entries = _entries(path, _parse(path, text))
    if not entries:
        raise ToolsFileError(f"{path}: holds no tool definitions")
    tools = [_tool(path, i, entry) for i, entry in enumerate(entries)]
    names = [t.name for t in tools]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ToolsFileError(f"{path}: tool names defined twice: {', '.join(duplicates)}")
    return tools


def _parse(path: Path, text: str) -> Any:
    if not text.strip():
        raise ToolsFileError(f"{path}: is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError as whole_error:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise ToolsFileError(f"{path}: not valid JSON ({whole_error})") from None
        try:
            return [json.loads(line) for line in lines]
        except json.JSONDecodeError:
            raise ToolsFileError(f"{path}: not valid JSON or JSON Lines ({whole_error})") from None


def _entries(path: Path, data: Any) -> list[Any]:
    if isinstance(data, dict) and isinstance(data.get("tools"), list):
        return data["tools"]
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list):
        return data
    raise ToolsFileError(f"{path}: expected a list of tool definitions, got {type(data).__name__}")


def _tool(path: Path, index: int, entry: Any) -> Tool:
    if not isinstance(entry, dict):
        raise ToolsFileError(f"{path}: entry {index} is a {type(entry).__name__}, not an object")
    label = entry.get("name") or (entry.get("function") or {}).get("name") or "?"
    try:
        if is_bfcl_doc(entry):
            return Tool.from_bfcl(entry)
        return Tool.from_openai(entry)
    except (BfclDocError, TypeError, ValueError) as exc:
        raise ToolsFileError(f"{path}: entry {index} ({label}): {exc}") from None
