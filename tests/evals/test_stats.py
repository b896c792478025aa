"""Table tests of the per-sample statistics: loops, token counts, parse failures, latency."""

from __future__ import annotations

import pytest

from botpsy.evals.stats import (
    LoopConfig,
    LoopKind,
    approx_tokens,
    detect_loop,
    percentiles,
    repeated_coverage,
    sample_stats,
    summarize,
    tail_repeats,
    tokenize,
)
from botpsy.types import Completion, ParseError, ParseErrorKind, Timings, Usage


@pytest.mark.parametrize("tokens, period, expected", [
    (["a", "b", "a", "b", "a", "b"], 2, 3),
    (["x", "a", "b", "a", "b"], 2, 2),
    (["a", "b", "c"], 1, 1),
    (["a", "a", "a", "a"], 1, 4),
    (["a", "a", "a", "a"], 2, 2),
    ([], 1, 0),
    (["a"], 2, 0),
])
def test_tail_repeats(tokens, period, expected):
    assert tail_repeats(tokens, period) == expected


def test_tokenize_splits_words_and_punctuation():
    assert tokenize("Hello, World!") == ["hello", ",", "world", "!"]


LOOP_TEXT = "Sure, here is the answer. " + "I will call the tool now. " * 6
VARIED_LOOP = " ".join(f"The meeting is on day {i} at the office and the meeting is on time."
                       for i in range(8))
NORMAL = ("Your 1:1 with Priya moved to 14:00 today. Lunch with Jonas is tomorrow at 12:30 at "
          "Ramen Ya, and the parent-teacher meeting follows at 16:00 in room 2B.")


@pytest.mark.parametrize("text, looping, kind", [
    (LOOP_TEXT, True, LoopKind.tail),
    ("ha " * 30, True, LoopKind.tail),
    (VARIED_LOOP, True, LoopKind.coverage),
    (NORMAL, False, LoopKind.none),
    ("Wait...", False, LoopKind.none),  # three dots repeat, but span too few tokens
    ("", False, LoopKind.none),
    ("ok ok ok", False, LoopKind.none),  # a short repeat is not a loop
])
def test_detect_loop(text, looping, kind):
    verdict = detect_loop(text)
    assert (verdict.looping, verdict.kind) == (looping, kind)


def test_tail_loop_reports_smallest_unit_and_count():
    verdict = detect_loop(LOOP_TEXT)
    assert verdict.unit == "i will call the tool now ."
    assert verdict.period == 7 and verdict.repeats == 6


def test_thresholds_are_configurable():
    text = "go on " * 4  # 8 tokens, 4 repeats of a 2-token unit
    assert not detect_loop(text).looping
    assert detect_loop(text, LoopConfig(min_span=8)).looping
    with pytest.raises(ValueError):
        LoopConfig(coverage=0)


def test_repeated_coverage():
    share, gram, count = repeated_coverage(list("abcdabcdabcd"), 4, 3)
    assert gram == "a b c d" and count == 3
    assert share == 1.0
    assert repeated_coverage(list("abcdefgh"), 4, 2) == (0.0, "", 0)
    assert repeated_coverage(["a"], 4, 2) == (0.0, "", 0)


def _completion(**kwargs) -> Completion:
    return Completion(**kwargs)


def test_sample_stats_splits_reasoning_from_answer():
    c = _completion(content="It is 12:30.", reasoning="one two three four", raw="x",
                    usage=Usage(prompt_tokens=50, completion_tokens=10))
    s = sample_stats(c, count_tokens=lambda t: len(t.split()))
    assert (s.completion_tokens, s.reasoning_tokens, s.answer_tokens) == (10, 4, 6)


def test_sample_stats_without_usage_counts_the_text():
    c = _completion(content="Hello there friend", raw="Hello there friend")
    s = sample_stats(c)
    assert s.completion_tokens == 3 and s.answer_tokens == 3 and s.reasoning_tokens == 0


@pytest.mark.parametrize("errors, failed", [
    ([], False),
    ([ParseError(kind=ParseErrorKind.invalid_json, message="bad", recovered=True)], False),
    ([ParseError(kind=ParseErrorKind.invalid_json, message="bad")], True),
])
def test_parse_failure_counts_only_unrecovered_errors(errors, failed):
    assert sample_stats(_completion(raw="<tool_call>{", parse_errors=errors)).parse_failed is failed


def test_truncation_and_timings_are_kept():
    c = _completion(raw="a", finish_reason="length",
                    timings=Timings(ttft_s=0.1, total_s=2.0, decode_tok_s=30.0))
    s = sample_stats(c)
    assert s.truncated and (s.ttft_s, s.total_s, s.decode_tok_s) == (0.1, 2.0, 30.0)


def test_percentiles():
    p = percentiles([1.0, 2.0, 3.0, 4.0, None, 100.0])
    assert p is not None and p.n == 5
    assert p.p50 == 3.0 and p.mean == 22.0
    assert p.p95 == pytest.approx(80.8)
    assert percentiles([None, None]) is None


def test_summarize_rates():
    samples = [
        sample_stats(_completion(raw=LOOP_TEXT, finish_reason="length",
                                 timings=Timings(total_s=1.0))),
        sample_stats(_completion(raw=NORMAL, timings=Timings(total_s=3.0))),
        sample_stats(_completion(raw="<tool_call>", parse_errors=[
            ParseError(kind=ParseErrorKind.truncated, message="cut")])),
        sample_stats(_completion(raw=NORMAL)),
    ]
    s = summarize(samples)
    assert s.samples == 4
    assert (s.looping_rate, s.truncation_rate, s.parse_failure_rate) == (0.25, 0.25, 0.25)
    assert s.total_s is not None and s.total_s.p50 == 2.0 and s.ttft_s is None
    assert summarize([]).samples == 0


def test_approx_tokens():
    assert approx_tokens("send_email(to='a@b')") == len(tokenize("send_email(to='a@b')"))
