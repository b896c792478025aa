"""ChatModel over any OpenAI-compatible endpoint (vLLM, llama-server, Ollama, botpsy serve).

Native ``tool_calls`` are used when the server returns them; when a server has no
tool parser for the model and returns calls as text, the text is parsed with a
botpsy format, so a call is never lost either way.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx

from botpsy.formats import get_format
from botpsy.types import (
    Completion,
    GenerationParams,
    Message,
    ParseError,
    ParseErrorKind,
    StreamEvent,
    Timings,
    ToolCall,
    ToolSpec,
    Usage,
)


class EndpointError(RuntimeError):
    """The endpoint answered with an error or something that is not a chat completion."""


def _tool_choice(choice: str) -> Any:
    if choice in ("auto", "none", "required"):
        return choice
    return {"type": "function", "function": {"name": choice}}


def calls_from_openai(raw_calls: list[dict[str, Any]]) -> tuple[list[ToolCall], list[ParseError]]:
    """ToolCalls from OpenAI ``tool_calls``; undecodable arguments become parse errors."""
    calls: list[ToolCall] = []
    errors: list[ParseError] = []
    for raw in raw_calls:
        function = raw.get("function") or {}
        name, arguments = function.get("name"), function.get("arguments") or "{}"
        if not name:
            errors.append(ParseError(kind=ParseErrorKind.missing_name, message="tool call without a name", raw=json.dumps(raw)))
            continue
        try:
            args = json.loads(arguments) if isinstance(arguments, str) else arguments
        except json.JSONDecodeError as exc:
            errors.append(ParseError(kind=ParseErrorKind.invalid_json, message=f"arguments of {name}: {exc.msg}", raw=arguments))
            continue
        if not isinstance(args, dict):
            errors.append(ParseError(kind=ParseErrorKind.bad_arguments, message=f"arguments of {name} are not an object", raw=str(arguments)))
            continue
        calls.append(ToolCall(name=name, arguments=args, id=raw.get("id") or ToolCall(name=name).id))
    return calls, errors


class OpenAIChatModel:
    """A ChatModel speaking the OpenAI chat-completions protocol over HTTP."""

    # httpx clients are thread-safe; how many requests the server runs at once is its business.
    concurrency = 64

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        fmt: str | None = None,
        timeout: float = 120.0,
        client: httpx.Client | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.name = model
        self.source: str | None = None  # what was loaded (model_files.model_source)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = client or httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout)
        self._fallback_format = fmt or "hermes"

    def _payload(self, messages, tools, params: GenerationParams, stream: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.name,
            "messages": [m.to_openai() for m in messages],
            "max_tokens": params.max_tokens,
            "temperature": params.temperature,
            "top_p": params.top_p,
            "stream": stream,
        }
        if params.stop:
            body["stop"] = params.stop
        if params.seed is not None:
            body["seed"] = params.seed
        if tools:
            body["tools"] = [spec.to_openai() for spec in tools]
            body["tool_choice"] = _tool_choice(params.tool_choice)
            body["parallel_tool_calls"] = params.parallel_tool_calls
        if params.json_schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": params.json_schema},
            }
        if stream:
            body["stream_options"] = {"include_usage": True}
        return body

    def _text_calls(self, content: str) -> tuple[str, list[ToolCall], str | None, list[ParseError]]:
        """Parse calls that a server left in the text."""
        result = get_format(self._fallback_format).parse(content)
        return result.content, result.tool_calls, result.reasoning, result.errors

    def _completion(self, message: dict, usage: dict, finish: str | None, timings: Timings, raw: str) -> Completion:
        calls, errors = calls_from_openai(message.get("tool_calls") or [])
        content, reasoning = message.get("content") or "", message.get("reasoning_content")
        if not calls and content:
            content, calls, parsed_reasoning, text_errors = self._text_calls(content)
            reasoning = reasoning or parsed_reasoning
            errors += text_errors
        return Completion(
            content=content,
            tool_calls=calls,
            reasoning=reasoning,
            usage=Usage(
                prompt_tokens=usage.get("prompt_tokens", 0),
                completion_tokens=usage.get("completion_tokens", 0),
                cached_tokens=(usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0,
            ),
            timings=timings,
            parse_errors=errors,
            raw=raw,
            finish_reason="tool_calls" if calls else ("length" if finish == "length" else "stop"),
            model=self.name,
        )

    def complete(self, messages: list[Message], tools: list[ToolSpec] | None = None, params: GenerationParams | None = None) -> Completion:
        params = params or GenerationParams()
        start = time.perf_counter()
        response = self.client.post("/chat/completions", json=self._payload(messages, tools, params, False))
        total = time.perf_counter() - start
        data = self._json(response)
        try:
            choice = data["choices"][0]
        except (KeyError, IndexError, TypeError) as exc:
            raise EndpointError(f"{self.base_url}: answer has no choices: {str(data)[:300]}") from exc
        return self._completion(choice.get("message") or {}, data.get("usage") or {}, choice.get("finish_reason"), Timings(total_s=total), response.text)

    def _json(self, response: httpx.Response) -> dict:
        if response.status_code >= 400:
            raise EndpointError(f"{self.base_url}: HTTP {response.status_code}: {response.text[:300]}")
        try:
            return response.json()
        except json.JSONDecodeError as exc:
            raise EndpointError(f"{self.base_url}: answer is not JSON: {response.text[:300]}") from exc

    def stream(self, messages: list[Message], tools: list[ToolSpec] | None = None, params: GenerationParams | None = None) -> Iterator[StreamEvent]:
        params = params or GenerationParams()
        start, ttft = time.perf_counter(), None
        state = _StreamState()
        with self.client.stream("POST", "/chat/completions", json=self._payload(messages, tools, params, True)) as response:
            if response.status_code >= 400:
                response.read()
                raise EndpointError(f"{self.base_url}: HTTP {response.status_code}: {response.text[:300]}")
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                payload = line[5:].strip()
                if payload == "[DONE]":
                    break
                text = state.add(json.loads(payload))
                if text:
                    ttft = ttft if ttft is not None else time.perf_counter() - start
                    yield StreamEvent(type="text", text=text)
        total = time.perf_counter() - start
        completion = self._completion(state.message(), state.usage, state.finish, Timings(ttft_s=ttft, total_s=total), state.content)
        for call in completion.tool_calls:
            yield StreamEvent(type="tool_call", tool_call=call)
        yield StreamEvent(type="done", completion=completion)


class _StreamState:
    """Accumulates SSE chunks: text, tool-call deltas (by index), usage, finish reason."""

    def __init__(self) -> None:
        self.content = ""
        self.calls: dict[int, dict[str, Any]] = {}
        self.usage: dict = {}
        self.finish: str | None = None

    def add(self, chunk: dict) -> str:
        self.usage = chunk.get("usage") or self.usage
        text = ""
        for choice in chunk.get("choices") or []:
            self.finish = choice.get("finish_reason") or self.finish
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            for part in delta.get("tool_calls") or []:
                slot = self.calls.setdefault(part.get("index", 0), {"id": None, "function": {"name": "", "arguments": ""}})
                slot["id"] = part.get("id") or slot["id"]
                function = part.get("function") or {}
                slot["function"]["name"] += function.get("name") or ""
                slot["function"]["arguments"] += function.get("arguments") or ""
        self.content += text
        return text

    def message(self) -> dict[str, Any]:
        return {"content": self.content, "tool_calls": [self.calls[i] for i in sorted(self.calls)]}
