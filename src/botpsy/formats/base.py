"""The ChatFormat protocol: how tools and messages become a prompt, and text becomes calls.

A format owns both directions so that training data, inference prompts and the
parser can never disagree about the text a model sees or writes.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from botpsy.types import Message, ParseResult, StreamEvent, ToolSpec


@runtime_checkable
class StreamParser(Protocol):
    """Incremental parser: feed text chunks as they are generated."""

    def feed(self, chunk: str) -> list[StreamEvent]:
        """Events (text / reasoning / tool_call) that became certain with this chunk."""
        ...

    def flush(self) -> list[StreamEvent]:
        """Events held back until the output is complete (text that might have
        begun a tag or a call); call it once generation ends, before ``finish``."""
        ...

    def finish(self) -> ParseResult:
        """The full parse of everything fed (same result as ``ChatFormat.parse``)."""
        ...


@runtime_checkable
class ChatFormat(Protocol):
    """A model family's chat and tool-call text format."""

    name: str

    def render(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        add_generation_prompt: bool = True,
    ) -> str:
        """The prompt text for ``messages`` with ``tools`` described in the system turn."""
        ...

    def render_assistant(self, message: Message) -> str:
        """The exact text the model should generate for an assistant message
        (content, reasoning and tool calls), ending with the end-of-turn marker.
        Training uses it as the target; ``parse`` inverts it."""
        ...

    def parse(self, text: str, tools: list[ToolSpec] | None = None) -> ParseResult:
        """Content, tool calls, reasoning and categorised errors from model text;
        ``tools`` (optional) give argument types where the text leaves them open."""
        ...

    def stream_parser(self, tools: list[ToolSpec] | None = None) -> StreamParser:
        """A fresh incremental parser for one generation."""
        ...

    def call_prefix(self) -> str:
        """The text that opens a tool call (e.g. ``<tool_call>``); used to force a call."""
        ...

    def stop_sequences(self) -> list[str]:
        """Strings that end an assistant turn."""
        ...


@runtime_checkable
class ConstrainedChatFormat(ChatFormat, Protocol):
    """A format that can also force a call by grammar-constrained decoding."""

    def call_grammar(self, tools: list[ToolSpec], tool_choice: str, parallel: bool = True) -> str:
        """A GBNF grammar (llama.cpp syntax) admitting only well-formed calls of
        ``tools`` (``tool_choice="required"``) or of the one tool it names,
        starting at the call opener; exactly one call unless ``parallel``."""
        ...
