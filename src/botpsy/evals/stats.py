"""Per-sample statistics of model outputs: looping, token counts, parse failures, latency.

Small models fail in recognisable ways that accuracy alone hides: they loop
(the same phrase again and again until the token limit), they write calls that
cannot be parsed, they think for long. These are pure functions over text and
``Completion``s, so every eval (scenarios, injection, BFCL) can report them:

- ``detect_loop``: a repeated n-gram at the END of the output (the same unit
  of ``period`` tokens repeated at least ``min_repeats`` times back to back,
  spanning at least ``min_span`` tokens), or repeated n-grams COVERING more
  than ``coverage`` of the output (a loop with small variations);
- ``sample_stats``: reasoning and answer tokens, parse failure, truncation,
  loop verdict and timings of one completion;
- ``summarize``: rates and p50/p95 latencies over many completions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
from pydantic import BaseModel

from botpsy.types import Completion

_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class LoopConfig:
    """Thresholds of the loop detector (tokens are words and punctuation marks)."""

    min_repeats: int = 3  # back-to-back repeats of the tail unit
    min_span: int = 12  # tokens the repeated tail must cover (so "..." is not a loop)
    max_period: int = 64  # longest repeated unit looked for at the tail
    ngram: int = 4  # n of the coverage check
    min_count: int = 3  # an n-gram counts as repeated from this many occurrences
    coverage: float = 0.5  # share of tokens covered by repeated n-grams that means looping
    min_tokens: int = 24  # outputs shorter than this are never judged by coverage

    def __post_init__(self) -> None:
        if self.min_repeats < 2 or self.ngram < 1 or self.min_count < 2:
            raise ValueError("min_repeats and min_count must be >= 2 and ngram >= 1")
        if not 0 < self.coverage <= 1:
            raise ValueError("coverage is a share in (0, 1]")


class LoopKind(str, Enum):
    """How an output loops."""

    none = "none"
    tail = "tail"  # it ends in the same unit repeated back to back
    coverage = "coverage"  # repeated n-grams cover most of it


class LoopVerdict(BaseModel):
    """The loop detector's verdict, with the evidence."""

    looping: bool = False
    kind: LoopKind = LoopKind.none
    unit: str = ""  # the repeated unit (tail) or the most repeated n-gram (coverage)
    period: int = 0  # tokens in the repeated tail unit
    repeats: int = 0  # back-to-back repeats at the tail / occurrences of the top n-gram
    coverage: float = 0.0  # share of tokens inside repeated n-grams


def tokenize(text: str) -> list[str]:
    """Words and punctuation marks, lower-cased: the unit of the loop detector."""
    return [t.lower() for t in _TOKEN.findall(text)]


def tail_repeats(tokens: Sequence[str], period: int) -> int:
    """How many times the last ``period`` tokens repeat back to back at the end."""
    if period < 1 or len(tokens) < period:
        return 0
    unit = list(tokens[-period:])
    count, end = 1, len(tokens) - period
    while end - period >= 0 and list(tokens[end - period:end]) == unit:
        count += 1
        end -= period
    return count


def repeated_coverage(tokens: Sequence[str], n: int, min_count: int) -> tuple[float, str, int]:
    """(share of tokens inside an n-gram occurring >= ``min_count`` times, the most
    frequent such n-gram, its count)."""
    if len(tokens) < n:
        return 0.0, "", 0
    grams = [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]
    counts = Counter(grams)
    covered = [False] * len(tokens)
    for i, gram in enumerate(grams):
        if counts[gram] >= min_count:
            covered[i:i + n] = [True] * n
    top, top_count = counts.most_common(1)[0]
    shown = " ".join(top) if top_count >= min_count else ""
    return sum(covered) / len(tokens), shown, top_count if shown else 0


def detect_loop(text: str, config: LoopConfig = LoopConfig()) -> LoopVerdict:
    """Whether ``text`` loops; the tail check first (the IFBench-style end loop),
    then the coverage check."""
    tokens = tokenize(text)
    for period in range(1, min(config.max_period, len(tokens) // config.min_repeats) + 1):
        repeats = tail_repeats(tokens, period)
        if repeats >= config.min_repeats and repeats * period >= config.min_span:
            return LoopVerdict(looping=True, kind=LoopKind.tail,
                               unit=" ".join(tokens[-period:]), period=period, repeats=repeats,
                               coverage=repeats * period / len(tokens))
    share, gram, count = repeated_coverage(tokens, config.ngram, config.min_count)
    if len(tokens) >= config.min_tokens and share > config.coverage:
        return LoopVerdict(looping=True, kind=LoopKind.coverage, unit=gram, repeats=count,
                           coverage=share)
    return LoopVerdict(unit=gram, repeats=count, coverage=share)


TokenCounter = Callable[[str], int]


def approx_tokens(text: str) -> int:
    """A tokenizer-free count (words and punctuation); pass a real counter when you have one."""
    return len(_TOKEN.findall(text))


class SampleStats(BaseModel):
    """Statistics of one completion."""

    completion_tokens: int
    reasoning_tokens: int
    answer_tokens: int
    tool_calls: int
    parse_failed: bool  # a parse error that no call was recovered from
    truncated: bool  # stopped by the token limit
    loop: LoopVerdict
    total_s: float | None = None
    ttft_s: float | None = None
    decode_tok_s: float | None = None


def sample_stats(completion: Completion, count_tokens: TokenCounter = approx_tokens,
                 loop_config: LoopConfig = LoopConfig()) -> SampleStats:
    """Stats of one completion. The backend's completion token count is split into
    reasoning and answer by counting the reasoning text with ``count_tokens``."""
    reasoning = count_tokens(completion.reasoning) if completion.reasoning else 0
    total = completion.usage.completion_tokens or reasoning + count_tokens(
        completion.raw or completion.content)
    reasoning = min(reasoning, total)
    return SampleStats(
        completion_tokens=total,
        reasoning_tokens=reasoning,
        answer_tokens=total - reasoning,
        tool_calls=len(completion.tool_calls),
        parse_failed=any(not e.recovered for e in completion.parse_errors),
        truncated=completion.finish_reason == "length",
        loop=detect_loop(completion.raw or completion.content, loop_config),
        total_s=completion.timings.total_s,
        ttft_s=completion.timings.ttft_s,
        decode_tok_s=completion.timings.decode_tok_s,
    )


class Percentiles(BaseModel):
    """p50 / p95 / mean of a measurement over ``n`` samples."""

    n: int
    p50: float
    p95: float
    mean: float


def percentiles(values: Iterable[float | None]) -> Percentiles | None:
    """Percentiles of the values that are present (None when there are none)."""
    present = np.array([v for v in values if v is not None], dtype=float)
    if present.size == 0:
        return None
    return Percentiles(n=int(present.size), p50=float(np.percentile(present, 50)),
                       p95=float(np.percentile(present, 95)), mean=float(present.mean()))


class StatsSummary(BaseModel):
    """Rates and latencies over many completions."""

    samples: int = 0
    parse_failure_rate: float = 0.0
    looping_rate: float = 0.0
    truncation_rate: float = 0.0
    mean_answer_tokens: float = 0.0
    mean_reasoning_tokens: float = 0.0
    total_s: Percentiles | None = None
    ttft_s: Percentiles | None = None
    decode_tok_s: Percentiles | None = None


def summarize(samples: Sequence[SampleStats]) -> StatsSummary:
    """The summary of ``samples`` (all zero for none)."""
    if not samples:
        return StatsSummary()
    n = len(samples)
    return StatsSummary(
        samples=n,
        parse_failure_rate=sum(s.parse_failed for s in samples) / n,
        looping_rate=sum(s.loop.looping for s in samples) / n,
        truncation_rate=sum(s.truncated for s in samples) / n,
        mean_answer_tokens=sum(s.answer_tokens for s in samples) / n,
        mean_reasoning_tokens=sum(s.reasoning_tokens for s in samples) / n,
        total_s=percentiles(s.total_s for s in samples),
        ttft_s=percentiles(s.ttft_s for s in samples),
        decode_tok_s=percentiles(s.decode_tok_s for s in samples),
    )


def summarize_completions(completions: Iterable[Completion],
                          count_tokens: TokenCounter = approx_tokens) -> StatsSummary:
    return summarize([sample_stats(c, count_tokens) for c in completions])
