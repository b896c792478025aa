"""Source-text bindings: tools re-declared as Java/JavaScript methods stay consistent."""

from __future__ import annotations

import pytest

from botpsy.rewards import ReferenceCall, score_calls
from botpsy.tools.validation import validate_arguments
from botpsy.train.catalog import array, boolean, integer, number, obj, string, tool
from botpsy.train.catalog_builtin import builtin_recipes
from botpsy.train.data import DataConfig, generate
from botpsy.train.phrasing import SYSTEM_PROMPTS
from botpsy.train.sample import SampleKind, TrainSample
from botpsy.train.source_text import is_source_text, source_text, to_source_text
from botpsy.train.synth import Synthesizer
from botpsy.types import Message, ToolCall

SPEC = tool(
    "Grid.plot",
    "Plot points on a grid.",
    {
        "label": string("Label of the plot."),
        "visible": boolean("Whether to show it"),
        "size": integer("Marker size."),
        "alpha": number("Opacity."),
        "xs": array("X values.", {"type": "integer"}),
        "tags": array("Tags.", {"type": "string"}),
        "style": obj("Style.", {"color": string("Colour.")}, ["color"]),
    },
    ["label", "visible"],
)
ARGS = {
    "label": "sales",
    "visible": True,
    "size": 3,
    "alpha": 0.5,
    "xs": [1, 2],
    "tags": ["a", "b"],
    "style": {"color": "red"},
}


def _sample() -> TrainSample:
    call = ToolCall(name="Grid.plot", arguments=ARGS)
    ref = ReferenceCall(
        "Grid.plot",
        {**{key: [value] for key, value in ARGS.items()}, "size": [3, ""]},
        schemas={"visible": {"type": "boolean"}, "label": {"type": "string"}},
    )
    return TrainSample(
        id="x",
        messages=[
            Message(role="user", content="plot sales"),
            Message(role="assistant", tool_calls=[call]),
        ],
        tools=[SPEC],
        reference_calls=[ref],
        kind=SampleKind.single,
    )


def test_java_writes_literals_and_keeps_strings_and_objects():
    out = to_source_text(_sample(), "Java")
    (call,) = out.messages[1].tool_calls
    assert call.arguments == {
        "label": "sales",
        "visible": "true",
        "size": "3",
        "alpha": "0.5",
        "xs": "new int[]{1, 2}",
        "tags": 'new String[]{"a", "b"}',
        "style": {"color": "red"},  # Java has no literal for a JSON object: left typed
    }
    props = out.tools[0].parameters["properties"]
    assert props["visible"] == {
        "type": "string",
        "description": "Whether to show it. Given as Java source text (boolean).",
    }
    assert props["xs"]["description"].endswith("(int[]).")
    assert props["label"] == SPEC.parameters["properties"]["label"]
    assert props["style"]["type"] == "object"
    assert out.tools[0].description.endswith("(a Java method)")
    assert is_source_text(out) and not is_source_text(_sample())


def test_javascript_writes_json_text_for_arrays_and_objects():
    out = to_source_text(_sample(), "JavaScript")
    args = out.messages[1].tool_calls[0].arguments
    assert args["xs"] == "[1, 2]" and args["tags"] == '["a", "b"]'
    assert args["style"] == '{"color": "red"}' and args["visible"] == "true"
    assert out.tools[0].parameters["properties"]["size"]["description"].endswith("(number).")


def test_the_call_still_validates_and_matches_its_reference():
    out = to_source_text(_sample(), "Java")
    call = out.messages[1].tool_calls[0]
    verdict = validate_arguments(out.tools[0], call.arguments)
    assert verdict.ok and not verdict.coercions
    (ref,) = out.reference_calls
    assert ref.arguments["size"] == ["3", ""]  # "may be omitted" survives
    assert ref.schemas["visible"] == {"type": "string"}
    assert score_calls([call], out.reference_calls).exact
    # The JSON-typed call no longer matches: the rewrite is what the grader now expects.
    assert not score_calls(_sample().messages[1].tool_calls, out.reference_calls).exact


def test_an_object_reference_with_field_alternatives_matches_its_call():
    # the data's object references list each field's accepted values ({"color": ["red"]});
    # the source text must be written from one of them, not from the lists
    sample = _sample()
    ref = sample.reference_calls[0]
    nested = {**ref.arguments, "style": [{"color": ["red"]}]}
    sample = sample.model_copy(update={"reference_calls": [
        ReferenceCall(ref.name, nested, schemas=ref.schemas)]})
    out = to_source_text(sample, "JavaScript")
    assert score_calls([out.messages[1].tool_calls[0]], out.reference_calls).exact


def test_source_text_leaves_unrewritable_values_alone():
    assert source_text("", {"type": "integer"}, "Java") == ""
    assert source_text(4, {"type": ["integer", "null"]}, "Java") == 4
    assert source_text([{"a": 1}], array("x", {"type": "object"}), "Java") == [{"a": 1}]
    with pytest.raises(ValueError, match="unknown language"):
        to_source_text(_sample(), "Kotlin")


def test_synthesizer_rewrites_only_outside_the_assistant_prompt():
    synth = Synthesizer(
        builtin_recipes(), seed=5, source_text_share=1.0, assistant_prompt_share=0.5
    )
    rewritten = kept = 0
    for _ in range(40):
        sample = synth.make(SampleKind.single)
        first = sample.messages[0]
        assistant = first.role == "system" and first.content not in SYSTEM_PROMPTS
        assert is_source_text(sample) is not assistant
        rewritten += not assistant
        kept += assistant
        for call in (c for m in sample.messages for c in m.tool_calls):
            spec = next(t for t in sample.tools if t.name == call.name)
            assert validate_arguments(spec, call.arguments).ok
    assert rewritten and kept


def test_a_zero_share_leaves_the_data_unchanged():
    base = DataConfig(n_samples=30, seed=2, max_distractors=2)
    plain = generate(base)
    zero = generate(DataConfig(n_samples=30, seed=2, max_distractors=2, source_text_share=0.0))
    assert [s.id for s in plain.train] == [s.id for s in zero.train]
    assert plain.stats.source_text == 0
    some = generate(DataConfig(n_samples=30, seed=2, max_distractors=2, source_text_share=0.5))
    assert some.stats.source_text > 0
    with pytest.raises(ValueError, match="source_text_share"):
        DataConfig(source_text_share=1.5)
