"""Small helpers shared by the assistant tests."""

from __future__ import annotations

from botpsy.assistant.user_data import AssistantStore


def count(store: AssistantStore, table: str) -> int:
    """Rows in ``table``: tests use it to show that bad input wrote nothing."""
    return store.query_one(f"SELECT count(*) AS n FROM {table}")["n"]
