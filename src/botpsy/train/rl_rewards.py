"""Reward functions for TRL's GRPOTrainer, all built on ``botpsy.rewards``.

- ``ToolCallReward``: partial credit for tool names, argument names and values
  (``score_calls``), 1 for correctly making no call when none is expected;
- ``FinalAnswerReward``: where the reference answers in text after tool output,
  the share of the tool-output facts it relays that the completion states too,
  less for a rambling answer, 0 for a pasted JSON echo (``botpsy.answers``);
  ``None`` (no say) for every other prompt;
- ``FormatReward``: 1 for clean call syntax, 0.5 when the parser had to repair
  it, 0 when it could not (``format_reward``);
- ``OverlongPenalty``: DAPO's soft overlong punishment, a function of the
  completion length only: 0 up to ``max_length - cache``, then falling linearly
  to -1 at ``max_length``.

TRL calls each with ``prompts``, ``completions``, ``completion_ids`` and every
dataset column as keyword lists (here: ``references`` and ``facts``, JSON lists per
row, and ``reference_chars``).
"""

from __future__ import annotations

import json
from typing import Any

from botpsy.answers import answer_score
from botpsy.formats import ChatFormat
from botpsy.rewards import RewardWeights, format_reward, is_text_answer, score_calls
from botpsy.train.sample import reference_from_json


def soft_overlong_penalty(length: int, max_length: int, cache: int) -> float:
    """DAPO's length penalty: 0, then a linear ramp over the last ``cache`` tokens, -1 beyond."""
    if cache <= 0 or cache > max_length:
        raise ValueError(
            f"overlong cache must be in (0, max_length], got {cache} (max_length {max_length})"
        )
    start = max_length - cache
    if length <= start:
        return 0.0
    if length <= max_length:
        return (start - length) / cache
    return -1.0


class ToolCallReward:
    """Partial-credit tool-call reward of each completion against its row's references."""

    __name__ = "tool_call"

    def __init__(self, fmt: ChatFormat, weights: RewardWeights | None = None) -> None:
        self.fmt = fmt
        self.weights = weights or RewardWeights()

    def __call__(self, completions: list[str], references: list[str], **_: Any) -> list[float]:
        rewards = []
        for text, refs in zip(completions, references, strict=True):
            parsed = self.fmt.parse(text)
            expected = [reference_from_json(r) for r in json.loads(refs)]
            parse_ok = format_reward(parsed) > 0
            if not expected and not is_text_answer(parsed):
                rewards.append(0.0)  # where no call is due, only a readable answer earns
                continue
            rewards.append(
                score_calls(
                    parsed.tool_calls, expected, parse_ok=parse_ok, weights=self.weights
                ).reward
            )
        return rewards


class FinalAnswerReward:
    """How much of what the tool returned a final text answer relays.

    Why: after tool output the call reward pays 1 for any text without a call, so RL
    had no reason to prefer "Bogota: light rain, 20 degrees." to "Done!". ``None``
    where the row has no facts (TRL then leaves this function out of that row's sum);
    0 when the completion makes a call instead of answering."""

    __name__ = "final_answer"

    def __init__(self, fmt: ChatFormat) -> None:
        self.fmt = fmt

    def __call__(
        self,
        completions: list[str],
        facts: list[str] | None = None,
        reference_chars: list[int] | None = None,
        **_: Any,
    ) -> list[float | None]:
        rewards: list[float | None] = []
        for index, text in enumerate(completions):
            wanted = json.loads(facts[index]) if facts else []
            if not wanted:
                rewards.append(None)
                continue
            parsed = self.fmt.parse(text)
            if parsed.tool_calls:
                rewards.append(0.0)
                continue
            limit = reference_chars[index] if reference_chars else 0
            rewards.append(answer_score(parsed.content, wanted, limit))
        return rewards


class FormatReward:
    """How clean the call syntax of each completion is."""

    __name__ = "format"

    def __init__(self, fmt: ChatFormat) -> None:
        self.fmt = fmt

    def __call__(self, completions: list[str], **_: Any) -> list[float]:
        """An empty completion has no syntax to be clean: 0, like a broken one."""
        rewards = []
        for text in completions:
            parsed = self.fmt.parse(text)
            empty = not parsed.tool_calls and not parsed.content.strip()
            rewards.append(0.0 if empty else format_reward(parsed))
        return rewards


class OverlongPenalty:
    """Soft overlong punishment on the number of generated tokens."""

    __name__ = "overlong"

    def __init__(self, max_length: int, cache: int) -> None:
        soft_overlong_penalty(0, max_length, cache)  # validate once, early
        self.max_length, self.cache = max_length, cache

    def __call__(self, completion_ids: list[list[int]], **_: Any) -> list[float]:
        return [
            soft_overlong_penalty(len(ids), self.max_length, self.cache) for ids in completion_ids
        ]
