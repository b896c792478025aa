"""A line ticked off in a to-do file (``TickCheck``)."""

from __future__ import annotations

import json

import pytest

from botpsy.agent.checks import ReadFirst
from botpsy.agent.rules import CallContext
from botpsy.assistant.tickcheck import TickCheck, ticked
from botpsy.extract import ticked_lines
from botpsy.types import Message, ToolCall, ToolSpec

WRITE = ToolSpec(name="write_file", description="d", parameters={
    "type": "object", "required": ["path", "content"],
    "properties": {"path": {"type": "string"}, "content": {"type": "string"}}})
TODO = "- [ ] slides for Dan\n- [ ] plumber Wednesday\n- [x] car service\n"
REQUEST = "tick off slides for dan in todo.md"


@pytest.mark.parametrize(("request_text", "lines"), [
    (REQUEST, ["slides for dan"]),
    ("mark the plumber one done in my todo file", ["plumber"]),
    ("cross off milk and eggs from the shopping list file", ["milk", "eggs"]),
    ("check off 'car service' in notes/todo.md, did it yesterday", ["car service"]),
    ("in notes/todo.md check off the slides item", ["slides"]),  # the file named first
    ("tick off water the plants", []),            # no file: a reminder
    ("mark the email as read", []),
    ("mark the meeting in my calendar as done", []),
])
def test_the_lines_a_request_ticks_off_in_a_file(request_text: str, lines: list[str]) -> None:
    assert ticked_lines(request_text) == lines


def test_a_line_is_ticked_only_where_the_item_names_one_open_box() -> None:
    assert ticked(TODO, ["slides for dan"]) == TODO.replace("[ ] slides", "[x] slides")
    assert ticked(TODO, ["slides", "plumber"]) == TODO.replace("[ ]", "[x]")
    assert ticked(TODO, ["car service"]) is None     # no open box: nothing to tick
    assert ticked(TODO, ["groceries"]) is None
    assert ticked("- [ ] call Dan\n- [ ] email Dan\n", ["dan"]) is None  # which one?


def _read(content: str, **extra: object) -> Message:
    return Message(role="tool", name="read_file", source="tool:read_file:c2",
                   content=json.dumps({"path": "notes/todo.md", "content": content, **extra}))


def test_the_file_is_found_then_read_then_written_with_that_box_ticked() -> None:
    """"tick off slides for dan in todo.md": the 135M model completed the reminder "Add
    latency slide for Dan" instead."""
    check = TickCheck({WRITE.name: WRITE}.get)
    asked = [Message(role="user", content=REQUEST)]
    assert check.needs_first(CallContext.before(WRITE, asked)) == ("file",)
    found = [*asked, Message(role="tool", name="search_files", source="tool:search_files:c1",
                             content='[{"path": "notes/todo.md", "line": 1, "text": "- [ ] slides for Dan"}]')]
    assert check.needs_first(CallContext.before(WRITE, found)) == ()
    assert check.reads_first(CallContext.before(WRITE, found)) == (
        ReadFirst("file", "path", "notes/todo.md"),)
    read = [*found, _read(TODO)]
    assert check.reads_first(CallContext.before(WRITE, read)) == ()
    new = TODO.replace("[ ] slides", "[x] slides")
    assert check.expected(CallContext.before(WRITE, read)) == {
        "path": {"enum": ["notes/todo.md"]}, "content": {"enum": [new]}}
    wrong = ToolCall(name="write_file", arguments={"path": "notes/todo.md", "content": "all done"})
    refusal = check(wrong, read)
    assert refusal is not None and refusal.narrow["content"] == {"enum": [new]}
    right = ToolCall(name="write_file", arguments={"path": "notes/todo.md", "content": new})
    assert check(right, read) is None


def test_a_file_cut_short_or_a_request_without_lines_has_no_say() -> None:
    check = TickCheck({WRITE.name: WRITE}.get)
    cut = [Message(role="user", content=REQUEST), _read(TODO, truncated=True)]
    assert check.expected(CallContext.before(WRITE, cut)) == {}
    other = [Message(role="user", content="write 'hi' to notes/todo.md"), _read(TODO)]
    assert check.expected(CallContext.before(WRITE, other)) == {}
    assert check.needs_first(CallContext.before(WRITE, other)) == ()
