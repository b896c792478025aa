"""BFCL categories: kinds, languages, groups, collections, what is not run."""

from __future__ import annotations

import pytest

from botpsy.evals.bfcl.categories import (
    NOT_RUN,
    CategoryKind,
    UnknownCategoryError,
    all_category_names,
    category,
    resolve,
)
from botpsy.evals.bfcl.dataset import dataset_size, load_answers, load_cases


@pytest.mark.parametrize(
    "name, kind, group, language",
    [
        ("simple_python", CategoryKind.ast, "non_live", "python"),
        ("simple_java", CategoryKind.ast, "non_live", "java"),
        ("simple_javascript", CategoryKind.ast, "non_live", "javascript"),
        ("parallel_multiple", CategoryKind.ast, "non_live", "python"),
        ("irrelevance", CategoryKind.irrelevance, "non_live", "python"),
        ("live_irrelevance", CategoryKind.irrelevance, "live", "python"),
        ("live_relevance", CategoryKind.relevance, "live", "python"),
        ("live_multiple", CategoryKind.ast, "live", "python"),
        ("multi_turn_long_context", CategoryKind.multi_turn, "multi_turn", "python"),
        ("web_search_no_snippet", CategoryKind.agentic, "agentic", "python"),
        ("memory_vector", CategoryKind.agentic, "agentic", "python"),
        ("format_sensitivity", CategoryKind.format_sensitivity, "format_sensitivity", "python"),
    ],
)
def test_category_table(name, kind, group, language):
    cat = category(name)
    assert (cat.kind, cat.group, cat.language.value) == (kind, group, language)


def test_every_bfcl_category_is_known_and_only_outside_services_are_skipped():
    for name in all_category_names():
        cat = category(name)
        assert cat.runnable == (
            cat.kind not in (CategoryKind.agentic, CategoryKind.format_sensitivity)
        ), name
    assert set(NOT_RUN) == {
        "web_search_base",
        "web_search_no_snippet",
        "memory_kv",
        "memory_vector",
        "memory_rec_sum",
        "format_sensitivity",
    }


def test_collections_resolve_in_bfcl_order_without_duplicates():
    names = [c.name for c in resolve(["non_live", "simple_python", "multi_turn"])]
    assert names[:3] == ["simple_python", "simple_java", "simple_javascript"]
    assert len(names) == len(set(names)) == 7 + 4


@pytest.mark.parametrize("bad", [["simple"], ["nonlive"], ["multi_turn_composite"]])
def test_unknown_names_are_refused_with_the_known_ones(bad):
    with pytest.raises(UnknownCategoryError, match="non_live"):
        resolve(bad)


def test_dataset_sizes_and_answers_come_from_the_installed_package():
    assert dataset_size(category("simple_python")) == 400
    assert dataset_size(category("multi_turn_base")) == 200
    assert load_answers(category("irrelevance")) == {}
    assert len(load_answers(category("parallel"))) == 200


def test_views_for_the_model_carry_bfcl_language_hints():
    java = category("simple_java")
    shown = load_cases(java, limit=1)[0].functions[0]
    original = load_cases(java, limit=1, for_model=False)[0].functions[0]
    assert "Java 8 SDK syntax" in shown["description"]
    assert all(p["type"] == "string" for p in shown["parameters"]["properties"].values())
    assert {p["type"] for p in original["parameters"]["properties"].values()} == {"any"}


def test_multi_turn_cases_get_api_docs_and_held_out_functions():
    case = load_cases(category("multi_turn_miss_func"), limit=1)[0]
    assert case.entry["involved_classes"] and case.functions
    held_out = [doc["name"] for docs in case.entry["missed_function"].values() for doc in docs]
    assert held_out and not set(held_out) & {doc["name"] for doc in case.functions}


def test_negative_limit_is_refused():
    with pytest.raises(ValueError):
        load_cases(category("simple_python"), limit=-1)
