"""The Markdown of an AgentDojo summary (``summary.md`` beside ``summary.json``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from botpsy.evals.markdown import markdown_table

if TYPE_CHECKING:
    from botpsy.evals.agentdojo.summary import AgentDojoSummary, SuiteSummary

HEADERS = ["suite", "utility %", "under attack %", "kept", "ASR %", "ASR scripted %",
           "user tasks", "pairs", "declined requests", "scope-blocked calls", "refused", "missing"]


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _row(name: str, s: SuiteSummary) -> list[object]:
    kept = "-" if s.utility_kept is None else f"{s.utility_kept:.2f}"
    return [name, _pct(s.utility), _pct(s.utility_under_attack), kept, _pct(s.asr),
            _pct(s.asr_scripted), s.n_user_tasks, s.n_pairs, len(s.declined_requests),
            s.calls_blocked_by_scope, s.confirmations_refused, s.missing]


def summary_markdown(summary: AgentDojoSummary) -> str:
    partial = "" if summary.complete else " (PARTIAL: tasks missing, see `missing`)"
    limit = f", first {summary.limit} user tasks per suite" if summary.limit else ""
    who = ("every call approved unread" if summary.safety == "off"
           else f"{summary.user} user answering confirmations")
    parts = [
        f"# AgentDojo {summary.benchmark_version}: {summary.model}{partial}",
        f"Safety {summary.safety}, {who}, attack `{summary.attack}`{limit}.",
        markdown_table(HEADERS, [*(_row(n, s) for n, s in summary.suites.items()),
                                 _row("overall", summary.overall)]),
        ("ASR scripted: over the pairs whose injection task has ground-truth calls (the "
        "ones the obedient planner can play). Refused: confirmations the simulated user "
        "refused."),
    ]
    for name, s in summary.suites.items():
        hits = [f"{task} {_pct(t.asr)}% ({t.scripted})"
                for task, t in s.per_injection_task.items() if t.asr > 0]
        if hits:
            parts.append(f"**{name}**, injection tasks that got through: " + ", ".join(hits))
        if s.declined_requests:
            parts.append(f"**{name}**, requests the scope policy declined: "
                         + ", ".join(s.declined_requests))
    return "\n\n".join(parts) + "\n"
