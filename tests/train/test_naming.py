"""Tool-name styles: renamed samples stay consistent and graders still match them."""

from __future__ import annotations

import random

import pytest

from botpsy.rewards import score_calls
from botpsy.train.catalog_builtin import builtin_recipes
from botpsy.train.naming import camel, pascal, restyle, style_names
from botpsy.train.sample import SampleKind
from botpsy.train.synth import Synthesizer


def test_camel_and_pascal_case():
    assert camel("send_email") == "sendEmail"
    assert pascal("mean_of_numbers") == "MeanOfNumbers"
    assert camel("factorial") == "factorial"


def test_style_names_are_unique_and_share_a_namespace_within_a_domain():
    domains = {"triangle_area": "science", "circle_area": "science", "send_email": "mail"}
    seen_styles = set()
    for seed in range(40):
        names = style_names(list(domains), domains, random.Random(seed))
        assert len(set(names.values())) == len(names)
        science = [names[n] for n in ("triangle_area", "circle_area") if "." in names[n]]
        if len(science) == 2 and names["triangle_area"].split(".")[0][0].isupper():
            assert science[0].split(".")[0] == science[1].split(".")[0]
            seen_styles.add("class_method")
        seen_styles.update(
            "dotted" for n in names.values() if n.split(".")[0] in ("math", "geometry", "physics")
        )
        seen_styles.update("camel" for n in names.values() if n == "triangleArea")
    assert seen_styles == {"class_method", "dotted", "camel"}


def test_names_that_would_clash_keep_their_spelling():
    tools = ["send_email", "sendEmail", "send_email.run"]
    for seed in range(30):
        names = style_names(tools, {}, random.Random(seed))
        final = [names.get(n, n) for n in tools]
        assert len(set(final)) == len(tools), (seed, final)


@pytest.mark.parametrize("kind", [SampleKind.multi_turn, SampleKind.parallel_multiple])
def test_restyled_sample_renames_tools_calls_outputs_and_references(kind):
    synth = Synthesizer(builtin_recipes(), seed=3)
    sample = synth.make(kind)
    names = {t.name: f"ns.{t.name}" for t in sample.tools}
    renamed = restyle(sample, names)
    offered = {t.name for t in renamed.tools}
    assert offered == set(names.values())
    calls = [c for m in renamed.messages for c in m.tool_calls]
    assert calls and all(c.name in offered for c in calls)
    assert all(m.name in offered for m in renamed.messages if m.role == "tool")
    assert all(r.name in offered for r in renamed.reference_calls)
    first = next(m for m in renamed.messages if m.tool_calls)
    assert score_calls(first.tool_calls, renamed.reference_calls).exact
    assert sample.tools[0].name in names  # the original is untouched


def test_synthesizer_restyles_about_its_share_of_samples():
    synth = Synthesizer(builtin_recipes(), seed=0, name_style_share=0.5)
    catalog = {r.spec.name for r in builtin_recipes()}
    samples = [synth.make(SampleKind.multiple) for _ in range(200)]
    restyled = sum(any(t.name not in catalog for t in s.tools) for s in samples)
    assert 70 <= restyled <= 130
    plain = Synthesizer(builtin_recipes(), seed=0)
    assert all(t.name in catalog for t in plain.make(SampleKind.multiple).tools)


def test_synthesizer_rejects_a_share_outside_zero_to_one():
    with pytest.raises(ValueError, match="name_style_share"):
        Synthesizer(builtin_recipes(), name_style_share=1.5)
