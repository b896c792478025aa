"""Quantizer failures are categorised and leave nothing behind (real llama.cpp quantizer).

The variant cache itself is exercised through the bench (tests/bench/test_quantize.py),
which makes its variants here."""

from __future__ import annotations

import pytest

from botpsy.backends.quantize import QuantizeError, QuantizeErrorKind, make_variant, run_quantizer


def test_quantizer_failure_is_categorised_and_leaves_nothing(tmp_path):
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"GGUF" + b"\0" * 64)
    target = tmp_path / "out.gguf"
    with pytest.raises(QuantizeError) as err:
        run_quantizer(bogus, target, "q8_0")
    assert err.value.kind is QuantizeErrorKind.quantize_failed
    assert "bogus.gguf" in str(err.value)
    assert list(tmp_path.iterdir()) == [bogus]


def test_an_unknown_quant_lists_the_known_ones(tmp_path):
    with pytest.raises(QuantizeError) as err:
        make_variant(tmp_path / "m.gguf", "q9_9", tmp_path, source_sha256="ab" * 32,
                     source_quant="f32")
    assert err.value.kind is QuantizeErrorKind.unknown_quant
    assert "q8_0" in str(err.value) and "source" in str(err.value)
    assert not list(tmp_path.iterdir())
