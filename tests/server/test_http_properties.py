"""Property: no HTTP body makes the server fail. The OpenAI API, the chat routes and the
assistant API answer any JSON (odd text, odd types, odd nesting) and any bytes with a 2xx or
a 4xx carrying an OpenAI-shaped error, never a 5xx or a traceback, and keep serving."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from botpsy.assistant import AssistantStore
from botpsy.server.app import create_app
from botpsy.server.assistant_service import AssistantService

from .helpers import MODEL_NAME, scripted_model
from .oddinput import ODD_JSON, ODD_TEXT, RAW_BYTES

SETTINGS = settings(max_examples=15, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
CHAT = "/v1/chat/completions"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("odd-http")
    model = scripted_model(["ok"] * 100_000)
    store = AssistantStore(folder, clock=lambda: datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    app = create_app(model, assistant=AssistantService.open(model, store=store))
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as opened:
        yield opened


def encoded(value) -> bytes:
    """JSON as a client may send it: lone surrogates as \\uXXXX escapes (ASCII output)."""
    return json.dumps(value, ensure_ascii=True, allow_nan=True).encode()


def post(client: TestClient, path: str, body: bytes):
    return client.post(path, content=body, headers={"content-type": "application/json"})


def check(response) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:300])
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error["message"] and error["code"]


MESSAGE = st.fixed_dictionaries(
    {"role": st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
     "content": ODD_TEXT | ODD_JSON},
    optional={"name": ODD_TEXT, "tool_call_id": ODD_TEXT, "tool_calls": ODD_JSON},
)
CHAT_BODY = st.fixed_dictionaries(
    {"model": st.just(MODEL_NAME) | ODD_TEXT, "messages": st.lists(MESSAGE, max_size=3)},
    optional={"tools": st.lists(ODD_JSON, max_size=2), "tool_choice": ODD_JSON,
              "response_format": ODD_JSON, "stop": ODD_TEXT | ODD_JSON, "stream": st.booleans(),
              "max_tokens": ODD_JSON, "temperature": ODD_JSON, "x\ud800\x1b": ODD_JSON},
)


@SETTINGS
@given(body=CHAT_BODY)
def test_chat_completions_answer_any_shaped_body(client, body) -> None:
    check(post(client, CHAT, encoded(body)))


@SETTINGS
@given(body=ODD_JSON | RAW_BYTES)
def test_every_post_route_answers_any_json_or_bytes(client, body) -> None:
    raw = body if isinstance(body, bytes) else encoded(body)
    session = client.post("/assistant/sessions").json()["id"]
    for path in (CHAT, "/assistant/sessions", f"/assistant/sessions/{session}/messages",
                 f"/assistant/sessions/{session}/pending/call_1/confirm"):
        check(post(client, path, raw))
    assert client.get("/health").status_code == 200


@SETTINGS
@given(title=ODD_TEXT, text=ODD_TEXT, call_id=ODD_TEXT)
def test_assistant_turns_take_any_text_and_stay_loadable(client, title, text, call_id) -> None:
    made = post(client, "/assistant/sessions", encoded({"title": title}))
    check(made)
    session = made.json()["id"] if made.status_code == 201 else (
        client.post("/assistant/sessions").json()["id"])
    check(post(client, f"/assistant/sessions/{session}/messages", encoded({"text": text})))
    check(client.get(f"/assistant/sessions/{session}"))
    decided = post(client, f"/assistant/sessions/{session}/pending/x/reject",
                   encoded({"call_id": call_id}))
    check(decided)
    check(client.get("/assistant/audit", params={"session_id": session}))


@SETTINGS
@given(name=ODD_TEXT)
def test_model_lookups_take_any_name(client, name) -> None:
    check(client.get("/v1/models/" + quote(name.encode("utf-8", "surrogatepass"), safe="")))
