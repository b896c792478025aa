"""Stage 5: trained model -> GGUF F16 -> quantized GGUFs (Q8_0, Q4_K_M), checked in llama.cpp.

A LoRA run is merged into its base first (the shipped file is one GGUF); the
adapter is also written as a llama.cpp GGUF adapter so it can be applied at
load time (``Llama(model_path=base, lora_path=adapter)``). Every file written
is loaded with ``llama_cpp.Llama`` and asked for a few greedy tokens, so an
export that llama.cpp cannot read fails here, not on the device.

Run: ``botpsy train export --model runs/x/dapo2 --out runs/x/gguf``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from botpsy.backends.quantize import QUANT_FTYPES, QuantizeError, run_quantizer
from botpsy.train.gguf_export import convert_hf_to_gguf, convert_lora_to_gguf


class ExportError(RuntimeError):
    """A conversion, quantization or load check that failed."""


@dataclass
class ExportConfig:
    model_dir: str  # HF model folder (the base model when ``adapter_dir`` is given)
    out_dir: str
    adapter_dir: str | None = None  # PEFT LoRA adapter to merge (and write as a GGUF adapter)
    adapter_dtype: str = "f16"  # GGUF adapter tensors: f16, f32 or q8_0
    quants: list[str] = field(default_factory=lambda: ["Q8_0", "Q4_K_M"])
    name: str = "botpsy"
    verify: bool = True
    threads: int = 2
    check_prompt: str = "<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n"


class GGUFCheck(BaseModel):
    """What llama.cpp made of a file: vocabulary size, a short greedy sample."""

    path: str
    size_bytes: int
    n_vocab: int
    sample: str


class ExportResult(BaseModel):
    f16: str
    quantized: dict[str, str]
    adapter: str | None = None
    checks: list[GGUFCheck] = []


def quantize(f16_path: Path, out_path: Path, quant: str, threads: int = 2) -> Path:
    """Quantize a GGUF with llama.cpp's quantizer (``botpsy.backends.quantize``; tensors
    whose rows do not fit a K-quant block fall back to a compatible type, as llama.cpp decides)."""
    if quant.lower() not in QUANT_FTYPES:
        raise ExportError(f"unknown quantization {quant!r}; known: {', '.join(QUANT_FTYPES)}")
    try:
        run_quantizer(f16_path, out_path, quant.lower(), threads)
    except QuantizeError as exc:
        raise ExportError(str(exc)) from exc
    return out_path


class _quiet_stderr:
    """Silence llama.cpp's C-level stderr (load messages) unless debugging."""

    def __enter__(self) -> None:
        self._saved = None
        if os.environ.get("BOTPSY_DEBUG"):
            return
        self._saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            os.dup2(self._saved, 2)
            os.close(self._saved)


def check_gguf(
    path: Path, prompt: str, lora_path: Path | None = None, threads: int = 2
) -> GGUFCheck:
    """Load ``path`` (and an adapter) in llama.cpp and decode a few greedy tokens."""
    import llama_cpp

    try:
        with _quiet_stderr():
            llm = llama_cpp.Llama(
                model_path=str(path),
                lora_path=str(lora_path) if lora_path else None,
                n_ctx=256,
                n_threads=threads,
                verbose=False,
                seed=0,
            )
    except (ValueError, RuntimeError) as exc:
        raise ExportError(f"llama.cpp cannot load {path}: {exc}") from exc
    try:
        out = llm.create_completion(prompt, max_tokens=8, temperature=0.0)
        return GGUFCheck(
            path=str(path),
            size_bytes=path.stat().st_size,
            n_vocab=llm.n_vocab(),
            sample=out["choices"][0]["text"],
        )
    finally:
        llm.close()


def merge_lora(base_dir: Path, adapter_dir: Path, out_dir: Path) -> Path:
    """Fold a LoRA adapter into its base weights and save a plain HF model folder."""
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    base = AutoModelForCausalLM.from_pretrained(base_dir, dtype=torch.float32)
    merged = PeftModel.from_pretrained(base, adapter_dir).merge_and_unload()
    merged.save_pretrained(out_dir)
    AutoTokenizer.from_pretrained(
        adapter_dir if (adapter_dir / "tokenizer.json").exists() else base_dir
    ).save_pretrained(out_dir)
    return out_dir


def main(cfg: ExportConfig) -> ExportResult:
    """Convert, quantize and check; returns the paths written."""
    out = Path(cfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model_dir = Path(cfg.model_dir)
    adapter_gguf = None
    if cfg.adapter_dir:
        adapter_gguf = convert_lora_to_gguf(
            cfg.adapter_dir, model_dir, out / f"{cfg.name}-lora.gguf", dtype=cfg.adapter_dtype
        )
        model_dir = merge_lora(model_dir, Path(cfg.adapter_dir), out / "merged")
    f16 = convert_hf_to_gguf(model_dir, out / f"{cfg.name}-F16.gguf", name=cfg.name)
    quantized = {q: quantize(f16, out / f"{cfg.name}-{q}.gguf", q, cfg.threads) for q in cfg.quants}
    result = ExportResult(
        f16=str(f16),
        quantized={q: str(p) for q, p in quantized.items()},
        adapter=str(adapter_gguf) if adapter_gguf else None,
    )
    if cfg.verify:
        for path in [f16, *quantized.values()]:
            result.checks.append(check_gguf(path, cfg.check_prompt, threads=cfg.threads))
        if adapter_gguf:
            base_f16 = convert_hf_to_gguf(Path(cfg.model_dir), out / f"{cfg.name}-base-F16.gguf")
            result.checks.append(check_gguf(base_f16, cfg.check_prompt, adapter_gguf, cfg.threads))
    (out / "export.json").write_text(result.model_dump_json(indent=2), encoding="utf-8")
    return result
