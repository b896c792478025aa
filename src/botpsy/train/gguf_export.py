"""HF model folder -> GGUF (F16), and PEFT LoRA adapter -> GGUF LoRA adapter.

llama.cpp's own ``convert_hf_to_gguf.py`` is not a Python package, so botpsy
writes GGUF files itself with the ``gguf`` package (llama.cpp's reference
writer): tensor names from ``gguf.TensorNameMap``, hyperparameters and the
byte-level BPE tokenizer as llama.cpp expects them. Supported: Llama, Qwen2
and Qwen3 dense models, which covers SmolLM2 and the tiny test models; the
result is checked by loading it with ``llama_cpp`` (see ``botpsy.train.export``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import gguf
import numpy as np

from botpsy.train.gguf_arch import (
    ArchInfo,
    HParams,
    UnsupportedModelError,
    arch_for_model_type,
    gguf_name,
    hf_tensor_names,
    permute_qk,
)

# Split regexes of known pre-tokenizers, told apart by a distinctive piece.
_SPLIT_PRETOKENIZERS = ((r"\p{N}{1,3}", "llama-bpe"), (r"\p{L}+|\p{N}|", "qwen2"))


def read_state(model_dir: Path) -> dict[str, np.ndarray]:
    """All tensors of a safetensors model folder (sharded or not) as float32 arrays."""
    from safetensors import safe_open

    files = sorted(model_dir.glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"{model_dir}: no .safetensors weights (save with save_pretrained)")
    state: dict[str, np.ndarray] = {}
    for file in files:
        with safe_open(str(file), framework="pt") as handle:
            for key in handle.keys():  # noqa: SIM118 - safe_open is not a mapping
                state[key] = handle.get_tensor(key).float().numpy()
    return state


def pre_tokenizer_name(tokenizer_json: dict[str, Any]) -> str:
    """llama.cpp's name for the pre-tokenizer of an HF ``tokenizer.json``."""
    pre = tokenizer_json.get("pre_tokenizer") or {}
    parts = pre.get("pretokenizers", [pre]) if pre.get("type") == "Sequence" else [pre]
    kinds = [p.get("type") for p in parts]
    if kinds == ["ByteLevel"] and parts[0].get("use_regex", True):
        return "gpt-2"
    if kinds == ["Digits", "ByteLevel"] and parts[0].get("individual_digits"):
        return "smollm"
    if kinds == ["Split", "ByteLevel"]:
        regex = str((parts[0].get("pattern") or {}).get("Regex", ""))
        for piece, name in _SPLIT_PRETOKENIZERS:
            if piece in regex:
                return name
    raise UnsupportedModelError(
        f"pre-tokenizer {kinds} is not one llama.cpp knows here (gpt-2, smollm, qwen2, llama-bpe)"
    )


def _merges(model: dict[str, Any]) -> list[str]:
    return [m if isinstance(m, str) else " ".join(m) for m in model.get("merges", [])]


def add_tokenizer(writer: gguf.GGUFWriter, model_dir: Path, vocab_size: int) -> None:
    """Tokens, types, merges, special ids and chat template of a byte-level BPE tokenizer."""
    path = model_dir / "tokenizer.json"
    if not path.exists():
        raise FileNotFoundError(
            f"{model_dir}: no tokenizer.json (a fast byte-level BPE tokenizer is needed)"
        )
    data = json.loads(path.read_text(encoding="utf-8"))
    model = data.get("model", {})
    if model.get("type") != "BPE" or (data.get("decoder") or {}).get("type") != "ByteLevel":
        raise UnsupportedModelError("only byte-level BPE tokenizers can be written to GGUF here")
    tokens: dict[int, str] = {i: t for t, i in model["vocab"].items()}
    types: dict[int, int] = {i: gguf.TokenType.NORMAL for i in tokens}
    for added in data.get("added_tokens", []):
        tokens[added["id"]] = added["content"]
        types[added["id"]] = (
            gguf.TokenType.CONTROL if added.get("special") else gguf.TokenType.USER_DEFINED
        )
    size = max(vocab_size, max(tokens) + 1)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(pre_tokenizer_name(data))
    writer.add_token_list([tokens.get(i, f"[PAD{i}]") for i in range(size)])
    writer.add_token_types([types.get(i, gguf.TokenType.UNUSED) for i in range(size)])
    writer.add_token_merges(_merges(model))
    special = gguf.SpecialVocab(model_dir, load_merges=False, n_vocab=size)
    special.add_to_gguf(writer, quiet=True)


def _tensor(info: ArchInfo, hp: HParams, hf_name: str, array: np.ndarray) -> np.ndarray:
    if info.permute_qk and hf_name.endswith("q_proj.weight"):
        array = permute_qk(array, hp.n_head)
    elif info.permute_qk and hf_name.endswith("k_proj.weight"):
        array = permute_qk(array, hp.n_head_kv)
    # llama.cpp keeps norms and biases in F32; matrices go to F16 (MOSTLY_F16).
    return array.astype(np.float32 if array.ndim == 1 else np.float16)


def convert_hf_to_gguf(
    model_dir: str | Path, out_path: str | Path, name: str | None = None
) -> Path:
    """Write an F16 GGUF of the HF model in ``model_dir`` (config, safetensors, tokenizer.json)."""
    from transformers import AutoConfig

    model_dir, out_path = Path(model_dir), Path(out_path)
    config = AutoConfig.from_pretrained(model_dir)
    info = arch_for_model_type(config.model_type)
    hp = HParams.from_hf(config)
    state = read_state(model_dir)
    writer = gguf.GGUFWriter(str(out_path), gguf.MODEL_ARCH_NAMES[info.gguf_arch])
    writer.add_type(gguf.GGUFType.MODEL)
    writer.add_name(name or model_dir.name)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    hp.write(writer)
    add_tokenizer(writer, model_dir, hp.vocab_size)
    for hf_name in hf_tensor_names(info, hp.n_layers, hp.tied):
        if hf_name not in state:
            raise UnsupportedModelError(
                f"{model_dir}: tensor {hf_name!r} is missing from the weights"
            )
        writer.add_tensor(
            gguf_name(info, hp.n_layers, hf_name), _tensor(info, hp, hf_name, state[hf_name])
        )
    _write(writer)
    return out_path


def _write(writer: gguf.GGUFWriter) -> None:
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


# Adapter tensor types: f16 halves the file (the shipped adapter must stay small);
# f32 keeps the PEFT values exactly; q8_0 halves f16 again at about 0.4% relative error
# per value, which lets a higher rank (more of a fine-tune) fit the same size.
LORA_DTYPES = {"f16": np.float16, "f32": np.float32, "q8_0": np.float16}
_Q8_0_ROW = 32  # ggml's Q8_0 block: a row (GGUF's first dimension, numpy's last) must divide


def _adapter_tensor(
    array: np.ndarray, dtype: str
) -> tuple[np.ndarray, gguf.GGMLQuantizationType | None]:
    """``array`` as stored, and its raw GGML type when the writer cannot infer it from the
    numpy dtype: Q8_0 blocks where its rows divide into them, else a plain cast (q8_0: f16)."""
    if dtype == "q8_0" and array.shape[-1] % _Q8_0_ROW == 0:
        kind = gguf.GGMLQuantizationType.Q8_0
        return gguf.quants.quantize(array.astype(np.float32), kind), kind
    return array.astype(LORA_DTYPES[dtype]), None


def _peft_scale(adapter_cfg: dict[str, Any], module: str, rank: int) -> float:
    """PEFT's ``alpha / r`` for ``module``, honouring ``alpha_pattern`` (its key matching rule)."""
    alpha = adapter_cfg["lora_alpha"]
    for key, value in (adapter_cfg.get("alpha_pattern") or {}).items():
        if re.match(rf"(.*\.)?({key})$", module):
            alpha = value
            break
    return float(alpha) / rank


def convert_lora_to_gguf(
    adapter_dir: str | Path,
    base_dir: str | Path,
    out_path: str | Path,
    dtype: str = "f16",
) -> Path:
    """Write a PEFT LoRA adapter as a llama.cpp GGUF adapter for the base model in ``base_dir``.

    Each module's PEFT scale (``alpha / r``, per module under ``rank_pattern`` and
    ``alpha_pattern``) is folded into B and the file's alpha is 0, which llama.cpp
    reads as scale 1: its single file-wide alpha could not express per-module ranks.
    For Llama the rows of B on Q and K get the same RoPE permutation as the base
    weights. ``dtype`` is ``f16`` (default), ``f32`` or ``q8_0``.
    """
    from transformers import AutoConfig

    if dtype not in LORA_DTYPES:
        raise ValueError(f"adapter dtype must be one of {sorted(LORA_DTYPES)}, got {dtype!r}")
    adapter_dir, out_path = Path(adapter_dir), Path(out_path)
    adapter_cfg = json.loads((adapter_dir / "adapter_config.json").read_text(encoding="utf-8"))
    if (
        adapter_cfg.get("peft_type", "LORA") != "LORA"
        or adapter_cfg.get("use_rslora")
        or adapter_cfg.get("use_dora")
    ):
        raise UnsupportedModelError("only plain LoRA adapters (no rsLoRA/DoRA) convert to GGUF")
    config = AutoConfig.from_pretrained(base_dir)
    info, hp = arch_for_model_type(config.model_type), HParams.from_hf(config)
    state = read_state(adapter_dir)
    writer = gguf.GGUFWriter(str(out_path), gguf.MODEL_ARCH_NAMES[info.gguf_arch])
    writer.add_type(gguf.GGUFType.ADAPTER)
    writer.add_string(gguf.Keys.Adapter.TYPE, "lora")
    writer.add_float32(gguf.Keys.Adapter.LORA_ALPHA, 0.0)  # scales are folded into B
    pairs = 0
    for key in sorted(state):
        if ".lora_A." not in key:
            continue
        base = key.replace("base_model.model.", "", 1).replace(".lora_A.weight", ".weight")
        lora_a, lora_b = state[key], state[key.replace(".lora_A.", ".lora_B.")]
        module = base.removesuffix(".weight")
        lora_b = lora_b * _peft_scale(adapter_cfg, module, lora_a.shape[0])
        if info.permute_qk and base.endswith(("q_proj.weight", "k_proj.weight")):
            heads = hp.n_head if base.endswith("q_proj.weight") else hp.n_head_kv
            lora_b = permute_qk(lora_b, heads)
        target = gguf_name(info, hp.n_layers, base)
        for part, array in (("lora_a", lora_a), ("lora_b", lora_b)):
            data, kind = _adapter_tensor(array, dtype)
            writer.add_tensor(f"{target}.{part}", data, raw_dtype=kind)
        pairs += 1
    if not pairs:
        raise UnsupportedModelError(f"{adapter_dir}: no LoRA A/B tensors found")
    _write(writer)
    return out_path
