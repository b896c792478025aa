"""The synthetic data generator: diverse, valid, deduplicated, seeded, split with every kind."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from botpsy.rewards import score_calls
from botpsy.tools.validation import schema_errors
from botpsy.train.catalog import CatalogError, ToolRecipe, load_recipes
from botpsy.train.catalog_builtin import builtin_recipes
from botpsy.train.data import DataConfig, dedup_key, generate, split
from botpsy.train.sample import DOMAIN_GROUPS, SampleKind
from botpsy.train.synth import Synthesizer
from botpsy.train.templates import check_recipe
from botpsy.types import ToolSpec


def test_every_kind_domain_and_group_present(small_data):
    both = small_data.train + small_data.validation
    assert {s.kind for s in both} == set(SampleKind)
    assert {s.kind for s in small_data.validation} == set(SampleKind)
    assert {s.group for s in both} == set(DOMAIN_GROUPS.values())
    domains = Counter(s.domain for s in both)
    for domain in (
        "mail",
        "calendar",
        "contacts",
        "notes",
        "reminders",
        "files",
        "weather",
        "travel",
        "shopping",
        "generic",
        "money",
        "health",
        "personal_data",
    ):
        assert domains[domain] > 0, domain


def test_requests_and_tools_are_diverse(small_data):
    both = small_data.train + small_data.validation
    requests = [m.content for s in both for m in s.messages if m.role == "user"]
    # Declines and small talk come from short fixed lists and may repeat; requests realised
    # from templates must not.
    realised = [
        m.content for s in both if s.reference_calls for m in s.messages if m.role == "user"
    ]
    assert len(set(realised)) / len(realised) > 0.98
    assert len(set(requests)) / len(requests) > 0.9
    assert len({t.name for s in both for t in s.tools}) >= 40
    first_words = Counter(r.split()[0].lower() for r in requests)
    assert len(first_words) >= 40  # many different phrasings, not one template


def test_stats_count_the_samples_under_another_naming_style(small_data):
    both = small_data.train + small_data.validation
    catalog = {r.spec.name for r in builtin_recipes()}
    restyled = [s for s in both if any(t.name not in catalog for t in s.tools)]
    assert small_data.stats.restyled == len(restyled)
    assert 0.15 * len(both) < len(restyled) < 0.45 * len(both)  # the default share is 0.3
    plain = generate(DataConfig(n_samples=60, seed=1, name_style_share=0.0))
    assert plain.stats.restyled == 0


def test_no_duplicates_and_no_leak_between_splits(small_data):
    keys_train = {dedup_key(s) for s in small_data.train}
    keys_val = {dedup_key(s) for s in small_data.validation}
    assert len(keys_train) == len(small_data.train)
    assert not keys_train & keys_val
    assert (
        len({s.id for s in small_data.train + small_data.validation})
        == small_data.stats.train + small_data.stats.validation
    )


def test_references_are_valid_against_the_tool_schemas(small_data):
    for sample in small_data.train + small_data.validation:
        tools = {t.name: t for t in sample.tools}
        first = next(m for m in sample.messages if m.role == "assistant")
        for call in first.tool_calls:
            assert call.name in tools
            assert schema_errors(tools[call.name].parameters, call.arguments) == []
        # the canonical answer earns full reward against its own references
        assert score_calls(first.tool_calls, sample.reference_calls).exact, sample.id


def test_kinds_have_their_shape(small_data):
    for sample in small_data.train:
        first = next(m for m in sample.messages if m.role == "assistant")
        calls = first.tool_calls
        if sample.kind in (SampleKind.irrelevance, SampleKind.decline):
            assert not calls and first.content and not sample.reference_calls
        elif sample.kind == SampleKind.parallel:
            assert len(calls) >= 2 and len({c.name for c in calls}) == 1
        elif sample.kind == SampleKind.parallel_multiple:
            assert len({c.name for c in calls}) >= 2
        elif sample.kind == SampleKind.multi_turn:
            roles = [m.role for m in sample.messages]
            assert "tool" in roles and roles[-1] == "assistant" and sample.messages[-1].content
        elif sample.kind == SampleKind.single:
            assert len(calls) == 1 and len(sample.tools) == 1


def test_seeded_generation_is_reproducible():
    a = generate(DataConfig(n_samples=60, seed=7))
    b = generate(DataConfig(n_samples=60, seed=7))
    c = generate(DataConfig(n_samples=60, seed=8))
    assert [s.to_record() for s in a.train] == [s.to_record() for s in b.train]
    assert [s.id for s in a.train] != [s.id for s in c.train]


def test_split_is_stratified_and_rejects_bad_fraction(small_data):
    train, val = split(small_data.train + small_data.validation, 0.2, seed=1)
    assert {s.kind for s in val} == set(SampleKind)
    with pytest.raises(ValueError, match="val_fraction"):
        split(train, 1.5)


def test_unknown_kind_weight_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown sample kinds"):
        generate(DataConfig(n_samples=10, kind_weights={"telepathy": 1.0}))


def _recipe(**changes) -> ToolRecipe:
    spec = ToolSpec(
        name="ping_host",
        description="Ping a host.",
        parameters={
            "type": "object",
            "properties": {"host": {"type": "string"}, "count": {"type": "integer"}},
            "required": ["host"],
        },
    )
    base = {
        "spec": spec,
        "domain": "generic",
        "sources": {"host": "city", "count": "count"},
        "requests": ["Ping {host}.", "Ping {host} {count} times."],
        "answers": ["{host} answered."],
    }
    return ToolRecipe(**{**base, **changes})


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"requests": ["Ping {count} times."]}, "leaves out required"),
        ({"requests": ["Ping {hostname}."]}, "unknown argument"),
        ({"sources": {"host": "planet"}}, "unknown source"),
        ({"answers": ["{count} pings done."]}, "not a required argument"),
        ({"requests": ["Ping {host}.{count=two}"]}, "not JSON"),
    ],
)
def test_bad_recipes_are_rejected_with_a_reason(changes, message):
    with pytest.raises(CatalogError, match=message):
        check_recipe(_recipe(**changes))


def test_user_recipes_extend_the_catalog(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps([_recipe().model_dump()]))
    recipes = load_recipes(path)
    synth = Synthesizer(builtin_recipes()[:5] + recipes, seed=0)
    made = [synth.make(SampleKind.single) for _ in range(60)]
    assert any(s.reference_calls and s.reference_calls[0].name == "ping_host" for s in made)
    (tmp_path / "bad.json").write_text('{"not": "a list"}')
    with pytest.raises(CatalogError, match="not a list"):
        load_recipes(tmp_path / "bad.json")


def _listed(declared) -> list:
    return declared if isinstance(declared, list) else [declared]


def test_builtin_catalog_is_consistent():
    recipes = builtin_recipes()
    for recipe in recipes:
        check_recipe(recipe)
    assert len({r.domain for r in recipes}) == 12  # ten assistant domains, science, software
    # The assistant's optional arguments are unions like ["string", "null"]: count each type.
    nodes = [node for r in recipes for node in r.spec.parameters["properties"].values()]
    kinds = {kind for node in nodes for kind in _listed(node.get("type"))}
    assert {"string", "integer", "number", "boolean", "array", "object"} <= kinds
    assert any("enum" in node for r in recipes for node in r.spec.parameters["properties"].values())


def test_the_documented_example_recipe_is_valid_and_generates(tmp_path):
    # docs/training/your-tools.md points users at this file: it must keep working
    path = Path(__file__).parents[2] / "src/botpsy/train/examples/your-tools.example.json"
    [recipe] = load_recipes(path)
    check_recipe(recipe)
    synth = Synthesizer(builtin_recipes()[:5] + [recipe], seed=0)
    made = [synth.make(SampleKind.single) for _ in range(60)]
    calls = [s.reference_calls[0] for s in made if s.reference_calls
             and s.reference_calls[0].name == "set_thermostat"]
    assert calls
