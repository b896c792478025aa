"""The software domain: valid recipes with three or more required arguments, all stated."""

from __future__ import annotations

import random

from botpsy.train.catalog_software import RECIPES
from botpsy.train.templates import Shared, check_call, check_recipe, realise
from botpsy.train.vocab import source


def test_every_template_realises_a_valid_call_with_every_required_argument():
    rng = random.Random(0)
    for factory in RECIPES:
        recipe = factory()
        check_recipe(recipe)
        required = recipe.spec.parameters["required"]
        assert recipe.domain == "software" and len(required) >= 3
        for template in recipe.requests:
            item = realise(recipe, rng, Shared(rng), template)
            check_call(recipe, item.call)
            assert set(required) <= set(item.call.arguments), template
            assert "{" not in item.text, item.text


def test_a_variable_is_said_in_backticks_or_bare_and_passed_bare():
    rng = random.Random(3)
    draws = [source("monitor_ref")(rng) for _ in range(40)]
    assert all(d.value.endswith("Monitor") and "`" not in d.value for d in draws)
    assert {d.surface.startswith("`") for d in draws} == {True, False}
    assert all(d.surface.strip("`") == d.value for d in draws)


def test_a_quoted_literal_is_passed_without_its_quotes():
    rng = random.Random(4)
    recipe = next(f() for f in RECIPES if f.__name__ == "_ReportExporter_exportTable")
    item = realise(recipe, rng, Shared(rng), recipe.requests[0])
    table = item.call.arguments["table"]
    assert f"'{table}'" in item.text and "'" not in table
