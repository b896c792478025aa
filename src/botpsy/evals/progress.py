"""One progress-bar style for every eval step (rich; off with ``enabled=False`` in tests)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


@contextmanager
def progress_bar(enabled: bool = True) -> Iterator[Progress]:
    """A Progress with label, bar, done/total, elapsed and remaining time."""
    columns = (
        TextColumn("{task.description:<28}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, disable=not enabled) as bar:
        yield bar
