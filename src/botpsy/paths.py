"""Where botpsy keeps the user's data on this machine, in a leaf module every layer may read.

The agent's sessions, the safety audit log and the assistant's own database all live in
one per-user folder; they name it here rather than asking the assistant for it, so that
the lower layers need not import the layer above them.
"""

from __future__ import annotations

from pathlib import Path

import platformdirs


def default_data_dir() -> Path:
    """Where the assistant keeps its data unless told otherwise (per-user data dir)."""
    return platformdirs.user_data_path("botpsy", appauthor=False) / "assistant"
