"""The seam between the generic scanner and one call syntax (JSON, XML, Python).

The scanner (scan.py) finds call regions in model text; a ``CallSyntax`` says
where an untagged call may start, how far it reaches, and what calls a region
holds. Results are typed so that every failure carries a ParseErrorKind and the
text it came from.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from botpsy.types import ParseError, ParseErrorKind, ToolCall, ToolSpec

ToolIndex = Mapping[str, ToolSpec]


class ExtentKind(Enum):
    """What a syntax makes of a possible call start."""

    no = "no"  # not a call: the text is prose
    wait = "wait"  # cannot tell yet: hold the text back until more arrives
    span = "span"  # a call region from the start to ``Extent.end``


@dataclass(frozen=True)
class Extent:
    """How far an untagged call candidate reaches; ``closed`` is False when it
    runs to the end of the available text without its closing bracket/tag."""

    kind: ExtentKind
    end: int = 0
    closed: bool = False


NOT_A_CALL = Extent(ExtentKind.no)
NEED_MORE = Extent(ExtentKind.wait)


@dataclass(frozen=True)
class Region:
    """One stretch of model text that should hold calls.

    ``raw`` is the full text (tags included) that goes back into the content if
    nothing can be recovered; ``body`` is what lies inside the tags. ``closed``
    says the region ended as it should (closing tag / bracket); ``at_eof`` says it
    ran into the end of the output (max tokens) rather than an end-of-turn marker.
    """

    raw: str
    body: str
    tagged: bool
    closed: bool = True
    at_eof: bool = False

    @property
    def cut_off(self) -> bool:
        """The output ended inside this region: it may hold a half-written call."""
        return not self.closed and self.at_eof


@dataclass
class Decoded:
    """The calls a region yields, the errors met on the way, and the text to keep.

    ``leftover`` is text that goes back to the content (an unrecoverable call is
    never dropped). An untagged region that is simply not a call decodes to no
    calls, no errors, and its raw text as leftover.
    """

    calls: list[ToolCall] = field(default_factory=list)
    errors: list[ParseError] = field(default_factory=list)
    leftover: str = ""

    @property
    def is_call(self) -> bool:
        """Whether the region was call-like (recovered or reported)."""
        return bool(self.calls or self.errors)


@dataclass(frozen=True)
class CallOutcome:
    """One decoded call candidate: the call, or why it could not be made."""

    call: ToolCall | None = None
    error: ParseError | None = None


def parse_error(
    kind: ParseErrorKind, message: str, raw: str = "", *, recovered: bool = False
) -> ParseError:
    """A ParseError; a short helper because decoders raise many of them."""
    return ParseError(kind=kind, message=message, raw=raw, recovered=recovered)


def failure(region: Region, kind: ParseErrorKind, message: str) -> Decoded:
    """A region from which nothing could be recovered: the text stays in the content."""
    return Decoded(errors=[parse_error(kind, message, region.raw)], leftover=region.raw)


def not_a_call(region: Region) -> Decoded:
    """An untagged region that turned out to be prose."""
    return Decoded(leftover=region.raw)


def finish_decoded(region: Region, decoded: Decoded, *, primary: bool) -> Decoded:
    """Add the errors that depend on the region rather than on its body: a missing
    closer, and a missing opener for calls found outside the format's own
    syntax (``primary`` is True when an untagged region is the format's syntax)."""
    if not decoded.calls:
        return decoded
    if region.tagged and not region.closed:
        decoded.errors.append(
            parse_error(
                ParseErrorKind.unclosed_tag,
                "tool call without its closing tag",
                region.raw,
                recovered=True,
            )
        )
    if not region.tagged and not primary:
        decoded.errors.append(
            parse_error(
                ParseErrorKind.missing_opener,
                "tool call without its opening tag",
                region.raw,
                recovered=True,
            )
        )
    return decoded


class CallSyntax(Protocol):
    """How one family writes calls, as the scanner needs to know it."""

    #: where an untagged call may start (searched in prose outside tags)
    candidate_re: re.Pattern[str]
    #: multi-character starts whose partial prefix must be held back while streaming
    hold_prefixes: tuple[str, ...]
    #: tags that open a call (they also end a ``<think>`` the model forgot to close)
    call_openers: tuple[str, ...]

    def extent(self, text: str, start: int, stop: int, final: bool) -> Extent:
        """How far the candidate at ``start`` reaches within ``text[:stop]``;
        ``final`` means no more text will come before ``stop``."""
        ...

    def decode(self, region: Region, tools: ToolIndex | None) -> Decoded:
        """The calls in ``region``; ``tools`` (by name) give argument types when known."""
        ...
