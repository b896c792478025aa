"""The llama.cpp backend on the real default model: generation, usage, prefix reuse."""

from __future__ import annotations

import pytest

from botpsy.types import GenerationParams

pytestmark = pytest.mark.model

PROMPT = "<|im_start|>user\nName three colours.<|im_end|>\n<|im_start|>assistant\n"


def test_generates_and_counts_tokens(smol_backend):
    text = "".join(c.text for c in smol_backend.generate(PROMPT, GenerationParams(max_tokens=8)))
    stats = smol_backend.last_stats
    assert text.strip()
    assert stats.prompt_tokens == smol_backend.count_tokens(PROMPT)
    assert stats.completion_tokens == 8 and stats.finish_reason == "length"
    assert stats.prompt_eval_s is not None and stats.prompt_eval_s > 0


def test_greedy_is_deterministic_and_reuses_prefix(smol_backend):
    params = GenerationParams(max_tokens=6)
    smol_backend.llama.reset()
    first = "".join(c.text for c in smol_backend.generate(PROMPT, params))
    assert smol_backend.last_stats.cached_tokens == 0
    second = "".join(c.text for c in smol_backend.generate(PROMPT, params))
    assert first == second
    assert smol_backend.last_stats.cached_tokens == smol_backend.last_stats.prompt_tokens - 1


def test_stop_sequence_is_honoured(smol_backend):
    params = GenerationParams(max_tokens=40, stop=[","])
    text = "".join(c.text for c in smol_backend.generate("1, 2, 3, 4,", params))
    assert "," not in text


def test_prompt_over_context_is_a_clear_error(smol_backend):
    huge = "word " * 5000
    with pytest.raises(ValueError, match="context window"):
        list(smol_backend.generate(huge, GenerationParams(max_tokens=1)))


def test_grammar_constrains_output(smol_backend):
    grammar = 'root ::= "yes" | "no"'
    text = "".join(c.text for c in smol_backend.generate(PROMPT, GenerationParams(max_tokens=4), grammar))
    assert text in {"yes", "no"}


def test_format_hint_from_gguf_metadata(smol_backend):
    assert smol_backend.format_hint() == "hermes"  # ChatML template without tool support
