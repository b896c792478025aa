"""The per-user data folder every layer keeps its files in."""

from __future__ import annotations

import platformdirs

from botpsy.paths import default_data_dir


def test_default_data_dir_is_the_per_user_data_folder() -> None:
    expected = platformdirs.user_data_path("botpsy", appauthor=False)
    assert default_data_dir().parent == expected
