"""Chat formats: how tools and messages become a prompt, and model text becomes calls.

``get_format(name)`` gives a format (``qwen35``, ``hermes``, ``pythonic``);
``detect_format(template, architecture, name)`` picks one from model metadata.
Every format renders ChatML (chatml.py) and parses tolerantly through one
resumable scanner (scan.py), so streaming and one-shot parsing agree.
"""

from __future__ import annotations

from collections.abc import Callable

from botpsy.formats.base import ChatFormat, ConstrainedChatFormat, StreamParser
from botpsy.formats.detect import DEFAULT_FORMAT, detect_format
from botpsy.formats.hermes import HermesFormat
from botpsy.formats.pythonic import PythonicFormat
from botpsy.formats.qwen35 import Qwen35Format

FORMATS: dict[str, Callable[[], ChatFormat]] = {
    "qwen35": Qwen35Format,
    "hermes": HermesFormat,
    "pythonic": PythonicFormat,
}


def get_format(name: str) -> ChatFormat:
    """A fresh instance of the format called ``name``."""
    try:
        return FORMATS[name]()
    except KeyError:
        raise ValueError(
            f"unknown chat format {name!r}; known formats: {', '.join(sorted(FORMATS))}"
        ) from None


__all__ = [
    "DEFAULT_FORMAT",
    "FORMATS",
    "ChatFormat",
    "ConstrainedChatFormat",
    "StreamParser",
    "detect_format",
    "get_format",
]
