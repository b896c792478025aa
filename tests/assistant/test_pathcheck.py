"""The file a request names by its name (``PathCheck``)."""

from __future__ import annotations

import json

import pytest

from botpsy.agent.rules import CallContext
from botpsy.assistant.pathcheck import PathCheck, named_files, new_file
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


WRITE = ToolSpec(name="write_file", description="d", parameters={
    "type": "object", "required": ["path", "content"],
    "properties": {"path": {"type": "string"}, "content": {"type": "string"}}})


@pytest.mark.parametrize(("request_text", "path"), [
    ("make a file personal/gift_budget.txt with: dad 60, mum 40", "personal/gift_budget.txt"),
    ("copy my reading list into a file called books.txt in personal", "personal/books.txt"),
    ("save it as todo.md in the work folder", "work/todo.md"),
    ("summarize work/report.txt into summary.txt", None),  # the file read is named too
    ("Read work/vendor_call.md and remind me about the call", None),  # a file read
    ("save it as report.txt in the files", None),
])
def test_the_path_a_request_places_a_new_file_at(request_text: str, path: str | None):
    assert new_file(request_text) == path


def test_a_new_file_written_elsewhere_than_the_request_puts_it_is_refused():
    check = PathCheck({"write_file": WRITE}.get)
    messages = [Message(role="user", content="make a file personal/budget.txt with: dad 60")]
    assert check.expected(CallContext.before(WRITE, messages)) == {
        "path": {"enum": ["personal/budget.txt"]}, "content": {"enum": ["dad 60"]}}
    wrong = ToolCall(name="write_file", arguments={"path": "person/budget.txt", "content": "dad 60"})
    assert check(wrong, messages).narrow == {"path": {"enum": ["personal/budget.txt"]}}
    right = ToolCall(name="write_file", arguments={"path": "personal/budget.txt", "content": "dad 60"})
    assert check(right, messages) is None


def test_a_new_file_holds_what_the_request_dictates_after_a_colon():
    """ "make a file personal/gym_plan.txt that says: mon legs, wed back, fri chest" was
    written "mon legs"; the dictated words on lines of their own are the same words."""
    check = PathCheck({"write_file": WRITE}.get)
    request = "make a file personal/gym_plan.txt that says: mon legs, wed back, fri chest"
    messages = [Message(role="user", content=request)]
    assert check.expected(CallContext.before(WRITE, messages))["content"] == {
        "enum": ["mon legs, wed back, fri chest"]}
    short = ToolCall(name="write_file", arguments={"path": "personal/gym_plan.txt", "content": "mon legs"})
    refused = check(short, messages)
    assert refused is not None and refused.narrow == {"content": {"enum": ["mon legs, wed back, fri chest"]}}
    lines = ToolCall(name="write_file", arguments={"path": "personal/gym_plan.txt",
                                                   "content": "Mon legs\nWed back\nFri chest\n"})
    assert check(lines, messages) is None
    undictated = [Message(role="user", content="make a file personal/gym_plan.txt for my week")]
    assert "content" not in check.expected(CallContext.before(WRITE, undictated))


def test_a_file_named_by_a_word_is_the_shown_file_of_that_name():
    """"add '- [ ] book flights' to my todo file": the 135M model searched for "flights"
    and appended to a file called "my todo file"."""
    from botpsy.agent.grounding import search_terms
    request = "add '- [ ] book flights' to my todo file"
    assert search_terms(request, "file") == ["todo"]
    append = ToolSpec(name="append_to_file", description="d", parameters={
        "type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}}})
    shown = [Message(role="user", content=request),
             Message(role="tool", name="search_files", source="tool:search_files:c1",
                     content='[{"path": "notes/todo.md", "line": 1, "text": "- [ ] x"}]')]
    check = PathCheck({"append_to_file": append}.get)
    assert check.expected(CallContext.before(append, shown)) == {"path": {"enum": ["notes/todo.md"]}}
    wrong = ToolCall(name="append_to_file", arguments={"path": "my todo file", "text": "x"})
    assert check(wrong, shown).narrow == {"path": {"enum": ["notes/todo.md"]}}


@pytest.mark.parametrize(("request_text", "path", "refused"), [
    # the text where the file goes: a new file nobody asked for, in place of adding to todo.md
    ("stick 'book flights' at the bottom of my todo.md", "book flights", True),
    ("stick 'book flights' at the bottom of my todo.md", "notes/todo.md", False),
    ("summarize notes.txt into a new file", "summary.txt", False),  # a new file asked for
    ("save the p95 from latency.csv in a file called p95.txt", "p95.txt", False),
    ("write a packing list", "packing.txt", False),                # no file named
])
def test_a_new_file_the_request_never_asked_for_is_refused(request_text, path, refused):
    specs = {**SPECS, "write_file": WRITE}
    call = ToolCall(name="write_file", arguments={"path": path, "content": "x"})
    why = PathCheck(specs.get)(call, [Message(role="user", content=request_text)])
    assert (why is not None) is refused
    if refused:
        assert "append_to_file adds to it" in why.reason


def test_a_file_named_by_words_is_looked_up_before_it_is_changed():
    """"add umbrella to my packing list file": the 135M model wrote the path
    "your_packing_list" straight away, and no file has that name."""
    from botpsy.extract import file_word, same_file_name
    request = "add umbrella to my packing list file"
    assert file_word(request) == "packing list"
    assert same_file_name("packing list", "packing_list")
    assert same_file_name("packing-list", "Packing_List") and not same_file_name("packing", "packing_list")
    asked = [Message(role="user", content=request)]
    assert check().needs_first(CallContext.before(APPEND, asked)) == ("file",)
    shown = [*asked, Message(role="tool", name="search_files", source="tool:search_files:c1",
                             content='[{"path": "personal/packing_list.txt"}]')]
    assert check().needs_first(CallContext.before(APPEND, shown)) == ()
    assert check().expected(CallContext.before(APPEND, shown)) == {
        "path": {"enum": ["personal/packing_list.txt"]}}
    # a file named whole, or a folder listed, needs no search first
    named = [Message(role="user", content="add umbrella to packing_list.txt")]
    assert check().needs_first(CallContext.before(APPEND, named)) == ()
    assert check().needs_first(CallContext.before(LIST, asked)) == ()


def test_a_file_the_request_adds_to_is_not_written_over():
    """"add the titles from my books-to-read note to notes/todo.md as open items": the
    135M model replaced the to-do file with the titles."""
    specs = {**SPECS, "write_file": WRITE}
    request = "add the titles from my books-to-read note to notes/todo.md as open items"
    over = ToolCall(name="write_file", arguments={"path": "notes/todo.md", "content": "x"})
    refusal = PathCheck(specs.get)(over, [Message(role="user", content=request)])
    assert refusal is not None and refusal.instead == ("append_to_file",)
    # a new file the request adds to is no file written over
    new = ToolCall(name="write_file", arguments={"path": "ideas.txt", "content": "x"})
    assert PathCheck(specs.get)(new, [Message(role="user", content="put my ideas into a new file")]) is None
    # nor is a file rewritten where the request does not add to it
    assert PathCheck(specs.get)(over, [Message(role="user", content="tick off x in notes/todo.md")]) is None
