"""HF model folder -> GGUF, and PEFT LoRA adapter -> GGUF adapter, with llama.cpp's converters.

Both run llama.cpp's own scripts (``botpsy.train.llama_converters``) in a subprocess,
so every architecture they register converts (Llama, Qwen2/3, Qwen3.5's hybrid
``qwen35``...). botpsy checks beforehand what it can tell clearly: the architecture is
one the converter registers (else ``UnsupportedModelError`` naming them), and a Qwen3.5
checkpoint saved without its multi-token-prediction layers (transformers drops them)
converts as with ``--no-mtp``.

One part of the adapter path is botpsy's own: each module's PEFT scale (``alpha / r``,
per module under ``rank_pattern``/``alpha_pattern``) is folded into B in a copy of the
adapter whose alpha is 0, which llama.cpp reads as scale 1. llama.cpp's converter writes
one file-wide alpha and ignores those patterns, so a rank-patterned adapter (as
``extract-lora --rank-pattern`` writes) would be applied at the wrong scale otherwise.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

from botpsy.train.llama_converters import UnsupportedModelError, find, run_converter

# Adapter tensor types: f16 halves the file; f32 keeps the PEFT values exactly; q8_0
# halves f16 again (tensors whose rows do not fill Q8_0 blocks stay f16).
LORA_DTYPES = ("f16", "f32", "q8_0")
HF_OUTTYPES = ("f16", "bf16", "f32", "q8_0")


def _json(path: Path, what: str) -> dict[str, Any]:
    if not path.is_file():
        raise FileNotFoundError(f"{path.parent}: no {path.name} ({what})")
    return json.loads(path.read_text(encoding="utf-8"))


def weight_names(model_dir: Path) -> list[str]:
    """Tensor names of a safetensors folder, read from the file headers."""
    from safetensors import safe_open

    files = sorted(model_dir.glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"{model_dir}: no .safetensors weights (save with save_pretrained)")
    names: list[str] = []
    for file in files:
        with safe_open(str(file), framework="pt") as handle:
            names += list(handle.keys())
    return names


def check_supported(model_dir: Path) -> str:
    """The model's HF architecture, if llama.cpp's converter registers it."""
    config = _json(model_dir / "config.json", "not a Hugging Face model folder")
    archs = config.get("architectures") or []
    supported = find().architectures()
    if not archs or archs[0] not in supported:
        raise UnsupportedModelError(
            f"{model_dir}: architecture {archs[0] if archs else None!r} "
            f"(model type {config.get('model_type')!r}) is not one llama.cpp's converter "
            f"supports; supported: {', '.join(supported)}"
        )
    return archs[0]


def has_mtp(model_dir: Path) -> bool:
    """Whether the weights hold multi-token-prediction layers (transformers drops them on load,
    so a fine-tune saved by it has none, whatever its config declares)."""
    if not any(model_dir.glob("*.safetensors")):  # a config-only base of an adapter
        return False
    return any(n.startswith(("mtp.", "model.mtp.")) for n in weight_names(model_dir))


def convert_hf_to_gguf(
    model_dir: str | Path, out_path: str | Path, name: str | None = None, outtype: str = "f16"
) -> Path:
    """Write a GGUF (``outtype``: f16, bf16, f32 or q8_0) of the HF model in ``model_dir``."""
    if outtype not in HF_OUTTYPES:
        raise ValueError(f"outtype must be one of {HF_OUTTYPES}, got {outtype!r}")
    model_dir, out_path = Path(model_dir), Path(out_path)
    check_supported(model_dir)
    args = [str(model_dir), "--outfile", str(out_path), "--outtype", outtype]
    args += ["--model-name", name or model_dir.name]
    run_converter(find().hf_script, args, model_dir, str(model_dir), mtp=has_mtp(model_dir))
    return out_path


def _peft_scale(adapter_cfg: dict[str, Any], module: str, rank: int) -> float:
    """PEFT's ``alpha / r`` for ``module``, honouring ``alpha_pattern`` (its key matching rule)."""
    alpha = adapter_cfg["lora_alpha"]
    for key, value in (adapter_cfg.get("alpha_pattern") or {}).items():
        if re.match(rf"(.*\.)?({key})$", module):
            alpha = value
            break
    return float(alpha) / rank


def fold_lora_scales(adapter_dir: Path, out_dir: Path) -> Path:
    """A copy of a plain LoRA adapter with each module's scale folded into B and alpha 0."""
    from safetensors.torch import load_file, save_file

    cfg = _json(adapter_dir / "adapter_config.json", "not a PEFT adapter folder")
    if cfg.get("peft_type", "LORA") != "LORA" or cfg.get("use_rslora") or cfg.get("use_dora"):
        raise UnsupportedModelError("only plain LoRA adapters (no rsLoRA/DoRA) convert to GGUF")
    state = load_file(str(adapter_dir / "adapter_model.safetensors"))
    pairs = [key for key in state if ".lora_A." in key]
    if not pairs:
        raise UnsupportedModelError(f"{adapter_dir}: no LoRA A/B tensors found")
    for key in pairs:
        module = key.replace("base_model.model.", "", 1).removesuffix(".lora_A.weight")
        b_key = key.replace(".lora_A.", ".lora_B.")
        scale = _peft_scale(cfg, module, state[key].shape[0])
        state[b_key] = (state[b_key].float() * scale).contiguous()
    out_dir.mkdir(parents=True, exist_ok=True)
    cfg.update(lora_alpha=0, alpha_pattern={}, rank_pattern={})
    (out_dir / "adapter_config.json").write_text(json.dumps(cfg), encoding="utf-8")
    save_file(state, str(out_dir / "adapter_model.safetensors"), metadata={"format": "pt"})
    return out_dir


def convert_lora_to_gguf(
    adapter_dir: str | Path, base_dir: str | Path, out_path: str | Path, dtype: str = "f16"
) -> Path:
    """Write a PEFT LoRA adapter as a llama.cpp GGUF adapter for the base model in ``base_dir``
    (``dtype``: f16, f32 or q8_0), scales folded as the module docstring says."""
    if dtype not in LORA_DTYPES:
        raise ValueError(f"adapter dtype must be one of {list(LORA_DTYPES)}, got {dtype!r}")
    adapter_dir, base_dir, out_path = Path(adapter_dir), Path(base_dir), Path(out_path)
    check_supported(base_dir)
    with tempfile.TemporaryDirectory() as tmp:
        folded = fold_lora_scales(adapter_dir, Path(tmp))
        args = ["--base", str(base_dir), "--outfile", str(out_path), "--outtype", dtype, str(folded)]
        run_converter(find().lora_script, args, base_dir, str(adapter_dir), has_mtp(base_dir))
    return out_path
