"""Turning scanner segments into a ParseResult, all at once or as a stream of events.

``parse_text`` and ``SegmentStreamParser`` share the scanner and the assembler,
so ``finish()`` after any chunking gives what ``parse_text`` gives for the whole
text. Whitespace is trimmed the way a reader expects (no leading or trailing
blanks around the answer or the reasoning); a stream delays trailing blanks until
more text follows, so the concatenated ``text`` events equal the final content.

One deliberate exception: a ``</think>`` without an opener (the prompt opened the
thinking) turns the content so far into reasoning; a stream has already shown
that text as ``text`` events and cannot take them back.
"""

from __future__ import annotations

from botpsy.formats.calls import CallSyntax, ToolIndex
from botpsy.formats.scan import Scanner, Segment, SegmentKind
from botpsy.types import ParseError, ParseResult, StreamEvent, ToolCall, ToolSpec


class _TrimmedText:
    """Text with leading blanks dropped and trailing blanks held until text follows."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pending = ""

    @property
    def started(self) -> bool:
        return bool(self.parts)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def add(self, piece: str) -> str:
        """Append ``piece``; returns what became visible."""
        body = piece.rstrip()
        if not body.strip():
            if self.started:
                self.pending += piece
            return ""
        if not self.started:
            body = body.lstrip()
        visible = (self.pending if self.started else "") + body
        self.pending = piece[len(piece.rstrip()) :]
        self.parts.append(visible)
        return visible

    def separate(self) -> None:
        """Start a new paragraph (a second ``<think>`` block)."""
        if self.started and "\n" not in self.pending:
            self.pending += "\n"


class Assembler:
    """Collects segments into content, reasoning, calls and errors."""

    def __init__(self) -> None:
        self.content = _TrimmedText()
        self.reasoning = _TrimmedText()
        self.has_reasoning = False
        self.calls: list[ToolCall] = []
        self.errors: list[ParseError] = []

    def add(self, segments: list[Segment]) -> list[StreamEvent]:
        """Take ``segments`` in; returns the stream events they make visible."""
        events: list[StreamEvent] = []
        for segment in segments:
            self.errors.extend(segment.errors)
            if segment.kind is SegmentKind.reasoning:
                self.has_reasoning = True
                if segment.opens_block:
                    self.reasoning.separate()
                piece = self.reasoning.add(segment.text)
                if piece:
                    events.append(StreamEvent(type="reasoning", text=piece))
            elif segment.kind is SegmentKind.think_closed:
                self._content_was_reasoning()
            else:
                piece = self.content.add(segment.text)
                if piece:
                    events.append(StreamEvent(type="text", text=piece))
                for call in segment.calls:
                    self.calls.append(call)
                    events.append(StreamEvent(type="tool_call", tool_call=call))
        return events

    def _content_was_reasoning(self) -> None:
        self.has_reasoning = True
        self.reasoning.add(self.content.text)
        self.content = _TrimmedText()

    def result(self) -> ParseResult:
        return ParseResult(
            content=self.content.text,
            tool_calls=list(self.calls),
            reasoning=self.reasoning.text if self.has_reasoning else None,
            errors=list(self.errors),
        )


def tool_index(tools: list[ToolSpec] | None) -> ToolIndex | None:
    """Tools by name, as the decoders look them up."""
    return {spec.name: spec for spec in tools} if tools else None


def parse_text(syntax: CallSyntax, text: str, tools: list[ToolSpec] | None = None) -> ParseResult:
    """The full parse of one finished output."""
    assembler = Assembler()
    assembler.add(Scanner(syntax, tool_index(tools)).advance(text, final=True))
    return assembler.result()


class SegmentStreamParser:
    """The StreamParser of every format: feed chunks, get events, then ``finish()``."""

    def __init__(self, syntax: CallSyntax, tools: list[ToolSpec] | None = None) -> None:
        self._scanner = Scanner(syntax, tool_index(tools))
        self._assembler = Assembler()
        self._text = ""
        self._result: ParseResult | None = None

    def feed(self, chunk: str) -> list[StreamEvent]:
        if self._result is not None:
            raise RuntimeError("feed() after finish(): start a new stream_parser()")
        self._text += chunk
        return self._assembler.add(self._scanner.advance(self._text, final=False))

    def flush(self) -> list[StreamEvent]:
        """The events held back until the end of the output (text that might have
        been the start of a tag or a call); ends the stream."""
        if self._result is not None:
            return []
        events = self._assembler.add(self._scanner.advance(self._text, final=True))
        self._result = self._assembler.result()
        return events

    def finish(self) -> ParseResult:
        self.flush()
        assert self._result is not None  # set by flush()
        return self._result
