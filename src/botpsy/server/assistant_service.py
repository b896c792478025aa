"""The personal assistant behind the HTTP API: sessions, turns, confirmations, audit.

Side effects are never confirmed synchronously over HTTP. A turn that proposes
one stops with the call *pending*; the pending ``AgentResult`` is kept
server-side in the session (so the call that runs is the one the agent
proposed, not one a client sends back), the client shows it with the untrusted
sources it came after, and the user confirms or rejects each pending call. Once
every pending call is decided, the agent resumes and the turn goes on.

Turns run on the server's model worker (one model, one thread). Results are
saved in that thread *before* the final event is handed out, so a turn that
finished is kept even if the client left at the last moment. A turn whose
client leaves earlier is dropped (its calls remain in the audit log), and a
pending state is cleared before resuming, so no confirmed call can run twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from botpsy.agent import (
    Agent,
    AgentEvent,
    AgentResult,
    Session,
    SessionInfo,
    SessionStore,
    StopReason,
)
from botpsy.assistant import AssistantStore
from botpsy.assistant.runtime import open_assistant
from botpsy.backends.base import ChatModel
from botpsy.safety.audit import AuditEntry, AuditLog
from botpsy.safety.config import SafetyConfig
from botpsy.server.errors import APIError, ErrorKind
from botpsy.tools import Tool
from botpsy.types import GenerationParams

if TYPE_CHECKING:
    from botpsy.server.worker import ModelWorker

TITLE_CHARS = 60


@dataclass
class DecisionRecorded:
    """The answer to one confirm/reject: what is still undecided."""

    call_id: str
    approved: bool
    remaining: list[str]

    def event(self) -> dict[str, Any]:
        return {
            "type": "decision_recorded",
            "call_id": self.call_id,
            "approved": self.approved,
            "remaining": self.remaining,
        }


@dataclass
class AssistantService:
    """An ``Agent`` with its sessions and audit log, for the server routes."""

    agent: Agent
    sessions: SessionStore
    audit: AuditLog
    # Decisions taken so far per session (call id -> approve); in memory, so after a
    # restart the user decides again on the pending calls, which stay stored.
    _decisions: dict[str, dict[str, bool]] = field(default_factory=dict)
    worker: ModelWorker | None = None  # the server's worker, attached by create_app
    request_timeout: float = 120.0

    @classmethod
    def open(
        cls,
        model: ChatModel,
        data_dir: str | Path | None = None,
        *,
        safety: SafetyConfig | None = None,
        extra_tools: list[Tool] | None = None,
        store: AssistantStore | None = None,
        params: GenerationParams | None = None,
    ) -> AssistantService:
        """The assistant over the store in ``data_dir`` (or a given ``AssistantStore``);
        side effects come back pending (``confirmer=None``) for the client to decide."""
        assistant = open_assistant(model, data_dir=data_dir, store=store, safety=safety,
                                   confirmer=None, params=params, extra_tools=extra_tools)
        return cls(assistant.agent, assistant.sessions, assistant.audit)

    def attach(self, worker: ModelWorker, request_timeout: float) -> None:
        self.worker = worker
        self.request_timeout = request_timeout

    # -- sessions -------------------------------------------------------------------------
    def create_session(self, title: str = "") -> SessionInfo:
        return self.sessions.create(title)

    def load(self, session_id: str) -> Session:
        try:
            return self.sessions.load(session_id)
        except KeyError:
            raise APIError(404, ErrorKind.not_found, f"no session {session_id!r}") from None

    def audit_entries(self, session_id: str | None, limit: int) -> list[AuditEntry]:
        return self.audit.entries(session_id=session_id, limit=limit)

    # -- turns ----------------------------------------------------------------------------
    def check_can_send(self, session_id: str) -> Session:
        """The session, if a new message may start a turn in it (404/409 otherwise)."""
        session = self.load(session_id)
        if session.pending is not None:
            ids = [p.call.id for p in session.pending.pending]
            raise APIError(
                409,
                ErrorKind.conflict,
                f"the session waits for decisions on calls {ids}: confirm or reject them first",
                param="session_id",
            )
        return session

    def turn(self, session_id: str, text: str) -> Iterator[AgentEvent]:
        """Worker-thread generator: one user turn, saved before its final event."""
        session = self.check_can_send(session_id)
        if not session.info.title:
            self.sessions.set_title(session_id, " ".join(text.split())[:TITLE_CHARS])
        events = self.agent.stream(text, session.messages, session_id=session_id)
        yield from self._saving(events, session_id, len(session.messages))

    def decide(self, session_id: str, call_id: str, approve: bool) -> DecisionRecorded:
        """Record one decision; 404 when the call is not pending in this session."""
        session = self.load(session_id)
        pending_ids = [p.call.id for p in session.pending.pending] if session.pending else []
        if call_id not in pending_ids:
            raise APIError(
                404,
                ErrorKind.not_found,
                f"call {call_id!r} is not pending in session {session_id!r}",
                param="call_id",
            )
        state = self._decisions.setdefault(session_id, {})
        state[call_id] = approve
        remaining = [i for i in pending_ids if i not in state]
        return DecisionRecorded(call_id, approve, remaining)

    def resume(self, session_id: str) -> Iterator[AgentEvent]:
        """Worker-thread generator: continue the turn once every pending call is decided."""
        session = self.load(session_id)
        previous = session.pending
        decisions = self._decisions.pop(session_id, {})
        if previous is None:
            raise APIError(409, ErrorKind.conflict, "the session has no pending calls")
        self.sessions.set_pending(session_id, None)  # cleared first: a call never runs twice
        events = self.agent.stream_resume(previous, decisions)
        yield from self._saving(events, session_id, len(session.messages))

    def _saving(
        self, events: Iterator[AgentEvent], session_id: str, start: int
    ) -> Iterator[AgentEvent]:
        for event in events:
            if event.type == "final" and event.result is not None:
                self._save(session_id, start, event.result)
            yield event

    def _save(self, session_id: str, start: int, result: AgentResult) -> None:
        """A finished turn joins the session; a paused one is kept as its pending state."""
        if result.stopped_reason is StopReason.pending_confirmation:
            self.sessions.set_pending(session_id, result)
            return
        self.sessions.append(session_id, result.messages[start:])
        self.sessions.set_pending(session_id, None)
