"""What a hostile web page or client cannot do: DNS rebinding, cross-site posts, reading the
API's map without the key, deep JSON, lone surrogates, tracebacks in answers or logs."""

from __future__ import annotations

import logging

import httpx
import pytest

from botpsy.server.app import create_app
from botpsy.server.assistant_service import AssistantService

from .helpers import KEY, MODEL_NAME, scripted_model

CHAT = "/v1/chat/completions"


def nested(depth: int) -> str:
    """A JSON schema nested ``depth`` objects deep, as text (json.dumps would recurse)."""
    return '{"type": "object", "properties": {"a": ' * depth + '{"type": "string"}' + "}}" * depth


def chat_body(extra: str) -> str:
    return (f'{{"model": "{MODEL_NAME}", "messages": [{{"role": "user", "content": "hi"}}]'
            f", {extra}}}")


@pytest.fixture
def assistant(tmp_path, live):
    model = scripted_model([])
    service = AssistantService.open(model, tmp_path)
    with (live(create_app(model, assistant=service)) as server,
          httpx.Client(base_url=server.url, timeout=20) as client):
        yield server, client


def test_a_rebound_host_reads_and_changes_nothing(assistant):
    server, client = assistant
    evil = {"Host": f"attacker.example:{server.port}"}
    for method, path in (("GET", "/assistant/audit"), ("GET", "/assistant/sessions"),
                         ("POST", "/assistant/sessions"), ("GET", "/")):
        refused = client.request(method, path, headers=evil)
        assert refused.status_code == 400, path
        assert refused.json()["error"]["code"] == "invalid_host"
    assert client.get("/assistant/sessions").json() == []  # nothing was created
    for name in ("127.0.0.1", "localhost"):
        assert client.get("/assistant/audit", headers={"Host": f"{name}:{server.port}"}).is_success


def test_another_sites_page_cannot_post(assistant):
    server, client = assistant
    for origin in ("http://attacker.example", "null", f"http://attacker.example:{server.port}"):
        refused = client.post("/assistant/sessions", headers={"Origin": origin})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden_origin"
    assert client.get("/assistant/sessions").json() == []
    own = client.post("/assistant/sessions", headers={"Origin": server.url})
    assert own.status_code == 201


def test_a_decision_needs_its_json_body(assistant):
    _, client = assistant
    session = client.post("/assistant/sessions").json()["id"]
    path = f"/assistant/sessions/{session}/pending/call_1/confirm"
    assert client.post(path).status_code == 422  # what a cross-site form could send
    form = client.post(path, content=b"call_id=call_1",
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 422
    other = client.post(path, json={"call_id": "call_2"})
    assert other.status_code == 422 and "path" in other.json()["error"]["message"]


def test_docs_and_schema_sit_behind_the_key(live):
    with live(create_app(scripted_model([]), api_key=KEY)) as server:
        for path in ("/docs", "/openapi.json", "/redoc"):
            assert httpx.get(server.url + path).status_code == 401, path
            keyed = httpx.get(server.url + path, headers={"Authorization": f"Bearer {KEY}"})
            assert keyed.status_code == 200, path
    with live(create_app(scripted_model([]))) as server:
        assert "/v1/chat/completions" in httpx.get(server.url + "/openapi.json").json()["paths"]


@pytest.mark.parametrize("depth", [70, 300, 3000])
@pytest.mark.parametrize("where", ["tools", "response_format"])
def test_deeply_nested_schemas_are_400(shared_server, where, depth, caplog):
    server, _ = shared_server
    extra = (f'"tools": [{{"type": "function", "function": {{"name": "f", "parameters": '
             f"{nested(depth)}}}}}]" if where == "tools" else
             f'"response_format": {{"type": "json_schema", "json_schema": {{"name": "x", '
             f'"schema": {nested(depth)}}}}}')
    with caplog.at_level(logging.INFO):
        response = httpx.post(server.url + CHAT, content=chat_body(extra),
                              headers={"content-type": "application/json"}, timeout=20)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "too_deep" and "nested" in error["message"]
    assert len(error["message"]) < 300
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


@pytest.mark.parametrize("body", [
    chat_body('"stop": "\\ud800"'),
    f'{{"model": "{MODEL_NAME}", "messages": [{{"role": "user", "content": "a\\udfffb"}}]}}',
    (f'{{"model": "{MODEL_NAME}", "messages": [{{"role": "user", "content": "x", '
     f'"\\ud801": 1}}]}}'),
])
def test_lone_surrogates_in_a_body_are_400(shared_server, body):
    server, _ = shared_server
    response = httpx.post(server.url + CHAT, content=body,
                          headers={"content-type": "application/json"}, timeout=20)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "invalid_text"


def test_paired_surrogates_are_text(shared_server):
    server, backend = shared_server
    backend.outputs.append("ok")
    body = f'{{"model": "{MODEL_NAME}", "messages": [{{"role": "user", "content": "\\ud83d\\ude00"}}]}}'
    response = httpx.post(server.url + CHAT, content=body,
                          headers={"content-type": "application/json"}, timeout=20)
    assert response.status_code == 200, response.text


def test_an_unexpected_error_is_one_log_line_and_no_traceback(live, caplog):
    app = create_app(scripted_model([]))

    @app.get("/explode")
    async def explode() -> None:
        raise RuntimeError("first line\nsecond line")

    with caplog.at_level(logging.INFO), live(app) as server:
        response = httpx.get(server.url + "/explode")
        assert httpx.get(server.url + "/health").status_code == 200
    assert response.status_code == 500
    assert response.json()["error"]["message"] == "internal error (RuntimeError)"
    assert "Traceback" not in response.text and "second line" not in response.text
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None
    assert "\n" not in errors[0].getMessage() and "RuntimeError" in errors[0].getMessage()
