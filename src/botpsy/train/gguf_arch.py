"""What GGUF and HF files call the same transformer, for reading a GGUF back into HF.

Used by the importer (GGUF -> HF, ``botpsy.train.gguf_import``): llama.cpp's converters
only go the other way. Tensor names come from ``gguf.TensorNameMap`` (the mapping
llama.cpp itself maintains); the one numeric difference is that llama.cpp's ``llama``
architecture rotates adjacent pairs (GPT-J style RoPE) while HF Llama rotates halves,
so Q and K rows are un-permuted on the way out. Qwen models use NeoX RoPE on both
sides: no permutation.
"""

from __future__ import annotations

from dataclasses import dataclass

import gguf
import numpy as np

from botpsy.train.llama_converters import UnsupportedModelError

__all__ = ["UnsupportedModelError"]


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


def unpermute_qk(weights: np.ndarray, n_head: int) -> np.ndarray:
    """llama.cpp (adjacent pairs) rows -> HF (rotate-half) rows, per head: the inverse of
    the permutation llama.cpp's converter applies to Llama's Q and K."""
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
