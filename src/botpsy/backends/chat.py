"""FormattedChatModel: a local TextBackend + a ChatFormat = a ChatModel.

This is where device timings are taken (time to first token, prefill and decode
speed), because only here do we see both the prompt and the token stream.
``tool_choice`` "required" or a tool name is enforced by the format's GBNF call
grammar on backends that support grammars (llama.cpp), and by forcing the call
opener into the prompt elsewhere.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from botpsy.backends.base import GenerationStats, TextBackend
from botpsy.formats.base import ChatFormat
from botpsy.formats.grammar import json_grammar
from botpsy.types import (
    Completion,
    GenerationParams,
    Message,
    ParseResult,
    StreamEvent,
    Timings,
    ToolSpec,
    Usage,
)

# What llama-cpp-python's schema converter raises on a schema it cannot hold: the
# caller's input, so it becomes a ValueError (a 400), not a model failure.
_CONVERTER_ERRORS = (AttributeError, KeyError, TypeError, RecursionError, NotImplementedError)


def _forced_tools(tools: list[ToolSpec], choice: str) -> list[ToolSpec] | None:
    """The tools a call must be made to, or None when the call is optional."""
    if choice in ("auto", "none") or not tools:
        return None
    if choice == "required":
        return tools
    named = [spec for spec in tools if spec.name == choice]
    if not named:
        known = ", ".join(spec.name for spec in tools)
        raise ValueError(f"tool_choice names {choice!r}, which is not among the tools [{known}]")
    return named


def make_timings(stats: GenerationStats, ttft: float | None, total: float) -> Timings:
    """Timings from one generation; speeds are None when there is nothing to divide."""
    evaluated = stats.prompt_tokens - stats.cached_tokens
    prefill = stats.prompt_eval_s if stats.prompt_eval_s is not None else ttft
    decode_s = total - ttft if ttft is not None else None
    return Timings(
        ttft_s=ttft,
        prefill_tok_s=evaluated / prefill if prefill and evaluated > 0 else None,
        decode_tok_s=(stats.completion_tokens - 1) / decode_s
        if decode_s and stats.completion_tokens > 1
        else None,
        total_s=total,
    )


def _finish_reason(result: ParseResult, stats: GenerationStats) -> str:
    """"length" whenever the token budget cut the output, calls or not: a client must
    know that a call may be missing or half-written (its text stays in ``content``)."""
    if stats.finish_reason == "length":
        return "length"
    return "tool_calls" if result.tool_calls else "stop"


class JsonAnswer:
    """The stream parser of a structured (JSON) answer: all of it is content."""

    def __init__(self) -> None:
        self._text: list[str] = []

    def feed(self, text: str) -> list[StreamEvent]:
        self._text.append(text)
        return [StreamEvent(type="text", text=text)] if text else []

    def flush(self) -> list[StreamEvent]:
        return []

    def finish(self) -> ParseResult:
        return ParseResult(content="".join(self._text))


class FormattedChatModel:
    """ChatModel over a local text backend with an explicit chat format."""

    def __init__(self, backend: TextBackend, fmt: ChatFormat, *, name: str | None = None):
        self.backend = backend
        self.format = fmt
        self.name = name or backend.name
        self.source: str | None = None  # what was loaded (model_files.model_source)

    @property
    def concurrency(self) -> int:
        """How many threads may call this model at once (the backend's slots; 1 for most)."""
        return getattr(self.backend, "concurrency", 1)

    def _supports_grammar(self) -> bool:
        return getattr(self.backend, "supports_grammar", True) and hasattr(self.format, "call_grammar")

    def _json_grammar(self, params: GenerationParams) -> str | None:
        """The grammar of a JSON answer (``params.json_schema``), or None when free."""
        if params.json_schema is None:
            return None
        if not getattr(self.backend, "supports_grammar", True):
            raise ValueError(f"{self.name} cannot enforce a JSON response format (no grammar)")
        try:
            return json_grammar(params.json_schema)
        except _CONVERTER_ERRORS as exc:
            raise ValueError(
                f"the response format's JSON schema is beyond the grammar ({exc})"
            ) from None

    def _call_grammar(self, forced: list[ToolSpec], params: GenerationParams) -> str:
        """The forced call's grammar; a schema the converter cannot read is the caller's
        bad input (a ValueError naming the tools), not a model failure."""
        try:
            return self.format.call_grammar(forced, params.tool_choice, params.parallel_tool_calls)
        except _CONVERTER_ERRORS as exc:
            names = ", ".join(spec.name for spec in forced)
            raise ValueError(
                f"cannot force a call of {names}: its parameter schema is beyond the call "
                f"grammar ({type(exc).__name__}: {exc})"
            ) from None

    def _shown(self, tools: list[ToolSpec], params: GenerationParams) -> list[ToolSpec]:
        """The tools the prompt renders: ``tools``, after ``params.prompt_tools`` when a
        grammar holds the forced call to ``tools`` (so the prompt's start is the one an
        earlier call of the turn evaluated)."""
        earlier = params.prompt_tools
        if not earlier or not tools or params.tool_choice in ("auto", "none") \
                or not self._supports_grammar():
            return tools
        names = {spec.name for spec in earlier}
        return [*earlier, *(spec for spec in tools if spec.name not in names)]

    def _prepare(
        self, messages: list[Message], tools: list[ToolSpec], params: GenerationParams,
        shown: list[ToolSpec] | None = None,
    ) -> tuple[str, str | None, str]:
        """Prompt, grammar and forced prefix for a request (``tools``: those a call may be
        made to; ``shown``: those the prompt renders, ``tools`` unless said)."""
        prompt = self.format.render(messages, (tools if shown is None else shown) or None)
        held = {spec.name: spec for spec in params.grammar_tools or []}
        forced = _forced_tools([held.get(spec.name, spec) for spec in tools], params.tool_choice)
        if forced is None:
            return prompt, self._json_grammar(params), ""
        if self._supports_grammar():
            return prompt, self._call_grammar(forced, params), ""
        prefix = self.format.call_prefix()
        return prompt + prefix, None, prefix

    def _prime(self, prompt: str, messages: list[Message], tools: list[ToolSpec]) -> None:
        """Let a backend that can (llama.cpp) load or keep the KV state of the prompt's fixed
        start, the leading system turn with the tools: a new process then need not
        evaluate it again (``botpsy.backends.state_cache``)."""
        prime = getattr(self.backend, "prime", None)
        system = [m for m in messages[:1] if m.role == "system"]
        if prime is not None and (system or tools):
            start = self.format.render(system, tools or None, add_generation_prompt=False)
            if prompt.startswith(start):
                prime(start)

    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        params: GenerationParams | None = None,
    ) -> Iterator[StreamEvent]:
        params = params or GenerationParams()
        visible = [] if params.tool_choice == "none" else list(tools or [])
        shown = self._shown(visible, params)
        prompt, grammar, prefix = self._prepare(messages, visible, params, shown)
        self._prime(prompt, messages, shown)
        run = params.model_copy(update={"stop": [*params.stop, *self.format.stop_sequences()]})
        # a JSON answer (no forced call) is content as written: no call is read out of it
        json_answer = params.json_schema is not None and params.tool_choice in ("auto", "none")
        parser = JsonAnswer() if json_answer else self.format.stream_parser(visible or None)
        start, ttft = time.perf_counter(), None
        raw = prefix
        if prefix:
            yield from parser.feed(prefix)
        for chunk in self.backend.generate(prompt, run, grammar):
            if ttft is None:
                ttft = time.perf_counter() - start
            raw += chunk.text
            yield from parser.feed(chunk.text)
        total = time.perf_counter() - start
        yield from parser.flush()  # text held back in case it began a tag
        result = parser.finish()
        stats = self.backend.last_stats
        completion = Completion(
            content=result.content,
            tool_calls=result.tool_calls,
            reasoning=result.reasoning,
            usage=Usage(
                prompt_tokens=stats.prompt_tokens,
                completion_tokens=stats.completion_tokens,
                cached_tokens=stats.cached_tokens,
            ),
            timings=make_timings(stats, ttft, total),
            parse_errors=result.errors,
            raw=raw,
            finish_reason=_finish_reason(result, stats),
            model=self.name,
        )
        yield StreamEvent(type="done", completion=completion)

    def complete(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        params: GenerationParams | None = None,
    ) -> Completion:
        for event in self.stream(messages, tools, params):
            if event.type == "done" and event.completion is not None:
                return event.completion
        raise RuntimeError("generation ended without a completion")  # unreachable by construction
