"""Rendering tool results for a short model context."""

from __future__ import annotations

import enum

import pytest
from pydantic import BaseModel

from botpsy.tools.render import render_result, to_text, truncate


class Mood(enum.Enum):
    calm = "calm"


class Entry(BaseModel):
    id: int
    mood: Mood


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("plain text", "plain text"),
        (b"bytes \xff", "bytes \ufffd"),
        (None, "null"),
        (3.5, "3.5"),
        (True, "true"),
        ({"é": [1, 2]}, '{"é":[1,2]}'),
        ((1, "a"), '[1,"a"]'),
        ([Entry(id=1, mood=Mood.calm)], '[{"id":1,"mood":"calm"}]'),
    ],
)
def test_to_text(value: object, text: str) -> None:
    assert to_text(value) == text


@pytest.mark.parametrize("limit", range(40, 500, 29))
def test_truncate_fits_the_limit_and_says_what_was_cut(limit: int) -> None:
    text = "y" * 500
    cut = truncate(text, limit)
    assert limit - 1 <= len(cut) <= limit  # a digit more in the count may not fit
    kept = cut.index("…")
    assert cut.endswith(f"…[truncated: showing {kept} of 500 chars]")


def test_truncate_leaves_short_text_and_none_limit_alone() -> None:
    assert truncate("abc", 3) == "abc"
    assert truncate("abc" * 1000, None) == "abc" * 1000


def test_tiny_limit_still_shows_the_marker() -> None:
    assert truncate("z" * 100, 5).startswith("…[truncated: showing 0 of 100 chars]")


def test_render_result_defaults_to_a_cap() -> None:
    assert len(render_result("q" * 100_000)) == 4000
