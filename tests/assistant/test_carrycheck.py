"""What a request asks a message or a new note to carry from a note or a file
(``CarryCheck``)."""

from __future__ import annotations

import json

from botpsy.agent.checks import ReadFirst
from botpsy.agent.rules import CallContext
from botpsy.assistant.carrycheck import Carried, CarryCheck, carried
from botpsy.types import Message, ToolCall, ToolSpec


def _carried(messages: list[Message]) -> Carried | None:
    return carried(CallContext(ToolCall(name="send_email"), messages))


def _spec(name: str, *args: str) -> ToolSpec:
    return ToolSpec(name=name, description="d", parameters={
        "type": "object", "required": list(args),
        "properties": {a: {"type": "string"} for a in args}})


SEND = _spec("send_email", "to", "subject", "body")
NOTE = _spec("create_note", "title", "body")
SPECS = {s.name: s for s in (SEND, NOTE)}
REQUEST = "send jamie my reading list from my notes"
FOUND = [{"id": 5, "title": "Books to read", "snippet": "Books to [read]"},
         {"id": 6, "title": "Recipe: lemon cake", "snippet": "AI assistant [reading] this"}]
READ = {"id": 5, "title": "Books to read", "body": "Piranesi; Middlemarch", "updated": None}


def _messages(request: str, *results: tuple[str, object]) -> list[Message]:
    return [Message(role="user", content=request), *(
        Message(role="tool", name=name, source=f"tool:{name}:c{i}", content=json.dumps(data))
        for i, (name, data) in enumerate(results))]


def check() -> CarryCheck:
    return CarryCheck(SPECS.get)


def test_the_note_the_request_names_is_read_before_the_message():
    messages = _messages(REQUEST, ("search_notes", FOUND))
    assert check().reads_first(CallContext.before(SEND, messages)) == (ReadFirst("note", "note_id", 5),)
    assert check().expected(CallContext.before(SEND, messages)) == {}  # its text is not in view yet


def test_once_read_the_message_carries_the_notes_title_and_text():
    messages = _messages(REQUEST, ("search_notes", FOUND), ("read_note", READ))
    assert check().reads_first(CallContext.before(SEND, messages)) == ()
    assert check().expected(CallContext.before(SEND, messages)) == {
        "body": {"enum": ["Piranesi; Middlemarch"]}, "subject": {"enum": ["Books to read"]}}
    junk = ToolCall(name="send_email", arguments={"to": "j@x.example", "subject": "Jamie",
                                                  "body": "Partner"})
    why = check()(junk, messages)
    assert why is not None and why.narrow == {"body": {"enum": ["Piranesi; Middlemarch"]}}
    kept = ToolCall(name="send_email", arguments={"to": "j@x.example", "subject": "Books",
                                                  "body": "Here: Piranesi;  Middlemarch"})
    assert check()(kept, messages) is None


def test_a_file_copied_into_a_new_note_is_read_by_its_path():
    request = "Copy my Hamburg packing list from the files into a new note"
    found = ("search_files", [{"path": "personal/packing_list.txt", "text": ""}])
    messages = _messages(request, found)
    assert check().reads_first(CallContext.before(NOTE, messages)) == (
        ReadFirst("file", "path", "personal/packing_list.txt"),)
    read = ("read_file", {"path": "personal/packing_list.txt", "size": 30, "truncated": False,
                          "content": "Hamburg weekend:\n- charger\n"})
    assert check().expected(CallContext.before(NOTE, _messages(request, found, read))) == {
        "body": {"enum": ["Hamburg weekend:\n- charger"]}}


def test_nothing_is_carried_without_a_source_a_fitting_item_or_a_whole_short_text():
    assert _carried(_messages("send jamie the plan", ("search_notes", FOUND))) is None
    assert _carried(_messages("send jamie my taxes from my notes", ("search_notes", FOUND))) is None
    # a value inside a named file is not the file's whole text
    value = "email Dan the p95 from the last week in latency_numbers.csv"
    assert _carried(_messages(value, ("search_files", [{"path": "latency_numbers.csv"}]))) is None
    cut = ("read_note", {**READ, "body": "x" * 5000})
    item = _carried(_messages(REQUEST, ("search_notes", FOUND), cut))
    assert item is not None and item.text is None


def test_the_source_is_looked_up_first_and_an_added_thing_follows_its_text():
    assert check().needs_first(CallContext.before(SEND, _messages(REQUEST))) == ("note",)
    assert check().needs_first(CallContext.before(SEND, _messages(REQUEST, ("search_notes", FOUND)))) == ()
    plain = _messages("send jamie a hello")
    assert check().needs_first(CallContext.before(SEND, plain)) == ()
    request = "make a new note 'shopping' with everything from my reading list note plus candles"
    messages = _messages(request, ("search_notes", FOUND), ("read_note", READ))
    assert check().expected(CallContext.before(NOTE, messages)) == {
        "body": {"enum": ["Piranesi; Middlemarch\ncandles"]}}


def test_a_write_that_passes_on_a_note_no_lookup_showed_is_sent_to_the_search():
    request = "make a new note 'shopping sat' with everything from the groceries note"
    check = CarryCheck(SPECS.get, lambda family: [f"search_{family}s"])
    unseen = _messages(request, ("search_notes", []))
    junk = ToolCall(name="create_note", arguments={"title": "shopping sat",
                                                   "body": "the groceries note"})
    why = check(junk, unseen)
    assert why is not None and why.finders == ("search_notes",)
    found = _messages(request, ("search_notes", [{"id": 2, "title": "Groceries"}]))
    assert check(junk, found) is None  # shown: the read comes first (reads_first)


def test_a_list_a_question_asked_about_is_carried_into_what_is_made_with_those_things():
    """"whats on the packing list for hamburg? make a note called hamburg with those things +
    umbrella": the question's search found the file; the new note held "sundry things"."""
    request = ("whats on the packing list for hamburg? make a note called hamburg with those "
               "things + umbrella")
    found = [{"path": "personal/packing_list.txt", "line": 1, "text": "Hamburg weekend:"}]
    messages = _messages(request, ("search_files", found))
    assert check().reads_first(CallContext.before(NOTE, messages)) == (
        ReadFirst("file", "path", "personal/packing_list.txt"),)
    text = "Hamburg weekend:\n- charger\n- rain jacket"
    read = _messages(request, ("search_files", found),
                     ("read_file", {"path": "personal/packing_list.txt", "content": text}))
    assert check().expected(CallContext.before(NOTE, read)) == {
        "body": {"enum": [f"{text}\numbrella"]}}
    # no question about a list, or nothing referred back to: nothing is carried
    assert _carried(_messages("make a note called hamburg with an umbrella",
                              ("search_files", found))) is None


def test_a_note_copied_into_a_file_is_appended_whole():
    """"copy the stuff from my groceries note into todo.md": the 135M model appended the
    note's first two words."""
    append = _spec("append_to_file", "path", "text")
    request = "copy the stuff from my groceries note into todo.md"
    found = ("search_notes", [{"id": 2, "title": "Groceries", "snippet": "[Groceries]"}])
    read = ("read_note", {"id": 2, "title": "Groceries", "body": "milk, eggs, spinach"})
    messages = _messages(request, found, read)
    assert check().expected(CallContext.before(append, messages)) == {
        "text": {"enum": ["milk, eggs, spinach"]}}
    cut = ToolCall(name="append_to_file", arguments={"path": "todo.md", "text": "milk, eggs"})
    why = CarryCheck({"append_to_file": append}.get)(cut, messages)
    assert why is not None and why.narrow == {"text": {"enum": ["milk, eggs, spinach"]}}


def test_a_list_named_without_its_kind_is_carried_from_a_note_or_a_file():
    """"email mom my packing list for hamburg": the list is a file here; the 135M model
    found it and sent its path as the subject and its first line as the body."""
    request = "email mom my packing list for hamburg"
    found = ("search_files", [{"path": "personal/packing_list.txt", "line": 1,
                               "text": "Hamburg weekend:"}])
    messages = _messages(request, found)
    assert check().needs_first(CallContext.before(SEND, messages)) == ()
    assert check().reads_first(CallContext.before(SEND, messages)) == (
        ReadFirst("file", "path", "personal/packing_list.txt"),)
    read = ("read_file", {"path": "personal/packing_list.txt", "truncated": False,
                          "content": "Hamburg weekend:\n- rain jacket\n"})
    assert check().expected(CallContext.before(SEND, _messages(request, found, read))) == {
        "body": {"enum": ["Hamburg weekend:\n- rain jacket"]},
        "subject": {"enum": ["packing_list"]}}
    assert check().needs_first(CallContext.before(SEND, _messages(request))) == ("note", "file")
