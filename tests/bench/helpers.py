"""Helpers shared by the bench tests: tiny random GGUF files and synthetic reports.

The tiny GGUF is a real llama-architecture file (one layer, hidden size 64),
written with the ``gguf`` package: llama.cpp's quantizer accepts it, so the
variant cache is tested without the real model.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from botpsy.bench.config import BenchConfig
from botpsy.bench.machine import MachineInfo
from botpsy.bench.roofline import BandwidthResult, Bound, Diagnosis
from botpsy.bench.schema import (
    AccuracyResult,
    BenchReport,
    BenchSettings,
    DecodeSample,
    PrefillSample,
    RawRepeat,
    Stat,
    TurnSample,
    VariantResult,
    WorkerJob,
    WorkerResult,
)

VOCAB, HIDDEN, FFN = 64, 64, 128


def write_tiny_gguf(path: Path, *, tied: bool = True, layers: int = 1) -> Path:
    """A random llama GGUF (f32); ``tied=False`` adds a separate output.weight."""
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_block_count(layers)
    writer.add_context_length(128)
    writer.add_embedding_length(HIDDEN)
    writer.add_feed_forward_length(FFN)
    writer.add_head_count(4)
    writer.add_head_count_kv(2)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_vocab_size(VOCAB)
    writer.add_rope_dimension_count(HIDDEN // 4)
    writer.add_file_type(0)  # ALL_F32
    rng = np.random.default_rng(0)

    def tensor(name: str, *shape: int) -> None:
        writer.add_tensor(name, rng.standard_normal(shape).astype(np.float32))

    tensor("token_embd.weight", VOCAB, HIDDEN)
    for i in range(layers):
        tensor(f"blk.{i}.attn_norm.weight", HIDDEN)
        tensor(f"blk.{i}.attn_q.weight", HIDDEN, HIDDEN)
        tensor(f"blk.{i}.attn_k.weight", HIDDEN // 2, HIDDEN)
        tensor(f"blk.{i}.attn_v.weight", HIDDEN // 2, HIDDEN)
        tensor(f"blk.{i}.attn_output.weight", HIDDEN, HIDDEN)
        tensor(f"blk.{i}.ffn_norm.weight", HIDDEN)
        tensor(f"blk.{i}.ffn_gate.weight", FFN, HIDDEN)
        tensor(f"blk.{i}.ffn_up.weight", FFN, HIDDEN)
        tensor(f"blk.{i}.ffn_down.weight", HIDDEN, FFN)
    tensor("output_norm.weight", HIDDEN)
    if not tied:
        tensor("output.weight", VOCAB, HIDDEN)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def write_tiny_lora(path: Path, *, rank: int = 4, layers: int = 1) -> Path:
    """A LoRA adapter GGUF for the tiny model (f32 A and B on every attention Q), laid out
    as llama.cpp's adapters are; its tensor bytes are ``tiny_lora_bytes``."""
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_string("general.type", "adapter")
    writer.add_string("adapter.type", "lora")
    writer.add_float32("adapter.lora.alpha", float(rank))
    rng = np.random.default_rng(1)
    for i in range(layers):
        a = rng.standard_normal((rank, HIDDEN)).astype(np.float32)
        b = rng.standard_normal((HIDDEN, rank)).astype(np.float32)
        writer.add_tensor(f"blk.{i}.attn_q.weight.lora_a", a)
        writer.add_tensor(f"blk.{i}.attn_q.weight.lora_b", b)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def tiny_lora_bytes(rank: int = 4, layers: int = 1) -> int:
    return layers * 2 * rank * HIDDEN * 4


def machine() -> MachineInfo:
    return MachineInfo(
        cpu_model="Test CPU",
        physical_cores=2,
        logical_cores=2,
        ram_gb=8.0,
        os="TestOS",
        python="3.11",
        load_avg_start=[0.5, 0.5, 0.5],
        load_avg_end=[0.5, 0.5, 0.5],
    )


def stat(values: list[float]) -> Stat:
    result = Stat.of(values)
    assert result is not None
    return result


def variant_row(
    quant: str, threads: int, decode: float, size_mb: float, accuracy: float | None = 0.5
) -> VariantResult:
    """A plausible report row with its raw repeats."""
    repeats = [
        RawRepeat(
            repeat=i,
            prefill=[
                PrefillSample(prompt_tokens=128, ttft_s=0.5),
                PrefillSample(prompt_tokens=512, ttft_s=2.0),
            ],
            decode=DecodeSample(tokens=32, seconds=32 / decode, n_past=128),
            turns=[
                TurnSample(prompt_id="weather", latency_s=1.5, made_call=True, stopped_at_call=True)
            ],
        )
        for i in range(2)
    ]
    return VariantResult(
        quant=quant,
        threads=threads,
        size_mb=size_mb,
        load_s=0.3,
        peak_rss_mb=300.0,
        model_rss_mb=250.0,
        ttft_s={128: stat([0.5, 0.5]), 512: stat([2.0, 2.0])},
        prefill_tok_s={128: stat([256.0, 256.0]), 512: stat([256.0, 256.0])},
        decode_tok_s=stat([decode, decode]),
        bytes_per_token=int(size_mb * 2**20),
        roofline_tok_s=decode * 2,
        roofline_fraction=0.5,
        effective_gb_s=decode * size_mb * 2**20 / 1e9,
        diagnosis=Diagnosis(bound=Bound.compute, note="50% of the bandwidth roofline; test"),
        turn_latency_s=stat([1.5, 1.5]),
        accuracy=accuracy,
        accuracy_detail=AccuracyResult(
            suite="bfcl:simple_python", n=2, accuracy=accuracy or 0.0, mean_reward=0.7
        )
        if accuracy is not None
        else None,
        raw=repeats,
    )


def make_report(
    rows: list[VariantResult] | None = None, *, cpu: str = "Test CPU", prompt_lens=(128, 512)
) -> BenchReport:
    settings = BenchSettings(
        model="smollm2",
        model_name="tiny",
        model_path="/x/tiny.gguf",
        source_quant="q4_1",
        source_sha256="0" * 64,
        quants=["source", "q8_0"],
        prompt_lens=list(prompt_lens),
        threads=[1, 2],
        repeats=2,
        decode_tokens=32,
        n_ctx=2048,
        turn_prompts=["weather"],
        accuracy_suite="bfcl:simple_python",
        accuracy_cases=2,
    )
    m = machine()
    m.cpu_model = cpu
    return BenchReport(
        created="2025-01-01T00:00:00+00:00",
        settings=settings,
        machine=m,
        bandwidth=[
            BandwidthResult(threads=1, bytes_per_s=20e9, array_mb=256, repeats_gb_s=[19.0, 20.0])
        ],
        variants=rows
        if rows is not None
        else [variant_row("q4_1", 2, 100.0, 94.0), variant_row("q8_0", 2, 80.0, 138.0)],
    )


def fake_result(job: WorkerJob) -> WorkerResult:
    """What a worker would print for ``job``: two repeats at 100 tok/s."""
    repeats = [
        RawRepeat(
            repeat=i,
            prefill=[PrefillSample(prompt_tokens=n, ttft_s=n / 500) for n in job.prompt_lens],
            decode=DecodeSample(tokens=job.decode_tokens, seconds=job.decode_tokens / 100,
                                n_past=min(job.prompt_lens), cpu_s=job.decode_tokens / 100),
        )
        for i in range(job.repeats)
    ]
    return WorkerResult(job=job, load_s=0.1, baseline_rss_mb=60.0, peak_rss_mb=100.0,
                        repeats=repeats)


def tiny_config(tmp_path: Path, model: str, **overrides) -> BenchConfig:
    """A bench of one variant, one prompt, 8 decode tokens: for ``fake_bench`` runs."""
    settings = {
        "model": model,
        "out_dir": tmp_path / "out",
        "cache_dir": tmp_path / "cache",
        "quants": ["source"],
        "prompt_lens": [32],
        "threads": [1],
        "repeats": 2,
        "decode_tokens": 8,
        "accuracy_cases": 0,
        "turns": 1,
    }
    return BenchConfig.create(**{**settings, **overrides})
