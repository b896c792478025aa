"""Note tools: write, find, read and extend the user's notes.

Search uses the FTS5 index made by migration 2 (word prefixes, best matches
first); on SQLite builds without FTS5 it falls back to LIKE. Either way it first
looks for notes with every word and, when none has them all, for notes with any.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from botpsy.assistant import inputs
from botpsy.assistant.errors import ErrorKind, ToolInputError, not_found
from botpsy.assistant.records import Record
from botpsy.assistant.timeutil import show, to_db
from botpsy.assistant.toolbox import Toolbox, exposed
from botpsy.safety.provenance import merged, write_origin
from botpsy.types import Origin

MAX_NOTE_CHARS = 50_000
SNIPPET_WORDS = 12


class Note(Record):
    """A whole note."""

    item_kind = "note"

    id: int
    title: str
    body: str
    updated: str | None


class NoteHit(Record):
    """A search result: the note and the passage that matched."""

    item_kind = "note"

    id: int
    title: str
    snippet: str


class NotesToolbox(Toolbox):
    """The user's notes."""

    domain = "notes"

    @exposed(writes=True)
    def create_note(self, title: str, body: str) -> Note:
        """Write a new note.

        Args:
            title: A short title.
            body: The note text.
        """
        title = inputs.text(title, "title", single_line=True)
        body = inputs.text(body, "body", max_chars=MAX_NOTE_CHARS, allow_empty=True)
        now = to_db(self.store.now())
        with self.store.write() as tx:
            new_id = insert_note(tx, title, body, now)
        return self._note(self._row(new_id))

    @exposed(writes=False, untrusted_output=True)
    def search_notes(self, query: str, limit: int = 5) -> list[NoteHit]:
        """Find notes by words in their title or text, best matches first.

        Args:
            query: Words to look for.
            limit: How many notes to return (1-50).
        """
        words = inputs.search_words(query)
        limit = inputs.limit(limit)
        if self.store.has_table("notes_fts"):  # its words split at hyphens: "Wi-Fi" is two
            found = self._fts(words, " AND ", limit) or self._fts(words, " OR ", limit)
            if found:
                return found
        return self._like(words, " AND ", limit) or self._like(words, " OR ", limit)

    @exposed(writes=False, untrusted_output=True)
    def read_note(self, note_id: int) -> Note:
        """Read one note in full.

        Args:
            note_id: The id from search_notes.
        """
        return self._note(self._row(note_id))

    @exposed(writes=True)
    def append_to_note(self, note_id: int, text: str) -> Note:
        """Add text at the end of a note.

        Args:
            note_id: The note to extend.
            text: The text to add (on a new line).
        """
        text = inputs.text(text, "text", max_chars=MAX_NOTE_CHARS)
        row = self._row(note_id)
        body = f"{row['body']}\n{text}" if row["body"] else text
        if len(body) > MAX_NOTE_CHARS:
            raise ToolInputError(
                f"the note would exceed {MAX_NOTE_CHARS} characters; start a new note instead",
                ErrorKind.too_large,
            )
        with self.store.write() as tx:
            tx.execute(
                "UPDATE notes SET body = ?, updated_at = ?, origin = ? WHERE id = ?",
                (body, to_db(self.store.now()), merged(row["origin"], write_origin()).value,
                 row["id"]),
            )
        return self._note(self._row(row["id"]))

    # -- helpers --------------------------------------------------------------------
    def _fts(self, words: Sequence[str], joiner: str, limit: int) -> list[NoteHit]:
        # Each word quoted (so FTS operators in user text stay literal) and prefixed.
        match = joiner.join('"' + w.replace('"', '""') + '"*' for w in words)
        rows = self.store.query(
            "SELECT n.id, n.title, n.origin, snippet(notes_fts, -1, '[', ']', '…', ?) AS snippet "
            "FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid "
            "WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts), n.id LIMIT ?",
            (SNIPPET_WORDS, match, limit),
        )
        return [NoteHit(id=r["id"], title=r["title"], snippet=r["snippet"],
                        origin=Origin(r["origin"])) for r in rows]

    def _like(self, words: Sequence[str], joiner: str, limit: int) -> list[NoteHit]:
        haystack = inputs.unhyphenated("(title || ' ' || body)")
        where = joiner.join(f"{haystack} LIKE ? ESCAPE '\\'" for _ in words)
        rows = self.store.query(
            f"SELECT id, title, body, origin FROM notes WHERE {where} "
            "ORDER BY updated_at DESC, id LIMIT ?",
            (*[inputs.like_pattern(w) for w in words], limit),
        )
        return [
            NoteHit(id=r["id"], title=r["title"], snippet=_passage(r["body"], words),
                    origin=Origin(r["origin"])) for r in rows
        ]

    def _row(self, note_id: int) -> sqlite3.Row:
        note_id = inputs.item_id(note_id, "note_id")
        row = self.store.query_one("SELECT * FROM notes WHERE id = ?", (note_id,))
        if row is None:
            raise not_found("note", note_id, "search_notes")
        return row

    def _note(self, row: sqlite3.Row) -> Note:
        return Note(
            id=row["id"],
            title=row["title"],
            body=row["body"],
            updated=show(row["updated_at"], self.store.tz),
            origin=Origin(row["origin"]),
        )


def insert_note(conn: sqlite3.Connection, title: str, body: str, now: str,
                origin: Origin | None = None) -> int:
    """Insert one note inside the caller's transaction; returns its id. ``origin``
    None: the current call's (``write_origin``)."""
    cursor = conn.execute(
        "INSERT INTO notes (title, body, created_at, updated_at, origin) VALUES (?, ?, ?, ?, ?)",
        (title, body, now, now, (origin or write_origin()).value),
    )
    return int(cursor.lastrowid)


def _passage(body: str, words: Sequence[str]) -> str:
    """About SNIPPET_WORDS words of ``body`` around the first matching word."""
    tokens = body.split()
    lowered = [t.lower() for t in tokens]
    first = next((i for i, t in enumerate(lowered) if any(w in t for w in words)), 0)
    begin = max(0, first - SNIPPET_WORDS // 3)
    passage = " ".join(tokens[begin : begin + SNIPPET_WORDS])
    return ("…" if begin else "") + passage + ("…" if begin + SNIPPET_WORDS < len(tokens) else "")
