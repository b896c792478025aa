"""`botpsy mcp` over stdio, driven by the MCP SDK's own clients (both protocol eras)."""

from __future__ import annotations

import json
import sys

import anyio
import mcp_types as types
import pytest
from mcp import Client, ClientSession, StdioServerParameters, stdio_client

from botpsy.safety.audit import AuditDecision, AuditLog
from botpsy.server.mcp_server import ConfirmationGate, Decision, build_mcp_server
from botpsy.tools import ToolRegistry, tool


def botpsy_mcp(data_dir, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "botpsy.server.cli", "mcp", "--data-dir", str(data_dir), *extra],
    )


def text_of(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


def test_stdio_session_lists_and_calls_tools_and_refuses_unconfirmable_side_effects(tmp_path):
    """Handshake-era session without elicitation: reads run, side effects do not."""

    async def scenario():
        async with (
            stdio_client(botpsy_mcp(tmp_path)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listing = {t.name: t for t in (await session.list_tools()).tools}
            assert {"create_note", "search_notes", "send_email", "write_file"} <= set(listing)
            assert listing["write_file"].annotations.destructive_hint is True
            assert listing["search_notes"].annotations.read_only_hint is True
            assert listing["read_file"].meta["botpsy/untrusted_output"] is True
            assert listing["create_note"].input_schema["required"] == ["title", "body"]

            made = await session.call_tool("create_note", {"title": "Trip", "body": "Pack socks"})
            assert not made.is_error and json.loads(text_of(made))["title"] == "Trip"
            found = await session.call_tool("search_notes", {"query": "socks"})
            assert json.loads(text_of(found))[0]["title"] == "Trip"

            refused = await session.call_tool("write_file", {"path": "a.txt", "content": "x"})
            assert refused.is_error and "elicitation" in text_of(refused)
            bad = await session.call_tool("create_note", {"title": "no body"})
            assert bad.is_error and "body" in text_of(bad)
            unknown = await session.call_tool("create_nte", {})
            assert unknown.is_error and "create_note" in text_of(unknown)
        assert not (tmp_path / "files" / "a.txt").exists()

    anyio.run(scenario)
    logged = [(e.tool, e.decision.value) for e in AuditLog(tmp_path / "audit.db").entries()]
    assert ("write_file", "denied") in logged and ("create_note", "executed") in logged


def test_confirmation_through_elicitation_on_a_modern_connection(tmp_path):
    asked: list[str] = []
    answers = [False, True]  # the user says no to the first question, yes to the second

    async def user(_ctx, params):
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": answers.pop(0)})

    async def scenario():
        async with Client(botpsy_mcp(tmp_path), elicitation_callback=user) as client:
            assert client.protocol_version == "2026-07-28"
            declined = await client.call_tool("write_file", {"path": "no.txt", "content": "x"})
            assert declined.is_error and "declined" in text_of(declined)
            done = await client.call_tool("write_file", {"path": "yes.txt", "content": "hello"})
            assert not done.is_error
            read = await client.call_tool("read_file", {"path": "yes.txt"})
            assert json.loads(text_of(read))["content"] == "hello"

    anyio.run(scenario)
    assert len(asked) == 2 and "write_file" in asked[0] and '"no.txt"' in asked[0]
    assert not (tmp_path / "files" / "no.txt").exists()
    assert (tmp_path / "files" / "yes.txt").read_text() == "hello"


# --- in process: the gate's rules, without spawning a server ---------------------------------

sent: list[str] = []


@tool(side_effect=True)
def send(to: str) -> str:
    """Send a greeting.

    Args:
        to: who gets it
    """
    sent.append(to)
    return f"sent to {to}"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_auto_approved_tools_run_without_asking(mode):
    sent.clear()
    server = build_mcp_server(ToolRegistry([send]), auto_approve=["send"])

    async def scenario():
        async with Client(server, mode=mode) as client:  # no elicitation callback at all
            result = await client.call_tool("send", {"to": "ana"})
            assert not result.is_error and text_of(result) == "sent to ana"

    anyio.run(scenario)
    assert sent == ["ana"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_elicited_answers_decide_in_both_protocol_eras(mode):
    sent.clear()
    server = build_mcp_server(ToolRegistry([send]))
    answers = [
        types.ElicitResult(action="cancel"),
        types.ElicitResult(action="accept", content={"confirm": True}),
    ]

    async def user(_ctx, _params):
        return answers.pop(0)

    async def scenario():
        async with Client(server, mode=mode, elicitation_callback=user) as client:
            dismissed = await client.call_tool("send", {"to": "bo"})
            assert dismissed.is_error and "dismissed" in text_of(dismissed)
            assert text_of(await client.call_tool("send", {"to": "cy"})) == "sent to cy"

    anyio.run(scenario)
    assert sent == ["cy"]


def test_a_confirmation_is_bound_to_its_exact_call():
    gate = ConfirmationGate()
    state = gate.state_for("send", {"to": "ana"})
    assert state == gate.state_for("send", {"to": "ana"})
    assert state != gate.state_for("send", {"to": "eve"})
    assert state != ConfirmationGate().state_for("send", {"to": "ana"})  # per-process key

    yes = types.ElicitResult(action="accept", content={"confirm": True})
    tool_ = ToolRegistry([send]).get("send")
    forged = types.CallToolRequestParams(
        name="send", arguments={"to": "eve"}, input_responses={"confirm": yes}, request_state=state
    )
    assert gate._round_trip(forged, tool_, {"to": "eve"}, "?") is Decision.mismatched
    honest = forged.model_copy(update={"request_state": gate.state_for("send", {"to": "eve"})})
    assert gate._round_trip(honest, tool_, {"to": "eve"}, "?") is Decision.approved


def test_the_scope_policy_and_the_audit_log_apply_to_mcp_calls(tmp_path):
    # As in the agent: a card number in an email body is blocked even after a "yes",
    # and every call, decision and result is in the audit log.
    sent.clear()
    audit = AuditLog(tmp_path / "audit.db")
    server = build_mcp_server(ToolRegistry([send]), auto_approve=["send"], audit=audit)

    async def scenario():
        async with Client(server, mode="auto") as client:
            card = await client.call_tool("send", {"to": "card 4111 1111 1111 1111"})
            assert card.is_error and "payment card number" in text_of(card)
            assert text_of(await client.call_tool("send", {"to": "ana"})) == "sent to ana"
            assert (await client.call_tool("nope", {})).is_error

    anyio.run(scenario)
    assert sent == ["ana"]
    rows = [(e.tool, e.decision) for e in audit.entries()]
    assert rows == [("send", AuditDecision.blocked_scope), ("send", AuditDecision.executed),
                    ("nope", AuditDecision.invalid)]
    assert audit.entries()[1].result_ok and "4111" not in audit.entries()[0].arguments["to"]
