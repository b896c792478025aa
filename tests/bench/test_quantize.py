"""The bench's quant names and its variants (tiny GGUF, real llama.cpp quantizer), made through
``botpsy.backends.quantize`` and failing as bench failures."""

from __future__ import annotations

import pytest

from botpsy.backends.model_files import sha256_file
from botpsy.backends.quantize import SOURCE, variant_path
from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.gguf_info import read_gguf_info
from botpsy.bench.quantize import make_variant, parse_quants


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f16,q8_0,q4_k_m,q4_0", ["f16", "q8_0", "q4_k_m", "q4_0"]),
        (" F16 , Q8_0,q8_0 ", ["f16", "q8_0"]),  # case and spaces ignored, duplicates dropped
        ("source,q4_1", ["source", "q4_1"]),
        ("q8_0,", ["q8_0"]),
    ],
)
def test_parse_quants(text, expected):
    assert parse_quants(text) == expected


@pytest.mark.parametrize("text", ["q9_9", "f16,int3", "gguf"])
def test_unknown_quant_lists_the_known_ones(text):
    with pytest.raises(BenchError) as err:
        parse_quants(text)
    assert err.value.kind is BenchErrorKind.unknown_quant
    assert "q8_0" in str(err.value) and "q4_k_m" in str(err.value) and "source" in str(err.value)


@pytest.mark.parametrize("text", ["", " , ,"])
def test_empty_quant_list_is_an_error(text):
    with pytest.raises(BenchError) as err:
        parse_quants(text)
    assert err.value.kind is BenchErrorKind.unknown_quant


def _variant(source, quant, cache):
    return make_variant(
        source,
        quant,
        cache,
        source_sha256=sha256_file(source),
        source_quant=read_gguf_info(source).file_type,
    )


def test_variant_is_quantized_once_then_served_from_the_cache(tiny_gguf, tmp_path, capfd):
    cache = tmp_path / "cache"
    first = _variant(tiny_gguf, "q8_0", cache)
    assert not first.cached and first.quantize_s is not None
    assert first.path == variant_path(cache, sha256_file(tiny_gguf), "q8_0")
    assert read_gguf_info(first.path).file_type == "q8_0"
    assert first.source_quant == "f32" and not first.requantized
    made_at = first.path.stat().st_mtime_ns

    second = _variant(tiny_gguf, "q8_0", cache)
    assert second.cached and second.quantize_s is None
    assert second.path == first.path and second.path.stat().st_mtime_ns == made_at
    assert list(cache.iterdir()) == [first.path]  # no partial files left behind
    assert (
        "q8_0" not in capfd.readouterr().err
    )  # llama.cpp's per-tensor log is captured, not printed


def test_a_different_source_gets_its_own_cache_entry(tmp_path):
    from .helpers import write_tiny_gguf

    cache = tmp_path / "cache"
    a = _variant(write_tiny_gguf(tmp_path / "a.gguf"), "q8_0", cache)
    b = _variant(write_tiny_gguf(tmp_path / "b.gguf", tied=False), "q8_0", cache)
    assert a.path != b.path and not b.cached


def test_source_and_its_own_type_are_the_file_itself(tiny_gguf, tmp_path):
    for quant in (SOURCE, "f32"):
        variant = make_variant(
            tiny_gguf, quant, tmp_path, source_sha256="ab" * 32, source_quant="f32"
        )
        assert variant.is_source and variant.path == tiny_gguf and variant.quant == "f32"
    assert list(tmp_path.glob("*.gguf")) == [tiny_gguf]


def test_variants_of_a_quantized_source_are_marked_requantized(tiny_gguf, tmp_path):
    q8 = _variant(tiny_gguf, "q8_0", tmp_path / "c1")
    q4 = make_variant(
        q8.path, "q4_0", tmp_path / "c2", source_sha256=sha256_file(q8.path), source_quant="q8_0"
    )
    assert q4.requantized and q4.source_quant == "q8_0"
    assert read_gguf_info(q4.path).file_type == "q4_0"


def test_a_quantizer_failure_is_a_bench_failure_of_its_kind(tmp_path):
    with pytest.raises(BenchError) as err:
        make_variant(tmp_path / "m.gguf", "q9_9", tmp_path, source_sha256="ab" * 32,
                     source_quant="f32")
    assert err.value.kind is BenchErrorKind.unknown_quant
