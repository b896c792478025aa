"""The official ``openai`` client drives the server: text, tools, streaming, usage."""

from __future__ import annotations

import json

import openai
import pytest

from .helpers import MODEL_NAME, WEATHER_TOOL, call_text


@pytest.fixture
def client(shared_server):
    server, backend = shared_server
    return openai.OpenAI(base_url=server.url + "/v1", api_key="unused", max_retries=0), backend


def test_plain_answer_with_usage(client):
    api, backend = client
    backend.outputs.append("Hello there, friend!")
    reply = api.chat.completions.create(
        model=MODEL_NAME, messages=[{"role": "user", "content": "hi"}], max_tokens=32
    )
    assert reply.choices[0].message.content == "Hello there, friend!"
    assert reply.choices[0].finish_reason == "stop"
    assert reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens == 3
    assert reply.usage.total_tokens == reply.usage.prompt_tokens + 3
    assert reply.model == MODEL_NAME and reply.id.startswith("chatcmpl-")


def test_tool_call_is_returned_and_tools_reach_the_prompt(client):
    api, backend = client
    backend.outputs.append(call_text("get_weather", city="Paris"))
    reply = api.chat.completions.create(
        model=MODEL_NAME,
        messages=[{"role": "user", "content": "Weather in Paris?"}],
        tools=[WEATHER_TOOL],
    )
    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    (call,) = choice.message.tool_calls
    assert call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {"city": "Paris"}
    assert "get_weather" in backend.prompts[-1] and "Weather in Paris?" in backend.prompts[-1]


def test_tool_result_round_trip(client):
    """The client runs the tool and sends the result back; the model sees both."""
    api, backend = client
    backend.outputs.append("It is sunny in Paris.")
    messages = [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21 C"},
    ]
    reply = api.chat.completions.create(model=MODEL_NAME, messages=messages, tools=[WEATHER_TOOL])
    assert reply.choices[0].message.content == "It is sunny in Paris."
    assert "sunny, 21 C" in backend.prompts[-1]


def test_required_tool_choice_constrains_generation(client):
    api, backend = client
    backend.outputs.append(call_text("get_weather", city="Oslo"))
    reply = api.chat.completions.create(
        model=MODEL_NAME,
        messages=[{"role": "user", "content": "Oslo"}],
        tools=[WEATHER_TOOL],
        tool_choice={"type": "function", "function": {"name": "get_weather"}},
    )
    assert reply.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert backend.grammars[-1] is not None and "get_weather" in backend.grammars[-1]
    assert "call)*" in backend.grammars[-1].splitlines()[0]  # parallel calls by default


def test_parallel_tool_calls_false_allows_one_call(client):
    api, backend = client
    backend.outputs.append(call_text("get_weather", city="Oslo"))
    api.chat.completions.create(
        model=MODEL_NAME, messages=[{"role": "user", "content": "Oslo"}], tools=[WEATHER_TOOL],
        tool_choice="required", parallel_tool_calls=False,
    )
    assert "call)*" not in backend.grammars[-1].splitlines()[0]


def test_a_cut_answer_is_length_even_with_calls(client):
    # the budget ran out inside a second call: the client must learn the output was cut
    api, backend = client
    backend.outputs.append(call_text("get_weather", city="Oslo") + "\n<tool_call>\n{\"na")
    reply = api.chat.completions.create(
        model=MODEL_NAME, messages=[{"role": "user", "content": "Oslo and Rome"}],
        tools=[WEATHER_TOOL], max_tokens=8,
    )
    assert reply.choices[0].finish_reason == "length"
    assert reply.choices[0].message.tool_calls[0].function.name == "get_weather"


def test_streamed_text_matches_and_ends_with_usage(client):
    api, backend = client
    text = "Streaming answer text, in many small pieces."
    backend.outputs.append(text)
    chunks = list(
        api.chat.completions.create(
            model=MODEL_NAME,
            messages=[{"role": "user", "content": "hi"}],
            stream=True,
            stream_options={"include_usage": True},
        )
    )
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert content == text
    assert len([c for c in chunks if c.choices and c.choices[0].delta.content]) > 3
    finishes = [
        c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason
    ]
    assert finishes == ["stop"]
    assert chunks[-1].choices == [] and chunks[-1].usage.completion_tokens == len(text.split())


def test_streamed_tool_call_deltas(client):
    api, backend = client
    backend.outputs.append(call_text("get_weather", city="Lima"))
    stream = api.chat.completions.create(
        model=MODEL_NAME,
        messages=[{"role": "user", "content": "Lima?"}],
        tools=[WEATHER_TOOL],
        stream=True,
    )
    calls: dict[int, dict] = {}
    finish = None
    for chunk in stream:
        delta = chunk.choices[0].delta
        for part in delta.tool_calls or []:
            slot = calls.setdefault(part.index, {"name": "", "arguments": "", "id": None})
            slot["id"] = part.id or slot["id"]
            slot["name"] += part.function.name or ""
            slot["arguments"] += part.function.arguments or ""
        finish = chunk.choices[0].finish_reason or finish
    assert finish == "tool_calls"
    assert list(calls) == [0]
    assert calls[0]["name"] == "get_weather" and calls[0]["id"].startswith("call_")
    assert json.loads(calls[0]["arguments"]) == {"city": "Lima"}


def test_models_lists_the_served_model(client):
    api, _ = client
    assert [m.id for m in api.models.list()] == [MODEL_NAME]
    assert api.models.retrieve(MODEL_NAME).owned_by == "botpsy"


def test_unknown_model_is_404_for_the_sdk(client):
    api, _ = client
    with pytest.raises(openai.NotFoundError) as info:
        api.chat.completions.create(model="gpt-9", messages=[{"role": "user", "content": "hi"}])
    assert info.value.code == "model_not_found"
    assert MODEL_NAME in info.value.message


def test_json_response_format_is_enforced_and_read_as_content(client):
    # the grammar holds the answer to the schema; an answer shaped like a call stays content
    api, backend = client
    answer = '{"name": "get_weather", "arguments": {"city": "Oslo"}}'
    backend.outputs.append(answer)
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    reply = api.chat.completions.create(
        model=MODEL_NAME, messages=[{"role": "user", "content": "Oslo"}], tools=[WEATHER_TOOL],
        response_format={"type": "json_schema", "json_schema": {"name": "a", "schema": schema}},
    )
    assert reply.choices[0].message.content == answer and not reply.choices[0].message.tool_calls
    assert 'root ::=' in backend.grammars[-1] and '"\\"name\\""' in backend.grammars[-1]
