"""Helpers for the server tests: scripted chat models, a slow backend, tool specs."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from botpsy.backends.base import GenerationStats, TextChunk
from botpsy.backends.cancel import GenerationCancelled, check_cancelled
from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.scripted import ScriptedBackend
from botpsy.formats import get_format
from botpsy.types import GenerationParams, Message, ToolCall

MODEL_NAME = "botpsy-test"
KEY = "test-key-0123456789abcdef"  # at least auth.MIN_API_KEY_CHARS long
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}


def call_text(name: str, **arguments) -> str:
    """The raw hermes text a model writes for one tool call."""
    message = Message(role="assistant", tool_calls=[ToolCall(name=name, arguments=arguments)])
    return get_format("hermes").render_assistant(message)


def scripted_model(outputs: list[str], name: str = MODEL_NAME) -> FormattedChatModel:
    return FormattedChatModel(ScriptedBackend(outputs), get_format("hermes"), name=name)


class SlowBackend:
    """A real TextBackend that writes its text slowly, one word at a time.

    It records how many chunks it produced and whether its generator was closed
    early, so tests can see that a timeout or a disconnect stopped generation."""

    name = "slow"

    def __init__(self, words: int = 400, delay: float = 0.02, prefill_chunks: int = 0) -> None:
        self.words = words
        self.delay = delay
        self.prefill_chunks = prefill_chunks  # slow prompt chunks before the first word
        self.produced = 0
        self.prefilled = 0
        self.closed_early = threading.Event()
        self.stopped_in_prefill = threading.Event()
        self.started = threading.Event()
        self._stats = GenerationStats()

    @property
    def last_stats(self) -> GenerationStats:
        return self._stats

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def format_hint(self) -> str | None:
        return None

    def generate(
        self, prompt: str, params: GenerationParams, grammar: str | None = None
    ) -> Iterator[TextChunk]:
        self.produced = self.prefilled = 0
        self.started.set()
        self._prefill()
        try:
            for index in range(self.words):
                time.sleep(self.delay)
                self.produced += 1
                yield TextChunk(f"w{index} ")
        except GeneratorExit:
            self.closed_early.set()
            raise
        self._stats = GenerationStats(prompt_tokens=1, completion_tokens=self.words)

    def _prefill(self) -> None:
        """Evaluate the prompt as llama.cpp does: chunk by chunk, checking for a cancel."""
        try:
            for _ in range(self.prefill_chunks):
                check_cancelled()
                time.sleep(self.delay)
                self.prefilled += 1
        except GenerationCancelled:
            self.stopped_in_prefill.set()
            raise


def sse_events(response) -> list[dict]:
    """The JSON ``data:`` payloads of a streamed httpx response, in order."""
    import json

    return [
        json.loads(line[len("data:") :])
        for line in response.iter_lines()
        if line.startswith("data:")
    ]
