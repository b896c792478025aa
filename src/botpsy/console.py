"""The command line's one way to stop on bad input, shared by every package's commands.

A leaf module (typer and rich only), so ``botpsy.cli`` and the per-package command
modules below it (``botpsy.assistant.cli``, ...) use the same message and exit code
without a package importing the CLI that mounts it.
"""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

err = Console(stderr=True)


def fail(message: str, code: int = 2) -> None:
    """Print a clear error and exit: bad input never produces a traceback."""
    err.print(f"[bold red]error:[/] {escape(str(message))}")
    raise typer.Exit(code)
