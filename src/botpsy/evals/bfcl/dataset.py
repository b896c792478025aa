"""The BFCL v4 test cases and possible answers shipped inside the bfcl-eval package.

Loaded through bfcl-eval's own loaders, so that multi-turn cases get their API
function docs and held-out functions exactly as BFCL prepares them. Two views of
the same cases: ``for_model=True`` adds BFCL's language hints (Java/JavaScript
parameters become strings in the docs the model reads), ``for_model=False`` keeps
the original types the checker needs.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from botpsy.evals.bfcl import upstream
from botpsy.evals.bfcl.categories import Category, CategoryKind


@dataclass(frozen=True)
class TestCase:
    """One BFCL entry: id, conversation turns, function docs, and the raw entry."""

    id: str
    turns: list[list[dict[str, Any]]]
    functions: list[dict[str, Any]]
    entry: dict[str, Any] = field(repr=False)


@lru_cache(maxsize=64)
def _entries(name: str, for_model: bool) -> tuple[dict[str, Any], ...]:
    entries = upstream.load_dataset_entry(
        name, include_prereq=False, include_language_specific_hint=for_model
    )
    return tuple(entries)


def load_cases(
    category: Category, *, limit: int | None = None, for_model: bool = True
) -> list[TestCase]:
    """The first ``limit`` cases of a category (all when None), as BFCL orders them."""
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    entries = _entries(category.name, for_model)[: limit if limit is not None else None]
    cases = []
    for raw in entries:
        raw = copy.deepcopy(raw)  # callers may mutate (multi-turn adds held-out functions)
        cases.append(TestCase(raw["id"], raw["question"], raw.get("function", []), raw))
    return cases


def dataset_size(category: Category) -> int:
    """How many cases BFCL has in a category (the weight of a missing one in the overall)."""
    return len(_entries(category.name, False))


@lru_cache(maxsize=64)
def _answers(name: str) -> dict[str, Any]:
    prompts = _entries(name, False)
    truths = upstream.load_ground_truth_entry(name)
    if len(prompts) != len(truths):
        raise ValueError(f"bfcl-eval data for {name}: {len(prompts)} cases, {len(truths)} answers")
    # BFCL pairs cases with answers by position: a few answer ids are spelled differently.
    return {prompt["id"]: truth["ground_truth"] for prompt, truth in zip(prompts, truths)}


def load_answers(category: Category) -> dict[str, Any]:
    """Case id -> BFCL ground truth; empty for (ir)relevance categories, which have none."""
    if category.kind in (CategoryKind.relevance, CategoryKind.irrelevance):
        return {}
    return copy.deepcopy(_answers(category.name))
