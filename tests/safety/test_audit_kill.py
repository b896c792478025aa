"""No effect without its audit row, whenever the process dies: SIGKILL at random moments.

``kill_driver.py`` runs real agent turns (a scripted model creating notes and
reminders through the same pipeline as the CLI); this test kills its workers at
random moments and then looks for notes or reminders that no audit row names.
The default suite kills ten times; ``-m slow`` runs 60 kills.
"""

from __future__ import annotations

import json
import os
import queue
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest

DRIVER = Path(__file__).with_name("kill_driver.py")
MARKER = re.compile(r"k\d+-\d+")
# above the driver's own watchdog (kill_driver.TURN_LIMIT_S), so its stack dump is in the file first
LINE_LIMIT_S = 180.0


@dataclass
class KillReport:
    kills: int
    effects: int  # notes and reminders the workers created
    orphans: list[str]  # markers of effects with no audit row
    pending_rows: int  # rows of calls that were killed while they ran


def _markers(db: Path, query: str) -> set[str]:
    with closing(sqlite3.connect(db)) as conn:
        found = set()
        for (text,) in conn.execute(query):
            found.update(MARKER.findall(text))
        return found


def check(data_dir: Path, kills: int) -> KillReport:
    effects = _markers(data_dir / "assistant.db",
                       "SELECT title FROM notes UNION ALL SELECT text FROM reminders")
    audited = _markers(data_dir / "audit.db", "SELECT arguments FROM audit_log")
    with closing(sqlite3.connect(data_dir / "audit.db")) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(audit_log)")}
        pending = (conn.execute("SELECT COUNT(*) FROM audit_log WHERE status = 'pending'")
                   .fetchone()[0] if "status" in columns else 0)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    return KillReport(kills, len(effects), sorted(effects - audited), pending)


class DriverLines:
    """The driver's stdout, one line at a time, each awaited for at most ``limit_s``.

    A reader thread fills a queue, so a worker that hangs fails the test with the
    driver's stderr (the watchdog's stack dump) instead of blocking the suite on a
    ``readline`` for ever."""

    def __init__(self, driver: subprocess.Popen, stderr: Path, limit_s: float) -> None:
        self.stderr, self.limit_s = stderr, limit_s
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []  # what the test read, for the failure message
        threading.Thread(target=self._read, args=(driver.stdout,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put("")  # end of output: the driver died

    def next(self, waiting_for: str) -> str:
        try:
            line = self.lines.get(timeout=self.limit_s)
        except queue.Empty:
            line = None
        if not line:
            tail = self.stderr.read_text(errors="replace")[-4000:]
            what = "died" if line == "" else f"said nothing for {self.limit_s:.0f} s"
            pytest.fail(f"the kill driver {what} while the test waited for {waiting_for}; "
                        f"its last lines: {self.seen[-12:]}; its stderr ends:\n{tail}")
        self.seen.append(line.strip())
        return line


def kill_workers(data_dir: Path, kills: int, seed: int) -> KillReport:
    """Start the driver, kill ``kills`` workers each after a random delay, and check."""
    rng = random.Random(seed)
    stderr = data_dir / "driver.stderr"
    with stderr.open("w") as errors:
        driver = subprocess.Popen([sys.executable, str(DRIVER), str(data_dir)], text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
    lines = DriverLines(driver, stderr, limit_s=LINE_LIMIT_S)
    try:
        for round_ in range(kills):
            driver.stdin.write(f"go {round_}\n")
            driver.stdin.flush()
            said = lines.next("a worker's pid").split()  # "pid PID"
            assert said[0] == "pid", said
            pid = int(said[1])
            first = lines.next("a worker's first turn").split()  # "turn SECONDS": one turn is done
            assert first[0] == "turn", first
            time.sleep(rng.uniform(0.0, 1.5 * float(first[1])))  # into the next turn or two
            os.kill(pid, signal.SIGKILL)
            while lines.next("the killed worker to be reaped").strip() != "reaped":
                pass
        driver.stdin.write("quit\n")
        driver.stdin.flush()
        driver.wait(timeout=30)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    return check(data_dir, kills)


def test_ten_kills_leave_no_effect_without_its_audit_row(tmp_path):
    report = kill_workers(tmp_path, kills=10, seed=1)
    assert report.effects >= 10, report  # the workers did run turns before dying
    assert report.orphans == [], report


@pytest.mark.slow
def test_sixty_kills_leave_no_effect_without_its_audit_row(tmp_path):
    report = kill_workers(tmp_path, kills=60, seed=2)
    print(json.dumps(report.__dict__))
    assert report.effects >= 60, report
    assert report.orphans == [], report


def test_a_driver_that_hangs_fails_the_wait_with_its_stderr(tmp_path):
    stderr = tmp_path / "stderr"
    stderr.write_text("stack of the hung worker\n")
    hung = subprocess.Popen([sys.executable, "-c", "import time; print('1', flush=True); time.sleep(60)"],
                            text=True, stdout=subprocess.PIPE)
    try:
        lines = DriverLines(hung, stderr, limit_s=1.0)
        assert lines.next("a pid") == "1\n"
        with pytest.raises(pytest.fail.Exception, match="(?s)said nothing for 1 s.*stack of the hung worker"):
            lines.next("a turn")
    finally:
        hung.kill()
        hung.wait()
