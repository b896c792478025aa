"""Tool descriptions from docstrings.

The first paragraph of a function's docstring becomes the tool description and
the ``Args:`` section (Google style; reST ``:param:`` and NumPy sections work
too, via docstring-parser) becomes the parameter descriptions, so a tool is
documented once, for people and for the model alike.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

from docstring_parser import parse


@dataclass(frozen=True)
class DocInfo:
    """What a docstring says about a tool: its summary and one line per parameter."""

    description: str = ""
    params: dict[str, str] = field(default_factory=dict)


def _one_line(text: str) -> str:
    """Collapse wrapped docstring lines: prompts for small models stay compact."""
    return re.sub(r"\s+", " ", text).strip()


def _first_paragraph(short: str | None, long: str | None, joined: bool) -> str:
    """The summary paragraph; ``joined`` means the summary wraps into ``long``."""
    text = short or ""
    if joined and long:
        text += "\n" + long.split("\n\n", 1)[0]
    return _one_line(text)


def parse_docstring(doc: str | None) -> DocInfo:
    """Summary paragraph and per-parameter descriptions of ``doc`` (any common style)."""
    if not doc or not doc.strip():
        return DocInfo()
    parsed = parse(inspect.cleandoc(doc))
    description = _first_paragraph(
        parsed.short_description,
        parsed.long_description,
        joined=not parsed.blank_after_short_description,
    )
    params = {
        p.arg_name: _one_line(p.description)
        for p in parsed.params
        if p.description and p.args[0] == "param"
    }
    return DocInfo(description=description, params=params)
