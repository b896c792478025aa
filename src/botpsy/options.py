"""The command line's shared options: one name, one meaning, one help text.

Every botpsy command that takes one of these declares it from here, so an option
means the same in ``ask``, ``chat``, ``serve``, ``mcp``, ``audit``, ``init``,
``import`` and ``eval`` (``tests/test_cli_options.py`` checks it):

- ``--data-dir DIR``: the assistant's data folder (store, sessions, audit log);
  every assistant command takes it;
- ``--safety-config FILE``: a safety config (TOML/JSON); ``--safety/--no-safety`` is
  only ``eval``'s switch for the safety layer, never a file;
- ``--model/-m SPEC``, ``--format NAME``, ``--max-tokens N``, ``--n-ctx N``;
- ``--json``: JSON for programs instead of text; ``--verbose/-v``: the raw tool
  calls and results besides the answer.

Old spellings stay as hidden, deprecated aliases (``audit --db``, ``--safety FILE``)
that say what to write instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from botpsy.defaults import ASSISTANT_MODEL

DEFAULT_MODEL = ASSISTANT_MODEL

DataDirOpt = Annotated[Path | None, typer.Option(
    "--data-dir", help="The assistant's data folder: store, sessions, audit log "
    "(default: the per-user data folder).")]
SafetyConfigOpt = Annotated[Path | None, typer.Option(
    "--safety-config", help="Safety config file (TOML/JSON): scope policy, confirmations.")]
ModelOpt = Annotated[str, typer.Option(
    "--model", "-m", help="Model spec: botpsy-smol, smollm2, a .gguf, a Hugging Face folder, "
    "openai:URL#model, scripted:PATH.jsonl (see `botpsy models`).")]
FormatOpt = Annotated[str | None, typer.Option(
    "--format", help="Chat format override: qwen35 | hermes | pythonic (default: detected).")]
MaxTokensOpt = Annotated[int, typer.Option(
    "--max-tokens", min=1, help="Generation budget per model call, in tokens.")]
NCtxOpt = Annotated[int, typer.Option("--n-ctx", min=512, help="Context window, in tokens.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for programs instead of text.")]
VerboseOpt = Annotated[bool, typer.Option(
    "--verbose", "-v", help="Also show the raw tool calls and results.")]
OldSafetyOpt = Annotated[Path | None, typer.Option(
    "--safety", hidden=True, help="Deprecated spelling of --safety-config.")]


def deprecated(old: str, new: str, value: Path | None, current: Path | None) -> Path | None:
    """``current`` (the new option's value), or ``value`` given under the old name
    ``old``, with a warning naming ``new``; both given is an error."""
    if value is None:
        return current
    if current is not None:
        typer.echo(f"error: give {new} only ({old} is its old name)", err=True)
        raise typer.Exit(2)
    typer.echo(f"warning: {old} is deprecated; write {new} {value}", err=True)
    return value
