"""``ToolRegistry``: the set of tools an agent may call, and the one place calls run.

``execute`` never raises: an unknown name, arguments that fail validation and
an exception inside the tool all come back as a failed ``ToolResult`` with a
category and a message the model can act on (a close name, the missing
argument, the exception text), so one bad call never ends a conversation.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import difflib
import inspect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pydantic import BaseModel, Field

from botpsy.tools.render import DEFAULT_MAX_CHARS, render_result, truncate
from botpsy.tools.tool import Tool
from botpsy.types import Message, Provenance, ToolCall, ToolSpec


class ToolErrorKind(str, Enum):
    """Why a tool call failed."""

    unknown_tool = "unknown_tool"
    invalid_arguments = "invalid_arguments"
    tool_error = "tool_error"  # the tool ran (or could not run) and raised


def finders_in_words(finders: tuple[str, ...], what: str = "ids") -> str:
    """"list_reminders gives the ids": the tools that list the values a call needed, in the
    words the model reads after a refusal (empty without finders). One wording for the
    tools' errors and the agent's refusals alike."""
    return f"{' or '.join(finders)} gives the {what}" if finders else ""


class ToolRefusal(ValueError):
    """A tool's refusal of its input that names, as data, the tools that list the values
    it would take (``finders``: "no reminder 7" -> ``list_reminders``). The agent routes a
    retry by ``finders`` alone, never by the message's words (a third party's error text
    can say anything). ``retry``: False when no other arguments can make the call succeed
    (the item is already there), so the agent does not ask the model to try again.

    ``detail`` is the refusal in words a person may read ("no reminder with id 7");
    ``hint`` what only the model reads after it ("; list_reminders gives the ids"). The
    exception's text, which the model reads, is both."""

    def __init__(self, message: str, finders: tuple[str, ...] = (), retry: bool = True,
                 hint: str = "") -> None:
        super().__init__(message + hint)
        self.detail = message
        self.hint = hint
        self.finders = tuple(finders)
        self.retry = retry


class ToolResult(BaseModel):
    """The outcome of one call: ``content`` is the text the model reads back,
    ``data`` the raw return value for programs (None on failure)."""

    call_id: str
    name: str
    ok: bool
    content: str
    data: Any = None
    error_kind: ToolErrorKind | None = None
    error: str | None = None
    coercions: list[str] = Field(default_factory=list)  # argument repairs applied
    # where the returned items came from (the tool's ``provenance``); None: unknown, untrusted
    provenance: Provenance | None = None
    # a failure's tools that list the values the call needed (``ToolRefusal.finders``)
    finders: list[str] = Field(default_factory=list)
    retry: bool = True  # a failure that other arguments may fix (``ToolRefusal.retry``)
    # a failure in words a person may read: the tool's own (``ToolRefusal.detail``, a
    # ValueError's text) or the arguments' problems; no hint meant for the model
    detail: str = ""

    @property
    def trusted(self) -> bool:
        """Whether the result holds nothing but the user's own items (or, for a failure,
        the tool's own words about the call: ``Tool.provenance`` decides)."""
        return self.provenance is not None and self.provenance.trusted

    def to_message(self) -> Message:
        """The ``tool`` chat message that carries this result back to the model."""
        return Message(role="tool", content=self.content, tool_call_id=self.call_id,
                       name=self.name, provenance=self.provenance)


@dataclass(frozen=True)
class _Prepared:
    """A call that passed lookup and validation, ready to run."""

    tool: Tool
    arguments: dict[str, Any]
    coercions: list[str]


class ToolRegistry:
    """Named tools; ``max_content_chars`` caps each result's ``content``."""

    def __init__(
        self,
        tools: Iterable[Tool | Callable[..., Any]] = (),
        *,
        max_content_chars: int | None = DEFAULT_MAX_CHARS,
    ) -> None:
        self._tools: dict[str, Tool] = {}
        self.max_content_chars = max_content_chars
        for item in tools:
            self.register(item)

    def register(self, tool_or_fn: Tool | Callable[..., Any], *, replace: bool = False) -> Tool:
        """Add a Tool (or a typed function, made into one); returns the Tool, so this
        also works as a decorator. A second tool of the same name needs ``replace``."""
        item = tool_or_fn if isinstance(tool_or_fn, Tool) else Tool.from_function(tool_or_fn)
        if item.name in self._tools and not replace:
            raise ValueError(f"a tool named {item.name!r} is already registered")
        self._tools[item.name] = item
        return item

    def get(self, name: str) -> Tool:
        """The tool called ``name``; ``KeyError`` with the closest name otherwise."""
        try:
            return self._tools[name]
        except KeyError:
            raise KeyError(self._unknown_message(name)) from None

    def specs(self, names: Iterable[str] | None = None) -> list[ToolSpec]:
        """The specs to show a model, all or the ``names`` given (in that order)."""
        chosen = self._tools.values() if names is None else [self.get(n) for n in names]
        return [t.spec for t in chosen]

    def to_openai(self, names: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """The OpenAI ``tools`` list for these specs."""
        return [spec.to_openai() for spec in self.specs(names)]

    def names(self) -> list[str]:
        return list(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[Tool]:
        return iter(list(self._tools.values()))

    def __len__(self) -> int:
        return len(self._tools)

    def _unknown_message(self, name: str) -> str:
        text = f"unknown tool {name!r}"
        close = difflib.get_close_matches(str(name), list(self._tools), n=1)
        if close:
            text += f"; did you mean {close[0]!r}?"
        available = ", ".join(self._tools) or "none"
        return text + f" Available tools: {available}"

    # -- running ----------------------------------------------------------------------
    def execute(self, call: ToolCall) -> ToolResult:
        """Validate and run one call; failures come back as a categorised ToolResult.
        Async tools run on a private event loop (in a worker thread when one is
        already running here)."""
        prepared = self._prepare(call)
        if isinstance(prepared, ToolResult):
            return prepared
        # Any exception a tool raises is a result the model reads, never a crash.
        try:
            value = prepared.tool.invoke(prepared.arguments)
            if inspect.isawaitable(value):
                value = _run_coroutine(value)
        except Exception as exc:  # noqa: BLE001
            return self._tool_failed(call, exc, prepared.coercions)
        return self._succeeded(call, value, prepared.coercions)

    async def aexecute(self, call: ToolCall) -> ToolResult:
        """``execute`` for async callers: async tools are awaited on the caller's loop,
        sync tools run in a worker thread so they do not block it."""
        prepared = self._prepare(call)
        if isinstance(prepared, ToolResult):
            return prepared
        try:
            if prepared.tool.is_async:
                value = await prepared.tool.invoke(prepared.arguments)
            else:
                value = await asyncio.to_thread(prepared.tool.invoke, prepared.arguments)
                if inspect.isawaitable(value):
                    value = await value
        except Exception as exc:  # noqa: BLE001
            return self._tool_failed(call, exc, prepared.coercions)
        return self._succeeded(call, value, prepared.coercions)

    def _prepare(self, call: ToolCall) -> ToolResult | _Prepared:
        """The tool and validated arguments of a call, or the failed result."""
        if call.name not in self._tools:
            message = self._unknown_message(call.name)
            return self._failed(call, ToolErrorKind.unknown_tool, message)
        tool = self._tools[call.name]
        verdict = tool.validate(call.arguments)
        if not verdict.ok:
            result = self._failed(call, ToolErrorKind.invalid_arguments,
                                  verdict.feedback(tool.name))
            result.coercions = verdict.coercions
            result.detail = verdict.problems()
            return result
        return _Prepared(tool, verdict.arguments, verdict.coercions)

    def _succeeded(self, call: ToolCall, value: Any, coercions: list[str]) -> ToolResult:
        content = render_result(value, self.max_content_chars)
        provenance = self._tools[call.name].origin_of(value)
        return ToolResult(call_id=call.id, name=call.name, ok=True, content=content,
                          data=value, coercions=coercions, provenance=provenance)

    def _tool_failed(self, call: ToolCall, exc: Exception, coercions: list[str]) -> ToolResult:
        message = f"tool {call.name!r} failed: {type(exc).__name__}: {exc}"
        result = self._failed(call, ToolErrorKind.tool_error, message)
        result.coercions = coercions
        result.provenance = self._tools[call.name].origin_of(exc)
        if isinstance(exc, ToolRefusal):
            result.finders, result.retry = list(exc.finders), exc.retry
        result.detail = (exc.detail if isinstance(exc, ToolRefusal)
                         else str(exc) if isinstance(exc, ValueError) else message)
        return result

    def _failed(self, call: ToolCall, kind: ToolErrorKind, message: str) -> ToolResult:
        content = truncate("Error: " + message, self.max_content_chars)
        return ToolResult(call_id=call.id, name=call.name, ok=False, content=content,
                          error_kind=kind, error=message)


def _run_coroutine(awaitable: Any) -> Any:
    """Run an awaitable to completion from sync code, inside a running loop or not."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_await(awaitable))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _await(awaitable)).result()


async def _await(awaitable: Any) -> Any:
    return await awaitable
