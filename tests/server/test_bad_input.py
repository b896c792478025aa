"""Bad input and bad luck get clear status codes, and the server keeps serving."""

from __future__ import annotations

import json
import threading
import time

import httpx
import openai
import pytest

from botpsy.backends.chat import FormattedChatModel
from botpsy.formats import get_format
from botpsy.server.app import create_app

from .helpers import KEY, MODEL_NAME, WEATHER_TOOL, SlowBackend, scripted_model

CHAT = "/v1/chat/completions"
HELLO = {"model": MODEL_NAME, "messages": [{"role": "user", "content": "hi"}]}


def error_of(response: httpx.Response) -> dict:
    body = response.json()
    assert set(body) == {"error"}
    assert {"message", "type", "code", "param"} <= set(body["error"])
    return body["error"]


@pytest.fixture
def http(shared_server):
    server, backend = shared_server
    with httpx.Client(base_url=server.url, timeout=10) as client:
        yield client, backend


def test_malformed_json_is_400(http):
    client, backend = http
    response = client.post(
        CHAT, content=b'{"model": "x", "messages": [', headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid_json"
    backend.outputs.append("still here")
    assert client.post(CHAT, json=HELLO).json()["choices"][0]["message"]["content"] == "still here"


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"model": MODEL_NAME}, "messages"),
        ({"model": MODEL_NAME, "messages": []}, "messages"),
        (
            {"model": MODEL_NAME, "messages": [{"role": "wizard", "content": "x"}]},
            "messages[0].role",
        ),
        ({**HELLO, "temperature": 9}, "temperature"),
        ({**HELLO, "n": 2}, "n"),
        # unknown response formats and logprobs are refused, not silently ignored
        ({**HELLO, "response_format": {"type": "bogus"}}, "response_format.type"),
        ({**HELLO, "logprobs": True}, "logprobs"),
    ],
)
def test_schema_errors_are_422_and_name_the_field(http, body, param):
    client, _ = http
    response = client.post(CHAT, json=body)
    assert response.status_code == 422
    error = error_of(response)
    assert error["code"] == "invalid_request" and error["param"] == param
    assert error["message"].startswith(param)


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({**HELLO, "tools": [{"type": "function", "function": {"name": "bad name"}}]}, "tools[0]"),
        ({**HELLO, "tools": [{"type": "function"}]}, "tools[0]"),  # no function object
        ({**HELLO, "tools": [{"type": "function", "function": "f"}]}, "tools[0]"),
        (
            {
                **HELLO,
                "tools": [WEATHER_TOOL],
                "tool_choice": {"type": "function", "function": {"name": "nope"}},
            },
            "tool_choice",
        ),
        ({**HELLO, "tool_choice": "required"}, "tool_choice"),
        ({**HELLO, "response_format": {"type": "json_schema"}}, "response_format"),
        ({**HELLO, "response_format": {"type": "json_schema",
                                       "json_schema": {"schema": {"type": 5}}}}, "response_format"),
        (
            {
                "model": MODEL_NAME,
                "messages": [
                    {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                "id": "c",
                                "type": "function",
                                "function": {"name": "f", "arguments": "{oops"},
                            }
                        ],
                    }
                ],
            },
            "messages[0].tool_calls[0].function.arguments",
        ),
        (
            {
                "model": MODEL_NAME,
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "image_url", "image_url": {"url": "data:,"}}],
                    }
                ],
            },
            "messages[0].content[0]",
        ),
    ],
)
def test_invalid_values_are_400_and_name_the_field(http, body, param):
    client, backend = http
    before = len(backend.prompts)
    response = client.post(CHAT, json=body)
    assert response.status_code == 400
    assert error_of(response)["param"] == param
    assert len(backend.prompts) == before  # refused before reaching the model


def test_unknown_model_and_route_are_404(http):
    client, _ = http
    response = client.post(CHAT, json={**HELLO, "model": "llama-70b"})
    assert response.status_code == 404 and error_of(response)["code"] == "model_not_found"
    response = client.get("/v1/nothing-here")
    assert response.status_code == 404 and error_of(response)["code"] == "not_found"


def test_oversized_body_is_413_declared_or_streamed(live):
    model = scripted_model(["fine"])
    with (
        live(create_app(model, max_body=2048)) as server,
        httpx.Client(base_url=server.url) as client,
    ):
        big = {**HELLO, "messages": [{"role": "user", "content": "x" * 5000}]}
        response = client.post(CHAT, json=big)
        assert response.status_code == 413 and error_of(response)["code"] == "request_too_large"

        def chunked():  # no Content-Length: the limit must hold while reading
            payload = json.dumps(big).encode()
            for start in range(0, len(payload), 1000):
                yield payload[start : start + 1000]

        response = client.post(
            CHAT, content=chunked(), headers={"content-type": "application/json"}
        )
        assert response.status_code == 413 and error_of(response)["code"] == "request_too_large"
        assert client.post(CHAT, json=HELLO).json()["choices"][0]["message"]["content"] == "fine"


def test_api_key_required_when_set(live):
    model = scripted_model(["ok"])
    with live(create_app(model, api_key=KEY)) as server:
        with httpx.Client(base_url=server.url) as client:
            missing = client.post(CHAT, json=HELLO)
            assert missing.status_code == 401 and error_of(missing)["code"] == "invalid_api_key"
            wrong = client.get("/v1/models", headers={"Authorization": "Bearer nope"})
            assert wrong.status_code == 401
            assert client.get("/health").json()["status"] == "ok"  # liveness stays open
        with pytest.raises(openai.AuthenticationError):
            openai.OpenAI(base_url=server.url + "/v1", api_key="wrong", max_retries=0).models.list()
        good = openai.OpenAI(base_url=server.url + "/v1", api_key=KEY, max_retries=0)
        reply = good.chat.completions.create(model=MODEL_NAME, messages=HELLO["messages"])
        assert reply.choices[0].message.content == "ok"


def test_model_failure_is_500_and_the_next_request_works(live):
    model = scripted_model([])  # nothing scripted: the backend raises
    with live(create_app(model)) as server, httpx.Client(base_url=server.url) as client:
        response = client.post(CHAT, json=HELLO)
        assert response.status_code == 500
        error = error_of(response)
        assert error["code"] == "model_error" and "no output left" in error["message"]
        model.backend.outputs.append("recovered")
        assert (
            client.post(CHAT, json=HELLO).json()["choices"][0]["message"]["content"] == "recovered"
        )


def slow_app(backend: SlowBackend, **options):
    model = FormattedChatModel(backend, get_format("hermes"), name=MODEL_NAME)
    return create_app(model, **options)


def test_timeout_is_504_and_stops_generation(live):
    backend = SlowBackend(words=1000, delay=0.01)
    with (
        live(slow_app(backend, request_timeout=0.3)) as server,
        httpx.Client(base_url=server.url, timeout=10) as client,
    ):
        started = time.monotonic()
        response = client.post(CHAT, json=HELLO)
        assert response.status_code == 504 and error_of(response)["code"] == "timeout"
        assert time.monotonic() - started < 3
        assert backend.closed_early.wait(3) and backend.produced < 1000
        assert client.get("/health").json()["cancelled"] == 1


def test_timeout_stops_a_long_prefill_and_frees_the_model(live):
    """A prompt still being evaluated when the request times out stops at its next chunk;
    before, the whole prefill ran on and the next request waited for it."""
    backend = SlowBackend(words=3, delay=0.01, prefill_chunks=1000)  # 10 s of prompt
    with (
        live(slow_app(backend, request_timeout=0.3)) as server,
        httpx.Client(base_url=server.url, timeout=10) as client,
    ):
        response = client.post(CHAT, json=HELLO)
        assert response.status_code == 504 and error_of(response)["code"] == "timeout"
        assert backend.stopped_in_prefill.wait(3) and backend.prefilled < 1000
        assert backend.produced == 0
        assert client.get("/health").json()["cancelled"] == 1
        backend.prefill_chunks = 2
        started = time.monotonic()
        reply = client.post(CHAT, json=HELLO)
        assert reply.status_code == 200 and time.monotonic() - started < 3


def test_timeout_mid_stream_ends_the_stream_with_an_error_event(live):
    backend = SlowBackend(words=1000, delay=0.01)
    with (
        live(slow_app(backend, request_timeout=0.4)) as server,
        httpx.Client(base_url=server.url, timeout=10) as client,
    ):
        with client.stream("POST", CHAT, json={**HELLO, "stream": True}) as response:
            assert response.status_code == 200  # the first words came in time
            data = [
                line[len("data: ") :] for line in response.iter_lines() if line.startswith("data:")
            ]
        assert json.loads(data[-1])["error"]["code"] == "timeout"
        assert "[DONE]" not in data
        assert backend.closed_early.wait(3)


def test_client_disconnect_mid_stream_stops_generation(live):
    backend = SlowBackend(words=2000, delay=0.005)
    with live(slow_app(backend)) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        with client.stream("POST", CHAT, json={**HELLO, "stream": True}) as response:
            assert response.status_code == 200
            lines = response.iter_lines()
            first = [line for line, _ in zip(lines, range(6)) if line.startswith("data:")]
            assert first  # generation is under way; now hang up
        assert backend.closed_early.wait(5), "generation kept running after the client left"
        assert backend.produced < 2000
        health = client.get("/health").json()
        assert health["status"] == "ok" and health["cancelled"] == 1
        backend.words = 3
        reply = client.post(CHAT, json=HELLO)
        assert reply.status_code == 200
        assert reply.json()["choices"][0]["message"]["content"].split() == ["w0", "w1", "w2"]


def test_full_queue_is_503_and_requests_are_served_in_turn(live):
    backend = SlowBackend(words=50, delay=0.02)
    with live(slow_app(backend, max_pending=2)) as server:
        results: list[int] = []

        def post() -> None:
            with httpx.Client(base_url=server.url, timeout=20) as client:
                results.append(client.post(CHAT, json=HELLO).status_code)

        threads = [threading.Thread(target=post) for _ in range(5)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(results).count(200) >= 2 and set(results) <= {200, 503}
        assert 503 in results
        with httpx.Client(base_url=server.url) as client:
            assert client.post(CHAT, json=HELLO).status_code == 200
