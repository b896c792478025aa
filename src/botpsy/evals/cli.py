"""``botpsy eval``: BFCL v4, re-scoring, your own tool schemas, run comparisons, IFBench, AgentDojo.

    botpsy eval bfcl --model smollm2 --category non_live --limit 20 --out runs/smol
    botpsy eval score runs/smol/results/smollm2            # again, from the files, no model
    botpsy eval toolcalls --data tests.jsonl --answers answers.jsonl --model smollm2
    botpsy eval compare runs/base/scores/smollm2 runs/tuned/scores/smollm2
    botpsy eval overall runs/nonlive/scores/smollm2 runs/live/scores/smollm2  # one BFCL overall
    botpsy eval ifbench --model smollm2 --every 12 --out runs/ifbench   # IFBench's own scorer
    botpsy eval agentdojo --model agentdojo:obedient --suite all --out runs/ad   # AgentDojo v1.2

BFCL's checker (bfcl_eval) and what only one command needs load inside that command; each
such import says why (``# lazy: ...``, checked by tests/test_imports.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from botpsy.backends.model_files import ModelNotFoundError, load_chat_model
from botpsy.evals.agentdojo.cli import agentdojo
from botpsy.evals.markdown import markdown_table
from botpsy.types import GenerationParams

if TYPE_CHECKING:
    from pydantic import BaseModel

    from botpsy.evals.bfcl.score import BfclReport

app = typer.Typer(
    help="Evaluate tool calling: BFCL v4 and your own tool schemas.", no_args_is_help=True
)
console = Console()


@contextmanager
def _user_errors() -> Iterator[None]:
    """Bad input (missing files, unknown names, bad data) ends with its message, not a trace."""
    from botpsy.evals.bfcl.categories import UnknownCategoryError  # lazy: bfcl_eval
    from botpsy.evals.bfcl.generate import RunMismatchError  # lazy: bfcl_eval
    from botpsy.evals.bfcl.results import ResultFileError  # lazy: bfcl_eval
    from botpsy.evals.bfcl.score import UnknownResultIdsError  # lazy: bfcl_eval
    from botpsy.evals.toolcalls import ToolcallsDataError  # lazy: bfcl_eval

    try:
        yield
    except (
        FileNotFoundError,
        UnknownCategoryError,
        ResultFileError,
        UnknownResultIdsError,
        ToolcallsDataError,
        RunMismatchError,
        ModelNotFoundError,
        ValueError,  # e.g. --parallel on a model that serves one request at a time
    ) as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(code=2) from exc


def _load_model(
    spec: str, mode: str, fmt: str | None, n_ctx: int, threads: int | None, parallel: int = 1
):
    if mode not in ("fc", "prompt"):
        raise typer.BadParameter("mode must be 'fc' or 'prompt'", param_hint="--mode")
    # Prompt mode means BFCL's pythonic answers, parsed by BFCL itself.
    chosen = fmt or ("pythonic" if mode == "prompt" else None)
    return load_chat_model(spec, fmt=chosen, n_ctx=n_ctx, n_threads=threads, parallel=parallel)


def _show(report: BfclReport) -> None:
    from botpsy.evals.bfcl.run_report import bfcl_markdown  # lazy: bfcl_eval

    console.print(Markdown(bfcl_markdown(report)))


def _show_runs(reports: list[BfclReport], out: Path | None) -> None:
    from botpsy.evals.report import runs_markdown, summarize_runs  # lazy: bfcl_eval

    summary = summarize_runs(reports)
    _show_and_save(runs_markdown(summary), summary, out, "runs_report")


def _show_and_save(text: str, report: BaseModel, out: Path | None, stem: str) -> None:
    """Print a report's markdown; with ``out``, also write it as ``stem``.md and .json."""
    console.print(Markdown(text))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{stem}.json").write_text(report.model_dump_json(indent=2), encoding="utf-8")
        (out / f"{stem}.md").write_text(text, encoding="utf-8")


ModelOpt = Annotated[
    str,
    typer.Option(
        "--model", "-m", help="Model spec: smollm2, a .gguf path, a HF folder, openai:URL#model."
    ),
]
ModeOpt = Annotated[
    str,
    typer.Option(
        "--mode", help="fc: tools in the model's own format; prompt: BFCL's pythonic text."
    ),
]


class ToolChoice(str, Enum):
    """How calls are decoded (the OpenAI ``tool_choice`` values BFCL runs use)."""

    auto = "auto"  # free decoding: the model chooses between text and calls
    required = "required"  # grammar-constrained: one or more schema-valid calls of the tools


LimitOpt = Annotated[int | None, typer.Option("--limit", "-n", min=0, help="Only the first N cases.")]
MaxTokensOpt = Annotated[int, typer.Option("--max-tokens")]
ResumeOpt = Annotated[
    bool, typer.Option("--resume/--no-resume", help="Skip cases already in the result files.")
]
FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format", help="Chat format override (default: detected; pythonic in prompt mode)."
    ),
]
NCtxOpt = Annotated[int, typer.Option("--n-ctx")]
ThreadsOpt = Annotated[int | None, typer.Option("--threads")]
ParallelOpt = Annotated[
    int,
    typer.Option(
        "--parallel",
        min=1,
        help="Cases asked at once; a GGUF then decodes them together in one batch "
        "(8 is about twice as fast on 2 cores).",
    ),
]
CategoryOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--category",
        "-c",
        help="Category or BFCL collection, repeatable: non_live, live, multi_turn, all...",
    ),
]


@app.command("bfcl")
def bfcl(
    model: ModelOpt = "smollm2",
    category: CategoryOpt = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Run folder: results/ and scores/ go here.")
    ] = Path("runs/bfcl"),
    mode: ModeOpt = "fc",
    limit: LimitOpt = None,
    runs: Annotated[
        int, typer.Option("--runs", min=1, help="Repeat N times (run1..runN), report mean ± std.")
    ] = 1,
    temperature: Annotated[float, typer.Option("--temperature", help="Use > 0 with --runs.")] = 0.0,
    max_tokens: MaxTokensOpt = 512,
    tool_choice: Annotated[
        ToolChoice,
        typer.Option(
            "--tool-choice",
            help="auto: free decoding; required: calls forced by the format's grammar "
            "(irrelevance cases then cannot be right, and are still scored).",
        ),
    ] = ToolChoice.auto,
    early_stop: Annotated[
        bool,
        typer.Option(
            "--early-stop/--no-early-stop",
            help="Ask with short budgets first (64/192 tokens; 128/256 when required) and "
            "keep a cut answer whose verdict is decided: prose, a call repeated 3 times, "
            "a 2nd call where answers are one call, a call in irrelevance.",
        ),
    ] = True,
    resume: ResumeOpt = True,
    fmt: FormatOpt = None,
    n_ctx: NCtxOpt = 4096,
    threads: ThreadsOpt = None,
    parallel: ParallelOpt = 1,
) -> None:
    """Generate answers for BFCL v4 categories (default: non_live), then score them."""
    from botpsy.evals.bfcl import generate, score  # lazy: bfcl_eval

    with _user_errors():
        chat = _load_model(model, mode, fmt, n_ctx, threads, parallel)
        reports = []
        for index in range(runs):
            run_dir = out if runs == 1 else out / f"run{index + 1}"
            params = GenerationParams(
                max_tokens=max_tokens, temperature=temperature, seed=index if runs > 1 else None
            )
            summary = generate(
                chat,
                category or ["non_live"],
                run_dir,
                mode,
                limit,
                resume,  # type: ignore[arg-type]
                params=params,
                tool_choice=tool_choice.value,
                early_stop=early_stop,
                parallel=parallel,
            )
            for run in summary.categories:
                if run.not_run:
                    console.print(f"[yellow]not run[/yellow] {run.category}: {run.not_run}")
            reports.append(score(summary.model_dir, run_dir))
        _show(reports[-1])
        if runs > 1:
            _show_runs(reports, out)


def _natural(folder: Path) -> list[object]:
    """Sort key that puts run2 before run10: a --runs folder's runs in the order made."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", folder.name)]


def _model_dirs(path: Path) -> list[Path]:
    """The model folders under a path: a model folder itself, a run folder, or its results/."""
    from botpsy.evals.bfcl.results import find_result_files  # lazy: bfcl_eval

    if (path / "run.json").exists():
        return [path]
    base = path / "results" if (path / "results").is_dir() else path
    found = []
    for folder in sorted(base.iterdir(), key=_natural) if base.is_dir() else []:
        if (folder / "results").is_dir():  # a --runs folder's run1, run2...
            found += _model_dirs(folder)
        elif folder.is_dir() and find_result_files(folder):
            found.append(folder)
    if not found and path.is_dir() and find_result_files(path):
        return [path]
    if not found:
        raise FileNotFoundError(f"no BFCL result files under {path}")
    return found


@app.command("score")
def score_cmd(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Result folders: results/<model>, or run folders holding results/."),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Where scores/ go (default: each run folder)."),
    ] = None,
    category: CategoryOpt = None,
    strict_fc: Annotated[
        bool,
        typer.Option(
            "--strict-fc",
            help="Decode FC answers from their raw text as BFCL's Hermes FC handler does "
            "(complete <tool_call> blocks of valid JSON only), for leaderboard-comparable "
            "scores; default: as botpsy's repairing parser read them.",
        ),
    ] = False,
) -> None:
    """Score result files again, without a model; several runs give mean ± std."""
    from botpsy.evals.bfcl import score  # lazy: bfcl_eval

    with _user_errors():
        dirs = [d for p in paths for d in _model_dirs(p)]
        reports = []
        for index, model_dir in enumerate(dirs):
            run_dir = (
                model_dir.parent.parent if model_dir.parent.name == "results" else model_dir.parent
            )
            if out is not None:
                run_dir = out if len(dirs) == 1 else out / f"run{index + 1}"
            reports.append(score(model_dir, run_dir, categories=category, strict_fc=strict_fc))
        models = sorted({report.model for report in reports})
        if len(models) > 1:  # runs of different models are no sample of one: each on its own
            for report in reports:
                _show(report)
            console.print(f"{len(models)} models ({', '.join(models)}): scored each, no mean.")
            return
        _show(reports[-1])
        if len(reports) > 1:
            _show_runs(reports, out)


@app.command("toolcalls")
def toolcalls(
    data: Annotated[
        Path,
        typer.Option("--data", help="Tests in BFCL's format (JSON lines: id, question, function)."),
    ],
    answers: Annotated[
        Path,
        typer.Option("--answers", help="Answers in BFCL's format (JSON lines: id, ground_truth)."),
    ],
    model: ModelOpt = "smollm2",
    out: Annotated[Path, typer.Option("--out", "-o")] = Path("runs/toolcalls"),
    mode: ModeOpt = "fc",
    limit: LimitOpt = None,
    max_tokens: MaxTokensOpt = 512,
    resume: ResumeOpt = True,
    fmt: FormatOpt = None,
    n_ctx: NCtxOpt = 4096,
    threads: ThreadsOpt = None,
) -> None:
    """Score a model on your own tool schemas and answers, the BFCL way."""
    from botpsy.evals.bfcl.run_report import CATEGORY_HEADERS, category_rows  # lazy: bfcl_eval
    from botpsy.evals.toolcalls import load_toolcall_cases, run_toolcalls  # lazy: bfcl_eval

    with _user_errors():
        load_toolcall_cases(data, answers)  # check the files before loading a model
        chat = _load_model(model, mode, fmt, n_ctx, threads)
        report = run_toolcalls(
            chat,
            data,
            answers,
            out,
            mode=mode,
            limit=limit,  # type: ignore[arg-type]
            resume=resume,
            params=GenerationParams(max_tokens=max_tokens),
        )
        rows = category_rows({"all": report.overall, **report.by_shape})
        console.print(Markdown(markdown_table(CATEGORY_HEADERS, rows)))


@app.command("compare")
def compare_cmd(
    run_a: Annotated[
        Path,
        typer.Argument(
            help="Run A: a BFCL scores folder (scores/<model>) or its report.json, or a "
            "scenario run's folder (eval scenarios --out) or its scores.",
        ),
    ],
    run_b: Annotated[Path, typer.Argument(help="The same for run B.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
    skip_first: Annotated[
        int,
        typer.Option(
            "--skip-first",
            min=0,
            help="Leave out each category's first N cases (those a recipe was tuned on, "
            "e.g. --bfcl-limit 10), to compare on held-out cases.",
        ),
    ] = 0,
) -> None:
    """Two scored runs on what both answered: BFCL runs by category (accuracy deltas and the
    cases that flipped), scenario runs (``botpsy eval scenarios --out``) by split, with the
    scenarios fixed, broken and newly unsafe."""
    with _user_errors():
        markdown, comparison = _comparison(run_a, run_b, skip_first)
    if as_json:
        typer.echo(comparison.model_dump_json(indent=2))
    else:
        console.print(Markdown(markdown))


def _comparison(run_a: Path, run_b: Path, skip_first: int) -> tuple[str, BaseModel]:
    """The comparison of two BFCL runs or two scenario runs, and its Markdown."""
    from botpsy.evals.report import compare, comparison_markdown  # lazy: bfcl_eval
    from botpsy.evals.scenarios.compare import (  # lazy: startup
        compare_scenarios,
        is_scenario_run,
        scenario_comparison_markdown,
    )

    for run in (run_a, run_b):
        if not run.exists():  # a typo must not fall back to the current folder
            raise FileNotFoundError(f"no run at {run}")
    kinds = [is_scenario_run(run_a), is_scenario_run(run_b)]
    if any(kinds):
        if not all(kinds):
            raise ValueError("compare two scenario runs or two BFCL runs, not one of each")
        if skip_first:
            raise ValueError("--skip-first applies to BFCL runs only")
        scenarios = compare_scenarios(run_a, run_b)
        return scenario_comparison_markdown(scenarios), scenarios
    comparison = compare(run_a, run_b, skip_first)
    return comparison_markdown(comparison), comparison


@app.command("overall")
def overall_cmd(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Scored runs of one model (scores/<model> or report.json), "
                       "e.g. a full non-live run and a live + multi-turn run."),
    ],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write overall.json and overall.md here.")
    ] = None,
) -> None:
    """BFCL v4 overall from categories scored in several runs: the leaderboard's figure
    (not run = 0) and the same weighting over what ran, naming what is missing."""
    from botpsy.evals.report import combine_overall, combined_markdown  # lazy: bfcl_eval

    with _user_errors():
        combined = combine_overall(paths)
    _show_and_save(combined_markdown(combined), combined, out, "overall")


@app.command("ifbench")
def ifbench(
    model: ModelOpt = "smollm2",
    out: Annotated[Path, typer.Option("--out", "-o", help="Run folder.")] = Path("runs/ifbench"),
    limit: LimitOpt = None,
    every: Annotated[int, typer.Option(
        "--every", min=1, help="Every Nth prompt: a sample spanning IFBench's instructions.")
    ] = 1,
    max_tokens: MaxTokensOpt = 1024,
    parallel: ParallelOpt = 1,
    threads: ThreadsOpt = None,
    rescore: Annotated[
        bool, typer.Option("--rescore", help="Score the answers in --out again, no model.")
    ] = False,
) -> None:
    """IFBench: instruction following scored by IFBench's own checkers, strict and loose,
    and the looping rate. Resumes into --out; responses.jsonl is in IFBench's format."""
    from botpsy.evals.ifbench import run_ifbench, score_ifbench  # lazy: startup

    with _user_errors():
        summary = (score_ifbench(out) if rescore
                   else run_ifbench(model, out, limit=limit, every=every,
                                    max_tokens=max_tokens, parallel=parallel, threads=threads))
    pct = lambda x: "-" if x is None else f"{100 * x:.1f}%"
    console.print(
        f"{summary.model}: {summary.prompts} of {summary.prompts_total} prompts answered"
        f"{'' if summary.complete else ' (partial)'}; prompt-level strict "
        f"{pct(summary.strict.prompt_level)} loose {pct(summary.loose.prompt_level)}, "
        f"instruction-level strict {pct(summary.strict.instruction_level)} loose "
        f"{pct(summary.loose.instruction_level)}; looping {pct(summary.stats.looping_rate)}",
        soft_wrap=True)
    left = sum(summary.unscorable_instructions.values())
    if left:
        console.print(f"not scored: {left} instructions whose checkers need NLTK data no "
                      f"registry ships ({', '.join(summary.unscorable_instructions)})",
                      soft_wrap=True)
    console.print(f"summary: {out / 'summary.json'}")


# AgentDojo drives the whole agent, so its command lives with its package.
app.command("agentdojo")(agentdojo)
