"""Odd input reaches the file tools and the turn that calls them: file names that are not
UTF-8, lone surrogates and control characters. Clear errors or escaped text, no crash."""

from __future__ import annotations

import json
import os

from botpsy.agent.session import SessionStore
from botpsy.assistant.files import FilesToolbox
from botpsy.assistant.runtime import open_assistant
from botpsy.assistant.user_data import AssistantStore
from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.scripted import ScriptedBackend
from botpsy.formats import get_format
from botpsy.safety.audit import AuditDecision

BAD_DIR = b"caf\xe9"  # Latin-1, not UTF-8
BAD_FILE = b"notes\xff\xfe.txt"


def _odd_tree(store: AssistantStore) -> None:
    root = os.fsencode(store.files_root)
    os.mkdir(os.path.join(root, BAD_DIR))
    with open(os.path.join(root, BAD_DIR, BAD_FILE), "wb") as handle:
        handle.write(b"the roadmap is due friday\n")
    (store.files_root / "plain.txt").write_text("roadmap draft\n")


def test_names_that_are_not_utf8_are_listed_escaped_and_readable(store: AssistantStore) -> None:
    _odd_tree(store)
    files = FilesToolbox(store)
    top = files.list_files()
    assert [e.path for e in top.entries] == ["caf\\xe9", "plain.txt"]
    inner = files.list_files("caf\\xe9")
    (entry,) = inner.entries
    assert entry.path == "caf\\xe9/notes\\xff\\xfe.txt"
    assert files.read_file(entry.path).content == "the roadmap is due friday\n"
    hits = {hit.path for hit in files.search_files("roadmap")}
    assert hits == {"plain.txt", "caf\\xe9/notes\\xff\\xfe.txt"}
    for value in (top, inner, hits):  # every result is text UTF-8 can carry
        json.dumps(str(value), ensure_ascii=False).encode("utf-8")


def _turn(store: AssistantStore, outputs: list[str], text: str):
    model = FormattedChatModel(ScriptedBackend(outputs), get_format("hermes"), name="scripted")
    assistant = open_assistant(model, store=store, select_tools=False, call_mode="auto")
    sessions = SessionStore(store.data_dir / "sessions.db")
    info = sessions.create("odd")
    result = assistant.agent.run(text, session_id=info.id)
    sessions.append(info.id, result.messages)  # the conversation can be saved
    return result, assistant.audit, sessions.load(info.id)


def call(name: str, arguments_json: str) -> str:
    """A hermes call with its arguments written as raw JSON (escapes kept as written)."""
    return f'<tool_call>\n{{"name": "{name}", "arguments": {arguments_json}}}\n</tool_call>'


def test_a_turn_that_lists_odd_names_is_audited_and_saved(store: AssistantStore) -> None:
    _odd_tree(store)
    result, audit, saved = _turn(store, [call("list_files", '{"path": "."}'),
                                         call("search_files", '{"query": "roadmap"}'), "Done."],
                                 "what files do I have?")
    assert [s.decision for s in result.steps] == [AuditDecision.executed] * 2
    assert all(s.result.ok for s in result.steps), [s.result.content for s in result.steps]
    rows = audit.entries()
    assert [r.tool for r in rows] == ["list_files", "search_files"]
    shown = json.dumps("caf\\xe9")[1:-1]  # as it appears inside the JSON of a result
    assert shown in rows[0].result_summary
    assert any(shown in m.content for m in saved.messages)


def test_lone_surrogates_and_controls_in_arguments_do_not_kill_a_turn(
    store: AssistantStore,
) -> None:
    result, audit, saved = _turn(store, [
        call("create_note", '{"title": "bad \\ud800 title", "body": "x\\u001b[2J\\udfffy"}'),
        call("read_file", '{"path": "\\udcff.txt"}'),
        "Done."], "save a note")
    note, read = result.steps
    assert note.result.ok and "\\ud800" in note.result.content  # kept as its escape
    assert not read.result.ok and "no file" in read.result.content
    assert [r.tool for r in audit.entries()] == ["create_note", "read_file"]
    assert audit.entries()[0].arguments["title"] == "bad \\ud800 title"
    assert saved.messages[-1].content.startswith("Saved a note")  # the result in words
