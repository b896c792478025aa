"""Backend protocols: text generators and chat models.

Two levels, because local runtimes and HTTP endpoints differ: a ``TextBackend``
(llama.cpp, transformers, scripted) turns a prompt into tokens, and a
``ChatModel`` turns messages + tools into a parsed ``Completion``.
``FormattedChatModel`` (botpsy.backends.chat) joins a TextBackend with a
ChatFormat; the OpenAI backend is a ChatModel directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from botpsy.types import Completion, GenerationParams, Message, StreamEvent, ToolSpec


class ContextOverflowError(ValueError):
    """The prompt does not fit the model's context window (a caller may shorten it and retry)."""

    def __init__(self, prompt_tokens: int, n_ctx: int) -> None:
        super().__init__(
            f"prompt is {prompt_tokens} tokens, over the context window of {n_ctx}; "
            "shorten the conversation or raise n_ctx"
        )
        self.prompt_tokens = prompt_tokens
        self.n_ctx = n_ctx


@dataclass
class TextChunk:
    """A piece of generated text; ``n_tokens`` tokens produced it."""

    text: str
    n_tokens: int = 1


@dataclass
class GenerationStats:
    """What a text backend knows after a generation (filled at the end of a stream)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    prompt_eval_s: float | None = None
    finish_reason: str = "stop"


@runtime_checkable
class TextBackend(Protocol):
    """A local text generator."""

    name: str

    def generate(
        self, prompt: str, params: GenerationParams, grammar: str | None = None
    ) -> Iterator[TextChunk]:
        """Stream generated text for ``prompt``; ``grammar`` is an optional GBNF
        constraint. After the iterator ends, ``last_stats`` describes the run."""
        ...

    @property
    def last_stats(self) -> GenerationStats: ...

    def count_tokens(self, text: str) -> int: ...

    def format_hint(self) -> str | None:
        """The chat format this model's metadata suggests (e.g. from the GGUF
        chat template), or None when unknown."""
        ...


@runtime_checkable
class ChatModel(Protocol):
    """Messages and tools in, parsed completion out."""

    name: str

    def complete(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        params: GenerationParams | None = None,
    ) -> Completion: ...

    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        params: GenerationParams | None = None,
    ) -> Iterator[StreamEvent]:
        """Events as they come; the last one is ``done`` with the full Completion."""
        ...


def check_concurrency(model: ChatModel, parallel: int) -> None:
    """Refuse to call ``model`` from more threads than it serves at once (``concurrency``;
    a plain llama.cpp model serves one)."""
    served = getattr(model, "concurrency", 1)
    if parallel < 1 or parallel > served:
        raise ValueError(
            f"parallel={parallel}, but {model.name} serves {served} request(s) at a time; "
            "load it with load_chat_model(..., parallel=N) (CLI: --parallel N)"
        )
