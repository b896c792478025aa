"""Compare two bench reports (two machines, two models, two builds) as ratios.

Runs are paired by (backend, variant, threads); when two reports share no such
key (e.g. different thread counts on two machines) they are paired by variant
at each side's highest thread count, and a warning says which thread counts were
paired. Every ratio is B / A, and the table says for each metric whether higher
or lower is better, so a reader does not have to remember which way is good.

A ratio means something only when everything but the thing compared is equal, so
the comparison opens with warnings: every difference between the two reports'
machines, package versions, models and settings, the thread pairing, and the
warnings each report carries itself (starved runs, partial runs...).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from botpsy.bench.report import report_warnings
from botpsy.bench.schema import BenchReport, VariantResult

Metric = Callable[[VariantResult], float | None]


@dataclass(frozen=True)
class MetricSpec:
    name: str
    get: Metric
    higher_is_better: bool


@dataclass(frozen=True)
class RatioRow:
    """One metric of one paired run."""

    run: str
    metric: str
    a: float | None
    b: float | None
    higher_is_better: bool

    @property
    def ratio(self) -> float | None:
        """B / A, or None when either side is missing or A is zero."""
        if self.a is None or self.b is None or self.a == 0:
            return None
        return self.b / self.a

    @property
    def b_is_better(self) -> bool | None:
        ratio = self.ratio
        if ratio is None or ratio == 1:
            return None
        return (ratio > 1) == self.higher_is_better


@dataclass(frozen=True)
class Comparison:
    """Every ratio of two reports, plus the pairing that produced them and the warnings
    (differences, pairing, the reports' own) a reader must see before the ratios."""

    a_name: str
    b_name: str
    pairs: list[tuple[str, str]]
    rows: list[RatioRow]
    warnings: list[str] = field(default_factory=list)
    thread_pairs: list[tuple[int, int]] = field(default_factory=list)


def _median(stat) -> float | None:
    return stat.median if stat is not None else None


def metric_specs(prompt_len: int | None) -> list[MetricSpec]:
    """The compared metrics; TTFT and prefill at the longest prompt length both reports have."""
    specs = [
        MetricSpec("decode tok/s", lambda r: _median(r.decode_tok_s), True),
        MetricSpec("roofline fraction", lambda r: r.roofline_fraction, True),
        MetricSpec("turn latency s", lambda r: _median(r.turn_latency_s), False),
        MetricSpec("peak RSS MiB", lambda r: r.peak_rss_mb, False),
        MetricSpec("load s", lambda r: r.load_s, False),
        MetricSpec("size MiB", lambda r: r.size_mb, False),
        MetricSpec("accuracy", lambda r: r.accuracy, True),
    ]
    if prompt_len is not None:
        specs[1:1] = [
            MetricSpec(f"TTFT s @{prompt_len}", lambda r: _median(r.ttft_s.get(prompt_len)), False),
            MetricSpec(
                f"prefill tok/s @{prompt_len}",
                lambda r: _median(r.prefill_tok_s.get(prompt_len)),
                True,
            ),
        ]
    return specs


def pair_runs(a: BenchReport, b: BenchReport) -> list[tuple[VariantResult, VariantResult]]:
    """Runs of A and B that measured the same thing."""
    b_rows = {(r.backend, r.quant, r.threads): r for r in b.variants}
    pairs = [
        (r, b_rows[(r.backend, r.quant, r.threads)])
        for r in a.variants
        if (r.backend, r.quant, r.threads) in b_rows
    ]
    if pairs:
        return pairs

    def top(report: BenchReport) -> dict[tuple[str, str], VariantResult]:
        best: dict[tuple[str, str], VariantResult] = {}
        for row in report.variants:
            key = (row.backend, row.quant)
            if key not in best or row.threads > best[key].threads:
                best[key] = row
        return best

    a_top, b_top = top(a), top(b)
    return [(a_top[key], b_top[key]) for key in a_top if key in b_top]


def _setting(report: BenchReport) -> dict[str, object]:
    """What must be equal for a ratio to compare only the machine (or only the model)."""
    st, m = report.settings, report.machine
    return {
        "CPU": m.cpu_model,
        "physical cores": m.physical_cores,
        "llama.cpp build": m.llama_cpp_system_info,
        "model": st.model_name,
        "model sha256": st.source_sha256[:16],
        "adapter sha256": (st.adapter_sha256 or "none")[:16],
        "decode tokens": st.decode_tokens,
        "n_ctx": st.n_ctx,
        "threads": st.threads,
        "prompt lengths": st.prompt_lens,
        "repeats": st.repeats,
        "accuracy cases": st.accuracy_cases,
        "turn prompts": st.turn_prompts,
    }


def differences(a: BenchReport, b: BenchReport) -> list[str]:
    """Every machine, package, model or setting in which the two reports differ."""
    lines = []
    sa, sb = _setting(a), _setting(b)
    for key in sa:
        if sa[key] != sb[key]:
            lines.append(f"{key} differs: A {sa[key]!r}, B {sb[key]!r}")
    pa, pb = a.machine.packages, b.machine.packages
    for name in sorted(set(pa) | set(pb)):
        if pa.get(name) != pb.get(name):
            lines.append(
                f"{name} version differs: A {pa.get(name, 'absent')}, B {pb.get(name, 'absent')}"
            )
    return lines


def thread_pairs(pairs: list[tuple[VariantResult, VariantResult]]) -> list[tuple[int, int]]:
    """The (A threads, B threads) combinations the pairing used."""
    return sorted({(ra.threads, rb.threads) for ra, rb in pairs})


def pairing_warnings(pairs: list[tuple[VariantResult, VariantResult]]) -> list[str]:
    """Say when runs of different thread counts were paired (their ratio mixes threads in)."""
    return [
        f"no run has the same thread count on both sides: A's {ta}-thread runs are paired with "
        f"B's {tb}-thread runs"
        for ta, tb in thread_pairs(pairs)
        if ta != tb
    ]


def unpaired_warnings(
    a: BenchReport, b: BenchReport, pairs: list[tuple[VariantResult, VariantResult]]
) -> list[str]:
    """Runs of either report that the comparison leaves out (no counterpart on the other side)."""
    lines = []
    for side, report, index in (("A", a, 0), ("B", b, 1)):
        paired = {id(pair[index]) for pair in pairs}
        left = [row.key for row in report.variants if id(row) not in paired]
        if left:
            lines.append(f"runs only in {side}, not compared: {', '.join(left)}")
    return lines


def compare(a: BenchReport, b: BenchReport) -> Comparison:
    """Ratios B / A of every metric of every paired run, with the warnings that qualify them."""
    common = set(a.settings.prompt_lens) & set(b.settings.prompt_lens)
    specs = metric_specs(max(common) if common else None)
    pairs = pair_runs(a, b)
    rows = [
        RatioRow(
            f"{ra.key} / {rb.key}" if ra.key != rb.key else ra.key,
            spec.name,
            spec.get(ra),
            spec.get(rb),
            spec.higher_is_better,
        )
        for ra, rb in pairs
        for spec in specs
    ]
    warnings = (
        differences(a, b)
        + pairing_warnings(pairs)
        + unpaired_warnings(a, b, pairs)
        + [f"A: {line}" for line in report_warnings(a)]
        + [f"B: {line}" for line in report_warnings(b)]
    )
    return Comparison(
        a_name=f"{a.settings.model_name} on {a.machine.cpu_model}",
        b_name=f"{b.settings.model_name} on {b.machine.cpu_model}",
        pairs=[(ra.key, rb.key) for ra, rb in pairs],
        rows=rows,
        warnings=warnings,
        thread_pairs=thread_pairs(pairs),
    )


def comparison_dict(comparison: Comparison) -> dict:
    """The comparison as JSON data: warnings first, then every ratio."""
    data = asdict(comparison)
    data["rows"] = [{**asdict(row), "ratio": row.ratio} for row in comparison.rows]
    return {"warnings": data.pop("warnings"), **data}


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


def render_markdown(comparison: Comparison) -> str:
    """The comparison as Markdown: the warnings at the top, then the ratio table."""
    parts = [f"# B / A\n\nA = {comparison.a_name}\n\nB = {comparison.b_name}"]
    if comparison.warnings:
        parts.append("## Warnings\n\n" + "\n".join(f"- {w}" for w in comparison.warnings))
    lines = ["| run | metric | A | B | B / A | better |", "|---|---|---|---|---|---|"]
    for row in comparison.rows:
        ratio = "-" if row.ratio is None else f"{row.ratio:.2f}x"
        better = "higher" if row.higher_is_better else "lower"
        lines.append(
            f"| {row.run} | {row.metric} | {_cell(row.a)} | {_cell(row.b)} | {ratio} | {better} |"
        )
    parts.append("## Ratios\n\n" + "\n".join(lines))
    return "\n\n".join(parts) + "\n"


def write_comparison(comparison: Comparison, out_dir: Path) -> list[Path]:
    """Write comparison.json and comparison.md into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out_dir / "comparison.json", out_dir / "comparison.md"
    json_path.write_text(json.dumps(comparison_dict(comparison), indent=2), encoding="utf-8")
    md_path.write_text(render_markdown(comparison), encoding="utf-8")
    return [json_path, md_path]


def render_comparison(comparison: Comparison):
    """A rich Table of the comparison (ratios coloured: green where B is better)."""
    from rich.table import Table

    table = Table(title=f"B / A   A = {comparison.a_name}   B = {comparison.b_name}")
    for column in ("run", "metric", "A", "B", "B / A", "better"):
        table.add_column(column, justify="left" if column in ("run", "metric") else "right")
    for row in comparison.rows:
        ratio = row.ratio
        colour = {True: "green", False: "red", None: "white"}[row.b_is_better]
        table.add_row(
            row.run,
            row.metric,
            "-" if row.a is None else f"{row.a:.3g}",
            "-" if row.b is None else f"{row.b:.3g}",
            f"[{colour}]{ratio:.2f}x[/{colour}]" if ratio is not None else "-",
            "higher" if row.higher_is_better else "lower",
        )
    return table
