"""Tensor accounting of GGUF files (tiny random files written in the test)."""

from __future__ import annotations

import pytest

from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.gguf_info import file_type_name, read_gguf_info, with_adapter

from .helpers import FFN, HIDDEN, VOCAB, tiny_lora_bytes, write_tiny_gguf, write_tiny_lora

# Elements of the tiny one-layer model, tensor by tensor.
ELEMENTS = (
    VOCAB * HIDDEN  # token_embd
    + HIDDEN  # attn_norm
    + HIDDEN * HIDDEN * 2  # q, output
    + HIDDEN // 2 * HIDDEN * 2  # k, v (2 of 4 heads)
    + HIDDEN  # ffn_norm
    + FFN * HIDDEN * 3  # gate, up, down
    + HIDDEN  # output_norm
)


def test_tied_model(tmp_path):
    info = read_gguf_info(write_tiny_gguf(tmp_path / "tied.gguf"))
    assert info.n_params == ELEMENTS
    assert info.tensor_bytes == 4 * ELEMENTS
    assert info.bytes_by_type == {"f32": 4 * ELEMENTS}
    assert info.tied_embeddings and info.output_bytes is None
    assert info.embedding_bytes == 4 * VOCAB * HIDDEN
    assert info.embedding_row_bytes == 4 * HIDDEN
    assert (info.n_layer, info.n_head_kv, info.head_dim) == (1, 2, HIDDEN // 4)
    assert info.file_type == "f32" and info.architecture == "llama"
    assert info.file_bytes > info.tensor_bytes  # header and metadata


def test_untied_model_has_an_output_matrix(tmp_path):
    info = read_gguf_info(write_tiny_gguf(tmp_path / "untied.gguf", tied=False))
    assert not info.tied_embeddings
    assert info.output_bytes == 4 * VOCAB * HIDDEN
    assert info.tensor_bytes == 4 * (ELEMENTS + VOCAB * HIDDEN)


@pytest.mark.parametrize(
    ("code", "name"),
    [
        (0, "f32"),
        (1, "f16"),
        (3, "q4_1"),
        (7, "q8_0"),
        (15, "q4_k_m"),
        (32, "bf16"),
        (9999, "ftype_9999"),
    ],
)
def test_file_type_name(code, name):
    assert file_type_name(code) == name


def test_trained_context_is_read(tmp_path):
    assert read_gguf_info(write_tiny_gguf(tmp_path / "m.gguf")).context_length == 128


def test_an_adapter_adds_its_tensor_bytes(tmp_path):
    info = read_gguf_info(write_tiny_gguf(tmp_path / "m.gguf"))
    lora = write_tiny_lora(tmp_path / "lora.gguf")
    adapted = with_adapter(info, lora)
    assert adapted.adapter_bytes == tiny_lora_bytes() and adapted.adapter_path == lora
    assert adapted.size_bytes == info.file_bytes + lora.stat().st_size
    assert with_adapter(info, None) is info


@pytest.mark.parametrize("keep", [0.5, 0.98])
def test_a_truncated_file_is_a_bad_model(tmp_path, keep):
    data = write_tiny_gguf(tmp_path / "m.gguf").read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(BenchError) as err:
        read_gguf_info(cut)
    assert err.value.kind is BenchErrorKind.bad_model and "cut.gguf" in str(err.value)


@pytest.mark.model
def test_the_shipped_adapter_is_18_mib_of_q8_0(default_gguf):
    from botpsy.backends.model_files import MODELS_DIR

    info = with_adapter(read_gguf_info(default_gguf), MODELS_DIR / "botpsy-smol-lora.gguf")
    assert 18 * 2**20 < info.adapter_bytes < 19 * 2**20
    assert info.context_length == 8192
