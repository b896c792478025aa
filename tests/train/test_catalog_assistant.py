"""The assistant's own tools in the training catalog: every one has a recipe, the new recipes
carry the live schemas, their calls are valid, and irrelevance samples never offer a tool
that could serve the request."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from botpsy.assistant.toolsets import assistant_tools
from botpsy.assistant.user_data import AssistantStore
from botpsy.tools import Tool
from botpsy.train.catalog import ToolRecipe
from botpsy.train.catalog_assistant import RECIPES
from botpsy.train.catalog_builtin import builtin_recipes
from botpsy.train.catalog_personal import RECIPES as PERSONAL
from botpsy.train.sample import SampleKind
from botpsy.train.synth import OVERLAPS, TWINS, Synthesizer, _could_serve
from botpsy.train.templates import (
    SLOT,
    Shared,
    check_call,
    check_recipe,
    fill_json,
    fill_text,
    realise,
)

NEW_TOOLS = {
    "add_reminder",
    "append_to_file",
    "delete_event",
    "draft_email",
    "find_free_slots",
    "search_events",
    "search_everything",
    "get_contact",
    "list_inbox",
    "read_email",
    "read_note",
    "reply_email",
    "search_contacts",
    "search_mail",
    "trash_email",
    "update_event",
    "write_file",
}

# Tools that the runner below can call on an empty store (the others need an existing id).
RUNNABLE = {"add_reminder", "find_free_slots", "write_file", "draft_email", "list_inbox"}
RUNNABLE |= {"search_mail", "search_contacts", "create_event", "send_email", "add_contact"}
RUNNABLE |= {"create_note", "list_events", "list_reminders", "search_notes", "search_files"}


@pytest.fixture
def live(tmp_path) -> Iterator[dict[str, Tool]]:
    """The assistant's tools bound to an empty store with a fixed clock before every date the
    catalog draws (2025-2026), since new events and reminders on past days are refused."""
    with AssistantStore(tmp_path, clock=lambda: datetime(2024, 12, 31, 9, tzinfo=UTC)) as store:
        yield {tool.name: tool for tool in assistant_tools(store)}


def _new_recipes() -> list[ToolRecipe]:
    return [factory() for factory in RECIPES]


def test_every_assistant_tool_has_a_recipe_of_its_name(live):
    names = [r.spec.name for r in builtin_recipes()]
    assert len(names) == len(set(names))
    assert set(live) <= set(names), sorted(set(live) - set(names))


def test_the_new_recipes_are_the_missing_tools_with_their_live_specs(live):
    recipes = _new_recipes()
    assert {r.spec.name for r in recipes} == NEW_TOOLS
    assert not NEW_TOOLS & {factory().spec.name for factory in PERSONAL}
    for recipe in recipes:
        assert recipe.spec == live[recipe.spec.name].spec, recipe.spec.name
    assert {r.domain for r in recipes} <= {factory().domain for factory in PERSONAL}


def test_recipes_have_varied_requests_and_answers():
    for recipe in _new_recipes():
        assert len(set(recipe.requests)) >= 5, recipe.spec.name
        assert len(set(recipe.answers)) >= 2, recipe.spec.name
        required = set(recipe.spec.parameters.get("required", []))
        optional = set(recipe.spec.parameters["properties"]) - required
        if optional:  # some requests fill optional arguments, some leave them all out
            fills = [any(f"{{{name}" in t for name in optional) for t in recipe.requests]
            assert sum(fills) >= 2, recipe.spec.name
            # an update without a field to change would be a no-op
            assert sum(fills) < len(fills) or recipe.spec.name == "update_event"


def _named_like_assistant_tools(live) -> list[ToolRecipe]:
    return [r for r in builtin_recipes() if r.spec.name in live]


def test_every_recipe_named_like_an_assistant_tool_carries_its_live_spec(live):
    recipes = _named_like_assistant_tools(live)
    assert {r.spec.name for r in recipes} == set(live)
    for recipe in recipes:
        assert recipe.spec == live[recipe.spec.name].spec, recipe.spec.name


def test_every_request_realises_a_call_the_live_tool_accepts(live):
    for seed in range(30):
        rng = random.Random(seed)
        for recipe in _named_like_assistant_tools(live):
            check_recipe(recipe)
            tool = live[recipe.spec.name]
            for template in recipe.requests:
                shared = Shared(rng)
                item = realise(recipe, rng, shared, template)
                check_call(recipe, item.call)
                verdict = tool.validate(item.call.arguments)
                assert verdict.ok and not verdict.coercions, (item.call, verdict)
                assert "{" not in item.text, item.text
                assert not SLOT.search(json.dumps(fill_json(recipe.result, item, shared)))
                for answer in recipe.answers:
                    assert not SLOT.search(fill_text(answer, item, shared))


def test_the_runnable_tools_run_the_realised_calls(live):
    rng = random.Random(7)
    for recipe in _named_like_assistant_tools(live):
        if recipe.spec.name not in RUNNABLE:
            continue
        for template in recipe.requests:
            item = realise(recipe, rng, Shared(rng), template)
            live[recipe.spec.name].invoke(item.call.arguments)  # raises on a bad date or time


class _Recording(Synthesizer):
    """A synthesizer that remembers the recipe behind its last irrelevance sample."""

    target: ToolRecipe | None = None

    def _unfit_tools(self, recipe: ToolRecipe, avoid: set[str] | None = None) -> list:
        self.target = recipe
        return super()._unfit_tools(recipe, avoid)


def _groups_of(name: str) -> set[str]:
    return {tool for group in OVERLAPS + TWINS if name in group for tool in group}


def test_irrelevance_never_offers_a_tool_of_the_targets_overlap_set():
    synth = _Recording(builtin_recipes(), seed=11)
    targets = set()
    for _ in range(600):
        synth.target = None
        sample = synth.make(SampleKind.irrelevance)
        if synth.target is None:  # chitchat: no target
            continue
        target = synth.target.spec.name
        targets.add(target)
        offered = {t.name for t in sample.tools}
        assert offered and target not in offered
        assert not offered & _groups_of(target), (target, offered)
        assert not any(_could_serve(name, target, sample.domain) for name in offered)
    assert len(targets & NEW_TOOLS) >= 10


def test_tools_that_serve_each_others_requests_are_never_distractors():
    pairs = [
        ("reply_email", "send_email"),
        ("reply_email", "reply_to_email"),
        ("search_mail", "list_inbox"),
        ("search_mail", "search_emails"),
        ("list_inbox", "search_emails"),
        ("get_contact", "find_contact"),
        ("get_contact", "search_contacts"),
        ("search_contacts", "find_contact"),
        ("add_reminder", "create_reminder"),
        ("add_reminder", "set_timer"),
        ("find_free_slots", "find_free_slot"),
        ("find_free_slots", "list_events"),
        ("read_note", "search_notes"),
        ("write_file", "create_note"),
        ("delete_event", "cancel_event"),
        ("update_event", "reschedule_event"),
        ("draft_email", "send_email"),
    ]
    for one, other in pairs:
        assert _could_serve(one, other) and _could_serve(other, one), (one, other)
    assert not _could_serve("read_email", "list_inbox")  # a listing cannot read a whole email


def test_a_target_is_never_offered_with_its_twin():
    synth = Synthesizer(builtin_recipes(), seed=4)
    kinds = (
        SampleKind.multiple,
        SampleKind.parallel,
        SampleKind.parallel_multiple,
        SampleKind.multi_turn,
    )
    for kind in kinds:
        for _ in range(150):
            sample = synth.make(kind)
            called = {c.name for m in sample.messages for c in m.tool_calls}
            offered = {t.name for t in sample.tools}
            for name in called:
                twins = {t for group in TWINS if name in group for t in group} - {name}
                assert not twins & offered, (kind, name, offered)
