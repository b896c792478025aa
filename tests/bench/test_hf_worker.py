"""The transformers side of the bench on a tiny random HF model (built in the test)."""

from __future__ import annotations

import pytest

from botpsy.bench.prompts import ASSISTANT_TOOLS, FILLER_TEXT, TURN_PROMPTS
from botpsy.bench.roofline import BandwidthResult
from botpsy.bench.schema import WorkerJob
from botpsy.bench.summary import summarize_run
from botpsy.bench.worker import run_worker
from botpsy.formats import get_format

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def tiny_hf(tmp_path_factory):
    """A 2-layer random Qwen3 (hidden 32, tied embeddings) with a BPE tokenizer."""
    from botpsy.train.tiny import TinySpec, build_model, build_tokenizer

    fmt = get_format("hermes")
    texts = [FILLER_TEXT] + [fmt.render(p.messages(), ASSISTANT_TOOLS) for p in TURN_PROMPTS]
    tokenizer = build_tokenizer(texts, vocab_size=400)
    model = build_model(tokenizer, TinySpec())
    folder = tmp_path_factory.mktemp("tiny-hf")
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_transformers_worker_measures_the_same_things(tiny_hf):
    job = WorkerJob(
        backend="transformers",
        model_path=str(tiny_hf),
        label="hf-fp32",
        dtype="float32",
        threads=2,
        prompt_lens=[16, 64],
        decode_tokens=4,
        repeats=1,
        n_ctx=2048,
        turns=1,
        turn_max_tokens=8,
        format_name="hermes",
    )
    result = run_worker(job, timeout_s=300)
    (repeat,) = result.repeats
    assert [s.prompt_tokens for s in repeat.prefill] == [16, 64]
    assert repeat.decode.tokens == 4 and repeat.decode_1t.tokens == 4  # with the 1-thread probe
    assert len(repeat.turns) == 1 and repeat.turns[0].latency_s > 0
    # 2 layers x (K+V) x 1 KV head x head_dim 16 x 4 bytes (fp32)
    assert result.kv_bytes_per_position == 2 * 2 * 1 * 16 * 4
    assert result.weight_bytes > 0 and result.peak_rss_mb > result.baseline_rss_mb

    bandwidth = [BandwidthResult(threads=2, bytes_per_s=20e9, array_mb=256, repeats_gb_s=[20.0])]
    row = summarize_run(result, size_bytes=result.weight_bytes, bandwidth=bandwidth)
    assert row.backend == "transformers" and row.quant == "hf-fp32"
    assert row.bytes_per_token == result.weight_bytes + result.kv_bytes_per_position * (16 + 2)
    assert row.roofline_fraction is not None and row.decode_tok_s_1t is not None
