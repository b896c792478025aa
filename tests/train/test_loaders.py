"""Loaders: OpenAI messages, xLAM/APIGen and Hermes/ShareGPT rows, good and bad."""

from __future__ import annotations

import json

import pytest

from botpsy.rewards import score_calls
from botpsy.train.loaders import DatasetFormatError, RowErrorKind, load_samples, read_samples
from botpsy.train.sample import SampleKind

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}


def _write(path, rows):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


def test_botpsy_files_round_trip(data_files, small_data):
    loaded = read_samples(data_files.train)
    assert [s.id for s in loaded] == [s.id for s in small_data.train]
    for original, again in zip(small_data.train, loaded):
        assert again.reference_calls == original.reference_calls
        assert again.messages == original.messages
        assert (again.kind, again.domain) == (original.kind, original.domain)


def test_openai_rows_infer_references_and_kind(tmp_path):
    row = {
        "messages": [
            {"role": "user", "content": "Weather in Oslo and Rome?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "a",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                    },
                    {
                        "id": "b",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": {"city": "Rome"}},
                    },
                ],
            },
        ],
        "tools": [WEATHER_TOOL],
    }
    [sample] = read_samples(_write(tmp_path / "d.jsonl", [row]))
    assert sample.kind == SampleKind.parallel
    calls = sample.messages[1].tool_calls
    assert [c.arguments["city"] for c in calls] == ["Oslo", "Rome"]
    assert score_calls(list(reversed(calls)), sample.reference_calls).exact


def test_xlam_rows(tmp_path):
    row = {
        "id": 7,
        "query": "What's 5 km in miles?",
        "tools": json.dumps(
            [
                {
                    "name": "convert",
                    "description": "Convert units.",
                    "parameters": {
                        "value": {"type": "float", "description": "amount"},
                        "unit": {"type": "str, optional", "default": "km"},
                    },
                }
            ]
        ),
        "answers": json.dumps([{"name": "convert", "arguments": {"value": 5, "unit": "km"}}]),
    }
    [sample] = read_samples(_write(tmp_path / "x.jsonl", [row]))
    params = sample.tools[0].parameters
    assert params["properties"]["value"]["type"] == "number"
    assert params["required"] == ["value"]
    assert sample.reference_calls[0].arguments == {"value": [5], "unit": ["km"]}
    assert sample.id == "7"


def test_hermes_rows_pair_tool_responses_with_calls(tmp_path):
    system = (
        "You are a function calling AI.\n<tools>\n"
        + json.dumps(WEATHER_TOOL["function"])
        + "\n</tools>"
    )
    row = {
        "conversations": [
            {"from": "system", "value": system},
            {"from": "human", "value": "Weather in Lima?"},
            {
                "from": "gpt",
                "value": (
                    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n'
                    "</tool_call>"
                ),
            },
            {"from": "tool", "value": '<tool_response>\n{"temp": 21}\n</tool_response>'},
            {"from": "gpt", "value": "It is 21 degrees in Lima."},
        ]
    }
    [sample] = read_samples(_write(tmp_path / "h.jsonl", [row]))
    assert sample.kind == SampleKind.multi_turn
    assert sample.tools[0].name == "get_weather"
    assert "<tools>" not in sample.messages[0].content
    call, tool = sample.messages[2].tool_calls[0], sample.messages[3]
    assert (tool.tool_call_id, tool.name, tool.content) == (call.id, "get_weather", '{"temp": 21}')


def test_the_public_hermes_prompt_and_its_python_literal_calls(tmp_path):
    # The public data names an empty "<tools> </tools>" in its instructions before the real
    # block, writes calls as Python literals, and answers parallel calls in one tool turn.
    spec = json.dumps(WEATHER_TOOL)
    system = ("You are provided with function signatures within <tools> </tools> XML tags. "
              f"Here are the available tools: <tools> [{spec}] </tools> Use them.")
    lima, oslo = ({"arguments": {"city": c}, "name": "get_weather"} for c in ("Lima", "Oslo"))
    row = {"conversations": [
        {"from": "system", "value": system},
        {"from": "human", "value": "Weather in Lima and Oslo?"},
        {"from": "gpt", "value": f"<tool_call>\n{lima!r}\n</tool_call>\n"
                                 f"<tool_call>\n{oslo!r}\n</tool_call>"},
        {"from": "tool", "value": "<tool_response>\n{\"temp\": 21}\n</tool_response>\n"
                                  "<tool_response>\n{\"temp\": 3}\n</tool_response>"},
        {"from": "gpt", "value": "21 in Lima, 3 in Oslo."},
    ]}
    [sample] = read_samples(_write(tmp_path / "h.jsonl", [row]))
    assert [t.name for t in sample.tools] == ["get_weather"]
    calls = sample.messages[2].tool_calls
    assert [c.arguments["city"] for c in calls] == ["Lima", "Oslo"]
    results = [m for m in sample.messages if m.role == "tool"]
    assert [(m.tool_call_id, m.content) for m in results] == [
        (calls[0].id, '{"temp": 21}'), (calls[1].id, '{"temp": 3}')]


@pytest.mark.parametrize(
    "row, kind",
    [
        ("{not json", RowErrorKind.invalid_json),
        # an xLAM row with no call would teach an empty answer
        ({"query": "q", "tools": json.dumps([WEATHER_TOOL]), "answers": "[]"},
         RowErrorKind.bad_call),
        # a call of a tool the row does not offer, or without a required argument
        ({"query": "q", "tools": json.dumps([WEATHER_TOOL]),
          "answers": json.dumps([{"name": "nope", "arguments": {}}])}, RowErrorKind.bad_call),
        ({"query": "q", "tools": json.dumps([WEATHER_TOOL]),
          "answers": json.dumps([{"name": "get_weather", "arguments": {}}])},
         RowErrorKind.bad_call),
        ({"foo": 1}, RowErrorKind.unknown_format),
        ({"messages": []}, RowErrorKind.bad_message),
        ({"messages": [{"role": "wizard", "content": "hi"}]}, RowErrorKind.bad_message),
        (
            {"messages": [{"role": "user", "content": "hi"}]},
            RowErrorKind.bad_message,
        ),  # nothing to learn
        (
            {
                "messages": [
                    {"role": "user", "content": "x"},
                    {
                        "role": "assistant",
                        "tool_calls": [{"function": {"name": "f", "arguments": "{oops"}}],
                    },
                ]
            },
            RowErrorKind.bad_call,
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": "x"},
                    {"role": "assistant", "content": "y"},
                ],
                "tools": [{"description": "no name"}],
            },
            RowErrorKind.bad_tool,
        ),
        ({"query": "q", "tools": "[]"}, RowErrorKind.missing_field),
        ({"query": "q", "tools": "[", "answers": "[]"}, RowErrorKind.invalid_json),
        ({"conversations": [{"from": "alien", "value": "x"}]}, RowErrorKind.bad_message),
        (
            {
                "conversations": [
                    {"from": "human", "value": "x"},
                    {"from": "gpt", "value": "<tool_call>nope</tool_call>"},
                ]
            },
            RowErrorKind.bad_call,
        ),
    ],
)
def test_bad_rows_get_a_category_and_a_line(tmp_path, row, kind):
    good = {
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    }
    path = _write(tmp_path / "mixed.jsonl", [good, row, good])
    result = load_samples(path, strict=False)
    assert len(result.samples) == 2  # the good rows are kept
    [error] = result.errors
    assert (error.line, error.kind) == (2, kind)
    with pytest.raises(DatasetFormatError, match="line 2"):
        load_samples(path)


def test_json_list_files_and_forced_format(tmp_path):
    path = tmp_path / "rows.json"
    path.write_text(
        json.dumps(
            [
                {
                    "query": "Weather in Oslo?",
                    "tools": [WEATHER_TOOL],
                    "answers": [{"name": "get_weather", "arguments": {"city": "Oslo"}}],
                }
            ]
        )
    )
    assert read_samples(path)[0].reference_calls[0].name == "get_weather"
    with pytest.raises(DatasetFormatError, match="missing_field"):
        load_samples(path, fmt="hermes")
    with pytest.raises(ValueError, match="unknown data format"):
        load_samples(path, fmt="csv")
