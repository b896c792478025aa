"""``botpsy audit``: show what the agent was asked to do and what it decided.

    botpsy audit                       # the last 50 decisions
    botpsy audit --decision denied     # only calls a person (or DenyAll) refused
    botpsy audit --session abc --json  # one conversation, as JSON lines
    botpsy audit --data-dir ./me       # the log of the store in ./me

The command reads the audit table written by ``botpsy.safety.audit.AuditLog``
in the assistant's data folder (``--data-dir``, as for every assistant command;
``--db FILE``, its old spelling, still names the log file itself).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from botpsy.options import DataDirOpt, JsonOpt
from botpsy.paths import default_data_dir
from botpsy.safety.audit import AuditDecision, AuditEntry, AuditLog, AuditLogError, AuditStatus

app = typer.Typer(help="Show the audit log of proposed tool calls and their decisions.")

AUDIT_DB = "audit.db"
_STYLES = {
    "executed": "green", "confirmed": "green", "needs_confirmation": "yellow",
    "denied": "red", "blocked_scope": "red", "blocked_loop": "magenta", "invalid": "magenta",
}


# Control characters (ESC starts terminal escape sequences) shown as escapes, newlines kept.
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c != 0x0A}


def _cell(text: str, style: str = ""):
    """A table cell that shows ``text`` literally: no markup, no terminal escapes."""
    from rich.text import Text

    return Text(text.translate(_CONTROLS), style=style)


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _evidence(entry: AuditEntry) -> str:
    """The taint findings of a row, one per line: what was copied or named, and from where."""
    lines = []
    for finding in entry.evidence:
        shown = f": {_short(finding.evidence, 80)}" if finding.evidence else ""
        lines.append(f"{finding.kind.value} ({finding.source}){shown}")
    return "\n".join(lines)


def _decision(entry: AuditEntry) -> str:
    if entry.status is AuditStatus.pending:
        return f"{entry.decision.value} (no result: stopped while it ran)"
    return entry.decision.value


def default_audit_path(data_dir: Path | None = None) -> Path:
    """``audit.db`` next to the assistant's database (in ``data_dir``, or the default folder)."""
    return (data_dir if data_dir is not None else default_data_dir()) / AUDIT_DB


@app.callback(invoke_without_command=True)
def audit(
    data_dir: DataDirOpt = None,
    db: Annotated[Path | None, typer.Option(
        hidden=True, help="Deprecated: the audit database file itself; use --data-dir.")] = None,
    session: Annotated[str | None, typer.Option(help="Only this session id.")] = None,
    decision: Annotated[AuditDecision | None, typer.Option(help="Only this decision.")] = None,
    tool: Annotated[str | None, typer.Option(help="Only this tool.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Newest N entries.")] = 50,
    as_json: JsonOpt = False,
) -> None:
    """Print the newest audit entries (oldest first) as a table (--json: one JSON object per line)."""
    from rich.console import Console
    from rich.table import Table


    if db is not None and data_dir is not None:
        typer.echo("error: give --data-dir only (--db is its old spelling)", err=True)
        raise typer.Exit(2)
    if db is not None:
        typer.echo(f"warning: --db is deprecated; write --data-dir {db.parent}", err=True)
    path = db or default_audit_path(data_dir)
    if not path.is_file():
        typer.echo(f"no audit log at {path}: nothing has been audited there yet (give the "
                   "--data-dir that `botpsy ask`, `chat` or `serve` used)", err=True)
        raise typer.Exit(1)
    try:
        log = AuditLog(path, read_only=True)
    except AuditLogError as exc:
        typer.echo(f"error: {exc} (--data-dir must name the assistant's data folder)", err=True)
        raise typer.Exit(2) from None
    entries = log.entries(session_id=session, decision=decision, tool=tool, limit=limit)
    if as_json:
        for entry in entries:
            typer.echo(entry.model_dump_json())
        return
    table = Table(title=f"audit log: {path}", show_lines=False)
    for column in ("id", "time", "session", "round", "tool", "arguments", "decision",
                   "reason", "taint", "evidence", "result"):
        table.add_column(column, overflow="fold")
    for e in entries:
        style = _STYLES.get(e.decision.value, "")
        result = "" if e.result_ok is None else ("ok: " if e.result_ok else "failed: ")
        # every cell is plain text: arguments and results quote what a model or an
        # email wrote, and neither Rich markup nor terminal escapes in them may act
        table.add_row(*(_cell(cell) for cell in (
            str(e.id), e.ts.astimezone().strftime("%Y-%m-%d %H:%M:%S"), (e.session_id or "")[:12],
            "" if e.round is None else str(e.round), e.tool,
            _short(json.dumps(e.arguments, ensure_ascii=False), 120))),
            _cell(_decision(e), style),
            *(_cell(cell) for cell in (
                _short(e.reason), ", ".join(e.taint_sources), _evidence(e),
                _short(result + e.result_summary))),
        )
    Console().print(table)
    if not entries:
        typer.echo("no matching entries")
