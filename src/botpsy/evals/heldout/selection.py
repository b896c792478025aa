"""Recall of a tool selector on request sets in the held-out format: a measurement only.

Each case that must change the store names the tools that make those changes (a
reminder inserted: ``add_reminder``; an email moved to the trash: ``trash_email``...).
A selector recalls a case when every one of those tools is among what it shows the
model for the request; a tool it does not show cannot be called. Recall says nothing
on its own: showing every tool recalls everything, so the mean number of tools shown
goes with it.

    from botpsy.evals.heldout.selection import selector_recall
    recall = selector_recall(assistant_selector(), load_cases(dev_path()))
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pydantic import BaseModel, Field

from botpsy.agent import ToolSelector
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.evals.heldout.cases import Change, HeldoutCase
from botpsy.types import ToolSpec

# The tool that makes each kind of change; emails are decided by their folder.
CHANGE_TOOLS: dict[tuple[str, str], frozenset[str]] = {
    ("reminders", "insert"): frozenset({"add_reminder"}),
    ("reminders", "update"): frozenset({"complete_reminder"}),
    ("events", "insert"): frozenset({"create_event"}),
    ("events", "update"): frozenset({"update_event"}),
    ("events", "delete"): frozenset({"delete_event"}),
    ("notes", "insert"): frozenset({"create_note"}),
    ("notes", "update"): frozenset({"append_to_note"}),
    ("contacts", "insert"): frozenset({"add_contact"}),
    ("files", "insert"): frozenset({"write_file"}),
    ("files", "update"): frozenset({"write_file", "append_to_file"}),
    ("emails", "update"): frozenset({"trash_email"}),
}
SENT = frozenset({"send_email", "reply_email"})


def change_tools(change: Change) -> frozenset[str]:
    """The tools any one of which makes ``change``."""
    if (change.table, change.op) == ("emails", "insert"):
        folder = change.fields.get("folder")
        return frozenset({"draft_email"}) if folder and folder.equals == "drafts" else SENT
    return CHANGE_TOOLS[(change.table, change.op)]


class RecallGroup(BaseModel):
    cases: int
    recalled: int
    recall: float
    mean_tools_shown: float


class SelectorRecall(BaseModel):
    """A selector's recall over the cases that change the store, per class and in all."""

    selector: str
    overall: RecallGroup
    classes: dict[str, RecallGroup] = Field(default_factory=dict)


def assistant_specs() -> list[ToolSpec]:
    """The assistant's tool schemas (from an empty store, which only lends them a home)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = AssistantStore(Path(tmp))
        try:
            return [tool.spec for tool in assistant_tools(store)]
        finally:
            store.close()


def selector_recall(selector: ToolSelector, cases: list[HeldoutCase], name: str = "",
                    tools: list[ToolSpec] | None = None) -> SelectorRecall:
    specs = tools if tools is not None else assistant_specs()
    rows: dict[str, list[tuple[bool, int]]] = {}
    for case in cases:
        if not case.expect_changes:
            continue
        shown = {s.name for s in selector.select(case.request, specs)}
        hit = all(change_tools(c) & shown for c in case.expect_changes)
        rows.setdefault(case.case_class.value, []).append((hit, len(shown)))
    everything = [row for group in rows.values() for row in group]
    return SelectorRecall(selector=name or type(selector).__name__, overall=_group(everything),
                          classes={k: _group(v) for k, v in rows.items()})


def _group(rows: list[tuple[bool, int]]) -> RecallGroup:
    n = len(rows)
    hits = sum(hit for hit, _ in rows)
    return RecallGroup(cases=n, recalled=hits, recall=hits / n if n else 0.0,
                       mean_tools_shown=sum(size for _, size in rows) / n if n else 0.0)
