"""The OpenAI chat-completions wire format, in and out.

Requests are validated by our own pydantic models (the OpenAI SDK ships only
TypedDicts for requests) and turned into botpsy ``Message``/``ToolSpec``/
``GenerationParams``; responses are built with the OpenAI SDK's own response
models, so what we send is by construction what its clients parse. Beyond the
OpenAI fields, responses carry ``timings`` (as llama.cpp's server does) and, when
the model wrote reasoning, ``reasoning_content`` (as vLLM does).
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from openai.types import CompletionUsage
from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessage
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_chunk import Choice as ChunkChoice
from openai.types.chat.chat_completion_chunk import (
    ChoiceDelta,
    ChoiceDeltaToolCall,
    ChoiceDeltaToolCallFunction,
)
from openai.types.chat.chat_completion_message_function_tool_call import (
    ChatCompletionMessageFunctionToolCall,
    Function,
)
from openai.types.completion_usage import PromptTokensDetails
from pydantic import BaseModel, ConfigDict, Field, field_validator

from botpsy.server.errors import APIError, ErrorKind
from botpsy.tools.tool import Tool
from botpsy.types import Completion, GenerationParams, Message, ToolCall, ToolSpec

DEFAULT_MAX_TOKENS = 512


class FunctionCallIn(BaseModel):
    name: str
    arguments: str = "{}"


class ToolCallIn(BaseModel):
    id: str | None = None
    type: Literal["function"] = "function"
    function: FunctionCallIn


class ContentPart(BaseModel):
    """A content part; only text parts can be given to a text model."""

    model_config = ConfigDict(extra="allow")
    type: str
    text: str | None = None


class ChatMessageIn(BaseModel):
    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: str | list[ContentPart] | None = None
    name: str | None = None
    tool_calls: list[ToolCallIn] | None = None
    tool_call_id: str | None = None
    reasoning_content: str | None = None


class NamedFunction(BaseModel):
    name: str


class NamedToolChoice(BaseModel):
    type: Literal["function"] = "function"
    function: NamedFunction


class StreamOptions(BaseModel):
    include_usage: bool = False


class JsonSchemaFormat(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str = "answer"
    schema_: dict[str, Any] = Field(default_factory=dict, alias="schema")
    strict: bool | None = None


class ResponseFormat(BaseModel):
    """``response_format``: text, ``json_object`` (any JSON object) or ``json_schema``;
    the JSON modes are enforced by grammar, so the answer always parses."""

    model_config = ConfigDict(extra="allow")

    type: Literal["text", "json_object", "json_schema"]
    json_schema: JsonSchemaFormat | None = None

    def schema_to_enforce(self) -> dict[str, Any] | None:
        if self.type == "json_object":
            return {"type": "object"}
        if self.type == "json_schema":
            if self.json_schema is None:
                raise ValueError("response_format json_schema needs a json_schema object")
            return self.json_schema.schema_ or {"type": "object"}
        return None


class ChatCompletionRequest(BaseModel):
    """The body of ``POST /v1/chat/completions``; unknown OpenAI options are ignored."""

    model_config = ConfigDict(extra="allow")

    model: str
    messages: list[ChatMessageIn] = Field(min_length=1)
    tools: list[dict[str, Any]] | None = None
    tool_choice: Literal["auto", "none", "required"] | NamedToolChoice | None = None
    stream: bool = False
    stream_options: StreamOptions | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, gt=0, le=1)
    seed: int | None = None
    stop: str | list[str] | None = None
    n: int = Field(default=1, ge=1, le=1, description="only one choice per request")
    parallel_tool_calls: bool = True
    response_format: ResponseFormat | None = None
    logprobs: bool = Field(default=False, description="not supported: true is refused")

    @field_validator("logprobs")
    @classmethod
    def _no_logprobs(cls, value: bool) -> bool:
        if value:
            raise ValueError("logprobs are not supported by this server")
        return value


def _text(content: str | list[ContentPart] | None, where: str) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    parts = []
    for index, part in enumerate(content):
        if part.type != "text" or part.text is None:
            raise APIError(
                400,
                ErrorKind.invalid_request,
                f"content part of type {part.type!r} is not supported by a text model",
                param=f"{where}.content[{index}]",
            )
        parts.append(part.text)
    return "".join(parts)


def _call(call: ToolCallIn, where: str) -> ToolCall:
    try:
        arguments = json.loads(call.function.arguments or "{}")
    except json.JSONDecodeError as exc:
        raise APIError(
            400,
            ErrorKind.invalid_request,
            f"tool call arguments are not JSON: {exc.msg}",
            param=f"{where}.function.arguments",
        ) from None
    if not isinstance(arguments, dict):
        raise APIError(
            400,
            ErrorKind.invalid_request,
            "tool call arguments must be a JSON object",
            param=f"{where}.function.arguments",
        )
    if call.id:
        return ToolCall(name=call.function.name, arguments=arguments, id=call.id)
    return ToolCall(name=call.function.name, arguments=arguments)


def to_messages(items: list[ChatMessageIn]) -> list[Message]:
    """botpsy messages from OpenAI ones (``developer`` is a system turn)."""
    out = []
    for index, item in enumerate(items):
        where = f"messages[{index}]"
        calls = [
            _call(call, f"{where}.tool_calls[{n}]") for n, call in enumerate(item.tool_calls or [])
        ]
        out.append(
            Message(
                role="system" if item.role == "developer" else item.role,
                content=_text(item.content, where),
                tool_calls=calls,
                tool_call_id=item.tool_call_id,
                name=item.name,
                reasoning=item.reasoning_content,
            )
        )
    return out


def to_tool_specs(tools: list[dict[str, Any]] | None) -> list[ToolSpec]:
    """ToolSpecs from OpenAI ``tools``; each schema is checked (400 naming the bad tool)."""
    specs = []
    for index, entry in enumerate(tools or []):
        try:
            specs.append(Tool.from_openai(entry).spec)
        except (ValueError, TypeError) as exc:
            raise APIError(
                400, ErrorKind.invalid_request, str(exc), param=f"tools[{index}]"
            ) from None
    return specs


def to_params(request: ChatCompletionRequest, tools: list[ToolSpec]) -> GenerationParams:
    """Sampling settings; a named ``tool_choice`` must name one of ``tools``."""
    choice = request.tool_choice
    if isinstance(choice, NamedToolChoice):
        if choice.function.name not in {spec.name for spec in tools}:
            raise APIError(
                400,
                ErrorKind.invalid_request,
                f"tool_choice names {choice.function.name!r}, which is not among the tools",
                param="tool_choice",
            )
        choice_name = choice.function.name
    else:
        choice_name = choice or "auto"
    if choice_name == "required" and not tools:
        raise APIError(
            400,
            ErrorKind.invalid_request,
            "tool_choice 'required' needs tools",
            param="tool_choice",
        )
    stop = [request.stop] if isinstance(request.stop, str) else list(request.stop or [])
    return GenerationParams(
        max_tokens=request.max_completion_tokens or request.max_tokens or DEFAULT_MAX_TOKENS,
        temperature=request.temperature if request.temperature is not None else 0.0,
        top_p=request.top_p if request.top_p is not None else 1.0,
        seed=request.seed,
        stop=stop,
        tool_choice=choice_name,
        parallel_tool_calls=request.parallel_tool_calls,
        json_schema=_json_schema(request.response_format),
    )


def _json_schema(response_format: ResponseFormat | None) -> dict[str, Any] | None:
    """The schema a JSON response format enforces (checked here: a 400, not a failure)."""
    if response_format is None:
        return None
    try:
        schema = response_format.schema_to_enforce()
        if schema is not None:
            Draft202012Validator.check_schema(schema)
    except (ValueError, SchemaError) as exc:
        message = exc.message if isinstance(exc, SchemaError) else str(exc)
        raise APIError(400, ErrorKind.invalid_request, f"response_format: {message}",
                       param="response_format") from None
    return schema


# --- responses ----------------------------------------------------------------------


def new_completion_id() -> str:
    return "chatcmpl-" + uuid.uuid4().hex[:24]


def usage_of(completion: Completion) -> CompletionUsage:
    usage = completion.usage
    return CompletionUsage(
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        total_tokens=usage.total_tokens,
        prompt_tokens_details=PromptTokensDetails(cached_tokens=usage.cached_tokens),
    )


def finish_reason(completion: Completion) -> Literal["stop", "length", "tool_calls"]:
    """OpenAI has no ``error`` finish reason: unparseable output still ends a turn. A cut
    output is "length" even when it holds calls (the last may be missing)."""
    if completion.finish_reason == "length":
        return "length"
    return "tool_calls" if completion.tool_calls else "stop"


def _wire_call(call: ToolCall) -> ChatCompletionMessageFunctionToolCall:
    arguments = json.dumps(call.arguments, ensure_ascii=False)
    return ChatCompletionMessageFunctionToolCall(
        id=call.id, type="function", function=Function(name=call.name, arguments=arguments)
    )


def completion_response(completion: Completion, model: str, request_id: str) -> ChatCompletion:
    """A full ``chat.completion`` object for one Completion."""
    message = ChatCompletionMessage(
        role="assistant",
        content=completion.content if completion.content or not completion.tool_calls else None,
        tool_calls=[_wire_call(call) for call in completion.tool_calls] or None,
    )
    if completion.reasoning:
        message.reasoning_content = completion.reasoning  # type: ignore[attr-defined]
    response = ChatCompletion(
        id=request_id,
        object="chat.completion",
        created=int(time.time()),
        model=model,
        choices=[
            Choice(index=0, message=message, finish_reason=finish_reason(completion), logprobs=None)
        ],
        usage=usage_of(completion),
    )
    response.timings = completion.timings.model_dump()  # type: ignore[attr-defined]
    return response


class ChunkWriter:
    """Builds the ``chat.completion.chunk`` objects of one streamed answer.

    It remembers what it sent, so that text or calls which a stream parser only
    settles at the very end (a trailing partial tag, a recovered unclosed call)
    still reach the client before the final chunk: streamed and non-streamed
    answers carry the same content.
    """

    def __init__(self, model: str, request_id: str) -> None:
        self.model = model
        self.id = request_id
        self.created = int(time.time())
        self.calls = 0
        self.sent_text = ""
        self.sent_calls: set[str] = set()

    def _chunk(self, delta: ChoiceDelta, finish: str | None = None) -> ChatCompletionChunk:
        return ChatCompletionChunk(
            id=self.id,
            object="chat.completion.chunk",
            created=self.created,
            model=self.model,
            choices=[ChunkChoice(index=0, delta=delta, finish_reason=finish)],
        )

    def role(self) -> ChatCompletionChunk:
        return self._chunk(ChoiceDelta(role="assistant", content=""))

    def text(self, text: str) -> ChatCompletionChunk:
        self.sent_text += text
        return self._chunk(ChoiceDelta(content=text))

    def reasoning(self, text: str) -> ChatCompletionChunk:
        delta = ChoiceDelta()
        delta.reasoning_content = text  # type: ignore[attr-defined]
        return self._chunk(delta)

    def tool_call(self, call: ToolCall) -> ChatCompletionChunk:
        """A whole call in one delta: formats emit a call once it has fully parsed."""
        function = ChoiceDeltaToolCallFunction(
            name=call.name, arguments=json.dumps(call.arguments, ensure_ascii=False)
        )
        delta = ChoiceDelta(
            tool_calls=[
                ChoiceDeltaToolCall(
                    index=self.calls, id=call.id, type="function", function=function
                )
            ]
        )
        self.calls += 1
        self.sent_calls.add(call.id)
        return self._chunk(delta)

    def catch_up(self, completion: Completion) -> list[ChatCompletionChunk]:
        """Chunks for final text and calls that were not streamed yet."""
        chunks = []
        if completion.content.startswith(self.sent_text) and len(completion.content) > len(
            self.sent_text
        ):
            chunks.append(self.text(completion.content[len(self.sent_text) :]))
        for call in completion.tool_calls:
            if call.id not in self.sent_calls:
                chunks.append(self.tool_call(call))
        return chunks

    def finish(self, completion: Completion) -> ChatCompletionChunk:
        chunk = self._chunk(ChoiceDelta(), finish_reason(completion))
        chunk.timings = completion.timings.model_dump()  # type: ignore[attr-defined]
        return chunk

    def usage(self, completion: Completion) -> ChatCompletionChunk:
        """The extra last chunk asked for by ``stream_options.include_usage``."""
        return ChatCompletionChunk(
            id=self.id,
            object="chat.completion.chunk",
            created=self.created,
            model=self.model,
            choices=[],
            usage=usage_of(completion),
        )
