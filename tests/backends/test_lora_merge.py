"""Folding a LoRA adapter into its base GGUF: the sum, the copy of everything else, the errors."""

from __future__ import annotations

from pathlib import Path

import gguf
import numpy as np
import pytest

from botpsy.backends.lora_merge import LoraMergeError, merge_lora

Q8 = gguf.GGMLQuantizationType.Q8_0
F32 = gguf.GGMLQuantizationType.F32


def _write(path: Path, arch: str, tensors: dict[str, tuple[np.ndarray, gguf.GGMLQuantizationType]],
           fields: dict[str, object] | None = None) -> Path:
    writer = gguf.GGUFWriter(path, arch)
    for key, value in (fields or {}).items():
        if isinstance(value, str):
            writer.add_string(key, value)
        else:
            writer.add_float32(key, float(value))
    for name, (values, kind) in tensors.items():
        data = values if kind == F32 else gguf.quants.quantize(values, kind)
        writer.add_tensor(name, data, raw_dtype=kind)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


@pytest.fixture
def weights():
    rng = np.random.default_rng(0)
    return {
        "w": rng.normal(size=(64, 96)).astype(np.float32),  # out x in
        "a": rng.normal(size=(4, 96)).astype(np.float32) / 10,  # rank x in
        "b": rng.normal(size=(64, 4)).astype(np.float32) / 10,  # out x rank
        "norm": rng.normal(size=(96,)).astype(np.float32),
    }


F16 = gguf.GGMLQuantizationType.F16


def _base(tmp_path: Path, weights, kind=F16) -> Path:
    return _write(tmp_path / "base.gguf", "llama", {
        "blk.0.attn_q.weight": (weights["w"], kind),
        "blk.0.attn_norm.weight": (weights["norm"], F32),
    }, {"general.name": "tiny"})


def _adapter(tmp_path: Path, weights, alpha: float = 0.0, name="blk.0.attn_q.weight") -> Path:
    return _write(tmp_path / "lora.gguf", "llama", {
        f"{name}.lora_a": (weights["a"], F32),
        f"{name}.lora_b": (weights["b"], F32),
    }, {"general.type": "adapter", "adapter.type": "lora", "adapter.lora.alpha": alpha})


def _tensor(path: Path, name: str) -> np.ndarray:
    tensor = next(t for t in gguf.GGUFReader(path).tensors if t.name == name)
    return gguf.quants.dequantize(tensor.data, tensor.tensor_type)


def test_the_folded_weight_is_the_base_plus_b_times_a(tmp_path, weights):
    report = merge_lora(_base(tmp_path, weights), _adapter(tmp_path, weights), tmp_path / "m.gguf")
    assert report.merged_tensors == 1 and report.scale == 1.0
    want = weights["w"].astype(np.float16).astype(np.float32) + weights["b"] @ weights["a"]
    got = _tensor(tmp_path / "m.gguf", "blk.0.attn_q.weight")
    np.testing.assert_array_equal(got, want.astype(np.float16).astype(np.float32))  # one F16 rounding


def test_an_alpha_scales_by_alpha_over_rank_as_llama_cpp_does(tmp_path, weights):
    merge_lora(_base(tmp_path, weights, F32), _adapter(tmp_path, weights, alpha=8.0), tmp_path / "m.gguf")
    got = _tensor(tmp_path / "m.gguf", "blk.0.attn_q.weight")
    np.testing.assert_allclose(got, weights["w"] + 2.0 * weights["b"] @ weights["a"], rtol=1e-5, atol=1e-5)


def test_other_tensors_and_the_metadata_are_copied_as_they_are(tmp_path, weights):
    merge_lora(_base(tmp_path, weights), _adapter(tmp_path, weights), tmp_path / "m.gguf")
    reader = gguf.GGUFReader(tmp_path / "m.gguf")
    assert reader.fields["general.name"].contents() == "tiny"
    assert reader.fields["general.architecture"].contents() == "llama"
    np.testing.assert_array_equal(_tensor(tmp_path / "m.gguf", "blk.0.attn_norm.weight"), weights["norm"])


def test_an_adapter_for_a_tensor_the_base_lacks_is_refused_and_nothing_is_left(tmp_path, weights):
    adapter = _adapter(tmp_path, weights, name="blk.7.attn_q.weight")
    with pytest.raises(LoraMergeError, match="base lacks"):
        merge_lora(_base(tmp_path, weights), adapter, tmp_path / "m.gguf")
    assert list(tmp_path.glob("m.gguf*")) == []


@pytest.mark.parametrize("kind", [Q8, gguf.GGMLQuantizationType.Q4_0])
def test_a_quantized_base_is_refused_its_rounding_would_swallow_the_delta(tmp_path, weights, kind):
    base = _base(tmp_path, weights, kind)
    with pytest.raises(LoraMergeError, match="lost in its rounding"):
        merge_lora(base, _adapter(tmp_path, weights), tmp_path / "m.gguf")
    assert list(tmp_path.glob("m.gguf*")) == []
