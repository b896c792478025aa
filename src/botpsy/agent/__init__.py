"""The agent: one user turn = scope check, then generate -> review calls -> run, repeated.

- ``loop``: ``Agent`` (``run``, ``stream``, ``resume``), the loop itself;
- ``calls``: the per-call safety pipeline (loop guard, validation, scope, taint, confirmation);
- ``run_events``: ``AgentResult``, ``AgentStep``, ``PendingCall``, ``AgentEvent``, ``StopReason``;
- ``prompt``: the system prompt with date, time zone and user profile;
- ``selection``: BM25 dynamic tool selection;
- ``session``: conversations persisted in SQLite.
"""

from botpsy.agent.loop import Agent
from botpsy.agent.prompt import SystemPrompt, SystemPromptBuilder
from botpsy.agent.run_events import AgentEvent, AgentResult, AgentStep, PendingCall, StopReason
from botpsy.agent.selection import Bm25ToolSelector, ToolSelector
from botpsy.agent.session import Session, SessionInfo, SessionNotFoundError, SessionStore

__all__ = [
    "Agent",
    "AgentEvent",
    "AgentResult",
    "AgentStep",
    "Bm25ToolSelector",
    "PendingCall",
    "Session",
    "SessionInfo",
    "SessionNotFoundError",
    "SessionStore",
    "StopReason",
    "SystemPrompt",
    "SystemPromptBuilder",
    "ToolSelector",
]
