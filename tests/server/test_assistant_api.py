"""The assistant API: sessions, streamed turns, pending side effects, audit."""

from __future__ import annotations

from datetime import UTC, date, datetime

import httpx
import pytest

from botpsy.assistant import AssistantStore
from botpsy.assistant.demo import seed_demo
from botpsy.server.app import create_app
from botpsy.server.assistant_service import AssistantService

from .helpers import KEY, call_text, scripted_model, sse_events

TODAY = date(2026, 3, 2)
REPLY = "Sure, I will bring the latency numbers."


def reply_script() -> list[str]:
    """Find and read Priya's mail (an id is read only once a lookup showed it), propose a
    reply (a side effect), then answer."""
    return [
        call_text("search_mail", query="Priya"),
        call_text("read_email", email_id=1),
        call_text("reply_email", email_id=1, body=REPLY),
        "I replied to Priya.",
    ]


@pytest.fixture
def assistant_server(tmp_path, live):
    store = AssistantStore(tmp_path, clock=lambda: datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    seed_demo(store, TODAY)
    model = scripted_model([])
    service = AssistantService.open(model, store=store)
    with (
        live(create_app(model, assistant=service)) as server,
        httpx.Client(base_url=server.url, timeout=20) as client,
    ):
        yield client, model.backend, store


def turn(client: httpx.Client, session: str, text: str) -> list[dict]:
    with client.stream("POST", f"/assistant/sessions/{session}/messages", json={"text": text}) as r:
        assert r.status_code == 200, r.read()
        return sse_events(r)


def decide(client: httpx.Client, session: str, call_id: str, action: str) -> list[dict]:
    path = f"/assistant/sessions/{session}/pending/{call_id}/{action}"
    with client.stream("POST", path, json={"call_id": call_id}) as r:
        assert r.status_code == 200, r.read()
        return sse_events(r)


def sent_replies(store: AssistantStore) -> list[str]:
    rows = store.query("SELECT body FROM emails WHERE folder = 'sent' AND in_reply_to = 1")
    return [row["body"] for row in rows]


def test_side_effect_waits_for_confirmation_then_runs(assistant_server):
    client, backend, store = assistant_server
    backend.outputs.extend(reply_script())
    session = client.post("/assistant/sessions", json={}).json()["id"]

    events = turn(client, session, "Reply to Priya that I'll bring the numbers")
    types = [e["type"] for e in events]
    assert types[:7] == ["call", "decision", "result"] * 2 + ["call"] and types[-1] == "final"
    assert events[1]["step"]["decision"] == events[4]["step"]["decision"] == "executed"  # reads
    final = events[-1]["result"]
    assert final["stopped_reason"] == "pending_confirmation"
    (pending,) = final["pending"]
    assert pending["call"]["name"] == "reply_email"
    read_id = events[3]["call"]["id"]
    assert f"tool:read_email:{read_id}" in pending["request"]["taint"]["sources"]
    assert sent_replies(store) == []  # nothing sent yet

    blocked = client.post(f"/assistant/sessions/{session}/messages", json={"text": "and?"})
    assert blocked.status_code == 409 and "confirm or reject" in blocked.json()["error"]["message"]
    assert client.get(f"/assistant/sessions/{session}").json()["info"]["has_pending"] is True

    events = decide(client, session, pending["call"]["id"], "confirm")
    assert events[0] == {
        "type": "decision_recorded",
        "call_id": pending["call"]["id"],
        "approved": True,
        "remaining": [],
    }
    result = next(e for e in events if e["type"] == "result")
    assert result["step"]["decision"] == "confirmed" and result["step"]["result"]["ok"]
    assert events[-1]["result"]["stopped_reason"] == "answered"
    assert events[-1]["result"]["final_text"] == "I replied to Priya."
    assert len(sent_replies(store)) == 1 and sent_replies(store)[0].startswith(REPLY)

    saved = client.get(f"/assistant/sessions/{session}").json()
    assert saved["info"]["has_pending"] is False and saved["info"]["title"].startswith("Reply to")
    assert [m["role"] for m in saved["messages"]] == [
        "user", *["assistant", "tool"] * 3, "assistant",
    ]
    audit = client.get("/assistant/audit", params={"session_id": session}).json()
    assert [(a["tool"], a["decision"]) for a in audit] == [
        ("search_mail", "executed"),
        ("read_email", "executed"),
        ("reply_email", "needs_confirmation"),
        ("reply_email", "confirmed"),
    ]
    assert f"tool:read_email:{read_id}" in audit[2]["taint_sources"]

    call_id = pending["call"]["id"]
    again = client.post(f"/assistant/sessions/{session}/pending/{call_id}/confirm",
                        json={"call_id": call_id})
    assert again.status_code == 404  # settled: it can never run twice


def test_rejected_call_does_not_run(assistant_server):
    client, backend, store = assistant_server
    backend.outputs.extend([*reply_script()[:3], "Okay, I did not reply."])
    session = client.post("/assistant/sessions").json()["id"]
    pending = turn(client, session, "Reply to Priya")[-1]["result"]["pending"][0]
    events = decide(client, session, pending["call"]["id"], "reject")
    assert events[0]["approved"] is False
    assert next(e for e in events if e["type"] == "result")["step"]["decision"] == "denied"
    assert events[-1]["result"]["stopped_reason"] == "answered"
    assert sent_replies(store) == []
    decisions = [a["decision"] for a in client.get("/assistant/audit").json()]
    assert decisions[-1] == "denied"


def test_bad_requests(assistant_server):
    client, backend, _ = assistant_server
    assert client.post("/assistant/sessions/nope/messages", json={"text": "hi"}).status_code == 404
    session = client.post("/assistant/sessions").json()["id"]
    empty = client.post(f"/assistant/sessions/{session}/messages", json={"text": ""})
    assert empty.status_code == 422 and empty.json()["error"]["param"] == "text"
    missing = client.post(f"/assistant/sessions/{session}/pending/call_x/confirm",
                          json={"call_id": "call_x"})
    assert missing.status_code == 404 and "not pending" in missing.json()["error"]["message"]
    wrong = client.post(f"/assistant/sessions/{session}/pending/call_x/maybe",
                        json={"call_id": "call_x"})
    assert wrong.status_code == 422
    assert client.get("/assistant/tools").json()[0]["name"]
    backend.outputs.append("Hello!")
    assert turn(client, session, "hi")[-1]["result"]["final_text"] == "Hello!"


def test_assistant_routes_need_the_key(tmp_path, live):
    model = scripted_model([])
    service = AssistantService.open(model, tmp_path)
    with live(create_app(model, assistant=service, api_key=KEY)) as server:
        assert httpx.post(server.url + "/assistant/sessions").status_code == 401
        assert httpx.get(server.url + "/").status_code == 200  # the page itself holds no data
        made = httpx.post(server.url + "/assistant/sessions",
                          headers={"Authorization": f"Bearer {KEY}"})
        assert made.status_code == 201
