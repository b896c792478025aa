"""Low-level text scanning shared by the call decoders: bracket balance and code fences.

Model output is scanned before it is parsed, to find where a call ends (or that
it has not ended yet, while streaming). The scan knows JSON and Python string
literals (both quote styles) so that brackets inside strings do not count.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

# A string literal (closed, or running to the end of the scanned range) or one bracket.
_TOKEN = re.compile(
    r"\"(?:\\.|[^\"\\])*(\")?|'(?:\\.|[^'\\])*(')?|[\[\]{}()]",
    re.DOTALL,
)
_PAIRS = {"]": "[", "}": "{", ")": "("}
_CLOSERS = {"[": "]", "{": "}", "(": ")"}

FENCE = "```"
_FENCE_OPEN = re.compile(r"```[A-Za-z_]*[ \t]*\n?")
_FENCED = re.compile(r"\A\s*```[A-Za-z_]*[ \t]*\n?(.*?)\n?[ \t]*(?:```\s*)?\Z", re.DOTALL)


@dataclass(frozen=True)
class Balance:
    """Where the bracket opened at the scan start closes.

    ``end`` is the index just past the matching closer, or None when it is still
    open at ``stop``; then ``open_stack`` lists the brackets left open
    (outermost first) and ``in_string`` says whether the scan ended inside a
    string literal.
    """

    end: int | None
    open_stack: str = ""
    in_string: bool = False

    def closers(self) -> str:
        """The text that would close every bracket left open."""
        return "".join(_CLOSERS[b] for b in reversed(self.open_stack))


def balance(text: str, start: int, stop: int) -> Balance:
    """Scan ``text[start:stop]`` (which starts at a bracket) for the matching closer.

    A closer that does not match the innermost open bracket is ignored, as small
    models sometimes write one brace too many; the scan stays lenient.
    """
    stack: list[str] = []
    for match in _TOKEN.finditer(text, start, stop):
        token = match.group()
        if token[0] in "\"'":
            if match.group(1) is None and match.group(2) is None:
                return Balance(None, "".join(stack), in_string=True)
            continue
        if token in _CLOSERS:
            stack.append(token)
        elif stack and stack[-1] == _PAIRS[token]:
            stack.pop()
            if not stack:
                return Balance(match.end())
    return Balance(None, "".join(stack))


def fence_body_start(text: str, start: int, stop: int) -> int | None:
    """Index just after a code-fence opener (```` ```json ```` and newline) at ``start``,
    or None when the opener is not complete within ``stop``."""
    match = _FENCE_OPEN.match(text, start, stop)
    if match is None or match.end() == stop:
        return None
    return match.end()


def strip_fences(text: str) -> str:
    """The inside of a fenced block (closing fence optional); other text as is."""
    match = _FENCED.match(text)
    return match.group(1) if match else text


def closing_fence_end(text: str, pos: int, stop: int, final: bool) -> int | None:
    """End of an optional closing fence after ``pos`` (whitespace allowed before it).

    Returns ``pos`` when there is no closing fence, the end of the fence when
    there is one, and None when more text is needed to tell.
    """
    rest = text[pos:stop]
    stripped = rest.lstrip()
    if stripped.startswith(FENCE):
        return pos + len(rest) - len(stripped) + len(FENCE)
    if not final and FENCE.startswith(stripped):
        return None
    return pos


# "<" where it would start a chat marker inside a JSON string ("</tool_call>",
# "<|im_end|>", "<tool_call>", "<think>", "<function=", "<parameter="): written as
# the JSON escape \u003c so the text reads back the same but never closes a block.
_MARKUP_START = re.compile(r"<(?=[/|]|tool_call>|tool_response>|think>|function=|parameter=)")


def json_text(value: object) -> str:
    """``value`` as JSON (non-ASCII kept) that cannot end or open a chat block."""
    return _MARKUP_START.sub(r"\\u003c", json.dumps(value, ensure_ascii=False))
