"""Tensor accounting of GGUF files (tiny random files written in the test)."""

from __future__ import annotations

import pytest

from botpsy.bench.gguf_info import file_type_name, read_gguf_info

from .helpers import FFN, HIDDEN, VOCAB, write_tiny_gguf

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
