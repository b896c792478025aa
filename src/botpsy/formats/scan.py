"""The resumable scanner that cuts model output into text, reasoning and call segments.

One scanner serves both ``parse`` (all text at once, ``final=True``) and the
stream parser (text so far, ``final=False``): a decision is only taken when no
later text can change it, and the scanner resumes where it stopped. That is why
a stream's ``finish()`` equals ``parse()`` for any chunking, and why a stream
never shows text that later turns out to be part of a tag: a possible partial
tag (``<tool_ca``) or an undecided call candidate (``{"na``) is held back.

Markers it knows for every format: ``<think>``/``</think>``, ``<tool_call>``/
``</tool_call>`` and the ChatML end markers; the ``CallSyntax`` adds where
untagged calls may start and decodes call regions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from botpsy.formats.calls import CallSyntax, Decoded, ExtentKind, Region, ToolIndex, parse_error
from botpsy.types import ParseError, ParseErrorKind, ToolCall

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
CALL_OPEN, CALL_CLOSE = "<tool_call>", "</tool_call>"
END_MARKERS = ("<|im_end|>", "<|endoftext|>", "<|im_start|>")
_MARKERS = re.compile("|".join(map(re.escape, (THINK_OPEN, THINK_CLOSE, CALL_OPEN, CALL_CLOSE))))
_ENDS = re.compile("|".join(map(re.escape, END_MARKERS)))
_MIN_CUT_TAG = 5  # "<tool" at the very end of the output: a call cut off by max tokens


class SegmentKind(Enum):
    text = "text"  # visible answer (also carries error-only notes)
    reasoning = "reasoning"
    call = "call"  # decoded calls; ``text`` holds what could not be recovered
    think_closed = "think_closed"  # ``</think>`` with no opener: what came before was reasoning


@dataclass(frozen=True)
class Segment:
    """A settled piece of output, in order."""

    kind: SegmentKind
    text: str = ""
    calls: tuple[ToolCall, ...] = ()
    errors: tuple[ParseError, ...] = ()
    opens_block: bool = False  # reasoning: the first piece of a new ``<think>`` block


@dataclass(frozen=True)
class _Window:
    """The part of the text the scanner may decide on now.

    ``stop`` is the first end marker or the end of the text; ``final`` says no
    more text will arrive before ``stop``; ``eof`` says ``stop`` is the end of the
    whole output (no end marker): a region open there was cut off.
    """

    text: str
    stop: int
    final: bool
    eof: bool


class _Mode(Enum):
    text = "text"
    think = "think"
    done = "done"


def held_back(text: str, pos: int, stop: int, prefixes: tuple[str, ...]) -> int:
    """Length of the longest tail of ``text[pos:stop]`` that could begin one of ``prefixes``."""
    best = 0
    for prefix in prefixes:
        for size in range(min(len(prefix) - 1, stop - pos), best, -1):
            if text.startswith(prefix[:size], stop - size):
                best = size
                break
    return best


class Scanner:
    """Cuts one generation into segments; call ``advance`` with the text so far."""

    def __init__(self, syntax: CallSyntax, tools: ToolIndex | None = None) -> None:
        self.syntax = syntax
        self.tools = tools
        self.pos = 0
        self._mode = _Mode.text
        self._think_seen = False  # a <think> or </think> appeared
        self._after_call = False  # the last significant output was a recovered call
        self._fresh_think = False
        self._text_holds = (
            THINK_OPEN,
            THINK_CLOSE,
            CALL_OPEN,
            CALL_CLOSE,
            *END_MARKERS,
            *syntax.hold_prefixes,
        )
        self._think_holds = (THINK_CLOSE, *syntax.call_openers, *END_MARKERS)
        self._out: list[Segment] = []

    def advance(self, text: str, final: bool) -> list[Segment]:
        """Segments settled by ``text`` (the whole output so far, a prefix of what
        follows); ``final`` when the output is complete."""
        self._out = []
        while self._mode is not _Mode.done:
            end = _ENDS.search(text, self.pos)
            stop = end.start() if end else len(text)
            self._run(_Window(text, stop, final or end is not None, final and end is None))
            if end is None or self.pos < stop:
                break
            self._mode, self.pos = _Mode.done, end.end()
        if self._mode is _Mode.done and final:
            self._trailing(text)
        return self._out

    def _run(self, w: _Window) -> None:
        while self._think_step(w) if self._mode is _Mode.think else self._text_step(w):
            pass

    # ------------------------------------------------------------ text mode

    def _text_step(self, w: _Window) -> bool:
        """Handle the next marker or call candidate; False when nothing more can be decided."""
        marker = _MARKERS.search(w.text, self.pos, w.stop)
        limit = marker.start() if marker else w.stop
        candidate = self.syntax.candidate_re.search(w.text, self.pos, limit)
        if candidate is not None:
            # a call may not reach into what may yet become a marker: streamed a character at
            # a time, 'f(x=1)<' read the "<" of a coming <tool_call> as part of the call and
            # lost it, where the whole text stops the call at the marker. A call that starts
            # in the held-back text (a "```" fence) is read as before.
            held = 0 if marker or w.final else held_back(w.text, self.pos, w.stop,
                                                          self._text_holds)
            if candidate.start() < limit - held:
                limit -= held
            return self._candidate(w, candidate.start(), marker, limit)
        if marker is not None:
            self._emit_text(w.text[self.pos : marker.start()])
            self.pos = marker.start()
            return self._marker(w, marker)
        end = w.stop if w.final else w.stop - held_back(w.text, self.pos, w.stop, self._text_holds)
        if w.eof:
            self._check_cut_tag(w.text[self.pos : end])
        self._emit_text(w.text[self.pos : end])
        self.pos = end
        return False

    def _candidate(self, w: _Window, start: int, marker: re.Match[str] | None,
                   limit: int) -> bool:
        """An untagged call candidate at ``start`` (it may not reach ``limit``: a marker, or
        the held-back start of one)."""
        final = w.final or marker is not None
        eof = w.eof and marker is None and limit == w.stop
        extent = self.syntax.extent(w.text, start, limit, final)
        if extent.kind is ExtentKind.no:
            self._emit_text(w.text[self.pos : start + 1])
            self.pos = start + 1
            return True
        self._emit_text(w.text[self.pos : start])
        self.pos = start
        if extent.kind is ExtentKind.wait:
            return False
        raw = w.text[start : extent.end]
        cut = eof and extent.end >= limit and not extent.closed
        region = Region(raw=raw, body=raw, tagged=False, closed=extent.closed, at_eof=cut)
        self._emit_call(self.syntax.decode(region, self.tools))
        self.pos = extent.end
        return True

    def _marker(self, w: _Window, marker: re.Match[str]) -> bool:
        tag = marker.group()
        if tag == CALL_OPEN:
            return self._tagged(w, marker)
        self.pos = marker.end()
        if tag == THINK_OPEN:
            self._mode, self._think_seen, self._fresh_think = _Mode.think, True, True
        elif tag == THINK_CLOSE and not self._think_seen:
            self._think_seen = True
            self._out.append(Segment(SegmentKind.think_closed))
        elif not (tag == CALL_CLOSE and self._after_call):  # a bare call's closer is expected
            self._out.append(
                Segment(
                    SegmentKind.text,
                    tag,
                    errors=(parse_error(ParseErrorKind.unexpected_text, f"stray {tag}", tag),),
                )
            )
        return True

    def _tagged(self, w: _Window, opener: re.Match[str]) -> bool:
        """A ``<tool_call>`` block: up to its closer, the next opener, or the end."""
        body_start = opener.end()
        close = w.text.find(CALL_CLOSE, body_start, w.stop)
        reopen = w.text.find(CALL_OPEN, body_start, w.stop)
        if close >= 0 and (reopen < 0 or close < reopen):
            body_end, end, closed = close, close + len(CALL_CLOSE), True
        elif reopen >= 0 or w.final:
            body_end = end = reopen if reopen >= 0 else w.stop
            closed = False
        else:
            return False
        body = w.text[body_start:body_end]
        self.pos = end
        if not closed and not body.strip() and self._after_call:
            return True  # an opener written where the closer belongs
        region = Region(
            raw=w.text[opener.start() : end],
            body=body,
            tagged=True,
            closed=closed,
            at_eof=w.eof and not closed and end == w.stop,
        )
        self._emit_call(self.syntax.decode(region, self.tools))
        return True

    # ------------------------------------------------------------ think mode

    def _think_step(self, w: _Window) -> bool:
        """Reasoning up to ``</think>``; a call opener ends a ``<think>`` never closed."""
        close = w.text.find(THINK_CLOSE, self.pos, w.stop)
        exits = [
            i
            for i in (
                w.text.find(o, self.pos, close if close >= 0 else w.stop)
                for o in self.syntax.call_openers
            )
            if i >= 0
        ]
        exit_at = min(exits) if exits else None
        if close >= 0:
            self._emit_reasoning(w.text[self.pos : close])
            self.pos, self._mode = close + len(THINK_CLOSE), _Mode.text
            return True
        if w.final and exit_at is not None:
            self._emit_reasoning(
                w.text[self.pos : exit_at],
                parse_error(
                    ParseErrorKind.unclosed_tag,
                    "<think> not closed before a tool call",
                    THINK_OPEN,
                    recovered=True,
                ),
            )
            self.pos, self._mode = exit_at, _Mode.text
            return True
        if w.final:
            end = w.stop
        elif exit_at is not None:
            end = exit_at
        else:
            end = w.stop - held_back(w.text, self.pos, w.stop, self._think_holds)
        self._emit_reasoning(w.text[self.pos : end])
        self.pos = end
        return False

    # ------------------------------------------------------------ output

    def _emit_text(self, text: str) -> None:
        if text:
            self._out.append(Segment(SegmentKind.text, text))
            if text.strip():
                self._after_call = False

    def _emit_reasoning(self, text: str, *errors: ParseError) -> None:
        if text or errors or self._fresh_think:
            self._out.append(
                Segment(SegmentKind.reasoning, text, errors=errors, opens_block=self._fresh_think)
            )
            self._fresh_think = False

    def _emit_call(self, decoded: Decoded) -> None:
        if not decoded.is_call:
            self._emit_text(decoded.leftover)
            return
        self._out.append(
            Segment(SegmentKind.call, decoded.leftover, tuple(decoded.calls), tuple(decoded.errors))
        )
        self._after_call = bool(decoded.calls)

    def _check_cut_tag(self, tail: str) -> None:
        """Report output that ends in the middle of a call opener (``...<tool_ca``)."""
        for opener in self.syntax.call_openers:
            size = held_back(tail, 0, len(tail), (opener,))
            if size >= _MIN_CUT_TAG:
                self._out.append(
                    Segment(
                        SegmentKind.text,
                        errors=(
                            parse_error(
                                ParseErrorKind.truncated,
                                "output ended inside a tool call opener",
                                tail[-size:],
                            ),
                        ),
                    )
                )
                return

    def _trailing(self, text: str) -> None:
        rest, self.pos = text[self.pos :], len(text)
        if rest.strip():
            self._out.append(
                Segment(
                    SegmentKind.text,
                    errors=(
                        parse_error(
                            ParseErrorKind.unexpected_text,
                            "text after the end-of-turn marker ignored",
                            rest,
                        ),
                    ),
                )
            )
