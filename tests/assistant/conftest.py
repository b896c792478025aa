"""Fixtures: a store in a temporary folder with a fixed clock and zone.

The clock stands at Wednesday 2025-03-05 10:00 in Berlin (09:00 UTC), so 'today',
'tomorrow' and weekday names mean the same thing on every run.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from botpsy.assistant.user_data import AssistantStore

NOW = datetime(2025, 3, 5, 9, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[AssistantStore]:
    with AssistantStore(tmp_path / "data", clock=lambda: NOW) as opened:
        opened.set_profile(name="Alex Morgan", email="alex@example.com", timezone="Europe/Berlin")
        yield opened
