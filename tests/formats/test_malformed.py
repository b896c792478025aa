"""Every line of tests/data/malformed_outputs.jsonl: odd model output and what
parsing must make of it.

Each case names the format, the raw text, the calls that must come back (names
and arguments, in order) and the errors (kind and ``recovered``, in order);
``content``/``reasoning`` are checked when given, ``tools`` parses with the
sample tool schemas.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from botpsy.formats import get_format

from .samples import TOOLS

DATA = Path(__file__).parents[1] / "data" / "malformed_outputs.jsonl"
CASES = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_corpus_is_large_and_covers_every_format():
    assert len(CASES) >= 60
    assert {case["format"] for case in CASES} == {"hermes", "qwen35", "pythonic"}
    assert len({case["id"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_malformed_output(case):
    result = get_format(case["format"]).parse(case["text"], TOOLS if case.get("tools") else None)
    assert [{"name": c.name, "arguments": c.arguments} for c in result.tool_calls] == case["calls"]
    assert [{"kind": e.kind.value, "recovered": e.recovered} for e in result.errors] == case[
        "errors"
    ]
    if "content" in case:
        assert result.content == case["content"]
    if "reasoning" in case:
        assert result.reasoning == case["reasoning"]


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_nothing_is_lost(case):
    """Text of a call that was not recovered stays in the content or in an error's raw."""
    result = get_format(case["format"]).parse(case["text"], TOOLS if case.get("tools") else None)
    for error in result.errors:
        if not error.recovered:
            assert error.raw and error.raw in case["text"]
