"""The file a request names by its name (``PathCheck``)."""

from __future__ import annotations

import json

from botpsy.agent.rules import CallContext
from botpsy.assistant.pathcheck import PathCheck, named_files
from botpsy.types import Message, ToolCall, ToolSpec

APPEND = ToolSpec(name="append_to_file", description="d", parameters={
    "type": "object", "required": ["path", "text"],
    "properties": {"path": {"type": "string"}, "text": {"type": "string"}}})
LIST = ToolSpec(name="list_files", description="d", parameters={
    "type": "object", "properties": {"path": {"type": "string"}}})
SPECS = {s.name: s for s in (APPEND, LIST)}
REQUEST = "add 'call the bank' to the bottom of todo.md"


def check() -> PathCheck:
    return PathCheck(SPECS.get)


def test_file_names_but_not_addresses_links_or_versions():
    assert named_files(REQUEST) == ["todo.md"]
    assert named_files("mail anna@example.com and see www.example.com/a.txt") == []
    assert named_files("release v1.2.3 notes") == []
    assert named_files("merge a.txt into b.csv") == ["a.txt", "b.csv"]


def test_the_named_file_fixes_the_path_and_a_shown_one_its_folder():
    messages = [Message(role="user", content=REQUEST)]
    assert check().expected(CallContext.before(APPEND, messages)) == {"path": {"enum": ["todo.md"]}}
    wrong = ToolCall(name="append_to_file", arguments={"path": "call the bank", "text": "x"})
    assert check()(wrong, messages).narrow == {"path": {"enum": ["todo.md"]}}
    shown = [*messages, Message(role="tool", name="search_files", source="tool:search_files:c1",
                                content=json.dumps([{"path": "notes/todo.md", "line": 1}]))]
    assert check().expected(CallContext.before(APPEND, shown)) == {"path": {"enum": ["notes/todo.md"]}}
    right = ToolCall(name="append_to_file", arguments={"path": "notes/todo.md", "text": "x"})
    assert check()(right, shown) is None


def test_nothing_is_fixed_for_folders_other_tools_or_two_names():
    messages = [Message(role="user", content=REQUEST)]
    assert check().expected(CallContext.before(LIST, messages)) == {}
    two = [Message(role="user", content="copy a.txt into b.txt")]
    assert check().expected(CallContext.before(APPEND, two)) == {}
