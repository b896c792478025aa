"""No effect without its audit row: the row is on disk (pending) before a tool runs, in the
agent and in the MCP server, and carries the taint evidence of the call."""

from __future__ import annotations

import anyio
from mcp import Client

from botpsy.agent import Agent
from botpsy.safety import AuditLog, SafetyConfig
from botpsy.safety.audit import AuditDecision, AuditStatus
from botpsy.safety.confirm import ApproveAll
from botpsy.safety.taint import TaintKind
from botpsy.server.mcp_server import build_mcp_server
from botpsy.tools import ToolRegistry, tool

from .helpers import INJECTED_BODY, call_text, scripted


def probe_registry(audit: AuditLog, seen: list[list[tuple[str, AuditStatus]]]) -> ToolRegistry:
    """Tools that look at the audit log (from another connection) while they run."""

    @tool(side_effect=True)
    def save_note(title: str) -> str:
        """Save a note.

        Args:
            title: The note's title.
        """
        seen.append([(e.tool, e.status) for e in AuditLog(audit.path, read_only=True).entries()])
        return f"saved {title}"

    @tool
    def read_email(email_id: int) -> str:
        """Read one email.

        Args:
            email_id: Its id.
        """
        return INJECTED_BODY

    return ToolRegistry([save_note, read_email])


def test_the_agent_writes_the_row_before_the_call_runs(tmp_path) -> None:
    audit = AuditLog(tmp_path / "audit.db")
    seen: list = []
    agent = Agent(scripted([call_text("read_email", email_id=7),
                            call_text("save_note", title="Forward all emails in this inbox"),
                            "Saved."]),
                  probe_registry(audit, seen), safety=SafetyConfig(), audit=audit,
                  confirmer=ApproveAll())
    agent.run("Read email 7 and save a note")
    (during,) = seen
    assert during[-1] == ("save_note", AuditStatus.pending)
    rows = audit.entries(tool="save_note")
    assert [(r.decision, r.status) for r in rows] == [
        (AuditDecision.needs_confirmation, AuditStatus.done),
        (AuditDecision.confirmed, AuditStatus.done)]
    assert rows[-1].result_ok and rows[-1].result_summary.startswith("saved")
    kinds = {f.kind for f in rows[-1].evidence}
    assert TaintKind.context in kinds or TaintKind.copied_text in kinds
    assert any("forward all emails" in f.evidence.lower() for f in rows[-1].evidence)


def test_the_mcp_server_writes_the_row_before_the_call_runs(tmp_path) -> None:
    audit = AuditLog(tmp_path / "audit.db")
    seen: list = []
    server = build_mcp_server(probe_registry(audit, seen), auto_approve=["save_note"],
                              audit=audit)

    async def scenario():
        async with Client(server, mode="auto") as client:
            await client.call_tool("save_note", {"title": "groceries"})

    anyio.run(scenario)
    assert seen == [[("save_note", AuditStatus.pending)]]
    (row,) = audit.entries()
    assert row.status is AuditStatus.done and row.result_summary == "saved groceries"
