"""Conversions between botpsy's data model and BFCL's result and checker shapes."""

from __future__ import annotations

import pytest

from botpsy.evals.bfcl import upstream
from botpsy.evals.bfcl.convert import (
    DecodeError,
    NotSourceText,
    bfcl_result,
    checker_tag,
    checker_values,
    decode_ast,
    decode_execute,
    strict_fc_result,
    to_messages,
    tool_specs,
)
from botpsy.rewards import CallErrorType, ReferenceCall, score_calls
from botpsy.types import Completion, ToolCall

PY, JAVA, JS = upstream.Language.PYTHON, upstream.Language.JAVA, upstream.Language.JAVASCRIPT


def test_fc_result_holds_calls_or_the_text():
    calls = Completion(tool_calls=[ToolCall(name="f", arguments={"x": 1})], raw="<call>")
    assert bfcl_result(calls, "fc") == [{"f": {"x": 1}}]
    assert (
        bfcl_result(Completion(content="no tool fits", raw="no tool fits"), "fc") == "no tool fits"
    )
    assert bfcl_result(calls, "prompt") == "<call>"


@pytest.mark.parametrize(
    "result, mode, language, decoded",
    [
        ([{"f": {"x": 1}}], "fc", PY, [{"f": {"x": 1}}]),
        ([{"f": '{"x": 1}'}], "fc", PY, [{"f": {"x": 1}}]),  # OpenAI-style JSON text arguments
        ([], "fc", PY, []),
        ("[f(x=1), g(y='a')]", "prompt", PY, [{"f": {"x": 1}}, {"g": {"y": "a"}}]),
        ("f(x=1)", "prompt", PY, [{"f": {"x": 1}}]),
        ("[math.add(a=1)]", "prompt", PY, [{"math.add": {"a": 1}}]),
        ('[Foo.bar(a="x")]', "prompt", JAVA, [{"Foo.bar": {"a": "x"}}]),
    ],
)
def test_decode_ast(result, mode, language, decoded):
    assert decode_ast(result, mode, language) == decoded


@pytest.mark.parametrize(
    "result, mode",
    [
        ("I cannot help with that.", "fc"),
        ([{"f": {"x": 1}, "g": {}}], "fc"),
        ([{"f": "{not json"}], "fc"),
        ([{"f": [1, 2]}], "fc"),
        ("I cannot help with that.", "prompt"),
        ("[f(x=1", "prompt"),
        ([{"f": {}}], "prompt"),
    ],
)
def test_undecodable_results_raise_decode_error(result, mode):
    with pytest.raises(DecodeError):
        decode_ast(result, mode, PY)


def test_decode_execute_gives_bfcl_call_strings():
    assert decode_execute([{"cd": {"folder": "a"}}], "fc") == ["cd(folder='a')"]
    assert decode_execute("[cd(folder='a'), ls()]", "prompt") == ["cd(folder='a')", "ls()"]
    with pytest.raises(DecodeError):
        decode_execute("Done.", "prompt")


DOCS = [
    {
        "name": "f",
        "parameters": {
            "type": "dict",
            "properties": {
                "n": {"type": "integer"},
                "l": {"type": "long"},
                "flag": {"type": "boolean"},
                "xs": {"type": "ArrayList", "items": {"type": "String"}},
                "arr": {"type": "array", "items": {"type": "float"}},
                "m": {"type": "HashMap"},
                "any": {"type": "any"},
            },
        },
    }
]


@pytest.mark.parametrize(
    "language, arguments, expected",
    [
        (PY, {"n": "5"}, {"n": "5"}),  # Python values are compared as given
        (JAVA, {"n": "5", "l": "7L", "flag": "true"}, {"n": 5, "l": 7, "flag": True}),
        (JAVA, {"xs": 'new ArrayList<>(Arrays.asList("a", "b"))'}, {"xs": ["a", "b"]}),
        (JAVA, {"m": 'new HashMap<String, Object>() {{ put("k", 1); }}'}, {"m": {"k": 1}}),
        # A JSON value where source text is due is marked, so the grader fails it as BFCL does.
        (JAVA, {"any": "obj", "n": 5}, {"any": "obj", "n": NotSourceText(5)}),
        (JS, {"arr": [1], "flag": True}, {"arr": NotSourceText([1]), "flag": True}),
        (JAVA, {"extra": 5}, {"extra": 5}),  # undeclared: nothing to convert against
        (JAVA, {"n": "five"}, {"n": "five"}),  # unconvertible text stays text, as in BFCL
        (JS, {"arr": "[1, 2.5]", "flag": "true"}, {"arr": [1.0, 2.5], "flag": "true"}),
    ],
)
def test_checker_values_convert_java_and_javascript_source(language, arguments, expected):
    (call,) = checker_values([{"f": arguments}], DOCS, language)
    assert call.name == "f" and call.arguments == expected


@pytest.mark.parametrize("value", [5, "5"])
def test_grader_fails_a_json_value_where_java_wants_source_text(value):
    """BFCL's checker fails ``5`` for a Java int (type_error:java); the grader must agree."""
    (call,) = checker_values([{"f": {"n": value}}], DOCS, JAVA)
    score = score_calls([call], [ReferenceCall("f", {"n": [5]})])
    assert score.exact is (value == "5")
    if value == 5:
        assert score.error_type is CallErrorType.type_error


def test_messages_and_tools_from_bfcl():
    messages = to_messages(
        [{"role": "system", "content": "be brief"}, {"role": "user", "content": None}]
    )
    assert [(m.role, m.content) for m in messages] == [("system", "be brief"), ("user", "")]
    (spec,) = tool_specs(
        [
            {
                "name": "a.b",
                "description": "d",
                "parameters": {
                    "type": "dict",
                    "properties": {"x": {"type": "float"}},
                    "required": ["x"],
                },
            }
        ]
    )
    assert spec.name == "a.b" and spec.parameters["properties"]["x"]["type"] == "number"


@pytest.mark.parametrize(
    "name, tag",
    [("smollm2", "smollm2"), ("openai:http://h/v1#m-1", "openai_http___h_v1_m_1"), ("", "model")],
)
def test_checker_tag_is_an_identifier(name, tag):
    assert checker_tag(name) == tag and tag.isidentifier()


BROKEN_THEN_GOOD = (
    '<tool_call>\n{"name": "f", "arguments": {"x": 5C}}\n</tool_call>\n'
    '<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>'
)
UNCLOSED = '<tool_call>\n{"name": "f", "arguments": {"x": 1}}'


@pytest.mark.parametrize(
    "raw, expected",
    [
        ('<tool_call>\n{"name": "f", "arguments": {"x": 1}}\n</tool_call>', [{"f": {"x": 1}}]),
        # botpsy repairs these; BFCL's handler drops the broken block and the unclosed one
        (BROKEN_THEN_GOOD, [{"g": {}}]),
        (UNCLOSED, UNCLOSED),
        ("No tool fits.", "No tool fits."),
        ('<tool_call>\n["f"]\n</tool_call>', '<tool_call>\n["f"]\n</tool_call>'),  # fails whole
    ],
)
def test_strict_fc_result_reads_raw_text_as_bfcls_hermes_handler(raw, expected):
    assert strict_fc_result(raw) == expected
