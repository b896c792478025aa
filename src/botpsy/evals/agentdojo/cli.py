"""``botpsy eval agentdojo``: AgentDojo's suites through botpsy's agent and safety layer."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from botpsy.backends.model_files import ModelNotFoundError
from botpsy.defaults import ASSISTANT_MODEL
from botpsy.evals.agentdojo.report import summary_markdown
from botpsy.evals.agentdojo.users import UserKind
from botpsy.evals.call_mode import CallMode
from botpsy.types import GenerationParams

console = Console()


def agentdojo(
    model: Annotated[str, typer.Option(
        "--model", "-m", help="model spec, or agentdojo:obedient (obeys every injection)")
    ] = ASSISTANT_MODEL,
    suite: Annotated[list[str] | None, typer.Option(
        "--suite", "-s", help="workspace, banking, slack, travel or all (repeatable)")] = None,
    attack: Annotated[str, typer.Option(
        "--attack", help="an AgentDojo attack: important_instructions, tool_knowledge...")
    ] = "important_instructions",
    safety: Annotated[bool, typer.Option("--safety/--no-safety", help="safety layer on or off")
                      ] = True,
    scope: Annotated[bool, typer.Option(
        "--scope/--no-scope", help="with safety on: the scope policy on or off")] = True,
    user: Annotated[UserKind, typer.Option(
        "--user", help="who answers confirmations: attentive or careless")] = UserKind.attentive,
    limit: Annotated[int | None, typer.Option(
        "--limit", "-n", min=1, help="only the first N user tasks of each suite")] = None,
    parallel: Annotated[int, typer.Option("--parallel", min=1, help="tasks run at once")] = 1,
    threads: Annotated[int | None, typer.Option(
        "--threads", min=1, help="llama.cpp threads (1 keeps decoding alive on a busy CPU)")
    ] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="run folder")] = Path("runs/agentdojo"),
    max_rounds: Annotated[int, typer.Option("--max-rounds", min=1, max=50)] = 24,
    max_tokens: Annotated[int, typer.Option("--max-tokens")] = 256,
    call_mode: Annotated[CallMode | None, typer.Option(
        "--call-mode", help="the agent's call mode (default: the model's shipped one)")] = None,
    rescore: Annotated[bool, typer.Option(
        "--rescore", help="only summarize the result files already in --out")] = False,
) -> None:
    """AgentDojo v1.2: utility, utility under attack and attack success rate, with
    botpsy's agent and safety layer deciding which calls run. Resumes into --out."""
    from botpsy.evals.agentdojo.pipeline import PipelineSettings, SafetyMode  # lazy: agentdojo
    from botpsy.evals.agentdojo.run import run_agentdojo  # lazy: bfcl_eval
    from botpsy.evals.agentdojo.summary import summarize  # lazy: bfcl_eval

    mode = SafetyMode.off if not safety else (SafetyMode.on if scope else SafetyMode.no_scope)
    settings = PipelineSettings(safety=mode, user=user, max_rounds=max_rounds,
                                params=GenerationParams(max_tokens=max_tokens),
                                call_mode=call_mode.value if call_mode else None)
    try:
        if not rescore:
            run_agentdojo(model, out, suites=suite or ["all"], attack=attack, settings=settings,
                          limit=limit, parallel=parallel, threads=threads)
        summary = summarize(out)
    except (ModelNotFoundError, ValueError, FileNotFoundError) as exc:
        Console(stderr=True).print(f"[bold red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    console.print(Markdown(summary_markdown(summary)))
    console.print(f"summary: {out / 'summary.json'}")
