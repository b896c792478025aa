"""The OpenAI-compatible client: what it sends."""

from __future__ import annotations

import json

import httpx

from botpsy.backends.openai_http import OpenAIChatModel
from botpsy.types import Message


def test_leading_system_messages_go_out_as_one():
    """Several served chat templates refuse a system message that is not the first (a
    system prompt builder may give several)."""
    sent: list[dict] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": "ok"},
                                                      "finish_reason": "stop"}]})

    client = httpx.Client(base_url="http://local/v1", transport=httpx.MockTransport(answer))
    model = OpenAIChatModel("http://local/v1", "m", client=client)
    messages = [Message(role="system", content="The user is Kim."),
                Message(role="system", content="Now: Monday."), Message(role="user", content="hi")]
    assert model.complete(messages).content == "ok"
    roles = [m["role"] for m in sent[0]["messages"]]
    assert roles == ["system", "user"]
    text = sent[0]["messages"][0]["content"]
    assert text == "The user is Kim.\nNow: Monday."
