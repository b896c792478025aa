"""Markdown tables and percent cells, the pieces every eval report is written with.

A leaf module: the BFCL, scenario, injection and held-out reports all use it, and
importing it pulls in no eval.
"""

from __future__ import annotations

from collections.abc import Sequence


def pct(value: float | None) -> str:
    """A fraction as a percent with one decimal; "n/a" when there is none."""
    return "n/a" if value is None else f"{100 * value:.1f}"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A GitHub Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)
