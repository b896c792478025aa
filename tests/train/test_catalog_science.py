"""The science calculators: valid recipes whose calls carry the numbers the request says."""

from __future__ import annotations

import random

from botpsy.train.catalog_science import RECIPES
from botpsy.train.templates import Shared, check_call, check_recipe, realise


def test_every_template_of_every_science_recipe_realises_a_valid_call():
    rng = random.Random(0)
    for factory in RECIPES:
        recipe = factory()
        check_recipe(recipe)
        assert recipe.domain == "science"
        for template in recipe.requests:
            item = realise(recipe, rng, Shared(rng), template)
            check_call(recipe, item.call)
            assert "{" not in item.text, item.text


def test_numbers_said_are_the_numbers_passed():
    rng = random.Random(1)
    recipe = next(f() for f in RECIPES if f.__name__ == "_mean_of_numbers")
    item = realise(recipe, rng, Shared(rng), "Find the arithmetic mean of {numbers}.")
    numbers = item.call.arguments["numbers"]
    assert 3 <= len(numbers) <= 6
    assert all(str(n) in item.text for n in numbers)


def test_a_fixed_flag_is_set_without_being_drawn():
    rng = random.Random(2)
    recipe = next(f() for f in RECIPES if f.__name__ == "_standard_deviation")
    assert "sample" not in recipe.sources
    item = realise(recipe, rng, Shared(rng), recipe.requests[-1])
    assert item.call.arguments["sample"] is True
