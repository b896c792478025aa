"""MCP servers' tools joining botpsy's registry: config, side effects, untrusted output."""

from __future__ import annotations

import json
import sys

import pytest

from botpsy.agent import Agent, StopReason
from botpsy.server.mcp_client import McpConfig, McpConfigError, McpToolbox
from botpsy.tools import ToolErrorKind, ToolRegistry
from botpsy.types import ToolCall

from .helpers import call_text, scripted_model


def test_toml_config(tmp_path):
    path = tmp_path / "mcp.toml"
    path.write_text(
        '[servers.weather]\ncommand = "weather-mcp"\nargs = ["--metric"]\n'
        'read_only = ["forecast"]\nside_effects = ["subscribe"]\n'
        '[servers.remote]\nurl = "http://127.0.0.1:9/mcp"\nassume_read_only = true\n'
    )
    config = McpConfig.load(path)
    weather = config.servers["weather"]
    assert weather.args == ["--metric"]
    assert weather.is_side_effect("subscribe") and not weather.is_side_effect("forecast")
    assert weather.is_side_effect("unlisted")  # the safe default
    assert not config.servers["remote"].is_side_effect("unlisted")


def test_claude_desktop_style_json(tmp_path):
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"fs": {"command": "npx", "args": ["fs-server"]}}}))
    assert McpConfig.load(path).servers["fs"].command == "npx"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[servers.a]\nargs = ["x"]\n', "exactly one of 'command'"),
        ('[servers.a]\ncommand = "x"\nurl = "http://h/mcp"\n', "exactly one of 'command'"),
        ('[servers.a]\ncommand = "x"\nside_effects = ["t"]\nread_only = ["t"]\n', "both"),
        ('[servers.a]\ncommand = "x"\ncolour = "red"\n', "colour"),
        ("[servers.a\n", "not valid TOML"),
    ],
)
def test_bad_configs_say_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "mcp.toml"
    path.write_text(text)
    with pytest.raises(McpConfigError, match=message) as info:
        McpConfig.load(path)
    assert str(path) in str(info.value)


def test_tools_of_a_live_mcp_server_join_the_registry(tmp_path):
    """botpsy's own MCP server plays the remote server: a real stdio connection."""
    config = McpConfig.model_validate(
        {
            "servers": {
                "me": {
                    "command": sys.executable,
                    "args": [
                        "-m",
                        "botpsy.server.cli",
                        "mcp",
                        "--data-dir",
                        str(tmp_path),
                        "--auto-approve",
                        "write_file",
                    ],
                    "prefix": "me_",
                    "tools": ["create_note", "read_note", "write_file", "read_file", "list_inbox"],
                    "side_effects": ["write_file"],
                    "read_only": ["read_note", "read_file", "create_note"],
                }
            }
        }
    )
    with McpToolbox(config) as box:
        registry = ToolRegistry(box.tools())
        assert sorted(registry.names()) == [
            "me_create_note",
            "me_list_inbox",
            "me_read_file",
            "me_read_note",
            "me_write_file",
        ]
        flags = {tool.name: tool.side_effect for tool in registry}
        assert flags["me_write_file"] and flags["me_list_inbox"]  # declared / unlisted
        assert not flags["me_read_file"]
        assert box.untrusted_output_tools() == frozenset(registry.names())
        assert {spec.source for spec in registry.specs()} == {"mcp:me"}  # third-party specs

        made = registry.execute(
            ToolCall(name="me_create_note", arguments={"title": "Plan", "body": "call Bo"})
        )
        assert made.ok and made.content.startswith("[untrusted output of MCP server 'me'")
        assert json.loads(made.content.split("\n", 1)[1])["title"] == "Plan"

        missing = registry.execute(ToolCall(name="me_read_file", arguments={"path": "nope.txt"}))
        assert not missing.ok and missing.error_kind is ToolErrorKind.tool_error
        assert "nope.txt" in missing.error

        # The agent gates the MCP side effect like its own: the turn waits for the user.
        model = scripted_model([call_text("me_write_file", path="x.txt", content="hi")])
        result = Agent(model, registry).run("write hi to x.txt")
        assert result.stopped_reason is StopReason.pending_confirmation
        assert result.pending[0].call.name == "me_write_file"
    assert not (tmp_path / "files" / "x.txt").exists()
