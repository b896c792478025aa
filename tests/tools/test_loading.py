"""load_tools_file: good files of every accepted shape, and clear errors for bad ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from botpsy.tools import ToolsFileError, load_tools_file

OPENAI_TOOLS = [
    {"type": "function", "function": {
        "name": "notes.search", "description": "Search notes.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                       "required": ["query"]}}},
    {"name": "clock", "description": "The time.", "parameters": {"type": "object",
                                                                 "properties": {}}},
]
BFCL_DOC = {"name": "math.factorial", "description": "Factorial of a number.",
            "parameters": {"type": "dict", "properties": {"number": {"type": "integer"}},
                           "required": ["number"]}}


def _write(tmp_path: Path, content: Any, name: str = "tools.json") -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def test_openai_list_and_bfcl_docs_mixed(tmp_path: Path) -> None:
    tools = load_tools_file(_write(tmp_path, [*OPENAI_TOOLS, BFCL_DOC]))
    assert [t.name for t in tools] == ["notes.search", "clock", "math.factorial"]
    assert all(t.fn is None for t in tools)
    assert tools[2].parameters["type"] == "object" and tools[2].bfcl_doc == BFCL_DOC
    assert tools[0].bfcl_doc is None


@pytest.mark.parametrize(
    "content",
    [
        {"tools": OPENAI_TOOLS},
        OPENAI_TOOLS[0],
        "\n".join(json.dumps(t) for t in OPENAI_TOOLS) + "\n",
    ],
    ids=["tools-key", "single-object", "json-lines"],
)
def test_other_accepted_shapes(tmp_path: Path, content: Any) -> None:
    tools = load_tools_file(_write(tmp_path, content))
    assert tools[0].name == "notes.search"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("", "is empty"),
        ("{not json", "not valid JSON"),
        ('{"a": 1}\n{broken\n', "not valid JSON or JSON Lines"),
        ("42", "expected a list of tool definitions, got int"),
        ([], "holds no tool definitions"),
        (["get_weather"], "entry 0 is a str, not an object"),
        ([{"description": "nameless"}], "entry 0 (?): tool name must be a non-empty string"),
        ([BFCL_DOC, {"name": "f", "parameters": {"type": "dict", "properties": {
            "x": {"type": "matrix"}}}}], "entry 1 (f): f.parameters.x: unknown type 'matrix'"),
        ([{"name": "g", "parameters": {"type": "string"}}],
         "entry 0 (g): tool 'g': parameters must be a JSON schema of type 'object'"),
        ([OPENAI_TOOLS[1], OPENAI_TOOLS[1]], "tool names defined twice: clock"),
    ],
)
def test_bad_files_name_the_file_and_the_problem(
    tmp_path: Path, content: Any, problem: str
) -> None:
    path = _write(tmp_path, content)
    with pytest.raises(ToolsFileError) as caught:
        load_tools_file(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert problem in str(caught.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ToolsFileError, match=r"nowhere\.json: no such file"):
        load_tools_file(tmp_path / "nowhere.json")


def test_directory_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(ToolsFileError, match="cannot be read"):
        load_tools_file(tmp_path)
    binary = tmp_path / "tools.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ToolsFileError, match="cannot be read"):
        load_tools_file(binary)
