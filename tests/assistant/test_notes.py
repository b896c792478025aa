"""Note tools: create, full-text search (FTS5 and the LIKE fallback), read, append."""

from __future__ import annotations

import pytest

from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.assistant.notes import MAX_NOTE_CHARS, NotesToolbox
from botpsy.assistant.user_data import AssistantStore

from .helpers import count


@pytest.fixture
def notes(store: AssistantStore) -> NotesToolbox:
    box = NotesToolbox(store)
    box.create_note("Groceries", "milk, eggs, spinach, lemons")
    box.create_note("Roadmap ideas", "offline mode for notes; faster searching of meetings")
    box.create_note("Meeting notes", "Discussed the roadmap with Priya. Meetings on Tuesdays.")
    return box


def test_create_and_read_note(notes: NotesToolbox) -> None:
    note = notes.create_note("Books", "Thinking in Systems")
    assert notes.read_note(note.id) == note
    assert note.updated == "2025-03-05T10:00+01:00"


def test_search_ranks_and_matches_word_prefixes(notes: NotesToolbox) -> None:
    hits = notes.search_notes("meeting")
    assert hits[0].title == "Meeting notes"  # title and body match: ranked first
    assert {h.title for h in hits} == {"Meeting notes", "Roadmap ideas"}
    assert "[" in hits[0].snippet  # the matched word is marked
    assert [h.title for h in notes.search_notes("lemon")] == ["Groceries"]


def test_search_falls_back_to_any_word(notes: NotesToolbox) -> None:
    # no note has both words, so notes with either come back
    assert {h.title for h in notes.search_notes("spinach priya")} == {"Groceries", "Meeting notes"}


def test_search_with_fts_syntax_in_the_query_does_not_break(notes: NotesToolbox) -> None:
    assert [h.title for h in notes.search_notes('roadmap AND "(offline* NEAR')]
    with pytest.raises(ToolInputError, match="at least one word"):
        notes.search_notes('"()*')


def test_like_fallback_when_fts5_is_missing(notes: NotesToolbox, store: AssistantStore) -> None:
    with store.write() as tx:
        for trigger in ("insert", "delete", "update"):
            tx.execute(f"DROP TRIGGER notes_fts_{trigger}")
        tx.execute("DROP TABLE notes_fts")
    assert {h.title for h in notes.search_notes("meeting")} == {"Meeting notes", "Roadmap ideas"}
    hit = notes.search_notes("lemons")[0]
    assert hit.title == "Groceries" and "lemons" in hit.snippet
    assert {h.title for h in notes.search_notes("spinach priya")} == {"Groceries", "Meeting notes"}


def test_append_to_note_updates_text_and_index(notes: NotesToolbox, store: AssistantStore) -> None:
    grocery = notes.search_notes("groceries")[0]
    updated = notes.append_to_note(grocery.id, "coffee beans")
    assert updated.body == "milk, eggs, spinach, lemons\ncoffee beans"
    assert [h.id for h in notes.search_notes("coffee")] == [grocery.id]
    store.db.execute("INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')")


def test_bad_note_input_writes_nothing(notes: NotesToolbox, store: AssistantStore) -> None:
    with pytest.raises(ToolInputError, match="title must not be empty"):
        notes.create_note("", "body")
    with pytest.raises(ToolInputError, match="no note with id 42; search_notes gives the ids"):
        notes.append_to_note(42, "text")
    with pytest.raises(ToolInputError, match="text must not be empty"):
        notes.append_to_note(1, "  ")
    with pytest.raises(ToolInputError) as caught:
        notes.append_to_note(1, "x" * (MAX_NOTE_CHARS - 5))
    assert caught.value.kind is ErrorKind.too_large
    assert count(store, "notes") == 3
    assert notes.read_note(1).body == "milk, eggs, spinach, lemons"


def test_read_note_bad_ids(notes: NotesToolbox) -> None:
    with pytest.raises(ToolInputError, match="no note with id 9"):
        notes.read_note(9)
    with pytest.raises(ToolInputError, match="positive whole number"):
        notes.read_note(-1)
    with pytest.raises(ToolInputError, match="positive whole number"):
        notes.read_note(10**30)  # beyond SQLite's integers: an input error, not an OverflowError
