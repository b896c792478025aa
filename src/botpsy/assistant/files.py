"""File tools over the sandboxed files root (``store.files_root``).

Every path is relative to that folder and checked by ``Sandbox`` first. Reads
stop at a byte limit and say so with a marker; binary files are refused; writes
replace the file atomically (temp file + rename), so a crash leaves the old or
the new content, never half of each.

A file's origin lives in the ``file_origins`` table, keyed by its relative path:
``write_file`` records the call's (``write_origin``), ``set_file_origin`` an
importer's or the demo's. A file botpsy never recorded (dropped in the folder,
downloaded) is a stranger's.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Literal

from botpsy.assistant import inputs
from botpsy.assistant.errors import ErrorKind, ToolInputError, finder_hint
from botpsy.assistant.records import Record
from botpsy.assistant.sandbox import Sandbox
from botpsy.assistant.toolbox import Toolbox, exposed
from botpsy.assistant.user_data import AssistantStore
from botpsy.safety.provenance import merged, write_origin
from botpsy.types import Origin

MAX_READ_BYTES = 16_384
MAX_WRITE_BYTES = 1_048_576
MAX_LISTED = 100
MAX_SCANNED_BYTES = 262_144  # per file, when searching


class FileEntry(Record):
    """One entry of a folder listing; ``size`` in bytes for files."""

    item_kind = "file"

    path: str
    kind: Literal["file", "dir", "link", "other"]
    size: int | None = None


class FileListing(Record):
    """A folder's entries (folders first); ``more`` counts entries left out."""

    path: str
    entries: list[FileEntry]
    more: int = 0


class FileContent(Record):
    """A text file's content; ``truncated`` when only the start is shown."""

    item_kind = "file"

    path: str
    size: int
    truncated: bool
    content: str


class FileHit(Record):
    """A search match: the file, and the line (number and text) when the content matched.

    A match on a table's header row (the first line of a .csv/.tsv file) carries the rows
    under it (``rows``, the last ``TABLE_ROWS``): the header names the column, the rows
    hold the values asked for. Why: asked for a p95 figure, the assistant found only the
    header row "week,p50_ms,p95_ms" and answered with it."""

    item_kind = "file"

    path: str
    line: int | None = None
    text: str = ""
    rows: list[str] | None = None


class WriteResult(Record):
    """What ``write_file`` or ``append_to_file`` did."""

    path: str
    bytes_written: int
    created: bool


class FilesToolbox(Toolbox):
    """Files in the assistant's files folder."""

    domain = "files"

    def __init__(self, store: AssistantStore, max_read_bytes: int = MAX_READ_BYTES) -> None:
        super().__init__(store)
        self.sandbox = Sandbox(store.files_root)
        self.max_read_bytes = max_read_bytes

    @exposed(writes=False)
    def list_files(self, path: str = ".") -> FileListing:
        """List a folder of the files area.

        Args:
            path: Folder relative to the files area, '.' for the top.
        """
        folder = self.sandbox.resolve(path)
        if not folder.is_dir():
            raise ToolInputError(f"{path!r} is not a folder", ErrorKind.not_found)
        children = sorted(folder.iterdir(), key=lambda p: (not _is_real_dir(p), p.name.lower()))
        entries = [self._entry(child) for child in children[:MAX_LISTED]]
        return FileListing(
            path=self.sandbox.relative(folder),
            entries=entries,
            more=max(0, len(children) - MAX_LISTED),
            origin=Origin.user,  # the folder the call named; each entry has its own
        )

    @exposed(writes=False, untrusted_output=True)
    def read_file(self, path: str) -> FileContent:
        """Read a text file (long files are cut, with a marker at the end).

        Args:
            path: File path relative to the files area; a bare file name finds the one file of that name.
        """
        resolved = self.sandbox.resolve(self._existing(path))
        read = self.sandbox.read_text(resolved, self.max_read_bytes)
        content = read.text
        if read.truncated:
            content += (
                f"\n[... truncated: showing the first {self.max_read_bytes} of {read.size} bytes]"
            )
        relative = self.sandbox.relative(resolved)
        return FileContent(path=relative, size=read.size, truncated=read.truncated,
                           content=content, origin=file_origin(self.store, relative))

    def preview_write_file(self, path: str, content: str = "") -> str:
        resolved = self.sandbox.resolve(path)
        if resolved.is_file():
            return f"replaces {self.sandbox.relative(resolved)} ({resolved.stat().st_size} bytes now)"
        return f"a new file {self.sandbox.relative(resolved)}"

    @exposed(writes=True, side_effect=True)
    def write_file(self, path: str, content: str) -> WriteResult:
        """Write a text file, replacing it if it exists; folders are created as needed.

        Args:
            path: File path relative to the files area.
            content: The full text to write.
        """
        resolved = self.sandbox.resolve(path)
        if not isinstance(content, str) or "\x00" in content:
            raise ToolInputError("content must be text without NUL bytes", ErrorKind.binary_file)
        data = content.encode("utf-8")
        if len(data) > MAX_WRITE_BYTES:
            raise ToolInputError(
                f"content is {len(data)} bytes; at most {MAX_WRITE_BYTES}", ErrorKind.too_large
            )
        if resolved == self.sandbox.root or resolved.is_dir():
            raise ToolInputError(f"{path!r} is a folder; give a file name")
        created = not resolved.exists()
        try:
            resolved.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise ToolInputError(f"a file is in the way of the folders of {path!r}") from None
        _atomic_write(resolved, data)
        relative = self.sandbox.relative(resolved)
        set_file_origin(self.store, relative, write_origin())
        return WriteResult(path=relative, bytes_written=len(data), created=created,
                           origin=Origin.user)  # the path and size the call gave

    def preview_append_to_file(self, path: str, text: str = "") -> str:
        return f"adds a line to the end of {self._existing(path)}"

    @exposed(writes=True)
    def append_to_file(self, path: str, text: str) -> WriteResult:
        """Add text at the end of an existing text file, on a new line.

        Args:
            path: File path relative to the files area; a bare file name finds the one file of that name.
            text: The text to add.
        """
        relative = self._existing(path)
        resolved = self.sandbox.resolve(relative)
        text = inputs.text(text, "text", max_chars=MAX_WRITE_BYTES)
        read = self.sandbox.read_text(resolved, MAX_WRITE_BYTES)
        if read.truncated:
            raise ToolInputError(f"{relative} is over {MAX_WRITE_BYTES} bytes; it cannot grow",
                                 ErrorKind.too_large)
        old = read.text
        data = (old + ("" if not old or old.endswith("\n") else "\n") + text + "\n").encode("utf-8")
        if len(data) > MAX_WRITE_BYTES:
            raise ToolInputError(f"{relative} would be over {MAX_WRITE_BYTES} bytes",
                                 ErrorKind.too_large)
        _atomic_write(resolved, data)
        set_file_origin(self.store, relative,
                        merged(file_origin(self.store, relative), write_origin()))
        return WriteResult(path=relative, bytes_written=len(data), created=False,
                           origin=Origin.user)

    def _existing(self, path: str) -> str:
        """The relative path of the existing file ``path`` names: as written, or, for a bare
        file name that is not in the top folder, the one file of that name anywhere ("add
        a line to todo.md": notes/todo.md). Why: a small model writes the name the user
        said, and a new file beside the real one is a junk side effect."""
        resolved = self.sandbox.resolve(path)
        if resolved.is_dir():
            raise ToolInputError(f"{path!r} is a folder; give a file name")
        if resolved.exists():  # a file, or something the reader refuses with its own reason
            return self.sandbox.relative(resolved)
        named = [] if "/" in path.strip("/") else self._named(resolved.name)
        if len(named) == 1:
            return named[0]
        if named:
            raise ToolInputError(f"several files are called {resolved.name!r}: "
                                 f"{', '.join(named[:5])}; give the path")
        raise ToolInputError(f"no file {path!r}{finder_hint(('search_files', 'list_files'), 'paths')}",
                             ErrorKind.not_found, ("search_files", "list_files"))

    def _named(self, name: str) -> list[str]:
        """The files called ``name`` anywhere under the root, as the sandbox resolves them
        (a link that leaves the root is no match)."""
        found = []
        for candidate in self.sandbox.root.rglob(name):
            try:
                resolved = self.sandbox.resolve(str(candidate.relative_to(self.sandbox.root)))
            except ToolInputError:
                continue
            if resolved.is_file():
                found.append(self.sandbox.relative(resolved))
        return sorted(set(found))

    @exposed(writes=False, untrusted_output=True)
    def search_files(self, query: str, limit: int = 20) -> list[FileHit]:
        """Find files whose name or text contains the query (case does not matter).

        Args:
            query: Text to look for.
            limit: How many matches to return (1-50).
        """
        inputs.text(query, "query", max_chars=200, single_line=True)
        words = inputs.search_words(query)
        limit = inputs.limit(limit)
        hits: list[FileHit] = []
        spread: list[FileHit] = []  # files whose name and text hold the words between them
        for relative in self._walk():
            named = inputs.holds_words(relative, words)
            if named:
                hits.append(FileHit(path=relative, origin=file_origin(self.store, relative)))
            found, text = self._content_hits(relative, words, limit - len(hits))
            hits.extend(found)
            if not named and not found and inputs.holds_words(f"{relative}\n{text}", words):
                spread.append(FileHit(path=relative, origin=file_origin(self.store, relative)))
            if len(hits) >= limit:
                break
        return (hits or spread)[:limit]

    # -- helpers --------------------------------------------------------------------
    def _entry(self, child: Path) -> FileEntry:
        relative = self.sandbox.relative(child)
        if child.is_symlink():
            return FileEntry(path=relative, kind="link")
        if child.is_dir():
            return FileEntry(path=relative, kind="dir", origin=folder_origin(self.store, relative))
        if child.is_file():
            return FileEntry(path=relative, kind="file", size=child.stat().st_size,
                             origin=file_origin(self.store, relative))
        return FileEntry(path=relative, kind="other")

    def _walk(self) -> list[str]:
        """Relative paths of the files under the root, symlinked folders not entered."""
        found = []
        for folder, dirs, names in os.walk(self.sandbox.root, followlinks=False):
            dirs.sort()
            for name in sorted(names):
                found.append(self.sandbox.relative(Path(folder) / name))
        return found

    def _content_hits(self, relative: str, words: list[str], room: int
                      ) -> tuple[list[FileHit], str]:
        """The lines of a file that hold every word, and the text read ("" when the file
        is binary, outside the sandbox through a link, or unreadable: it is skipped)."""
        try:
            read = self.sandbox.read_text(self.sandbox.resolve(relative), MAX_SCANNED_BYTES)
        except (ToolInputError, OSError):
            return [], ""
        hits = []
        origin = file_origin(self.store, relative)
        lines = read.text.splitlines()
        for number, line in enumerate(lines, start=1):
            if len(hits) >= room:
                break
            if inputs.holds_words(line, words):
                rows = _table_rows(relative, lines) if number == 1 else None
                hits.append(FileHit(path=relative, line=number, text=line.strip()[:200],
                                    rows=rows, origin=origin))
        return hits, read.text


TABLE_SUFFIXES = (".csv", ".tsv")
TABLE_ROWS = 12


def _table_rows(relative: str, lines: list[str]) -> list[str] | None:
    """The data rows under a table file's header (the last ``TABLE_ROWS``), or None."""
    if not relative.lower().endswith(TABLE_SUFFIXES):
        return None
    rows = [line.strip()[:200] for line in lines[1:] if line.strip()]
    return rows[-TABLE_ROWS:] or None


def file_origin(store: AssistantStore, relative: str) -> Origin:
    """The recorded origin of the file at ``relative``; a stranger's when never recorded."""
    row = store.query_one("SELECT origin FROM file_origins WHERE path = ?", (relative,))
    return Origin.third_party if row is None else Origin(row["origin"])


def folder_origin(store: AssistantStore, relative: str) -> Origin:
    """A folder's name is the user's when botpsy wrote a file of theirs inside it."""
    row = store.query_one(
        "SELECT 1 FROM file_origins WHERE origin = 'user' AND substr(path, 1, ?) = ?",
        (len(relative) + 1, relative + "/"),
    )
    return Origin.third_party if row is None else Origin.user


def set_file_origin(store: AssistantStore, relative: str, origin: Origin) -> None:
    """Record where the file at ``relative`` came from (replacing what was recorded)."""
    with store.write() as tx:
        tx.execute(
            "INSERT INTO file_origins (path, origin) VALUES (?, ?) "
            "ON CONFLICT(path) DO UPDATE SET origin = excluded.origin",
            (relative, origin.value),
        )


def _is_real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _atomic_write(target: Path, data: bytes) -> None:
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
