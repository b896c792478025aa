"""PNG plots of a bench report (matplotlib, Agg: no display needed).

Four questions, one plot each: how fast does each quantization decode (against
its roofline), how does time to first token grow with the prompt, what does
accuracy cost in size, and how much memory does each variant take.
``matplotlib.figure.Figure`` is used directly (no pyplot), so nothing global is
touched and figures are freed with their objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from botpsy.bench.schema import BenchReport, VariantResult

DPI = 110


@dataclass(frozen=True)
class Plot:
    """One written plot: its file and a caption."""

    path: Path
    title: str


def _figure(width: float = 7.0, height: float = 4.0):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    return fig, fig.add_subplot()


def _save(fig, path: Path, title: str) -> Plot:
    fig.savefig(path)
    return Plot(path, title)


def _by_threads(report: BenchReport) -> dict[int, list[VariantResult]]:
    groups: dict[int, list[VariantResult]] = {}
    for row in report.variants:
        groups.setdefault(row.threads, []).append(row)
    return dict(sorted(groups.items()))


def _labels(report: BenchReport) -> list[str]:
    """Variant names in the order the run measured them."""
    return list(dict.fromkeys(row.quant for row in report.variants))


def plot_decode(report: BenchReport, path: Path) -> Plot | None:
    """Decode tokens/s per variant (bars per thread count, min-max whiskers, roofline ticks)."""
    labels = _labels(report)
    groups = _by_threads(report)
    if not any(row.decode_tok_s for row in report.variants):
        return None
    fig, ax = _figure()
    width = 0.8 / max(len(groups), 1)
    for g, (threads, rows) in enumerate(groups.items()):
        by_label = {row.quant: row for row in rows if row.decode_tok_s}
        present = [label for label in labels if label in by_label]
        xs = [labels.index(label) + g * width for label in present]
        stats = [by_label[label].decode_tok_s for label in present]
        medians = [s.median for s in stats]
        errors = [[s.median - s.min for s in stats], [s.max - s.median for s in stats]]
        ax.bar(xs, medians, width, yerr=errors, capsize=3, label=f"{threads} thread(s)")
        for x, label in zip(xs, present):
            limit = by_label[label].roofline_tok_s
            if limit:
                ax.hlines(
                    limit,
                    x - width / 2,
                    x + width / 2,
                    colors="black",
                    linestyles="dashed",
                    linewidth=1,
                )
    ax.set_xticks([i + width * (len(groups) - 1) / 2 for i in range(len(labels))], labels)
    ax.set_ylabel("decode tokens/s (median, min-max)")
    ax.set_title("Decode speed per variant (dashed: bandwidth roofline)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _save(fig, path, "Decode tokens/s per variant")


def plot_ttft(report: BenchReport, path: Path) -> Plot | None:
    """Time to first token against prompt length, one line per run."""
    rows = [row for row in report.variants if row.ttft_s]
    if not rows:
        return None
    fig, ax = _figure()
    for row in rows:
        lengths = sorted(row.ttft_s)
        ax.plot(
            lengths,
            [row.ttft_s[n].median for n in lengths],
            marker="o",
            label=f"{row.quant} x{row.threads}t",
        )
    ax.set_xscale("log", base=2)
    ax.set_xlabel("prompt tokens")
    ax.set_ylabel("time to first token, s (median)")
    ax.set_title("Time to first token vs prompt length")
    ax.legend(fontsize="small", loc="upper left")
    return _save(fig, path, "Time to first token vs prompt length")


def plot_accuracy(report: BenchReport, path: Path) -> Plot | None:
    """Accuracy against file size: the quality a smaller file costs (exact match filled,
    partial-credit reward hollow)."""
    points = {row.quant: row for row in report.variants if row.accuracy is not None}
    if not points:
        return None
    fig, ax = _figure()
    for i, (label, row) in enumerate(points.items()):
        colour = f"C{i}"
        ax.scatter(row.size_mb, row.accuracy * 100, color=colour)
        ax.annotate(
            label, (row.size_mb, row.accuracy * 100), textcoords="offset points", xytext=(5, 5)
        )
        detail = row.accuracy_detail
        if detail is not None:
            ax.scatter(row.size_mb, detail.mean_reward * 100, facecolors="none", edgecolors=colour)
    suite = report.settings.accuracy_suite or "subset"
    ax.set_xlabel("model size (file + adapter), MiB")
    ax.set_ylabel(f"% ({suite}, n={report.settings.accuracy_cases})")
    ax.set_ylim(-5, 105)
    ax.margins(x=0.15)
    ax.set_title("Tool-call accuracy vs size (filled: exact match, hollow: partial credit)")
    return _save(fig, path, "Accuracy vs size")


def plot_memory(report: BenchReport, path: Path) -> Plot | None:
    """Peak resident memory per run, split into the process baseline and the model's share.
    The labels say what is counted (VmHWM, the bench's n_ctx), so the bars are not read as
    the model's footprint in the assistant, which allocates another KV cache."""
    rows = report.variants
    if not rows:
        return None
    n_ctx = report.settings.n_ctx
    fig, ax = _figure()
    names = [f"{row.quant}\nx{row.threads}t" for row in rows]
    base = [row.peak_rss_mb - row.model_rss_mb for row in rows]
    model = [row.model_rss_mb for row in rows]
    ax.bar(names, base, label="Python + botpsy + runtime before loading")
    ax.bar(names, model, bottom=base, label=f"weights (mmap), adapter, KV cache n_ctx={n_ctx}, buffers")
    ax.set_ylabel("peak resident memory (VmHWM), MiB")
    ax.set_title(f"Peak memory of the worker process per variant (KV cache for n_ctx={n_ctx})")
    ax.legend(loc="lower right")
    return _save(
        fig, path, f"Peak memory per variant (worker VmHWM, KV cache for n_ctx={n_ctx})"
    )


PLOTTERS = {
    "decode_tok_s.png": plot_decode,
    "ttft_vs_prompt.png": plot_ttft,
    "accuracy_vs_size.png": plot_accuracy,
    "memory.png": plot_memory,
}


def write_plots(report: BenchReport, out_dir: Path) -> list[Plot]:
    """Write every plot that has data; returns what was written."""
    plots = []
    for name, plotter in PLOTTERS.items():
        plot = plotter(report, out_dir / name)
        if plot is not None:
            plots.append(plot)
    return plots
