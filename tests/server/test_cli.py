"""The `serve` and `mcp` commands as a user runs them."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import httpx
import pytest
from typer.testing import CliRunner

from botpsy.server.cli import app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_runs_the_real_command_with_a_scripted_model(tmp_path):
    script = tmp_path / "script.jsonl"
    script.write_text(json.dumps("Hello from botpsy serve.") + "\n")
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "botpsy.server.cli",
        "serve",
        "--model",
        f"scripted:{script}",
        "--port",
        str(port),
        "--data-dir",
        str(tmp_path / "data"),
        "--alias",
        "botpsy",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(url + "/health", timeout=1).json()
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stdout.read()
                assert time.monotonic() < deadline, "botpsy serve did not come up"
                time.sleep(0.2)
        assert health["assistant"] is True and health["model"] == "scripted:script.jsonl"
        body = {"model": "botpsy", "messages": [{"role": "user", "content": "hi"}]}
        reply = httpx.post(url + "/v1/chat/completions", json=body, timeout=10).json()
        assert reply["choices"][0]["message"]["content"] == "Hello from botpsy serve."
        assert "<title>botpsy</title>" in httpx.get(url + "/").text
    finally:
        process.terminate()
        process.wait(timeout=15)
    assert (tmp_path / "data" / "assistant.db").exists()


def test_serve_refuses_a_public_bind_without_key_before_loading_a_model(monkeypatch):
    monkeypatch.delenv("BOTPSY_API_KEY", raising=False)
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0", "--model", "no-such-model"])
    assert result.exit_code == 2
    assert "refusing to listen on '0.0.0.0' without an API key" in result.output
    assert "unknown model" not in result.output


def test_serve_refuses_a_short_key_before_loading_a_model():
    result = CliRunner().invoke(app, ["serve", "--api-key", "abc", "--model", "no-such-model"])
    assert result.exit_code == 2
    assert "at least 16" in result.output and "unknown model" not in result.output


def test_serve_reports_an_unknown_model_clearly():
    result = CliRunner().invoke(app, ["serve", "--model", "no-such-model", "--no-assistant"])
    assert result.exit_code == 2 and "unknown model 'no-such-model'" in result.output


@pytest.mark.parametrize("name", ["send_mail", "nonsense"])
def test_mcp_refuses_unknown_auto_approve_names(tmp_path, name):
    result = CliRunner().invoke(app, ["mcp", "--data-dir", str(tmp_path), "--auto-approve", name])
    assert result.exit_code == 2
    assert f"unknown tools ['{name}']" in result.output and "send_email" in result.output
