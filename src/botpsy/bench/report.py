"""Writing a bench report: ``report.json``, ``report.md``, PNG plots and one HTML page.

The Markdown and the HTML show the same tables (built once, as ``Table``), and
the HTML inlines its plots as base64 so the page can be mailed or attached as a
single file.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path

from botpsy.bench.plots import Plot, write_plots
from botpsy.bench.roofline import MEMORY_BOUND_FRACTION
from botpsy.bench.schema import BenchReport, Stat, VariantResult

MIB = 2**20  # sizes and memory are shown in MiB; bandwidth in decimal GB/s
MB = 10**6  # bytes per token are shown in decimal MB, so MB/token and GB/s divide directly
FULL_CPU = 0.9  # a run with less CPU share than this was slowed by other processes
ASSISTANT_N_CTX = 4096  # the KV cache the assistant allocates (botpsy.cli's default n_ctx)


@dataclass
class Table:
    """A table for both Markdown and HTML."""

    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)

    def to_markdown(self) -> str:
        lines = ["| " + " | ".join(self.headers) + " |", "|" + "---|" * len(self.headers)]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(lines)


@dataclass(frozen=True)
class ReportFiles:
    """What ``write_report`` wrote."""

    json: Path
    markdown: Path
    html: Path
    plots: list[Plot]


def num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def spread(stat: Stat | None, digits: int = 1) -> str:
    """``median (min-max)``."""
    if stat is None:
        return "-"
    return f"{stat.median:.{digits}f} ({stat.min:.{digits}f}-{stat.max:.{digits}f})"


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def results_table(report: BenchReport) -> Table:
    """One row per (variant, threads): size, load, memory, TTFT per length, speeds, turn, accuracy."""
    lengths = report.settings.prompt_lens
    table = Table(
        ["variant", "threads", "size MiB", "load s", "peak RSS MiB"]
        + [f"TTFT s @{n}" for n in lengths]
        + [
            f"prefill tok/s @{max(lengths)}",
            "decode tok/s",
            "roofline",
            "turn s",
            "turn calls",
            "accuracy",
        ]
    )
    for row in report.variants:
        table.rows.append(
            [
                row.quant,
                str(row.threads),
                num(row.size_mb),
                num(row.load_s, 2),
                num(row.peak_rss_mb, 0),
            ]
            + [num(row.ttft_s[n].median, 3) if n in row.ttft_s else "-" for n in lengths]
            + [
                num(row.prefill_tok_s[max(lengths)].median, 0)
                if max(lengths) in row.prefill_tok_s
                else "-",
                spread(row.decode_tok_s),
                pct(row.roofline_fraction),
                spread(row.turn_latency_s, 2),
                pct(row.turn_call_rate),
                pct(row.accuracy),
            ]
        )
    return table


def roofline_table(report: BenchReport) -> Table:
    """Bytes per token, the limit they imply, what each run reached, and the evidence of why:
    decode's thread speedup next to the bandwidth's own (the diagnosis compares the two)."""
    table = Table(
        [
            "variant",
            "threads",
            "MB read/token",
            "roofline tok/s",
            "decode tok/s",
            "fraction",
            "effective GB/s",
            "x threads",
            "x bandwidth",
            "CPU share",
            "bound",
        ]
    )
    for row in report.variants:
        diagnosis = row.diagnosis
        speedup = diagnosis.thread_speedup if diagnosis else None
        scaling = diagnosis.bandwidth_scaling if diagnosis else None
        table.rows.append(
            [
                row.quant,
                str(row.threads),
                num(row.bytes_per_token / MB if row.bytes_per_token else None, 1),
                num(row.roofline_tok_s, 0),
                num(row.decode_tok_s.median if row.decode_tok_s else None, 1),
                pct(row.roofline_fraction),
                num(row.effective_gb_s, 1),
                f"x{speedup:.2f}" if speedup else "-",
                f"x{scaling:.2f}" if scaling else "-",
                pct(row.cpu_share),
                diagnosis.bound.value if diagnosis else "-",
            ]
        )
    return table


def machine_lines(report: BenchReport) -> list[str]:
    m = report.machine
    return [
        f"CPU: {m.cpu_model}, {m.physical_cores} physical / {m.logical_cores} logical cores"
        + (f", last-level cache {m.llc_bytes / MIB:.0f} MiB" if m.llc_bytes else ""),
        f"RAM: {m.ram_gb:.1f} GB; OS: {m.os}; Python {m.python}",
        "Packages: " + ", ".join(f"{k} {v}" for k, v in m.packages.items()),
        f"llama.cpp build: {m.llama_cpp_system_info or 'n/a'}",
        f"Load average (1/5/15 min) at start {m.load_avg_start}, at end {m.load_avg_end}",
    ]


def starvation_warnings(report: BenchReport) -> list[str]:
    """Runs and bandwidth tests that did not get their cores, and a loaded machine."""
    lines = [
        f"{row.key} had {row.cpu_share:.0%} of its {row.threads} core(s) during decode: "
        "other processes took turns, so its speeds are low."
        for row in report.variants
        if row.cpu_share is not None and row.cpu_share < FULL_CPU
    ]
    lines += [
        f"the bandwidth test with {b.threads} thread(s) had {b.cpu_share:.0%} of its cores "
        f"(load average before it {b.load_avg[:1] or '?'}): other processes took turns, so the "
        "bandwidth and every roofline derived from it are understated and fractions overstated."
        for b in report.bandwidth
        if b.cpu_share is not None and b.cpu_share < FULL_CPU
    ]
    m = report.machine
    cores = m.logical_cores or 1
    if max(m.load_avg_start[:1] + m.load_avg_end[:1], default=0) > cores:
        lines.append(
            f"the load average exceeded the {cores} cores: other processes shared the "
            "CPU, so speeds are noisy and low."
        )
    return lines


def cache_warnings(report: BenchReport) -> list[str]:
    """Runs whose bytes per token fit in the last-level cache: the roofline assumes they come
    from memory, but such a model can be served (partly) from cache and beat it."""
    llc = report.machine.llc_bytes
    fits = [r for r in report.variants if llc and r.bytes_per_token and r.bytes_per_token <= llc]
    if not fits or not llc:
        return []
    names = ", ".join(dict.fromkeys(r.quant for r in fits))
    message = (
        f"{names}: the bytes read per token fit in the {llc / MIB:.0f} MiB last-level cache, "
        "so decode may be served from cache rather than memory: the memory-bandwidth roofline "
        "is not a hard limit for them and their fractions say little about memory."
    )
    return [message]


def report_warnings(report: BenchReport) -> list[str]:
    """Everything that makes this report's numbers doubtful, for the top of the report, the
    terminal and ``bench compare``: partial run, failed runs, odd settings, starved runs."""
    lines = []
    if report.partial:
        lines.append(
            "partial report: the run was interrupted (Ctrl-C); only the runs that finished are "
            "here."
        )
    lines += report.failed
    lines += report.warnings
    return lines + starvation_warnings(report) + cache_warnings(report)


def verdict(report: BenchReport) -> str:
    """One sentence: the best roofline fraction, and where the rest goes when it is below target."""
    best = report.best_roofline()
    if best is None or best.roofline_fraction is None:
        return "No decode speed could be related to the bandwidth roofline."
    head = (
        f"Closest to the roofline: {best.quant} with {best.threads} thread(s) at "
        f"{best.roofline_fraction:.0%}"
    )
    if best.roofline_fraction >= MEMORY_BOUND_FRACTION:
        return head + f" (>= {MEMORY_BOUND_FRACTION:.0%}: memory-bound, as decode should be)."
    reason = best.diagnosis.note if best.diagnosis else ""
    return head + f", below {MEMORY_BOUND_FRACTION:.0%}: {reason}."


def method_notes(report: BenchReport) -> list[str]:
    s = report.settings
    notes = [
        (
            f"Source model {s.model_name} ({s.source_quant}); requantized variants were made from it "
            "with llama.cpp's quantizer (allow_requantize), so none can be better than the source."
        ),
        (
            "TTFT: prompt of N filler tokens evaluated from an empty KV cache up to the greedy first "
            f"token; prefill tok/s = N / TTFT. Decode: {s.decode_tokens} greedy single-token steps "
            f"after the shortest prompt. {s.repeats} repeats after one warm-up; median (min-max). "
            f"KV cache n_ctx={s.n_ctx}."
        ),
        (
            "Turn: one cold request through FormattedChatModel (render, generate with tool_choice="
            f"{s.turn_tool_choice}, parse), timed until the first complete tool call; prompts "
            f"{', '.join(s.turn_prompts)}."
        ),
        (
            "Roofline: best-of streaming-read bandwidth (numpy sum over an array >= 8x the last-level "
            "cache) at the run's thread count / bytes one decode step reads (every weight tensor; with "
            "tied embeddings the table is read whole by the output matmul, otherwise one row; "
            "the LoRA adapter's tensors when one is applied; plus the f16 KV cache at the mean "
            "decode position). Bandwidth is also measured with 1 thread: a decode thread speedup "
            "counts as arithmetic only when it beats the bandwidth's own growth over the same "
            "thread counts (x bandwidth) by 15%."
        ),
        (
            "Units: sizes and memory in MiB (2^20 bytes); bytes per token in MB (10^6 bytes) and "
            "bandwidth in GB/s (10^9 bytes/s), so roofline tok/s = 1000 x GB/s / (MB read/token). "
            "Size is the GGUF file plus its adapter file."
        ),
        peak_rss_note(report),
    ]
    if s.accuracy_suite:
        notes.append(
            f"Accuracy: exact-match rate on {s.accuracy_cases} {s.accuracy_suite} cases spread "
            "over the category, graded by botpsy.rewards; each turn stopped at the first complete "
            "call. A relative measure between variants, not a BFCL score."
        )
    if any(row.backend == "transformers" for row in report.variants):
        notes.append(
            "transformers runs (hf-*): the same measurements on PyTorch. transformers has no "
            "grammar support, so for tool_choice=required the call opener is forced into the "
            "prompt instead of a call grammar: their turn and accuracy numbers show what "
            "llama.cpp's constrained decoding adds, not only a precision difference."
        )
    return notes + report.notes


def peak_rss_note(report: BenchReport) -> str:
    """What "peak RSS" counts, so it is not read as the model's footprint in the assistant."""
    s = report.settings
    rows = report.variants
    baseline = sorted(r.peak_rss_mb - r.model_rss_mb for r in rows)
    kv = sorted(r.kv_cache_mb for r in rows if r.kv_cache_mb is not None)
    kv_text = (
        f" ({kv[len(kv) // 2]:.0f} MiB here; the assistant allocates n_ctx={ASSISTANT_N_CTX}, "
        f"{kv[len(kv) // 2] * ASSISTANT_N_CTX / s.n_ctx:.0f} MiB)"
        if kv
        else ""
    )
    return (
        "Peak RSS: the high-water resident memory of the worker process (VmHWM), so it counts "
        "the Python interpreter, botpsy and the runtime"
        + (f" (~{baseline[len(baseline) // 2]:.0f} MiB before the model loads)" if baseline else "")
        + ", the memory-mapped weights as they are touched, the adapter, compute buffers, and "
        f"the KV cache allocated up front for the bench's n_ctx={s.n_ctx}{kv_text}."
    )


def title(report: BenchReport) -> str:
    return f"Device bench: {report.settings.model_name}" + (" (partial)" if report.partial else "")


def render_markdown(report: BenchReport, plots: list[Plot]) -> str:
    s = report.settings
    warnings = report_warnings(report)
    parts = [
        f"# {title(report)}",
        f"{report.created}, botpsy {report.botpsy_version}, wall time {report.wall_s:.0f} s"
        + (" (--quick)" if s.quick else ""),
    ]
    if warnings:
        parts += ["## Warnings", "\n".join(f"- Warning: {line}" for line in warnings)]
    parts += [
        "## Machine",
        "\n".join(f"- {line}" for line in machine_lines(report)),
        "## Results",
        results_table(report).to_markdown(),
        "## Decode against the memory roofline",
        "\n".join(
            f"- bandwidth with {b.threads} thread(s): {b.gb_s:.1f} GB/s (best of {b.repeats_gb_s}"
            + (f"; CPU share {b.cpu_share:.0%}" if b.cpu_share is not None else "")
            + ")"
            for b in report.bandwidth
        ),
        roofline_table(report).to_markdown(),
        verdict(report),
        "\n".join(f"- {r.key}: {r.diagnosis.note}" for r in report.variants if r.diagnosis),
    ]
    if plots:
        parts += ["## Plots", "\n\n".join(f"![{p.title}]({p.path.name})" for p in plots)]
    parts += ["## Method and notes", "\n".join(f"- {note}" for note in method_notes(report))]
    return "\n\n".join(parts) + "\n"


HTML_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ name }}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; } .muted { color: #666; }
</style></head><body>
<h1>{{ name }}</h1>
<p class="muted">{{ subtitle }}</p>
{% if warnings %}<h2>Warnings</h2><ul>{% for line in warnings %}<li>Warning: {{ line }}</li>{% endfor %}</ul>{% endif %}
<h2>Machine</h2><ul>{% for line in machine %}<li>{{ line }}</li>{% endfor %}</ul>
{% for title, table in tables %}<h2>{{ title }}</h2>
<table><tr>{% for h in table.headers %}<th>{{ h }}</th>{% endfor %}</tr>
{% for row in table.rows %}<tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>{% endfor %}</table>
{% endfor %}
<p><strong>{{ verdict }}</strong></p>
<ul>{% for line in diagnoses %}<li>{{ line }}</li>{% endfor %}</ul>
{% for title, data in images %}<h3>{{ title }}</h3><img alt="{{ title }}" src="data:image/png;base64,{{ data }}">{% endfor %}
<h2>Method and notes</h2><ul>{% for line in notes %}<li>{{ line }}</li>{% endfor %}</ul>
</body></html>
"""


def render_html(report: BenchReport, plots: list[Plot]) -> str:
    """A single self-contained page: the tables, and the plots inlined as base64 PNGs."""
    from jinja2 import Environment

    template = Environment(autoescape=True).from_string(HTML_TEMPLATE)
    return template.render(
        name=title(report),
        warnings=report_warnings(report),
        subtitle=f"{report.created}, botpsy {report.botpsy_version}, wall time {report.wall_s:.0f} s",
        machine=machine_lines(report),
        tables=[
            ("Results", results_table(report)),
            ("Decode against the memory roofline", roofline_table(report)),
        ],
        verdict=verdict(report),
        diagnoses=[f"{r.key}: {r.diagnosis.note}" for r in report.variants if r.diagnosis],
        images=[(p.title, base64.b64encode(p.path.read_bytes()).decode("ascii")) for p in plots],
        notes=method_notes(report),
    )


def write_report(report: BenchReport, out_dir: Path) -> ReportFiles:
    """Write report.json, the plots, report.md and report.html into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / "report.json"
    json_path.write_text(report.model_dump_json(indent=2), encoding="utf-8")
    plots = write_plots(report, out_dir)
    md_path = out_dir / "report.md"
    md_path.write_text(render_markdown(report, plots), encoding="utf-8")
    html_path = out_dir / "report.html"
    html_path.write_text(render_html(report, plots), encoding="utf-8")
    return ReportFiles(json_path, md_path, html_path, plots)


def headline(row: VariantResult) -> str:
    """A one-line summary of a run for the terminal: speed against its roofline and what that
    roofline counted (bytes per token, size with the adapter), memory, turn, accuracy."""
    decode = row.decode_tok_s.median if row.decode_tok_s else None
    turn = row.turn_latency_s.median if row.turn_latency_s else None
    read = row.bytes_per_token / MB if row.bytes_per_token else None
    adapter = f" incl. {row.adapter_mb:.1f} MiB adapter" if row.adapter_mb else ""
    return (
        f"{row.key}: decode {num(decode)} tok/s ({pct(row.roofline_fraction)} of roofline "
        f"{num(row.roofline_tok_s, 0)} tok/s at {num(read)} MB read/token), "
        f"size {num(row.size_mb)} MiB{adapter}, peak {num(row.peak_rss_mb, 0)} MiB, "
        f"turn {num(turn, 2)} s"
        + (f", accuracy {pct(row.accuracy)}" if row.accuracy is not None else "")
    )
