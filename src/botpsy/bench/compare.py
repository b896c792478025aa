"""Compare two bench reports (two machines, two models, two builds) as ratios.

Runs are paired by (backend, variant, threads); when two reports share no such
key (e.g. different thread counts on two machines) they are paired by variant
at each side's highest thread count. Every ratio is B / A, and the table says
for each metric whether higher or lower is better, so a reader does not have
to remember which way is good.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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
    """Every ratio of two reports, plus the pairing that produced them."""

    a_name: str
    b_name: str
    pairs: list[tuple[str, str]]
    rows: list[RatioRow]


def _median(stat) -> float | None:
    return stat.median if stat is not None else None


def metric_specs(prompt_len: int | None) -> list[MetricSpec]:
    """The compared metrics; TTFT and prefill at the longest prompt length both reports have."""
    specs = [
        MetricSpec("decode tok/s", lambda r: _median(r.decode_tok_s), True),
        MetricSpec("roofline fraction", lambda r: r.roofline_fraction, True),
        MetricSpec("turn latency s", lambda r: _median(r.turn_latency_s), False),
        MetricSpec("peak RSS MB", lambda r: r.peak_rss_mb, False),
        MetricSpec("load s", lambda r: r.load_s, False),
        MetricSpec("size MB", lambda r: r.size_mb, False),
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


def compare(a: BenchReport, b: BenchReport) -> Comparison:
    """Ratios B / A of every metric of every paired run."""
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
    return Comparison(
        a_name=f"{a.settings.model_name} on {a.machine.cpu_model}",
        b_name=f"{b.settings.model_name} on {b.machine.cpu_model}",
        pairs=[(ra.key, rb.key) for ra, rb in pairs],
        rows=rows,
    )


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
