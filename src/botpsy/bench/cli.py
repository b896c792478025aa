"""``botpsy bench``: measure a model's device numbers, or compare two reports.

    botpsy bench run --model smollm2 --quick --out bench-out/
    botpsy bench run --model smollm2 --quants f16,q8_0,q4_k_m,q4_0 --prompt-lens 128,512,2048 --threads 1,2
    botpsy bench compare laptop/ phone/

Heavy modules are imported inside the commands so that ``botpsy --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from botpsy.bench.errors import BenchError, BenchErrorKind

app = typer.Typer(
    help="Device benchmark: latency, memory, quantized speed, roofline.", no_args_is_help=True
)


def _ints(text: str | None, option: str) -> list[int] | None:
    """``"128, 512"`` -> ``[128, 512]``; a clear error for anything else."""
    if text is None:
        return None

    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise BenchError(
            BenchErrorKind.bad_setting, f"{option} takes comma-separated integers, got {text!r}"
        ) from None
    if not values:
        raise BenchError(BenchErrorKind.bad_setting, f"{option} is empty")
    return values


def _fail(message: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True).print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(2)


Opt = typer.Option


@app.command()
def run(
    out: Annotated[
        Path, Opt("--out", help="Output folder: report.json, report.md, report.html, plots.")
    ],
    model: Annotated[str, Opt(help="Model spec: smollm2 or a .gguf path.")] = "smollm2",
    quants: Annotated[
        str | None,
        Opt(
            help="Comma-separated quantizations ('source' = the file as given). "
            "Default f16,q8_0,q4_k_m,q4_0; --quick: source,q8_0."
        ),
    ] = None,
    prompt_lens: Annotated[
        str | None, Opt(help="Prompt lengths for TTFT/prefill. Default 128,512,2048.")
    ] = None,
    threads: Annotated[
        str | None, Opt(help="Thread counts. Default 1 and the physical core count.")
    ] = None,
    repeats: Annotated[
        int | None, Opt(help="Timed repeats per run (after one warm-up). Default 3.")
    ] = None,
    decode_tokens: Annotated[
        int | None, Opt(help="Decode steps timed per repeat. Default 64.")
    ] = None,
    accuracy_cases: Annotated[
        int | None, Opt(help="BFCL simple_python cases for accuracy (0 = skip). Default 20.")
    ] = None,
    hf_model: Annotated[
        str | None,
        Opt(
            help="Also measure transformers fp32/bf16 on this HF folder "
            "(or a GGUF that transformers dequantizes)."
        ),
    ] = None,
    cache_dir: Annotated[Path | None, Opt(help="Where quantized variants are cached.")] = None,
    quick: Annotated[
        bool,
        Opt(
            "--quick",
            help="A few minutes: 2 variants, prompts 128,512, one thread setting, 2 repeats.",
        ),
    ] = False,
) -> None:
    """Measure every variant of MODEL and write the report to OUT.

    Exit code 0 when every run finished, 1 when some failed (the report has the others),
    2 for bad input, 130 on Ctrl-C (the runs that finished are written, marked partial)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from botpsy.bench.config import BenchConfig  # lazy: pydantic
    from botpsy.bench.quantize import parse_quants  # lazy: startup
    from botpsy.bench.runner import BenchInterrupted, preflight, run_bench  # lazy: pydantic

    console = Console()
    try:
        config = BenchConfig.create(
            quick=quick,
            model=model,
            out_dir=out,
            quants=parse_quants(quants) if quants else None,
            prompt_lens=_ints(prompt_lens, "--prompt-lens"),
            threads=_ints(threads, "--threads"),
            repeats=repeats,
            decode_tokens=decode_tokens,
            accuracy_cases=accuracy_cases,
            hf_model=hf_model,
            cache_dir=cache_dir,
        )
        checked = preflight(config)
        _warn(console, checked.warnings)
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=console, transient=False) as progress:
            task = progress.add_task("starting", total=None)

            def on_step(done: int, total: int, what: str) -> None:
                progress.update(task, completed=done, total=total, description=what[:60].ljust(60))

            report = run_bench(config, on_step, checked)
    except BenchError as exc:
        _fail(str(exc))
        return
    except BenchInterrupted as exc:
        _interrupted(console, exc.report, out)
        return
    except KeyboardInterrupt:
        _interrupted(console, None, out)
        return
    _print_results(console, report, out)
    if report.failed:
        raise typer.Exit(1)


def _warn(console, lines: list[str]) -> None:
    from rich.markup import escape

    for line in lines:
        console.print(f"[yellow]warning:[/yellow] {escape(line)}", highlight=False)


def _print_results(console, report, out: Path) -> None:
    """Write the report, then print each run's headline, the verdict, every warning (starved
    runs, failed runs, odd settings) and the notes."""
    from rich.markup import escape

    # lazy: pydantic
    from botpsy.bench.report import headline, report_warnings, verdict, write_report

    files = write_report(report, out)
    for row in report.variants:
        console.print(headline(row), markup=False, highlight=False)
    console.print(verdict(report), markup=False, highlight=False)
    _warn(console, report_warnings(report))
    for note in report.notes:
        console.print(f"[yellow]note:[/yellow] {escape(note)}", highlight=False)
    console.print(
        f"wrote {files.json}, {files.markdown}, {files.html} and {len(files.plots)} plots "
        f"in {report.wall_s:.0f} s"
    )


def _interrupted(console, report, out: Path) -> None:
    """Ctrl-C: write what finished (marked partial), say so, exit 130 as a shell expects."""
    if report is None:
        console.print("[red]interrupted[/red] before any run finished: nothing written")
    else:
        console.print(
            f"[red]interrupted:[/red] writing the {len(report.variants)} run(s) that finished "
            "as a partial report"
        )
        _print_results(console, report, out)
    raise typer.Exit(130)


@app.command()
def compare(
    a: Annotated[Path, typer.Argument(help="Report A: a report.json or the folder holding it.")],
    b: Annotated[Path, typer.Argument(help="Report B.")],
    out: Annotated[
        Path | None,
        Opt("--out", help="Also write comparison.json and comparison.md into this folder."),
    ] = None,
) -> None:
    """Print B / A ratios of every metric for the runs two reports share, after the
    warnings: every setting, machine or model difference, the thread counts paired, and
    the warnings of the two reports themselves."""
    from rich.console import Console

    from botpsy.bench.compare import compare as compare_reports  # lazy: pydantic
    from botpsy.bench.compare import render_comparison, write_comparison  # lazy: pydantic
    from botpsy.bench.schema import BenchReport  # lazy: pydantic

    try:
        comparison = compare_reports(BenchReport.load(a), BenchReport.load(b))
    except BenchError as exc:
        _fail(str(exc))
        return
    if not comparison.rows:
        _fail("the two reports share no variant to compare")
    console = Console()
    _warn(console, comparison.warnings)
    console.print(render_comparison(comparison))
    if out is not None:
        for path in write_comparison(comparison, out):
            console.print(f"wrote {path}", highlight=False)
