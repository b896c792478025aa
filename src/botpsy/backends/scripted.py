"""Scripted backend: replays recorded model outputs, one raw text per call.

For tests of everything above the model (agent loop, safety, server, evals) and
for anyone reproducing a trace: a JSONL file holds one output per line, either a
JSON string or an object with a ``text`` field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from botpsy.backends.base import GenerationStats, TextChunk
from botpsy.types import GenerationParams


class ScriptExhaustedError(RuntimeError):
    """The script has no output left for another generation."""


def load_script(path: str | Path) -> list[str]:
    """Outputs from a JSONL script; a bad line is reported with its number."""
    outputs: list[str] = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: not JSON ({exc.msg})") from exc
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            item = item["text"]
        if not isinstance(item, str):
            # a bad line of the file, reported like the unparsable one above (one error type)
            raise ValueError(f'{path}:{number}: expected a JSON string or {{"text": ...}}')  # noqa: TRY004
        outputs.append(item)
    return outputs


class ScriptedBackend:
    """A TextBackend that returns the next scripted output for each prompt.

    ``prompts`` records every prompt it was given, so tests can assert on what the
    model would have seen (tools rendered, untrusted data delimited...).
    """

    def __init__(self, outputs: list[str] | str | Path, *, name: str = "scripted", chunk_size: int = 4):
        self.outputs = list(outputs) if isinstance(outputs, list) else load_script(outputs)
        self.name = name
        self.prompts: list[str] = []
        self.grammars: list[str | None] = []
        self._next = 0
        self._chunk = max(1, chunk_size)
        self._stats = GenerationStats()

    @property
    def last_stats(self) -> GenerationStats:
        return self._stats

    @property
    def remaining(self) -> int:
        return len(self.outputs) - self._next

    def count_tokens(self, text: str) -> int:
        """A rough whitespace count: scripted runs have no tokenizer."""
        return len(text.split())

    def format_hint(self) -> str | None:
        return None

    def generate(
        self, prompt: str, params: GenerationParams, grammar: str | None = None
    ) -> Iterator[TextChunk]:
        if self._next >= len(self.outputs):
            raise ScriptExhaustedError(
                f"scripted backend has no output left (used all {len(self.outputs)})"
            )
        text = self.outputs[self._next]
        self._next += 1
        self.prompts.append(prompt)
        self.grammars.append(grammar)
        words = self.count_tokens(text)
        self._stats = GenerationStats(
            prompt_tokens=self.count_tokens(prompt),
            completion_tokens=words,
            prompt_eval_s=0.0,
            # a script as long as the budget reads as cut there, as a model's would
            finish_reason="length" if words >= params.max_tokens else "stop",
        )
        # Small chunks exercise the streaming parsers the way a real model does.
        for start in range(0, len(text), self._chunk):
            yield TextChunk(text[start : start + self._chunk])
