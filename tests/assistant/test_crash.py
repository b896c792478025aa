"""A writer killed with SIGKILL mid-burst leaves a sound database with every commit it reported.

The writer runs in a subprocess and prints a note id after each commit; each
transaction writes a note (plus its FTS index entry) and a reminder together, so
a half-applied transaction would show up as a note without its reminder.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from botpsy.assistant.user_data import AssistantStore

WRITER = textwrap.dedent("""
    import sys
    from botpsy.assistant.notes import insert_note
    from botpsy.assistant.reminders import insert_reminder
    from botpsy.assistant.user_data import AssistantStore

    store = AssistantStore(sys.argv[1])
    print("ready", flush=True)
    number = 0
    while True:
        with store.write() as tx:
            note_id = insert_note(tx, f"burst {number}", "payload " * 200, "2025-03-05T09:00:00Z")
            insert_reminder(tx, f"burst {number}", None, "2025-03-05T09:00:00Z")
        print(note_id, flush=True)
        number += 1
""")
COMMITS_BEFORE_KILL = 150


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_sigkill_during_a_write_burst_loses_nothing_reported(tmp_path: Path) -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path)], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout.readline().strip() == "ready"
        reported = []
        deadline = time.monotonic() + 20
        while len(reported) < COMMITS_BEFORE_KILL and time.monotonic() < deadline:
            reported.append(int(writer.stdout.readline()))
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait(timeout=10)
        tail = writer.stdout.read()  # ids printed before the kill landed
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
    reported += [int(line) for line in tail.splitlines(keepends=True) if line.endswith("\n")]
    assert writer.returncode == -signal.SIGKILL
    assert len(reported) >= COMMITS_BEFORE_KILL

    with AssistantStore(tmp_path) as store:
        assert store.query_one("PRAGMA integrity_check")[0] == "ok"
        store.db.execute("INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')")
        present = {row["id"] for row in store.query("SELECT id FROM notes")}
        assert set(reported) <= present
        notes = store.query_one("SELECT count(*) AS n FROM notes")["n"]
        reminders = store.query_one("SELECT count(*) AS n FROM reminders")["n"]
        assert notes == reminders  # no transaction was half applied
        assert notes - len(reported) <= 1  # at most the one committed but not yet printed
