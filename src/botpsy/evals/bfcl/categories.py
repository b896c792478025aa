"""BFCL v4 test categories: what each one checks, in which language, and which we run.

The lists come from bfcl-eval itself (``bfcl_eval.constants.category_mapping``),
so a new bfcl-eval release that adds a category shows up here as "unknown kind"
instead of being silently skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from botpsy.evals.bfcl import upstream


class CategoryKind(str, Enum):
    """How a category is scored."""

    ast = "ast"  # single-turn calls compared with possible answers by the AST checker
    relevance = "relevance"  # any call counts as right (live_relevance)
    irrelevance = "irrelevance"  # no call is right
    multi_turn = "multi_turn"  # conversations executed against BFCL's Python APIs, states compared
    agentic = "agentic"  # web search and memory (answers checked in the final message)
    format_sensitivity = "format_sensitivity"  # one set of cases under 26 prompt formats


# Categories we do not run, and why (shown in every report).
NOT_RUN: dict[str, str] = {
    **{
        name: "needs a live web search service (SerpAPI key and internet access)"
        for name in upstream.category_mapping.WEB_SEARCH_CATEGORY
    },
    "memory_kv": "needs BFCL's memory pipeline: prerequisite conversations whose memory "
    "snapshots are written to disk and read back by later entries",
    "memory_rec_sum": "needs BFCL's memory pipeline: prerequisite conversations whose memory "
    "snapshots are written to disk and read back by later entries",
    "memory_vector": "needs BFCL's memory pipeline and a sentence-transformers embedding "
    "model from a model hub",
    "format_sensitivity": "not part of the score; needs BFCL's 26 system-prompt variants "
    "(JSON and XML answer formats) that botpsy's chat formats do not render",
}


@dataclass(frozen=True)
class Category:
    """One BFCL category: its kind, the score-file group folder, the call language."""

    name: str
    kind: CategoryKind
    group: str  # non_live | live | multi_turn | agentic | format_sensitivity
    language: upstream.Language

    @property
    def not_run_reason(self) -> str | None:
        return NOT_RUN.get(self.name)

    @property
    def runnable(self) -> bool:
        return self.name not in NOT_RUN

    @property
    def single_call(self) -> bool:
        """Answers are exactly one call: BFCL's checker counts anything else as wrong_count
        (every AST category without "parallel" in its name)."""
        return self.kind is CategoryKind.ast and "parallel" not in self.name


class UnknownCategoryError(ValueError):
    """A category or collection name bfcl-eval does not know."""


def _kind(name: str) -> CategoryKind:
    if "format_sensitivity" in name:
        return CategoryKind.format_sensitivity
    if "multi_turn" in name:
        return CategoryKind.multi_turn
    if "web_search" in name or "memory" in name:
        return CategoryKind.agentic
    if "irrelevance" in name:
        return CategoryKind.irrelevance
    if "relevance" in name:
        return CategoryKind.relevance
    return CategoryKind.ast


def _language(name: str) -> upstream.Language:
    if "javascript" in name:
        return upstream.Language.JAVASCRIPT
    if "java" in name:
        return upstream.Language.JAVA
    return upstream.Language.PYTHON


def category(name: str) -> Category:
    """The Category named ``name`` (a single category, not a collection)."""
    if name not in upstream.category_mapping.ALL_CATEGORIES:
        raise UnknownCategoryError(
            f"unknown BFCL category {name!r}; known: {', '.join(all_category_names())}"
        )
    group = upstream.get_directory_structure_by_category(name).split("/")[0]
    return Category(name, _kind(name), group, _language(name))


def all_category_names() -> list[str]:
    return list(upstream.category_mapping.ALL_CATEGORIES)


def collections() -> dict[str, list[str]]:
    """BFCL's named collections (``all``, ``non_live``, ``multi_turn``...)."""
    return {k: list(v) for k, v in upstream.category_mapping.TEST_COLLECTION_MAPPING.items()}


def resolve(names: list[str]) -> list[Category]:
    """Categories named directly or through a collection, in BFCL's order, no duplicates."""
    wanted: set[str] = set()
    for name in names:
        if name in upstream.category_mapping.TEST_COLLECTION_MAPPING:
            wanted.update(upstream.category_mapping.TEST_COLLECTION_MAPPING[name])
        elif name in upstream.category_mapping.ALL_CATEGORIES:
            wanted.add(name)
        else:
            raise UnknownCategoryError(
                f"unknown BFCL category or collection {name!r}; collections: "
                f"{', '.join(collections())}; categories: {', '.join(all_category_names())}"
            )
    return [category(n) for n in all_category_names() if n in wanted]
