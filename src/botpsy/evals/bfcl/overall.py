"""BFCL's official overall score, and the mean and spread over repeated runs.

The weighting mirrors bfcl-eval's leaderboard writer
(``eval_runner_helper.generate_leaderboard_csv``): non-live AST is the plain mean
of simple (itself the mean of Python, Java, JavaScript), multiple, parallel and
parallel-multiple; live AST is weighted by case counts; irrelevance is the mean
of the non-live and live irrelevance; multi-turn and agentic are plain means;
the overall score weights them 10/10/10/30/40. A category that was not run
counts as 0 (as on the leaderboard) and marks its groups incomplete.
tests/evals/test_bfcl_overall.py checks this against bfcl-eval's own writer.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from botpsy.evals.bfcl.categories import category
from botpsy.evals.bfcl.dataset import dataset_size


@dataclass(frozen=True)
class Group:
    """A named combination of categories or groups."""

    name: str
    how: Literal["mean", "count_weighted", "weighted"]
    parts: tuple[Group | str, ...]
    weights: tuple[float, ...] = ()


SIMPLE = Group("simple", "mean", ("simple_python", "simple_java", "simple_javascript"))
NON_LIVE = Group("non_live", "mean", (SIMPLE, "multiple", "parallel", "parallel_multiple"))
LIVE = Group(
    "live",
    "count_weighted",
    ("live_simple", "live_multiple", "live_parallel", "live_parallel_multiple"),
)
IRRELEVANCE = Group("irrelevance_all", "mean", ("irrelevance", "live_irrelevance"))
MULTI_TURN = Group(
    "multi_turn",
    "mean",
    ("multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context"),
)
WEB_SEARCH = Group("web_search", "mean", ("web_search_base", "web_search_no_snippet"))
MEMORY = Group("memory", "mean", ("memory_kv", "memory_vector", "memory_rec_sum"))
AGENTIC = Group("agentic", "mean", (WEB_SEARCH, MEMORY))
OVERALL = Group(
    "overall", "weighted", (NON_LIVE, LIVE, IRRELEVANCE, MULTI_TURN, AGENTIC), (10, 10, 10, 30, 40)
)


def leaves(group: Group) -> tuple[str, ...]:
    """The categories under ``group``, however deep."""
    return tuple(
        name
        for part in group.parts
        for name in ((part,) if isinstance(part, str) else leaves(part))
    )


class Accuracy(BaseModel):
    """An accuracy with its case count; ``complete`` is False when a part was not run."""

    accuracy: float
    total_count: int
    complete: bool = True


class OverallScore(BaseModel):
    """The overall score and every group on the way, by name. ``overall_ran`` is the
    same weighting over what ran only: a category not run is left out of its group
    (not counted as 0) and a group with nothing run is left out of the overall, the
    weights of the rest scaled up; ``ran_groups`` names the top-level groups in it."""

    overall: float
    groups: dict[str, Accuracy]
    missing: list[str]
    overall_ran: float | None = None
    ran_groups: list[str] = Field(default_factory=list)


def _combine(group: Group, parts: list[Accuracy]) -> Accuracy:
    total = sum(p.total_count for p in parts)
    if group.how == "mean":
        value = sum(p.accuracy for p in parts) / len(parts)
    elif group.how == "count_weighted":
        value = sum(p.accuracy * p.total_count for p in parts) / total if total else 0.0
    else:
        value = sum(p.accuracy * w for p, w in zip(parts, group.weights)) / sum(group.weights)
    return Accuracy(accuracy=value, total_count=total, complete=all(p.complete for p in parts))


def overall_score(scores: Mapping[str, Accuracy]) -> OverallScore:
    """Combine per-category accuracies (category name -> Accuracy) into BFCL's overall."""
    groups: dict[str, Accuracy] = {}
    missing: list[str] = []

    def visit(node: Group | str) -> Accuracy:
        if isinstance(node, str):
            if node in scores:
                return scores[node]
            missing.append(node)
            return Accuracy(accuracy=0.0, total_count=dataset_size(category(node)), complete=False)
        result = _combine(node, [visit(part) for part in node.parts])
        groups[node.name] = result
        return result

    top = visit(OVERALL)
    ran = {part.name: value for part in OVERALL.parts
           if isinstance(part, Group) and (value := _ran(part, scores)) is not None}
    weights = {part.name: w for part, w in zip(OVERALL.parts, OVERALL.weights) if part.name in ran}
    overall_ran = (sum(ran[n].accuracy * w for n, w in weights.items()) / sum(weights.values())
                   if ran else None)
    return OverallScore(overall=top.accuracy, groups=groups, missing=missing,
                        overall_ran=overall_ran, ran_groups=list(ran))


def _ran(node: Group | str, scores: Mapping[str, Accuracy]) -> Accuracy | None:
    """``node``'s accuracy over the categories that ran (None: none of them did)."""
    if isinstance(node, str):
        return scores.get(node)
    weights = node.weights or (1.0,) * len(node.parts)
    found = [(acc, w) for part, w in zip(node.parts, weights)
             if (acc := _ran(part, scores)) is not None]
    if not found:
        return None
    kept = Group(node.name, node.how, (), tuple(w for _, w in found))
    return _combine(kept, [acc for acc, _ in found])


class MeanStd(BaseModel):
    mean: float
    std: float  # sample standard deviation; 0 for a single run
    values: list[float]


def mean_std(values: Sequence[float]) -> MeanStd:
    values = list(values)
    std = statistics.stdev(values) if len(values) > 1 else 0.0
    return MeanStd(mean=statistics.fmean(values), std=std, values=values)
