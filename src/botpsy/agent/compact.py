"""Shorter prompts when a long turn outgrows the model's context window.

Tool results (an inbox listing, a calendar week, a file) fill a 4096-token
context in a few rounds. When the backend says the prompt does not fit, the
agent asks again with older tool results cut down, then with every tool result
cut down, then without the conversation's earlier turns, rather than ending the
turn with a model error (an earlier oversized message would otherwise break
every later turn of its session).

Only the prompt sent to the model is shortened: the turn's own messages keep
every tool result in full, because the safety layer's taint tracking matches
call arguments against all untrusted text seen so far, and an instruction
injected in an early result must stay visible to it.
"""

from __future__ import annotations

from collections.abc import Iterator

from botpsy.types import Message

# Characters each tool result keeps, tried in order: older results first, then all of them.
LEVELS: tuple[tuple[int, bool], ...] = ((600, False), (200, False), (200, True), (60, True))


def _latest_round_start(messages: list[Message]) -> int:
    """Index just after the last assistant message that made tool calls."""
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].role == "assistant" and messages[index].tool_calls:
            return index + 1
    return len(messages)


def _cut(message: Message, keep: int) -> Message:
    text = message.content or ""
    if len(text) <= keep:
        return message
    note = f" [... {len(text) - keep} more characters cut to fit the context window]"
    return message.model_copy(update={"content": text[:keep] + note})


def compact_tool_results(messages: list[Message], keep: int, latest_too: bool) -> list[Message]:
    """A copy of ``messages`` whose tool results keep ``keep`` characters each; those of the
    latest round stay whole unless ``latest_too``."""
    latest = len(messages) if latest_too else _latest_round_start(messages)
    return [
        _cut(m, keep) if m.role == "tool" and index < latest else m
        for index, m in enumerate(messages)
    ]


def compactions(messages: list[Message], turn_start: int = 0) -> Iterator[list[Message]]:
    """The shortened versions to try, mildest first, leaving out those that change nothing;
    the last keeps only the current turn (from ``turn_start``), its tool results cut.
    Lazy: a prompt that fits never pays for copying its tool results."""
    previous = messages
    for keep, latest_too in LEVELS:
        shorter = compact_tool_results(messages, keep, latest_too)
        if shorter != previous:
            yield shorter
            previous = shorter
    if turn_start > 0:
        keep, latest_too = LEVELS[-1]
        yield compact_tool_results(messages[turn_start:], keep, latest_too)
