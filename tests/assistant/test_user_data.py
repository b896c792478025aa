"""The store: folders, profile settings, the data-dir default."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from botpsy.assistant.user_data import AssistantStore


def test_store_creates_database_and_files_root(tmp_path: Path) -> None:
    target = tmp_path / "new" / "place"
    assert not AssistantStore.exists(target)
    with AssistantStore(target) as store:
        assert store.db_path == target / "assistant.db"
        assert store.files_root == (target / "files").resolve()
        assert store.files_root.is_dir()
    assert AssistantStore.exists(target)


def test_profile_defaults_and_updates(tmp_path: Path) -> None:
    with AssistantStore(tmp_path) as store:
        assert store.profile.timezone == "UTC"
        store.set_profile(name="Ana", timezone="America/New_York")
        assert store.profile.name == "Ana"
        assert store.tz.key == "America/New_York"
    with AssistantStore(tmp_path) as reopened:  # persisted in the settings table
        assert reopened.profile.name == "Ana"


def test_unknown_time_zone_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    with AssistantStore(tmp_path) as store:
        store.set_profile(timezone="Europe/Berlin")
        with pytest.raises(ValidationError, match="unknown time zone"):
            store.set_profile(timezone="Mars/Olympus_Mons")
        assert store.profile.timezone == "Europe/Berlin"


def test_settings_hold_json_values(tmp_path: Path) -> None:
    with AssistantStore(tmp_path) as store:
        store.set_setting("k", {"a": [1, 2]})
        store.set_setting("k", {"a": [3]})
        assert store.get_setting("k") == {"a": [3]}
        assert store.get_setting("missing", "fallback") == "fallback"


def test_threads_and_a_second_connection_write_safely(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from botpsy.assistant.reminders import RemindersToolbox

    with AssistantStore(tmp_path) as first, AssistantStore(tmp_path) as second:
        boxes = [RemindersToolbox(first), RemindersToolbox(second)]
        with ThreadPoolExecutor(max_workers=4) as pool:
            added = list(pool.map(lambda n: boxes[n % 2].add_reminder(f"r{n}").id, range(40)))
        assert len(set(added)) == 40
        assert first.query_one("SELECT count(*) AS n FROM reminders")["n"] == 40
        assert first.query_one("PRAGMA integrity_check")[0] == "ok"
