"""Synthetic samples: irrelevance offers no fitting tool (some near misses), parallel requests fan
out, and samples under the assistant's prompt look like what the deployed assistant shows."""

from __future__ import annotations

import re

import pytest

from botpsy.agent.selection import Bm25ToolSelector
from botpsy.train.catalog_assistant import assistant_specs
from botpsy.train.catalog_builtin import builtin_recipes
from botpsy.train.data import DataConfig
from botpsy.train.phrasing import JOINS
from botpsy.train.sample import SampleKind, domain_group
from botpsy.train.synth import ASSISTANT_GROUP, CATCH_ALL, Synthesizer, _could_serve


def _irrelevance_samples(n: int = 200) -> list:
    synth = Synthesizer(builtin_recipes(), seed=3)
    return [synth.make(SampleKind.irrelevance) for _ in range(n)]


def test_related_tools_count_as_able_to_serve():
    assert _could_serve("search_emails", "send_email")  # shared word, plural dropped
    assert _could_serve("find_free_slot", "list_events")  # listed overlap
    assert _could_serve("web_search", "get_forecast")  # catch-all
    assert not _could_serve("cancel_event", "find_free_slot")
    assert _could_serve("calculate", "triangle_area", "science")  # domain catch-all
    assert not _could_serve("calculate", "triangle_area")


def test_irrelevance_never_offers_a_tool_that_fits():
    recipes = {r.spec.name: r for r in builtin_recipes()}
    by_description = {r.spec.description.rstrip(".").lower(): name for name, r in recipes.items()}
    near_misses = 0
    for sample in _irrelevance_samples():
        offered = [t.name for t in sample.tools]
        assert offered and not sample.reference_calls
        assert not set(offered) & CATCH_ALL
        if sample.domain == "chitchat":
            continue
        answer = sample.messages[-1].content.lower()
        target = next((n for d, n in by_description.items() if d in answer), None)
        if target is None:  # the answers that do not name the need
            continue
        assert not any(_could_serve(name, target) for name in offered), (target, offered)
        near_misses += all(recipes[name].domain == sample.domain for name in offered)
    assert near_misses >= 20


def test_science_irrelevance_never_offers_the_expression_calculator():
    science = [s for s in _irrelevance_samples(400) if s.domain == "science"]
    assert len(science) >= 20
    assert all("calculate" not in {t.name for t in s.tools} for s in science)


def test_multiple_often_offers_look_alikes_from_the_same_domain():
    recipes = {r.spec.name: r for r in builtin_recipes()}
    synth = Synthesizer(list(recipes.values()), seed=5)
    samples = [synth.make(SampleKind.multiple) for _ in range(200)]
    same = sum(len({recipes[t.name].domain for t in s.tools}) == 1 for s in samples)
    assert all(len(s.tools) >= 2 for s in samples)
    assert 50 <= same <= 150  # about half, not all


def test_parallel_often_asks_in_one_sentence_for_several_calls_of_one_tool():
    synth = Synthesizer(builtin_recipes(), seed=5)
    samples = [synth.make(SampleKind.parallel) for _ in range(60)]
    joined = [s for s in samples if any(f" {j} " in s.messages[-2].content for j in JOINS)]
    fanned = [s for s in samples if s not in joined]
    assert 15 < len(fanned) < 45
    for sample in fanned:
        calls = sample.messages[-1].tool_calls
        assert len(calls) >= 2 and len({c.name for c in calls}) == 1
        assert len({repr(c.arguments) for c in calls}) == len(calls)


def test_a_share_of_samples_opens_with_the_assistants_own_system_prompt(small_data):
    from botpsy.train.phrasing import ASSISTANT_PROMPT_SHARE

    first = [s.messages[0] for s in small_data.train]
    ours = [m for m in first if m.role == "system" and m.content.startswith("You are botpsy")]
    assert abs(len(ours) / len(first) - ASSISTANT_PROMPT_SHARE) < 0.1
    # as the assistant sends it: the day (no time) on the second line, then who the user is
    assert all(re.search(r"\nNow: \w+day \d{4}-\d\d-\d\d \(", m.content)
               and "\nThe user is " in m.content for m in ours)


def test_some_parallel_requests_pair_two_lists_with_respectively():
    synth = Synthesizer(builtin_recipes(), seed=0)
    texts = [
        next(m.content for m in synth.make(SampleKind.parallel).messages if m.role == "user")
        for _ in range(200)
    ]
    paired = [t for t in texts if t.rstrip(".?!").endswith(", respectively")]
    assert 0.04 < len(paired) / len(texts) < 0.25, len(paired)


def _assistant_prompted(sample) -> bool:
    first = sample.messages[0]
    return first.role == "system" and first.content.startswith("You are botpsy")


def test_under_the_assistants_prompt_no_request_of_its_own_domains_lacks_a_tool():
    """The assistant's tools serve every request of its domains, so "no tool fits" is never
    taught for them under its prompt; other domains' requests still are."""
    synth = Synthesizer(builtin_recipes(), seed=3, assistant_prompt_share=1.0)
    samples = [synth.make(SampleKind.irrelevance) for _ in range(200)]
    prompted = [s for s in samples if _assistant_prompted(s)]
    assert prompted and all(domain_group(s.domain) != ASSISTANT_GROUP for s in prompted)
    assert any(domain_group(s.domain) == ASSISTANT_GROUP for s in samples)  # without it


def test_assistant_prompted_samples_offer_what_the_assistants_selector_shows():
    recipes = builtin_recipes()
    assistant = set(assistant_specs())
    synth = Synthesizer(recipes, seed=4, assistant_tools_share=1.0, assistant_prompt_share=1.0)
    selector = Bm25ToolSelector()
    by_name = {r.spec.name: r.spec for r in recipes}
    toolset = [by_name[name] for name in assistant_specs()]  # the assistant's order
    offered = 0
    for kind in (SampleKind.single, SampleKind.multiple, SampleKind.parallel_multiple):
        for _ in range(120):
            sample = synth.make(kind)
            names = [t.name for t in sample.tools]
            if not set(names) <= assistant or len(names) == len(assistant):
                continue
            request = next(m.content for m in sample.messages if m.role == "user")
            shown = [t.name for t in selector.select(request, toolset)]
            if names != shown:
                continue  # a sample that kept its own tools (all of them the assistant's)
            offered += 1
            wanted = {c.name for c in sample.reference_calls}
            assert wanted and wanted <= set(names)
    assert offered >= 30, offered


def test_with_the_assistants_tools_on_its_prompt_meets_them_only_in_samples_with_a_call():
    assistant = set(assistant_specs())
    synth = Synthesizer(
        builtin_recipes(), seed=6, assistant_tools_share=1.0, assistant_prompt_share=1.0
    )
    samples = [synth.make(SampleKind.irrelevance) for _ in range(200)]
    prompted = [s for s in samples if _assistant_prompted(s)]
    assert len(prompted) > 50
    assert not any({t.name for t in s.tools} & assistant for s in prompted)
    others = [s for s in samples if not _assistant_prompted(s)]  # its own domains' requests
    assert any({t.name for t in s.tools} & assistant for s in others)


def test_assistant_tools_need_the_assistants_whole_toolset():
    """Without the assistant's recipes there is nothing its selector could show: samples keep
    their own tools."""
    recipes = [r for r in builtin_recipes() if r.spec.name not in assistant_specs()]
    synth = Synthesizer(recipes, seed=0, assistant_tools_share=1.0, assistant_prompt_share=1.0)
    sample = synth.make(SampleKind.single)
    assert [t.name for t in sample.tools] == [c.name for c in sample.reference_calls]


def test_shares_outside_zero_to_one_are_refused():
    with pytest.raises(ValueError, match="assistant_tools_share"):
        Synthesizer(builtin_recipes(), assistant_tools_share=1.5)
    with pytest.raises(ValueError, match="assistant_prompt_share"):
        DataConfig(assistant_prompt_share=-0.1)
