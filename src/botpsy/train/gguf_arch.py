"""What HF and GGUF files call the same transformer: names, hyperparameters, RoPE layout.

Shared by the converter (HF -> GGUF) and the importer (GGUF -> HF) so both
directions use one table. Tensor names come from ``gguf.TensorNameMap`` (the
mapping llama.cpp itself maintains); the one numeric difference is that
llama.cpp's ``llama`` architecture rotates adjacent pairs (GPT-J style RoPE)
while HF Llama rotates halves, so Q and K rows are permuted on the way in and
un-permuted on the way out. Qwen models use NeoX RoPE on both sides: no
permutation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gguf
import numpy as np


class UnsupportedModelError(ValueError):
    """A model this converter does not know how to map (architecture, RoPE scaling, tokenizer)."""


@dataclass(frozen=True)
class ArchInfo:
    gguf_arch: gguf.MODEL_ARCH
    hf_class: str
    model_type: str
    permute_qk: bool  # llama.cpp's llama arch expects GPT-J style rotary rows
    qk_norm: bool  # per-head RMSNorm on Q and K (Qwen3)
    qkv_bias: bool  # biases on q/k/v projections (Qwen2)


ARCHS: dict[str, ArchInfo] = {
    "llama": ArchInfo(gguf.MODEL_ARCH.LLAMA, "LlamaForCausalLM", "llama", True, False, False),
    "qwen2": ArchInfo(gguf.MODEL_ARCH.QWEN2, "Qwen2ForCausalLM", "qwen2", False, False, True),
    "qwen3": ArchInfo(gguf.MODEL_ARCH.QWEN3, "Qwen3ForCausalLM", "qwen3", False, True, False),
}
GGUF_TO_MODEL_TYPE = {gguf.MODEL_ARCH_NAMES[a.gguf_arch]: key for key, a in ARCHS.items()}


def arch_for_model_type(model_type: str) -> ArchInfo:
    try:
        return ARCHS[model_type]
    except KeyError:
        raise UnsupportedModelError(
            f"model type {model_type!r} is not supported; supported: {', '.join(ARCHS)}"
        ) from None


def hf_tensor_names(info: ArchInfo, n_layers: int, tied: bool) -> list[str]:
    """Every HF parameter name of such a model, in a stable order."""
    names = ["model.embed_tokens.weight", "model.norm.weight"]
    if not tied:
        names.append("lm_head.weight")
    for i in range(n_layers):
        p = f"model.layers.{i}"
        names += [f"{p}.input_layernorm.weight", f"{p}.post_attention_layernorm.weight"]
        names += [f"{p}.self_attn.{x}_proj.weight" for x in ("q", "k", "v", "o")]
        names += [f"{p}.mlp.{x}_proj.weight" for x in ("gate", "up", "down")]
        if info.qk_norm:
            names += [f"{p}.self_attn.q_norm.weight", f"{p}.self_attn.k_norm.weight"]
        if info.qkv_bias:
            names += [f"{p}.self_attn.{x}_proj.bias" for x in ("q", "k", "v")]
    return names


def gguf_name(info: ArchInfo, n_layers: int, hf_name: str) -> str:
    """The GGUF tensor name of an HF parameter (``model.layers.0.self_attn.q_proj.weight`` ->
    ``blk.0.attn_q.weight``)."""
    mapping = gguf.get_tensor_name_map(info.gguf_arch, n_layers)
    name = mapping.get_name(hf_name, try_suffixes=(".weight", ".bias"))
    if name is None:
        raise UnsupportedModelError(f"no GGUF name for tensor {hf_name!r}")
    return name


def permute_qk(weights: np.ndarray, n_head: int) -> np.ndarray:
    """HF (rotate-half) rows -> llama.cpp (adjacent pairs) rows, per head."""
    rows = weights.shape[0]
    return (
        weights.reshape(n_head, 2, rows // n_head // 2, *weights.shape[1:])
        .swapaxes(1, 2)
        .reshape(weights.shape)
    )


def unpermute_qk(weights: np.ndarray, n_head: int) -> np.ndarray:
    """The inverse of ``permute_qk``."""
    rows = weights.shape[0]
    return (
        weights.reshape(n_head, rows // n_head // 2, 2, *weights.shape[1:])
        .swapaxes(1, 2)
        .reshape(weights.shape)
    )


@dataclass(frozen=True)
class HParams:
    """The hyperparameters both file kinds record, in one place."""

    n_layers: int
    hidden: int
    intermediate: int
    n_head: int
    n_head_kv: int
    head_dim: int
    vocab_size: int
    context: int
    rope_theta: float
    rms_eps: float
    tied: bool

    @classmethod
    def from_hf(cls, config: Any) -> HParams:
        rope = dict(getattr(config, "rope_parameters", None) or {})
        if rope.get("rope_type", "default") != "default":
            raise UnsupportedModelError(
                f"RoPE scaling {rope.get('rope_type')!r} is not supported by this converter"
            )
        heads = config.num_attention_heads
        return cls(
            n_layers=config.num_hidden_layers,
            hidden=config.hidden_size,
            intermediate=config.intermediate_size,
            n_head=heads,
            n_head_kv=getattr(config, "num_key_value_heads", None) or heads,
            head_dim=getattr(config, "head_dim", None) or config.hidden_size // heads,
            vocab_size=config.vocab_size,
            context=config.max_position_embeddings,
            rope_theta=float(rope.get("rope_theta", getattr(config, "rope_theta", 10000.0))),
            rms_eps=float(config.rms_norm_eps),
            tied=bool(getattr(config, "tie_word_embeddings", False)),
        )

    def write(self, writer: gguf.GGUFWriter) -> None:
        writer.add_block_count(self.n_layers)
        writer.add_context_length(self.context)
        writer.add_embedding_length(self.hidden)
        writer.add_feed_forward_length(self.intermediate)
        writer.add_head_count(self.n_head)
        writer.add_head_count_kv(self.n_head_kv)
        writer.add_rope_freq_base(self.rope_theta)
        writer.add_layer_norm_rms_eps(self.rms_eps)
        writer.add_rope_dimension_count(self.head_dim)
        writer.add_key_length(self.head_dim)
        writer.add_value_length(self.head_dim)
        writer.add_vocab_size(self.vocab_size)
