"""OpenAI-compatible routes: ``/v1/chat/completions``, ``/v1/models``.

The server only generates: tool calls are returned to the client, which runs
them and sends the results back as ``tool`` messages, exactly as with OpenAI.
(The assistant routes, by contrast, run botpsy's own tools server-side.)
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter
from fastapi.responses import Response
from openai.types import Model
from openai.types.chat import ChatCompletionChunk

from botpsy.server.errors import APIError, ErrorKind, error_body
from botpsy.server.openai_api import (
    ChatCompletionRequest,
    ChunkWriter,
    completion_response,
    new_completion_id,
    to_messages,
    to_params,
    to_tool_specs,
)
from botpsy.server.state import ServerState, StateDep
from botpsy.server.streaming import (
    PrimedStream,
    generation_error,
    prime,
    run_with_deadline,
    sse_response,
)
from botpsy.types import StreamEvent

router = APIRouter(prefix="/v1", tags=["openai"])


def _json(chunk: ChatCompletionChunk) -> str:
    return chunk.model_dump_json(exclude_unset=True)


def _check_model(state: ServerState, name: str) -> None:
    if name not in state.model_names:
        served = ", ".join(state.model_names)
        raise APIError(
            404,
            ErrorKind.model_not_found,
            f"model {name!r} is not served here; this server serves [{served}]",
            param="model",
        )


@router.get("/models")
async def list_models(state: StateDep) -> dict:
    """The one model this server runs (under every name it answers to)."""
    models = [_model(state, name).model_dump() for name in state.model_names]
    return {"object": "list", "data": models}


@router.get("/models/{name:path}")
async def get_model(name: str, state: StateDep) -> dict:
    _check_model(state, name)
    return _model(state, name).model_dump()


def _model(state: ServerState, name: str) -> Model:
    return Model(id=name, created=int(state.started), object="model", owned_by="botpsy")


@router.post("/chat/completions", response_model=None)
async def chat_completions(body: ChatCompletionRequest, state: StateDep) -> Response:
    """One model turn; streamed as SSE chunks when ``stream`` is true."""
    _check_model(state, body.model)
    messages = to_messages(body.messages)
    tools = to_tool_specs(body.tools)
    params = to_params(body, tools)

    def make():
        return state.model.stream(messages, tools or None, params)

    request_id = new_completion_id()
    if not body.stream:
        completion = await run_with_deadline(
            lambda: state.worker.complete(make), state.request_timeout
        )
        response = completion_response(completion, body.model, request_id)
        return Response(response.model_dump_json(exclude_unset=True), media_type="application/json")
    primed = await prime(state.worker, make, state.request_timeout)
    include_usage = bool(body.stream_options and body.stream_options.include_usage)
    writer = ChunkWriter(body.model, request_id)
    return sse_response(_chunks(primed, writer, include_usage))


async def _chunks(
    primed: PrimedStream, writer: ChunkWriter, include_usage: bool
) -> AsyncIterator[str]:
    """OpenAI chunk JSON for each stream event, then ``[DONE]``; an error ends the stream."""
    try:
        yield _json(writer.role())
        async for event in primed.items():
            for chunk in _event_chunks(event, writer, include_usage):
                yield _json(chunk)
        yield "[DONE]"
    except Exception as exc:  # noqa: BLE001 - status is already 200: report in-band, as OpenAI does
        error = generation_error(exc, primed.timeout)
        yield error_body(error.kind, error.message).model_dump_json()
    finally:
        await primed.close()


def _event_chunks(
    event: StreamEvent, writer: ChunkWriter, include_usage: bool
) -> list[ChatCompletionChunk]:
    if event.type == "text" and event.text:
        return [writer.text(event.text)]
    if event.type == "reasoning" and event.text:
        return [writer.reasoning(event.text)]
    if event.type == "tool_call" and event.tool_call is not None:
        return [writer.tool_call(event.tool_call)]
    if event.type == "done" and event.completion is not None:
        done = [*writer.catch_up(event.completion), writer.finish(event.completion)]
        return [*done, writer.usage(event.completion)] if include_usage else done
    return []
