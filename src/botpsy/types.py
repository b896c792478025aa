"""The data model every part of botpsy speaks: messages, tools, calls, completions.

Pydantic models so that everything serialises to the JSON that the CLI, the
server and the eval result files write, and validates what it reads back.
"""

from __future__ import annotations

import json
import uuid
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from botpsy.safetext import storable, storable_value

Role = Literal["system", "user", "assistant", "tool"]


def new_call_id() -> str:
    """A short unique id for a tool call, in the OpenAI ``call_...`` style."""
    return "call_" + uuid.uuid4().hex[:12]


def tool_source(name: str, call_id: str | None) -> str:
    """``Message.source`` of a tool result: the tool and the call it answers (the taint
    tracker tells one call's output from another's by it)."""
    return f"tool:{name}:{call_id}"


def source_label(source: str) -> str:
    """What a prompt shows of a source: a tool result's call id left out. Call ids are
    random, so with them two runs of one conversation render different prompts and
    answer differently; the model learns nothing from the id."""
    kind, _, rest = source.partition(":")
    return f"tool:{rest.split(':', 1)[0]}" if kind == "tool" and rest else source


class Origin(str, Enum):
    """Where a stored item came from: what its text may be trusted for.

    ``user``: the user wrote it, or imported it from their own calendar, contacts or
    notes; ``third_party``: a stranger wrote it (a mail body from someone else, an
    invitation, a card someone sent, a downloaded file), or it was written while a
    stranger's text was in view. Only the user's own items leave a turn untainted."""

    user = "user"
    third_party = "third_party"


class Provenance(BaseModel):
    """Where the items of one tool result came from.

    ``trusted``: every item is the user's own (a result with no items, or with one item
    of unknown origin, is not); ``items``: the third-party items, in words
    ("email 4 from eve@example.com: \u201cInvoice\u201d"), for confirmations that must
    say what untrusted data was read."""

    trusted: bool = False
    items: list[str] = Field(default_factory=list)


class ToolCall(BaseModel):
    """One call the model asked for: a tool name and its (JSON object) arguments."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    id: str = Field(default_factory=new_call_id)

    # A lone surrogate (a model's "\\ud800" escape) could be stored, rendered or sent
    # nowhere: it is kept as its escape, plain text (``botpsy.safetext``).
    _safe_name = field_validator("name", "id")(storable)
    _safe_arguments = field_validator("arguments")(storable_value)


class Message(BaseModel):
    """One chat turn.

    ``untrusted`` marks content that came out of a tool (an email body, a file):
    the safety layer treats it as data, never as instructions.
    ``source`` names where such content came from (e.g. ``mail.read:42``).
    """

    role: Role
    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    reasoning: str | None = None
    untrusted: bool = False
    source: str | None = None
    # set by the agent on its own tools' results only (never read from a client): what
    # the result held; None counts as untrusted
    provenance: Provenance | None = None

    @field_validator("content", "tool_call_id", "name", "reasoning", "source")
    @classmethod
    def _storable(cls, value: str | None) -> str | None:
        """Lone surrogates (a file name or argument in a bad encoding) kept as their
        escapes, so a conversation can always be saved and rendered."""
        return None if value is None else storable(value)

    def to_openai(self) -> dict[str, Any]:
        """This message as an OpenAI chat message (call arguments as a JSON string);
        one conversion for the HTTP backend and the training data files."""
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                }
                for call in self.tool_calls
            ]
        if self.tool_call_id:
            out["tool_call_id"] = self.tool_call_id
        if self.name:
            out["name"] = self.name
        if self.reasoning:
            out["reasoning_content"] = self.reasoning
        return out


class ToolSpec(BaseModel):
    """A tool as a model sees it: name, description and a JSON schema of parameters.

    ``side_effect`` marks tools whose effect leaves the device or destroys data (send
    mail, delete an event, overwrite a file): they need confirmation before they run.
    ``writes`` marks every tool that changes stored state (a new note, a reminder, a
    draft, and every side effect too): once untrusted data is in view, a write needs
    the user's yes as well. ``source`` names who wrote the spec when
    a third party did (``mcp:weather``): its text reaches the model like tool output
    and is as untrusted (the agent taints a turn that shows it).
    """

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(
        default_factory=lambda: {"type": "object", "properties": {}, "required": []}
    )
    side_effect: bool = False
    writes: bool = False
    source: str | None = None

    @property
    def changes_state(self) -> bool:
        """Whether a call can change anything (a write or a side effect)."""
        return self.writes or self.side_effect

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI ``tools`` entry for this spec."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


class ParseErrorKind(str, Enum):
    """Why a piece of model output could not be turned into a tool call."""

    invalid_json = "invalid_json"  # the arguments/call body is not recoverable JSON
    unclosed_tag = "unclosed_tag"  # an opener without its closer (recovered when possible)
    missing_opener = "missing_opener"  # a call without its opening tag, e.g. bare JSON (recovered)
    missing_name = "missing_name"  # a call without a function name
    bad_arguments = "bad_arguments"  # arguments present but not an object / not parseable
    syntax_error = "syntax_error"  # pythonic call list that is not valid Python
    unexpected_text = "unexpected_text"  # stray tool-call markup in prose
    truncated = "truncated"  # output ended inside a call (max tokens hit)


class ParseError(BaseModel):
    """A categorised parse failure; ``raw`` keeps the text so nothing is lost."""

    kind: ParseErrorKind
    message: str
    raw: str = ""
    recovered: bool = False  # True when a call was still recovered despite the error


class ParseResult(BaseModel):
    """What a format parser makes of raw model text."""

    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    reasoning: str | None = None
    errors: list[ParseError] = Field(default_factory=list)


class Usage(BaseModel):
    """Token counts of one generation; ``cached_tokens`` were reused from the KV cache."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Timings(BaseModel):
    """Device timings of one generation (seconds and tokens per second)."""

    ttft_s: float | None = None  # request start -> first generated token
    prefill_tok_s: float | None = None  # prompt tokens evaluated per second
    decode_tok_s: float | None = None  # generated tokens per second after the first
    total_s: float | None = None


class Completion(BaseModel):
    """One model answer, parsed: text, tool calls, reasoning, usage, timings, errors."""

    model_config = ConfigDict(protected_namespaces=())

    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    reasoning: str | None = None
    usage: Usage = Field(default_factory=Usage)
    timings: Timings = Field(default_factory=Timings)
    parse_errors: list[ParseError] = Field(default_factory=list)
    raw: str = ""  # the unparsed model text, kept for re-scoring and debugging
    finish_reason: Literal["stop", "length", "tool_calls", "error"] = "stop"
    model: str = ""

    def to_message(self) -> Message:
        """The assistant message to append to a conversation."""
        return Message(
            role="assistant",
            content=self.content,
            tool_calls=list(self.tool_calls),
            reasoning=self.reasoning,
        )


ToolChoice = str  # "auto" | "none" | "required" | a tool name


class GenerationParams(BaseModel):
    """Sampling settings of one request; ``tool_choice`` follows the OpenAI meaning."""

    max_tokens: int = 256
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int | None = None
    stop: list[str] = Field(default_factory=list)
    tool_choice: ToolChoice = "auto"
    parallel_tool_calls: bool = True  # False: at most one call per turn (enforced by grammar when forced)
    # The schemas a forced call's grammar enforces, in place of the prompt's tools of the same
    # names: the agent narrows what a call may write without changing what the model reads.
    grammar_tools: list[ToolSpec] | None = None
    # Tools an earlier call of the same turn was shown, to render again ahead of ``tools``
    # where the backend holds a forced call to ``tools`` by grammar: the prompt then starts
    # as before and the backend's cached start serves it. Ignored elsewhere (an endpoint
    # that is only told "required" must be shown the allowed tools alone).
    prompt_tools: list[ToolSpec] | None = None
    # The answer must be JSON that this schema accepts (OpenAI's response_format; {"type":
    # "object"} for json_object). Enforced by grammar on backends that have one.
    json_schema: dict[str, Any] | None = None


class StreamEvent(BaseModel):
    """One event of a streamed completion.

    ``text``: a piece of visible answer; ``reasoning``: a piece of thinking;
    ``tool_call``: a complete call parsed from the stream; ``done``: the end, with
    the full Completion.
    """

    type: Literal["text", "reasoning", "tool_call", "done"]
    text: str = ""
    tool_call: ToolCall | None = None
    completion: Completion | None = None
