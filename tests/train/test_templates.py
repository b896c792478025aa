"""Slot filling: one request per call, and one request that fans out to several calls."""

from __future__ import annotations

import random

import pytest

from botpsy.train.catalog import CatalogError
from botpsy.train.catalog_builtin import builtin_recipes
from botpsy.train.templates import (
    Shared,
    check_call,
    check_recipe,
    fan_out,
    realise,
    respectively,
)


def _recipe(name: str):
    return next(r for r in builtin_recipes() if r.spec.name == name)


def test_preset_slots_keep_their_values():
    recipe = _recipe("get_current_weather")
    rng = random.Random(0)
    first = realise(recipe, rng, Shared(rng))
    again = realise(recipe, rng, Shared(rng), recipe.requests[0], preset=first.drawn)
    for path, value in first.drawn.items():
        if path in again.drawn:
            assert again.drawn[path] == value


def test_fan_out_asks_once_for_several_calls_differing_in_one_argument():
    rng = random.Random(3)
    made = 0
    for recipe in builtin_recipes():
        found = fan_out(recipe, rng, Shared(rng), 3)
        if found is None:
            continue
        made += 1
        text, items = found
        assert len(items) == 3
        for item in items:
            check_call(recipe, item.call)
            assert item.call.name == recipe.spec.name
        assert len({repr(item.call.arguments) for item in items}) == 3
        drawn = [item.drawn for item in items]
        varying = {k for k in drawn[0] if len({repr(d[k].value) for d in drawn}) > 1}
        assert len(varying) == 1, (recipe.spec.name, drawn)
        (slot,) = varying
        words = [item.surfaces[slot] for item in items]
        assert f"{words[0]}, {words[1]} and {words[2]}" in text, (text, words)
    assert made > 40  # almost every recipe has a slot with three distinct values


def test_a_paired_fan_out_varies_two_slots_in_step_and_says_respectively():
    rng = random.Random(5)
    made = 0
    for recipe in builtin_recipes():
        found = fan_out(recipe, rng, Shared(rng), 2, width=2)
        if found is None:
            continue
        made += 1
        text, items = found
        drawn = [item.drawn for item in items]
        varying = [k for k in drawn[0] if len({repr(d[k].value) for d in drawn}) > 1]
        assert len(varying) == 2, (recipe.spec.name, drawn)
        for slot in varying:  # each slot's words in call order: the i-th of each pair up
            words = [item.surfaces[slot] for item in items]
            assert f"{words[0]} and {words[1]}" in text, (text, words)
            assert all(len(w.split()) <= 3 for w in words)  # no paired sentences
        assert text.rstrip(".?!").endswith(", respectively"), text
    assert made > 15


@pytest.mark.parametrize(
    "template, slot, crowded",
    [
        ("Free time between {day_start} and {day_end}?", "day_start", True),
        ("Resize it to {width}x{height}.", "height", True),
        ("A triangle with base {base} cm and height {height} cm.", "base", False),
        ("Flights from {origin} to {destination}.", "destination", False),
        ("Weather in {city}.", "city", False),
    ],
)
def test_a_slot_said_as_a_list_must_not_run_into_its_neighbour(template, slot, crowded):
    from botpsy.train.templates import _crowded

    assert _crowded(template, slot) is crowded


def test_respectively_goes_before_the_closing_punctuation():
    assert respectively("Play A and B for 20 and 15 minutes.") == (
        "Play A and B for 20 and 15 minutes, respectively."
    )
    assert respectively("Area with base 3 and 4?") == "Area with base 3 and 4, respectively?"
    assert respectively("Add 2 and 3") == "Add 2 and 3, respectively"


def test_fan_out_gives_up_when_no_slot_has_enough_values():
    recipe = _recipe("get_current_weather")
    rng = random.Random(0)
    assert fan_out(recipe, rng, Shared(rng), 100) is None


def test_a_joint_slot_sets_its_arguments_together_and_consistently():
    recipe = _recipe("create_event")
    check_recipe(recipe)
    for seed in range(20):
        rng = random.Random(seed)
        item = realise(recipe, rng, Shared(rng), "Schedule {title} {start+end}.")
        start, end = item.call.arguments["start"], item.call.arguments["end"]
        # "2025-03-04T15:00" or "tomorrow 15:00": the same day, then a later time
        assert start[:-5] == end[:-5] and start[-5:] < end[-5:]
        assert " from " in item.text and "+" not in item.text


def test_a_joint_slot_naming_an_unknown_argument_is_a_clear_error():
    recipe = _recipe("create_event")
    broken = recipe.model_copy(update={"requests": ["Schedule {title} {start+finish}."]})
    with pytest.raises(CatalogError, match="unknown argument"):
        check_recipe(broken)
