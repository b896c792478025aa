"""Loaders for tool-use training data in the common formats.

- OpenAI messages JSONL (what ``botpsy.train.data`` writes): ``messages``,
  ``tools``, optional ``reference_calls`` / ``domain`` / ``kind``;
- xLAM / APIGen: ``query``, ``tools``, ``answers`` (JSON strings or lists);
- Hermes / ShareGPT: ``conversations`` of ``{"from", "value"}`` turns with
  ``<tools>`` in the system turn, ``<tool_call>`` JSON in the model turns and
  ``<tool_response>`` in tool turns.

Every row becomes a ``TrainSample`` or a ``RowError`` that says which line,
which category of problem and why. ``strict=True`` (the default) raises
``DatasetFormatError`` listing the bad rows; ``strict=False`` keeps the good
rows and returns the errors, so nothing is dropped silently.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from botpsy.rewards import ReferenceCall
from botpsy.train.sample import SampleKind, TrainSample, reference_for_call, reference_from_json
from botpsy.types import Message, ToolCall, ToolSpec


class RowErrorKind(str, Enum):
    """What is wrong with a row."""

    invalid_json = "invalid_json"
    missing_field = "missing_field"
    bad_message = "bad_message"
    bad_tool = "bad_tool"
    bad_call = "bad_call"
    unknown_format = "unknown_format"


@dataclass(frozen=True)
class RowError:
    line: int
    kind: RowErrorKind
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.kind.value}: {self.message}"


class RowProblem(ValueError):
    """Raised inside a row parser; becomes a ``RowError`` with the line number."""

    def __init__(self, kind: RowErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class DatasetFormatError(ValueError):
    """A data file with bad rows (strict loading)."""

    def __init__(self, path: Path, errors: list[RowError]) -> None:
        shown = "\n  ".join(str(e) for e in errors[:10])
        more = f"\n  ... and {len(errors) - 10} more" if len(errors) > 10 else ""
        super().__init__(f"{path}: {len(errors)} bad row(s):\n  {shown}{more}")
        self.errors = errors


@dataclass
class LoadResult:
    samples: list[TrainSample] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)


# -- shared pieces ---------------------------------------------------------------------------


def _json_field(row: dict[str, Any], key: str, default: Any = None) -> Any:
    """A field that may hold JSON text (xLAM stores lists as strings)."""
    value = row.get(key, default)
    if isinstance(value, str) and value.strip()[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise RowProblem(
                RowErrorKind.invalid_json, f"field {key!r} is not valid JSON: {exc}"
            ) from exc
    return value


def tool_from_json(obj: Any) -> ToolSpec:
    """A tool from an OpenAI entry (``{"type": "function", "function": {...}}``) or a bare one."""
    if not isinstance(obj, dict):
        raise RowProblem(RowErrorKind.bad_tool, f"a tool must be an object, got {obj!r:.80}")
    fn = obj.get("function", obj)
    if not isinstance(fn, dict) or not isinstance(fn.get("name"), str) or not fn["name"]:
        raise RowProblem(RowErrorKind.bad_tool, f"tool without a name: {obj!r:.80}")
    params = fn.get("parameters") or {"type": "object", "properties": {}, "required": []}
    if not isinstance(params, dict):
        raise RowProblem(
            RowErrorKind.bad_tool, f"tool {fn['name']!r}: parameters must be an object"
        )
    if "properties" not in params and params and all(isinstance(v, dict) for v in params.values()):
        params = _flat_parameters(params)  # xLAM style: {arg: {type, description, default}}
    return ToolSpec(
        name=fn["name"], description=str(fn.get("description") or ""), parameters=params
    )


_PY_TYPES = {
    "str": "string",
    "string": "string",
    "int": "integer",
    "integer": "integer",
    "float": "number",
    "number": "number",
    "bool": "boolean",
    "boolean": "boolean",
    "list": "array",
    "array": "array",
    "dict": "object",
    "object": "object",
    "tuple": "array",
    "set": "array",
    "any": "string",
}


def _flat_parameters(params: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """xLAM's flat ``{arg: {"type": "List[int], optional", ...}}`` as a JSON schema."""
    props: dict[str, Any] = {}
    required: list[str] = []
    for name, spec in params.items():
        raw = str(spec.get("type", "string"))
        head = re.split(r"[\[,| ]", raw.strip().lower(), maxsplit=1)[0]
        node: dict[str, Any] = {"type": _PY_TYPES.get(head, "string")}
        if spec.get("description"):
            node["description"] = str(spec["description"])
        props[name] = node
        if "optional" not in raw.lower() and "default" not in spec:
            required.append(name)
    return {"type": "object", "properties": props, "required": required}


def call_from_json(obj: Any) -> ToolCall:
    """A call from OpenAI (``function.arguments`` string) or plain ``{name, arguments}`` JSON."""
    if not isinstance(obj, dict):
        raise RowProblem(RowErrorKind.bad_call, f"a tool call must be an object, got {obj!r:.80}")
    fn = obj.get("function", obj)
    name = fn.get("name") if isinstance(fn, dict) else None
    if not isinstance(name, str) or not name:
        raise RowProblem(RowErrorKind.bad_call, f"tool call without a name: {obj!r:.80}")
    args = fn.get("arguments", fn.get("parameters", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError as exc:
            raise RowProblem(
                RowErrorKind.bad_call, f"arguments of {name!r} are not JSON: {exc}"
            ) from exc
    if not isinstance(args, dict):
        raise RowProblem(RowErrorKind.bad_call, f"arguments of {name!r} must be an object")
    call_id = obj.get("id")
    return ToolCall(
        name=name,
        arguments=args,
        **({"id": call_id} if isinstance(call_id, str) and call_id else {}),
    )


def _content(value: Any) -> str:
    """Message content as text (OpenAI content parts are joined)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(part.get("text", "") for part in value if isinstance(part, dict))
    raise RowProblem(
        RowErrorKind.bad_message, f"content must be text or parts, got {type(value).__name__}"
    )


def infer_kind(messages: list[Message], tools: list[ToolSpec]) -> SampleKind:
    """The sample kind a conversation shows, for data that does not say."""
    assistant = [m for m in messages if m.role == "assistant"]
    first = assistant[0] if assistant else Message(role="assistant")
    if any(m.role == "tool" for m in messages):
        return SampleKind.multi_turn
    names = [c.name for c in first.tool_calls]
    if not names:
        return SampleKind.irrelevance
    if len(names) > 1:
        return SampleKind.parallel if len(set(names)) == 1 else SampleKind.parallel_multiple
    return SampleKind.single if len(tools) <= 1 else SampleKind.multiple


def _check_call(call: ToolCall, tools: dict[str, ToolSpec]) -> None:
    """A call the sample trains on must be one its tools allow: a tool it offers, with
    every required argument (a sample without tools is taken as it is)."""
    if not tools:
        return
    spec = tools.get(call.name)
    if spec is None:
        raise RowProblem(RowErrorKind.bad_call,
                         f"call of {call.name!r}, which is not among the row's tools")
    missing = [k for k in (spec.parameters or {}).get("required") or [] if k not in call.arguments]
    if missing:
        raise RowProblem(RowErrorKind.bad_call,
                         f"call of {call.name!r} lacks required arguments {missing}")


def make_sample(
    messages: list[Message],
    tools: list[ToolSpec],
    refs: list[ReferenceCall] | None = None,
    domain: str = "generic",
    kind: str | None = None,
    sample_id: str | None = None,
) -> TrainSample:
    """A sample with references taken from the first assistant turn when none are given."""
    assistant = [m for m in messages if m.role == "assistant"]
    if not assistant:
        raise RowProblem(
            RowErrorKind.bad_message, "conversation has no assistant turn to learn from"
        )
    by_name = {t.name: t for t in tools}
    for message in assistant:
        for call in message.tool_calls:
            _check_call(call, by_name)
    if refs is None:
        refs = [reference_for_call(c, by_name.get(c.name)) for c in assistant[0].tool_calls]
    try:
        sample_kind = SampleKind(kind) if kind else infer_kind(messages, tools)
    except ValueError as exc:
        raise RowProblem(RowErrorKind.bad_message, f"unknown kind {kind!r}") from exc
    if sample_id is None:
        digest = json.dumps(
            [m.model_dump(exclude={"tool_calls"}) for m in messages], sort_keys=True
        )
        sample_id = f"{sample_kind.value}-{hashlib.sha1(digest.encode()).hexdigest()[:12]}"
    return TrainSample(
        id=sample_id,
        messages=messages,
        tools=tools,
        reference_calls=refs,
        domain=domain,
        kind=sample_kind,
    )


# -- OpenAI messages -------------------------------------------------------------------------


def message_from_openai(obj: Any) -> Message:
    if not isinstance(obj, dict) or obj.get("role") not in ("system", "user", "assistant", "tool"):
        raise RowProblem(
            RowErrorKind.bad_message, f"not a chat message with a known role: {obj!r:.80}"
        )
    calls = [call_from_json(c) for c in obj.get("tool_calls") or []]
    try:
        return Message(
            role=obj["role"],
            content=_content(obj.get("content")),
            tool_calls=calls,
            tool_call_id=obj.get("tool_call_id"),
            name=obj.get("name"),
            reasoning=obj.get("reasoning_content") or obj.get("reasoning"),
            untrusted=obj["role"] == "tool",
        )
    except ValidationError as exc:
        raise RowProblem(RowErrorKind.bad_message, str(exc)) from exc


def _reference_from_json(obj: Any) -> ReferenceCall:
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        raise RowProblem(RowErrorKind.bad_call, f"a reference call needs a name: {obj!r:.80}")
    args = obj.get("arguments", {})
    if not isinstance(args, dict) or not all(isinstance(v, list) for v in args.values()):
        raise RowProblem(
            RowErrorKind.bad_call, f"reference {obj['name']!r}: arguments map to lists of values"
        )
    return reference_from_json(obj)


def parse_openai_row(row: dict[str, Any]) -> TrainSample:
    if "messages" not in row:
        raise RowProblem(RowErrorKind.missing_field, "row has no 'messages'")
    raw_messages = _json_field(row, "messages")
    if not isinstance(raw_messages, list) or not raw_messages:
        raise RowProblem(RowErrorKind.bad_message, "'messages' must be a non-empty list")
    messages = [message_from_openai(m) for m in raw_messages]
    tools = [tool_from_json(t) for t in _json_field(row, "tools", []) or []]
    refs = row.get("reference_calls")
    references = [_reference_from_json(r) for r in refs] if refs is not None else None
    return make_sample(
        messages,
        tools,
        references,
        str(row.get("domain") or "generic"),
        row.get("kind"),
        row.get("id"),
    )


# -- xLAM / APIGen ---------------------------------------------------------------------------


def parse_xlam_row(row: dict[str, Any]) -> TrainSample:
    for key in ("query", "tools", "answers"):
        if key not in row:
            raise RowProblem(RowErrorKind.missing_field, f"xLAM row has no {key!r}")
    if not isinstance(row["query"], str) or not row["query"].strip():
        raise RowProblem(RowErrorKind.bad_message, "'query' must be a non-empty string")
    tools = [tool_from_json(t) for t in _json_field(row, "tools") or []]
    answers = _json_field(row, "answers") or []
    if not isinstance(answers, list):
        raise RowProblem(RowErrorKind.bad_call, "'answers' must be a list of calls")
    calls = [call_from_json(a) for a in answers]
    if not calls:  # an empty answer would teach the model to say nothing
        raise RowProblem(RowErrorKind.bad_call,
                         "'answers' is empty: an xLAM row needs a call to learn from")
    messages = [
        Message(role="user", content=row["query"]),
        Message(role="assistant", tool_calls=calls),
    ]
    return make_sample(
        messages,
        tools,
        domain=str(row.get("domain") or "generic"),
        sample_id=str(row["id"]) if "id" in row else None,
    )


# -- Hermes / ShareGPT -----------------------------------------------------------------------

_ROLES = {
    "system": "system",
    "human": "user",
    "user": "user",
    "gpt": "assistant",
    "assistant": "assistant",
    "tool": "tool",
    "function_response": "tool",
    "observation": "tool",
}
_TAG = {
    name: re.compile(rf"<{name}>\s*(.*?)\s*</{name}>", re.DOTALL)
    for name in ("tools", "tool_call", "tool_response")
}


def _hermes_tools(system: str, row: dict[str, Any]) -> list[ToolSpec]:
    """The tools of a row: its ``tools`` field, or every non-empty ``<tools>`` block of
    the system turn (the public Hermes prompt names an empty ``<tools></tools>`` in its
    instructions before the real block)."""
    raw = _json_field(row, "tools")
    if raw is None:
        raw = []
        for block in _TAG["tools"].findall(system):
            text = block.strip()
            if not text:
                continue
            try:
                raw += (
                    _literal(text)
                    if text.startswith("[")
                    else [_literal(line) for line in text.splitlines() if line.strip()]
                )
            except ValueError as exc:
                raise RowProblem(RowErrorKind.bad_tool, f"<tools> block is not JSON: {exc}") from exc
    return [tool_from_json(t) for t in raw]


def _literal(text: str) -> Any:
    """JSON, or the Python literal the public Hermes data writes in its place
    (``{'name': 'f', 'arguments': {...}}``); never code."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        try:
            return ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise ValueError(f"{exc}: {text!r:.80}") from None


def _hermes_turn(role: str, value: str, pending: list[ToolCall]) -> list[Message]:
    """The messages of one turn; a tool turn holds one message per ``<tool_response>``,
    each answering the next call still waiting for its result."""
    if role == "assistant":
        calls = []
        for body in _TAG["tool_call"].findall(value):
            try:
                calls.append(call_from_json(_literal(body)))
            except ValueError as exc:
                raise RowProblem(
                    RowErrorKind.bad_call, f"<tool_call> is not JSON: {body!r:.80}"
                ) from exc
        text = _TAG["tool_call"].sub("", value).strip()
        pending[:] = list(calls)
        return [Message(role="assistant", content=text, tool_calls=calls)]
    if role == "tool":
        bodies = _TAG["tool_response"].findall(value) or [value]
        messages = []
        for body in bodies:
            call = pending.pop(0) if pending else None
            messages.append(Message(
                role="tool",
                content=body.strip(),
                name=call.name if call else None,
                tool_call_id=call.id if call else None,
                untrusted=True,
            ))
        return messages
    return [Message(role=role, content=value)]


def parse_hermes_row(row: dict[str, Any]) -> TrainSample:
    turns = _json_field(row, "conversations")
    if not isinstance(turns, list) or not turns:
        raise RowProblem(RowErrorKind.missing_field, "row has no 'conversations' list")
    messages: list[Message] = []
    pending: list[ToolCall] = []
    system = ""
    for turn in turns:
        if (
            not isinstance(turn, dict)
            or turn.get("from") not in _ROLES
            or not isinstance(turn.get("value"), str)
        ):
            raise RowProblem(
                RowErrorKind.bad_message,
                f"turn needs a known 'from' and a text 'value': {turn!r:.80}",
            )
        role = _ROLES[turn["from"]]
        if role == "system":
            system = turn["value"]
            cleaned = _TAG["tools"].sub("", system).strip()
            if cleaned:
                messages.append(Message(role="system", content=cleaned))
            continue
        messages.extend(_hermes_turn(role, turn["value"], pending))
    tools = _hermes_tools(system, row)
    return make_sample(
        messages,
        tools,
        domain=str(row.get("domain") or "generic"),
        sample_id=str(row["id"]) if "id" in row else None,
    )


# -- files -----------------------------------------------------------------------------------

PARSERS: dict[str, Callable[[dict[str, Any]], TrainSample]] = {
    "openai": parse_openai_row,
    "xlam": parse_xlam_row,
    "hermes": parse_hermes_row,
}


def detect_format(row: dict[str, Any]) -> str:
    """The format of a row from its keys."""
    if "messages" in row:
        return "openai"
    if "query" in row:  # xLAM; a missing "answers" is then reported as such
        return "xlam"
    if "conversations" in row:
        return "hermes"
    raise RowProblem(
        RowErrorKind.unknown_format,
        f"cannot tell the format from keys {sorted(row)[:8]} "
        "(want messages | query+tools+answers | conversations)",
    )


def _rows(path: Path) -> Iterator[tuple[int, Any]]:
    """(line number, decoded row); a ``.json`` file holds one list of rows."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as exc:
            yield exc.lineno, RowProblem(RowErrorKind.invalid_json, str(exc))
            return
        if not isinstance(rows, list):
            yield (
                1,
                RowProblem(RowErrorKind.invalid_json, "a .json data file must hold a list of rows"),
            )
            return
        yield from enumerate(rows, start=1)
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            yield number, RowProblem(RowErrorKind.invalid_json, str(exc))


def load_samples(path: str | Path, fmt: str = "auto", strict: bool = True) -> LoadResult:
    """Samples from a JSONL (or JSON list) file in ``fmt`` (``auto`` detects per row)."""
    path = Path(path)
    if fmt != "auto" and fmt not in PARSERS:
        raise ValueError(f"unknown data format {fmt!r}; use auto, {', '.join(PARSERS)}")
    result = LoadResult()
    for number, row in _rows(path):
        try:
            if isinstance(row, RowProblem):
                raise row
            if not isinstance(row, dict):
                raise RowProblem(
                    RowErrorKind.invalid_json,
                    f"a row must be a JSON object, got {type(row).__name__}",
                )
            result.samples.append(PARSERS[detect_format(row) if fmt == "auto" else fmt](row))
        except RowProblem as problem:
            result.errors.append(RowError(number, problem.kind, str(problem)))
    if strict and result.errors:
        raise DatasetFormatError(path, result.errors)
    return result


def read_samples(path: str | Path) -> list[TrainSample]:
    """The samples of a botpsy data file (strict)."""
    return load_samples(path, "auto", strict=True).samples
