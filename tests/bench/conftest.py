"""Fixtures of the bench tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import write_tiny_gguf


@pytest.fixture
def tiny_gguf(tmp_path: Path) -> Path:
    """A one-layer random llama GGUF (f32, tied embeddings)."""
    return write_tiny_gguf(tmp_path / "tiny.gguf")
