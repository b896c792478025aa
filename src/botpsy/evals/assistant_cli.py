"""``botpsy eval scenarios | injection | safety``: the assistant-level evaluations.

Separate from ``evals/cli.py`` (BFCL and tool schemas) because these drive the
whole assistant (store, agent, safety layer), not a single model turn. Each
command writes results/ and scores/ under ``--out`` and prints the summary;
``--rescore`` recomputes scores from saved results without the model.
``--call-mode`` runs the Agent in ``auto`` or ``single_call`` mode instead of
the model's shipped default; the summary says which mode the figures are from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from botpsy.defaults import ASSISTANT_MODEL
from botpsy.evals.call_mode import CallMode
from botpsy.options import SafetyConfigOpt

console = Console()
ModelOpt = Annotated[str, typer.Option("--model", "-m", help="model spec, or `reference` (replays the reference solutions)")]
OutOpt = Annotated[Path, typer.Option("--out", "-o", help="run folder")]
MaxTokensOpt = Annotated[int, typer.Option("--max-tokens")]
CallModeOpt = Annotated[CallMode | None, typer.Option(
    "--call-mode", help="the agent's call mode (default: the model's shipped one)")]
ParallelOpt = Annotated[int, typer.Option(
    "--parallel", min=1, help="episodes played at once; a GGUF then decodes them together")]


def _fail(message: str) -> None:
    Console(stderr=True).print(f"[bold red]error:[/] {escape(str(message))}")
    raise typer.Exit(2)


def scenarios(
    model: ModelOpt = ASSISTANT_MODEL,
    out: OutOpt = Path("runs/scenarios"),
    split: Annotated[str | None, typer.Option(help="single | multi (default: both)")] = None,
    limit: Annotated[int | None, typer.Option("--limit", "-n", min=1)] = None,
    every: Annotated[int, typer.Option("--every", min=1,
                                       help="every Nth scenario: a sample spanning all domains")] = 1,
    safety: Annotated[bool, typer.Option("--safety/--no-safety")] = True,
    max_tokens: MaxTokensOpt = 256,
    call_mode: CallModeOpt = None,
    rescore: Annotated[bool, typer.Option("--rescore", help="score saved results again")] = False,
    parallel: ParallelOpt = 1,
) -> None:
    """Stateful assistant tasks (ToolSandbox-style): milestones on the final store, minefields."""
    from botpsy.backends.store import ModelNotFoundError
    from botpsy.evals.scenarios.report import run_label
    from botpsy.evals.scenarios.runner import run_scenarios, score_scenarios

    try:
        report = score_scenarios(out) if rescore else run_scenarios(
            model, out, split=split, limit=limit, every=every, safety=safety,
            max_tokens=max_tokens, call_mode=call_mode, parallel=parallel)
    except (ModelNotFoundError, ValueError, FileNotFoundError) as exc:
        _fail(str(exc))
    console.print(f"{report.model}: {run_label(report.safety, report.call_mode)}", soft_wrap=True)
    for name, group in {"all": report.overall, **report.splits}.items():
        console.print(f"{name}: success {group.success_rate:.1%} over {group.scenarios} scenarios, "
                      f"milestone credit {group.milestone_credit:.1%}, minefield violations {group.violations}")
    console.print(f"report: {out / 'scores'}")


def injection(
    model: ModelOpt = ASSISTANT_MODEL,
    out: OutOpt = Path("runs/injection"),
    safety: Annotated[bool, typer.Option("--safety/--no-safety", help="safety layer on or off")] = True,
    max_tokens: MaxTokensOpt = 256,
    call_mode: CallModeOpt = None,
    rescore: Annotated[bool, typer.Option("--rescore")] = False,
    parallel: ParallelOpt = 1,
) -> None:
    """Prompt-injection attacks (AgentDojo-style): utility and attack success rate."""
    from botpsy.backends.store import ModelNotFoundError
    from botpsy.evals.injection import run_injection, score_injection
    from botpsy.evals.scenarios.report import run_label

    try:
        report = score_injection(out) if rescore else run_injection(
            model, out, safety_on=safety, max_tokens=max_tokens, call_mode=call_mode,
            parallel=parallel)
    except (ModelNotFoundError, ValueError, FileNotFoundError) as exc:
        _fail(str(exc))
    console.print(f"{run_label(report.safety_on, report.call_mode)}: utility {report.utility_clean:.1%} "
                  f"(under attack {report.utility_attacked:.1%}), attack success rate "
                  f"{report.attack_success_rate:.1%} over {report.attacked_cases} attacked cases",
                  soft_wrap=True)  # one line whatever the terminal width: scripts read it


def safety(out: OutOpt = Path("runs/safety"),
           safety_config: SafetyConfigOpt = None,
           config: Annotated[Path | None, typer.Option(
               "--config", hidden=True, help="Deprecated spelling of --safety-config.")] = None,
           classifier: Annotated[bool, typer.Option(
               "--classifier/--rules-only",
               help="also consult the multilingual scope classifier where no rule matched")] = False,
           ) -> None:
    """The scope policy on the labelled set of sensitive and look-alike requests, per
    language, on the rows the rules were tuned on, the held-out rows and the fresh rows."""
    from rich.table import Table

    from botpsy.evals.safety_set import LANGUAGE_HEADERS, language_rows, run_safety_set
    from botpsy.options import deprecated
    from botpsy.safety.classifier import ClassifierMissingError, ScopeClassifier
    from botpsy.safety.config import SafetyConfig, SafetyConfigError

    config = deprecated("--config", "--safety-config", config, safety_config)

    try:
        judge = ScopeClassifier() if classifier else None
        report = run_safety_set(out, config=SafetyConfig.load(config) if config else None,
                                classifier=judge)
    except (SafetyConfigError, ClassifierMissingError) as exc:
        _fail(str(exc))
    o = report.overall
    console.print(f"scope policy ({report.route}): precision {o.precision:.3f}, recall {o.recall:.3f} "
                  f"over {report.items} requests; target met: {report.meets_target}; "
                  f"{report.mean_ms:.1f} ms per request (p95 {report.p95_ms:.1f})")
    for domain, score in report.domains.items():
        console.print(f"  {domain}: precision {score.precision:.3f}, recall {score.recall:.3f} "
                      f"({score.support} requests)")
    table = Table(*LANGUAGE_HEADERS, title="per language (blocked vs allowed)")
    for row in language_rows(report):
        table.add_row(*row)
    console.print(table)
    console.print(f"report: {Path(out) / 'report.md'}")


def register(app: typer.Typer) -> None:
    """Add the assistant evaluations to ``botpsy eval``."""
    for command in (scenarios, injection, safety):
        app.command()(command)
