"""No effect without its audit row, whenever the process dies: SIGKILL at random moments.

``kill_driver.py`` runs real agent turns (a scripted model creating notes and
reminders through the same pipeline as the CLI); this test kills its workers at
random moments and then looks for notes or reminders that no audit row names.
The default suite kills ten times; ``-m slow`` runs 60 kills.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest

DRIVER = Path(__file__).with_name("kill_driver.py")
MARKER = re.compile(r"k\d+-\d+")


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


def kill_workers(data_dir: Path, kills: int, seed: int) -> KillReport:
    """Start the driver, kill ``kills`` workers each after a random delay, and check."""
    rng = random.Random(seed)
    driver = subprocess.Popen([sys.executable, str(DRIVER), str(data_dir)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        for round_ in range(kills):
            driver.stdin.write(f"go {round_}\n")
            driver.stdin.flush()
            pid = int(driver.stdout.readline())
            first = driver.stdout.readline().split()  # "turn SECONDS": one turn is done
            assert first[0] == "turn", first
            time.sleep(rng.uniform(0.0, 1.5 * float(first[1])))  # into the next turn or two
            os.kill(pid, signal.SIGKILL)
            while (line := driver.stdout.readline()) and line.strip() != "reaped":
                pass
            assert line, "the driver died"
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
