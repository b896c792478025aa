"""Bench settings: defaults, validation, context size and the plan of worker jobs."""

from __future__ import annotations

import pytest

from botpsy.backends.quantize import Variant
from botpsy.bench.config import (
    BenchConfig,
    check_context,
    context_size,
    physical_cores,
    plan_jobs,
    validate,
)
from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.runner import resolve_adapter

from .helpers import write_tiny_lora


def test_quick_defaults_are_small():
    config = BenchConfig.create(quick=True)
    assert config.quants == ["source", "q8_0"]
    assert config.prompt_lens == [128, 512]
    assert config.threads == [physical_cores()]
    assert config.repeats == 2 and config.quick


def test_full_defaults_and_overrides():
    config = BenchConfig.create(repeats=5, threads=None, quants=["q4_0"])
    assert config.quants == ["q4_0"] and config.repeats == 5  # None overrides keep the default
    assert config.prompt_lens == [128, 512, 2048]
    assert config.threads == sorted({1, physical_cores()})


@pytest.mark.parametrize(
    ("override", "words"),
    [
        ({"prompt_lens": [4]}, "prompt lengths"),
        ({"prompt_lens": [128, 100_000]}, "prompt lengths"),
        ({"prompt_lens": []}, "prompt lengths"),
        ({"threads": [0]}, "thread counts"),
        ({"repeats": 0}, "repeats"),
        ({"decode_tokens": 0}, "decode tokens"),
        ({"accuracy_cases": -1}, "accuracy cases"),
        ({"turns": 9}, "turns"),
    ],
)
def test_bad_settings_are_rejected(override, words):
    with pytest.raises(BenchError, match=words) as err:
        validate(BenchConfig.create(**override))
    assert err.value.kind is BenchErrorKind.bad_setting


def test_unknown_quant_in_the_config_is_rejected():
    with pytest.raises(BenchError) as err:
        validate(BenchConfig.create(quants=["q4_0", "q7_7"]))
    assert err.value.kind is BenchErrorKind.unknown_quant


@pytest.mark.parametrize(
    ("prompt_lens", "decode", "expected"),
    [([128, 512], 32, 2048), ([128, 512, 2048], 64, 2304), ([4000], 64, 4096), ([4096], 64, 4352)],
)
def test_context_size(prompt_lens, decode, expected):
    assert (
        context_size(BenchConfig.create(prompt_lens=prompt_lens, decode_tokens=decode)) == expected
    )


def test_plan_runs_most_threads_first_and_measures_accuracy_once(tiny_gguf):
    variants = [Variant(quant="f32", path=tiny_gguf, source_quant="f32", is_source=True)]
    config = BenchConfig.create(threads=[1, 2], accuracy_cases=5, hf_model="/models/hf")
    runs = plan_jobs(config, variants, n_ctx=2048)
    llama = [r.job for r in runs if r.job.backend == "llama.cpp"]
    assert [(j.threads, j.accuracy_cases) for j in llama] == [(2, 5), (1, 0)]
    hf = [r.job for r in runs if r.job.backend == "transformers"]
    assert [(j.label, j.dtype, j.threads) for j in hf] == [
        ("hf-fp32", "float32", 2),
        ("hf-bf16", "bfloat16", 2),
    ]
    assert runs[0].size_bytes == tiny_gguf.stat().st_size
    assert all(j.lora_path is None for j in llama)


def test_a_model_with_an_adapter_is_measured_with_it(tiny_gguf, tmp_path):
    # `bench run --model botpsy-smol` measured plain SmolLM2: the adapter was dropped
    adapter = str(write_tiny_lora(tmp_path / "lora.gguf"))
    variants = [Variant(quant="f32", path=tiny_gguf, source_quant="f32", is_source=True)]
    config = BenchConfig.create(hf_model="/models/hf")
    runs = plan_jobs(config, variants, n_ctx=2048, adapter=adapter)
    assert {(r.job.backend, r.job.lora_path) for r in runs} == {
        ("llama.cpp", adapter), ("transformers", None)}  # --hf-model is its own model
    # the adapter file is loaded next to the weights: it counts in the size
    llama = [r for r in runs if r.job.backend == "llama.cpp"]
    expected = tiny_gguf.stat().st_size + (tmp_path / "lora.gguf").stat().st_size
    assert all(r.size_bytes == expected for r in llama)
    assert resolve_adapter("smollm2") is None
    assert resolve_adapter("botpsy-smol:q8_0").endswith("botpsy-smol-lora.gguf")
    assert resolve_adapter("botpsy-smol") is None  # folded into its F16 base


def test_context_is_bounded_by_what_the_model_was_trained_for():
    config = BenchConfig.create(prompt_lens=[128], decode_tokens=64)
    assert context_size(config, trained=8192) == 2048 and context_size(config, trained=1024) == 1024
    check_context(config, 8192)
    check_context(config, None)  # no metadata: nothing to check against
    with pytest.raises(BenchError, match="trained for 8192") as err:
        check_context(BenchConfig.create(prompt_lens=[128], decode_tokens=100_000_000), 8192)
    assert err.value.kind is BenchErrorKind.bad_setting
