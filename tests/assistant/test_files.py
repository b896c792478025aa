"""File tools and the sandbox: normal use, then every way out of the root we could think of."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.assistant.files import MAX_WRITE_BYTES, FilesToolbox
from botpsy.assistant.user_data import AssistantStore


@pytest.fixture
def files(store: AssistantStore) -> FilesToolbox:
    root = store.files_root
    (root / "work").mkdir()
    (root / "work" / "plan.md").write_text("# Plan\nship the roadmap\nhire two people\n")
    (root / "todo.txt").write_text("buy milk\nRoadmap slides for Dan\n")
    (root / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    return FilesToolbox(store, max_read_bytes=1024)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside"
    secret.mkdir()
    (secret / "secret.txt").write_text("top secret")
    return secret


def test_list_files(files: FilesToolbox) -> None:
    top = files.list_files()
    assert top.path == "."
    assert [(e.path, e.kind) for e in top.entries] == [
        ("work", "dir"),
        ("photo.png", "file"),
        ("todo.txt", "file"),
    ]
    assert top.entries[2].size == len("buy milk\nRoadmap slides for Dan\n")
    assert [e.path for e in files.list_files("work/").entries] == ["work/plan.md"]


def test_read_and_write_files(files: FilesToolbox, store: AssistantStore) -> None:
    assert files.read_file("work/plan.md").content.startswith("# Plan")
    result = files.write_file("notes/new/idea.txt", "Grüße\n")
    assert (result.path, result.created, result.bytes_written) == (
        "notes/new/idea.txt",
        True,
        len("Grüße\n".encode()),
    )
    assert (store.files_root / "notes/new/idea.txt").read_text() == "Grüße\n"
    again = files.write_file("./notes/new/idea.txt", "replaced")
    assert not again.created
    assert files.read_file("notes/new/idea.txt").content == "replaced"
    assert not [p for p in (store.files_root / "notes/new").iterdir() if p.name.startswith(".")]


def test_search_files_by_name_and_content(files: FilesToolbox) -> None:
    hits = files.search_files("roadmap")
    assert [(h.path, h.line) for h in hits] == [("todo.txt", 2), ("work/plan.md", 2)]
    assert hits[0].text == "Roadmap slides for Dan"
    assert [h.path for h in files.search_files("plan.md")] == ["work/plan.md"]
    assert files.search_files("IHDR") == []  # binary content is not searched
    assert len(files.search_files("o", limit=2)) == 2


@pytest.mark.parametrize(
    "path",
    [
        "../outside/secret.txt",
        "work/../../x",
        "..",
        "/etc/passwd",
        "C:\\Windows\\win.ini",
        "~/secret.txt",
        "bad\x00name.txt",
        "a" * 256 + ".txt",
        "x/" * 600,
        "line\nbreak.txt",
    ],
)
def test_hostile_paths_are_rejected_everywhere(files: FilesToolbox, path: str) -> None:
    for call in (
        lambda: files.read_file(path),
        lambda: files.list_files(path),
        lambda: files.write_file(path, "pwned"),
    ):
        with pytest.raises(ToolInputError) as caught:
            call()
        assert caught.value.kind is ErrorKind.path_rejected


def test_symlinks_that_leave_the_root_are_rejected(
    files: FilesToolbox, store: AssistantStore, outside: Path
) -> None:
    root = store.files_root
    os.symlink(outside, root / "escape_dir")
    os.symlink(outside / "secret.txt", root / "escape_file.txt")
    for path in ("escape_dir/secret.txt", "escape_file.txt", "escape_dir"):
        with pytest.raises(ToolInputError, match="outside the files folder"):
            files.read_file(path)
    with pytest.raises(ToolInputError, match="outside"):
        files.write_file("escape_dir/planted.txt", "x")
    with pytest.raises(ToolInputError, match="outside"):
        files.write_file("escape_file.txt", "overwrite")
    assert (outside / "secret.txt").read_text() == "top secret"
    assert not (outside / "planted.txt").exists()
    assert "top secret" not in str(files.search_files("secret"))
    kinds = {e.path: e.kind for e in files.list_files().entries}
    assert kinds["escape_dir"] == kinds["escape_file.txt"] == "link"


def test_symlinks_inside_the_root_work(files: FilesToolbox, store: AssistantStore) -> None:
    os.symlink(store.files_root / "work" / "plan.md", store.files_root / "plan-link.md")
    assert files.read_file("plan-link.md").path == "work/plan.md"


def test_huge_file_is_cut_with_a_marker(files: FilesToolbox, store: AssistantStore) -> None:
    big = store.files_root / "big.log"
    with big.open("w") as handle:
        for number in range(200_000):
            handle.write(f"line {number} é\n")
    read = files.read_file("big.log")
    assert read.truncated and read.size == big.stat().st_size
    assert read.content.startswith("line 0 é\nline 1 é")
    assert read.content.endswith(f"[... truncated: showing the first 1024 of {read.size} bytes]")
    assert len(read.content) < 1200


def test_a_multibyte_character_cut_by_the_limit_is_not_an_error(store: AssistantStore) -> None:
    (store.files_root / "u.txt").write_text("a" + "é" * 100)  # 'é' is 2 bytes: limit splits one
    read = FilesToolbox(store, max_read_bytes=10).read_file("u.txt")
    assert read.truncated and read.content.startswith("a" + "é" * 4)


def test_binary_and_non_text_files_are_refused(files: FilesToolbox, store: AssistantStore) -> None:
    with pytest.raises(ToolInputError, match="binary") as caught:
        files.read_file("photo.png")
    assert caught.value.kind is ErrorKind.binary_file
    (store.files_root / "latin1.txt").write_bytes("Grüße".encode("latin-1"))
    with pytest.raises(ToolInputError, match="not UTF-8"):
        files.read_file("latin1.txt")
    with pytest.raises(ToolInputError, match="is a folder"):
        files.read_file("work")
    with pytest.raises(ToolInputError) as missing:
        files.read_file("nope.txt")
    assert missing.value.kind is ErrorKind.not_found
    os.mkfifo(store.files_root / "pipe")
    with pytest.raises(ToolInputError, match="not a regular file"):
        files.read_file("pipe")  # would block forever if opened


def test_bad_writes_change_nothing(files: FilesToolbox, store: AssistantStore) -> None:
    with pytest.raises(ToolInputError, match="is a folder"):
        files.write_file("work", "x")
    with pytest.raises(ToolInputError, match="is a folder"):
        files.write_file(".", "x")
    with pytest.raises(ToolInputError) as caught:
        files.write_file("big.txt", "x" * (MAX_WRITE_BYTES + 1))
    assert caught.value.kind is ErrorKind.too_large
    with pytest.raises(ToolInputError, match="NUL"):
        files.write_file("nul.txt", "a\x00b")
    with pytest.raises(ToolInputError, match="in the way"):
        files.write_file("todo.txt/inner.txt", "x")
    assert sorted(p.name for p in store.files_root.iterdir()) == ["photo.png", "todo.txt", "work"]
    assert (store.files_root / "todo.txt").read_text().startswith("buy milk")


def test_list_and_search_bad_input(files: FilesToolbox) -> None:
    with pytest.raises(ToolInputError, match="not a folder"):
        files.list_files("todo.txt")
    with pytest.raises(ToolInputError, match="not a folder"):
        files.list_files("missing")
    with pytest.raises(ToolInputError, match="query must not be empty"):
        files.search_files(" ")


def test_a_match_on_a_table_header_carries_the_rows_under_it(files: FilesToolbox) -> None:
    files.write_file("work/latency.csv", "week,p50_ms,p95_ms\n1,82,310\n2,79,274\n")
    files.write_file("work/notes.md", "p95_ms is the tail\nmore\n")
    header, prose = files.search_files("p95_ms")
    assert header.path == "work/latency.csv" and header.rows == ["1,82,310", "2,79,274"]
    assert prose.rows is None and "rows" not in prose.model_dump()
    assert files.search_files("79,274")[0].rows is None  # a data row is the value itself


def test_append_adds_a_line_to_the_one_file_of_that_name(files: FilesToolbox,
                                                          store: AssistantStore) -> None:
    done = files.append_to_file("plan.md", "book the offsite")  # bare name: work/plan.md
    assert (done.path, done.created) == ("work/plan.md", False)
    assert (store.files_root / "work" / "plan.md").read_text() == (
        "# Plan\nship the roadmap\nhire two people\nbook the offsite\n")
    (store.files_root / "todo.txt").write_text("buy milk")  # no newline at the end
    files.append_to_file("todo.txt", "call the bank")
    assert (store.files_root / "todo.txt").read_text() == "buy milk\ncall the bank\n"
    assert "work/plan.md" in files.preview_append_to_file("plan.md")


def test_append_never_creates_or_guesses_a_file(files: FilesToolbox, store: AssistantStore) -> None:
    with pytest.raises(ToolInputError) as missing:
        files.append_to_file("nothing.md", "x")
    assert missing.value.kind is ErrorKind.not_found and "search_files" in missing.value.finders
    (store.files_root / "plan.md").write_text("other plan\n")
    (store.files_root / "work" / "x").mkdir()
    (store.files_root / "work" / "x" / "notes.md").write_text("a\n")
    (store.files_root / "notes.md").unlink(missing_ok=True)
    with pytest.raises(ToolInputError, match="folder"):
        files.append_to_file("work", "x")
    assert files.append_to_file("plan.md", "top").path == "plan.md"  # the name as written wins
    with pytest.raises(ToolInputError, match="empty|text"):
        files.append_to_file("plan.md", "   ")
    assert not (store.files_root / "nothing.md").exists()


def test_a_bare_name_never_finds_a_file_through_a_link_out_of_the_root(
        files: FilesToolbox, store: AssistantStore, outside: Path) -> None:
    (store.files_root / "escape").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ToolInputError) as missing:
        files.read_file("secret.txt")
    assert missing.value.kind is ErrorKind.not_found
    assert files.read_file("plan.md").path == "work/plan.md"
