"""``botpsy eval scenarios | injection | safety | heldout``: the assistant-level evaluations.

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

from botpsy.assistant.toolsets import assistant_selector
from botpsy.backends.model_files import ModelNotFoundError
from botpsy.defaults import ASSISTANT_MODEL
from botpsy.evals.call_mode import CallMode
from botpsy.options import SafetyConfigOpt, deprecated
from botpsy.safety.classifier_base import ClassifierMissingError
from botpsy.safety.config import ClassifierModel, SafetyConfig, SafetyConfigError

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
    from botpsy.evals.scenarios.report import run_label  # lazy: numpy
    from botpsy.evals.scenarios.runner import run_scenarios, score_scenarios  # lazy: numpy

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
    from botpsy.evals.injection import run_injection, score_injection  # lazy: numpy
    from botpsy.evals.scenarios.report import run_label  # lazy: numpy

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
           classifier: Annotated[bool | None, typer.Option(
               "--classifier/--rules-only",
               help="consult a scope classifier where no rule matched, or not (default: as "
               "the safety config says; off in the default config)")] = None,
           classifier_model: Annotated[ClassifierModel | None, typer.Option(
               "--classifier-model", help="which classifier: use (the sentence encoder, the "
               "default), ngram (character n-grams) or mean (the mean of both)")] = None,
           ) -> None:
    """The scope policy on the labelled set of sensitive and look-alike requests, per
    language, on the rows the rules were tuned on, the held-out rows and the fresh rows."""
    from rich.table import Table

    # lazy: numpy
    from botpsy.evals.safety_set import LANGUAGE_HEADERS, language_rows, run_safety_set

    config = deprecated("--config", "--safety-config", config, safety_config)
    asked = {key: value for key, value in (("scope_classifier", classifier),
                                           ("scope_classifier_model", classifier_model))
             if value is not None}
    try:
        loaded = SafetyConfig.load(config) if config else SafetyConfig()
        chosen = SafetyConfig.model_validate({**loaded.model_dump(), **asked})
        report = run_safety_set(out, config=chosen)
    except (SafetyConfigError, ClassifierMissingError, ValueError) as exc:
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


def heldout(
    model: ModelOpt = ASSISTANT_MODEL,
    out: OutOpt = Path("runs/heldout"),
    limit: Annotated[int | None, typer.Option("--limit", "-n", min=1)] = None,
    case_class: Annotated[list[str] | None, typer.Option(
        "--class", help="only this class (repeatable): create, lookup, two_step, "
        "no_side_effect, edit")] = None,
    cases_file: Annotated[Path | None, typer.Option(
        "--cases", help="another request file in the held-out format (e.g. your own dev "
        "requests); default: the shipped held-out set")] = None,
    every: Annotated[int, typer.Option("--every", min=1, help="every Nth case of each class: "
                                       "a sample with every class in it")] = 1,
    runs: Annotated[int, typer.Option("--runs", min=1, help="run N times (out/run1..runN) "
                                      "and report run-to-run agreement")] = 1,
    max_tokens: MaxTokensOpt = 256,
    resume: Annotated[bool, typer.Option("--resume/--no-resume",
                                         help="keep the cases an earlier run finished")] = True,
    rescore: Annotated[bool, typer.Option("--rescore", help="score saved results again")] = False,
    parallel: ParallelOpt = 1,
) -> None:
    """Fresh requests written blind (measure only, never tune): store changes and reply facts,
    per class with 95% intervals, junk side effects, run-to-run agreement."""
    from botpsy.evals.heldout.cases import load_cases  # lazy: startup
    from botpsy.evals.heldout.report import comparison_markdown  # lazy: numpy

    # lazy: numpy
    from botpsy.evals.heldout.runner import compare_run_dirs, run_heldout, score_heldout

    folders = [out] if runs == 1 else [out / f"run{i + 1}" for i in range(runs)]
    try:
        chosen = load_cases(cases_file, limit=limit, classes=case_class, every=every)
        for folder in folders:
            report = score_heldout(folder, chosen) if rescore else run_heldout(
                model, folder, cases=chosen, max_tokens=max_tokens, parallel=parallel,
                resume=resume)
            _print_heldout(report, folder)
        if runs > 1:
            result = compare_run_dirs(folders[0], folders[1], chosen)
            text = comparison_markdown(result, folders[0].name, folders[1].name)
            (out / "agreement.md").write_text(text, encoding="utf-8")
            (out / "agreement.json").write_text(result.model_dump_json(indent=2), encoding="utf-8")
            console.print(f"run-to-run agreement: {result.same_calls}/{result.cases} "
                          f"({result.agreement:.1%}) cases made the same calls")
    except (ModelNotFoundError, ValueError, FileNotFoundError) as exc:
        _fail(str(exc))


def _print_heldout(report, folder: Path) -> None:
    for name, group in {**report.classes, "all": report.overall}.items():
        console.print(f"{name}: {group.passed}/{group.cases} ({group.rate:.1%}, 95% CI "
                      f"{group.ci95.low:.1%}-{group.ci95.high:.1%})")
    console.print(f"junk side effects: {report.junk_changes} changes in {report.junk_cases} "
                  f"cases; report: {folder / 'scores'}")


def heldout_compare(
    run_a: Annotated[Path, typer.Argument(help="a held-out run folder (eval heldout --out)")],
    run_b: Annotated[Path, typer.Argument(help="another, on the same cases")],
    cases_file: Annotated[Path | None, typer.Option("--cases", help="their request file "
                                                    "(default: the held-out set)")] = None,
) -> None:
    """Two held-out runs: same calls (run-to-run agreement) and McNemar per class."""
    from botpsy.evals.heldout.cases import load_cases  # lazy: startup
    from botpsy.evals.heldout.report import comparison_markdown  # lazy: numpy
    from botpsy.evals.heldout.runner import compare_run_dirs  # lazy: numpy

    try:
        result = compare_run_dirs(run_a, run_b, load_cases(cases_file))
    except (ValueError, FileNotFoundError) as exc:
        _fail(str(exc))
    console.print(comparison_markdown(result, str(run_a), str(run_b)), markup=False)


def heldout_recall(
    cases_file: Annotated[Path | None, typer.Option("--cases", help="a request file in the "
                                                    "held-out format (default: the held-out set)")] = None,
) -> None:
    """Recall of the tool selector on requests that change the store (a measurement only:
    each case's changes name the tools that make them)."""
    from botpsy.evals.heldout.cases import load_cases  # lazy: startup
    from botpsy.evals.heldout.selection import selector_recall  # lazy: startup

    try:
        result = selector_recall(assistant_selector(), load_cases(cases_file))
    except (ValueError, FileNotFoundError) as exc:
        _fail(str(exc))
    for name, group in {**result.classes, "all": result.overall}.items():
        console.print(f"{name}: recall {group.recalled}/{group.cases} ({group.recall:.1%}), "
                      f"{group.mean_tools_shown:.1f} tools shown on average")


def register(app: typer.Typer) -> None:
    """Add the assistant evaluations to ``botpsy eval``."""
    for command in (scenarios, injection, safety, heldout):
        app.command()(command)
    app.command("heldout-compare")(heldout_compare)
    app.command("heldout-recall")(heldout_recall)
