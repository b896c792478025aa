"""Assistant routes: sessions, streamed turns, confirmations of pending calls, audit.

- ``POST /assistant/sessions`` -> the new session;
- ``GET /assistant/sessions[/{id}]`` -> sessions / one session with its messages;
- ``POST /assistant/sessions/{id}/messages`` ``{"text": ...}`` -> SSE stream of agent
  events (``token``, ``reasoning``, ``call``, ``decision``, ``result``, ``final``);
- ``POST /assistant/sessions/{id}/pending/{call_id}/confirm`` (or ``/reject``) with the
  JSON body ``{"call_id": ...}`` -> SSE: ``decision_recorded`` (with the calls still
  undecided), then, once all are decided, the events of the resumed turn. The body
  is required so that a decision is never a "simple" cross-site request (a form
  post cannot send JSON);
- ``GET /assistant/audit?session_id=&limit=`` -> audit entries, oldest first;
- ``GET /assistant/tools`` -> the tools the assistant may call.

Each SSE ``data:`` line is one JSON object with a ``type``. Every step in it (of a
``decision``, ``result`` or ``final`` event) carries ``words``: its outcome said for a
person ("Added a reminder: call Anna, Mon 7 Dec at 09:00."), as the turn's
``final_text`` is; a ``call`` event and each pending call carry ``action``, what the
call would do ("send the email"). The raw call and result stay beside them; the raw
return value (``result.data``) is left out. Turns run on the
model worker, which also serialises them: a second message to a session that is
waiting for decisions gets 409, whatever the timing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field
from sse_starlette import EventSourceResponse

from botpsy.agent import AgentEvent, Session, SessionInfo
from botpsy.agent.reply import ReplyWriter
from botpsy.safety.audit import AuditEntry
from botpsy.server.assistant_service import AssistantService
from botpsy.server.errors import APIError, ErrorKind, error_body
from botpsy.server.state import StateDep
from botpsy.server.streaming import PrimedStream, generation_error, prime, sse_response
from botpsy.types import ToolSpec

router = APIRouter(prefix="/assistant", tags=["assistant"])

MAX_TEXT = 8000


class NewSession(BaseModel):
    title: str = Field(default="", max_length=200)


class UserMessage(BaseModel):
    text: str = Field(min_length=1, max_length=MAX_TEXT)


class DecisionBody(BaseModel):
    """The body of a confirm/reject: the id of the call decided on, as in the path."""

    call_id: str


def get_assistant(state: StateDep) -> AssistantService:
    if state.assistant is None:
        raise APIError(404, ErrorKind.not_found, "this server runs no assistant")
    return state.assistant


AssistantDep = Annotated[AssistantService, Depends(get_assistant)]


# What the page needs of an event: no conversation dump, no raw tool return values.
_EXCLUDE = {
    "result": {"messages": True, "steps": {"__all__": {"result": {"data"}}}},
    "step": {"result": {"data"}},
}


def wire_event(event: AgentEvent, replies: ReplyWriter | None = None) -> str:
    """One agent event as the JSON of an SSE ``data:`` line, with the words for people
    (``replies``: the agent's ``ReplyWriter``)."""
    replies = replies or ReplyWriter()
    data = event.model_dump(mode="json", exclude=_EXCLUDE, fallback=str)
    if event.call is not None:
        data["action"] = replies.action(event.call.name)
    if event.step is not None:
        data["step"]["words"] = replies.describe(event.step)
    if event.result is not None:
        for step, wired in zip(event.result.steps, data["result"]["steps"], strict=True):
            wired["words"] = replies.describe(step)
        for item, wired in zip(event.result.pending, data["result"]["pending"], strict=True):
            wired["action"] = replies.action(item.call.name)
    return json.dumps(data, ensure_ascii=False)


@router.post("/sessions", status_code=201)
async def create_session(service: AssistantDep, body: NewSession | None = None) -> SessionInfo:
    return await asyncio.to_thread(service.create_session, body.title if body else "")


@router.get("/sessions")
async def list_sessions(
    service: AssistantDep, limit: Annotated[int, Query(ge=1, le=1000)] = 50
) -> list[SessionInfo]:
    return await asyncio.to_thread(service.sessions.list_sessions, limit)


@router.get("/sessions/{session_id}")
async def get_session(session_id: str, service: AssistantDep) -> Session:
    return await asyncio.to_thread(service.load, session_id)


@router.post("/sessions/{session_id}/messages", response_class=EventSourceResponse)
async def send_message(
    session_id: str, body: UserMessage, service: AssistantDep
) -> EventSourceResponse:
    """Start a turn; the events stream as the agent works."""
    primed = await _prime(service, lambda: service.turn(session_id, body.text))
    return sse_response(_events(primed, service.agent.replies))


@router.post(
    "/sessions/{session_id}/pending/{call_id}/{action}", response_class=EventSourceResponse
)
async def decide(
    session_id: str,
    call_id: str,
    action: Literal["confirm", "reject"],
    body: DecisionBody,
    service: AssistantDep,
) -> EventSourceResponse:
    """Confirm or reject one pending call; the turn resumes once all are decided."""
    if body.call_id != call_id:
        raise APIError(422, ErrorKind.invalid_request,
                       f"the body names call {body.call_id!r}, the path {call_id!r}",
                       param="call_id")
    recorded = await asyncio.to_thread(service.decide, session_id, call_id, action == "confirm")
    head = json.dumps(recorded.event())
    if recorded.remaining:
        return sse_response(_just(head))
    primed = await _prime(service, lambda: service.resume(session_id))
    return sse_response(_events(primed, service.agent.replies, head))


@router.get("/audit")
async def audit(
    service: AssistantDep,
    session_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=5000)] = 200,
) -> list[AuditEntry]:
    return await asyncio.to_thread(service.audit_entries, session_id, limit)


@router.get("/tools")
async def tools(service: AssistantDep) -> list[ToolSpec]:
    return service.agent.registry.specs()


async def _prime(
    service: AssistantService, make: Callable[[], Iterator[AgentEvent]]
) -> PrimedStream:
    if service.worker is None:
        raise APIError(500, ErrorKind.server_error, "the assistant is not attached to a worker")
    return await prime(service.worker, make, service.request_timeout)


async def _just(*items: str) -> AsyncIterator[str]:
    for item in items:
        yield item


async def _events(
    primed: PrimedStream, replies: ReplyWriter, head: str | None = None
) -> AsyncIterator[str]:
    """Agent events as JSON; a failure after the first byte becomes an ``error`` event."""
    try:
        if head is not None:
            yield head
        async for event in primed.items():
            yield wire_event(event, replies)
    except Exception as exc:  # noqa: BLE001 - status is already 200: report in-band
        error = generation_error(exc, primed.timeout)
        body = error_body(error.kind, error.message).model_dump()
        yield json.dumps({"type": "error", **body})
    finally:
        await primed.close()
