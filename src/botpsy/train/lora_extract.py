"""Full fine-tune -> LoRA adapter, by truncated SVD of the weight difference.

The ``smol`` recipe fully fine-tunes SmolLM2, but the project ships a small
adapter applied by llama.cpp over the quantized base users already have. For
every linear weight of the target modules ``delta = W_tuned - W_base`` is
factored by SVD and cut to rank ``r``: ``A = sqrt(S_r) Vh_r`` and
``B = U_r sqrt(S_r)``, so ``B @ A`` is the best rank-``r`` approximation of
``delta`` (Eckart-Young) and A and B have balanced magnitudes, which keeps the
float16 GGUF adapter accurate. ``lora_alpha = r`` makes PEFT's and llama.cpp's
scale exactly 1.

What an adapter cannot carry (embeddings, norms, biases, an untied ``lm_head``,
linears outside the targets) is reported with its relative change, next to the
fraction of each delta the rank keeps, so a user sees what the extraction loses.

Run: ``botpsy train extract-lora --base RUN/base --tuned RUN/dapo2/model --rank 32 --out RUN/lora``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from pydantic import BaseModel

DEFAULT_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
# Config keys that decide tensor shapes and how the weights are used; all must match.
_STRUCTURAL_KEYS = (
    "model_type",
    "architectures",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "vocab_size",
    "tie_word_embeddings",
)
REPORT_FILE = "extraction.json"


class LoraExtractionError(ValueError):
    """Base and tuned models that cannot be compared, or a bad rank/target list."""


class ModuleEnergy(BaseModel):
    """How much of one weight's change the rank-r factors keep."""

    name: str  # HF parameter name, e.g. model.layers.0.self_attn.q_proj.weight
    shape: tuple[int, int]
    delta_norm: float  # ||delta||_F
    relative_change: float  # ||delta||_F / ||W_base||_F
    captured: float  # ||delta_r||_F / ||delta||_F (1.0 when delta is zero)


class UncarriedChange(BaseModel):
    """A weight the adapter leaves at its base value, and how far the fine-tune moved it."""

    name: str
    relative_change: float  # ||W_tuned - W_base||_F / ||W_base||_F


def _module_type(name: str) -> str:
    """``model.layers.0.self_attn.q_proj.weight`` -> ``q_proj``."""
    return name.split(".")[-2]


def pooled_energy(modules: list[ModuleEnergy]) -> float:
    """||delta_r||_F / ||delta||_F over several weights taken as one (1.0 when nothing changed)."""
    total = sum(m.delta_norm**2 for m in modules)
    kept = sum((m.delta_norm * m.captured) ** 2 for m in modules)
    return math.sqrt(kept / total) if total else 1.0


class LoraExtraction(BaseModel):
    """The adapter written and what it keeps and loses."""

    adapter_dir: str
    rank: int
    rank_pattern: dict[str, int] = {}  # module type -> its own rank (k_proj: 32)
    target_modules: list[str]
    energy: float  # overall ||delta_r||_F / ||delta||_F over all target weights
    modules: list[ModuleEnergy]
    not_carried: list[UncarriedChange]  # largest change first

    def energy_by_type(self) -> dict[str, float]:
        """Captured energy per target module type (``q_proj``...), pooled like ``energy``."""
        groups: dict[str, list[ModuleEnergy]] = {}
        for module in self.modules:
            groups.setdefault(_module_type(module.name), []).append(module)
        return {kind: pooled_energy(group) for kind, group in groups.items()}

    def _pattern_text(self) -> str:
        return "".join(f", {k} {v}" for k, v in sorted(self.rank_pattern.items()))

    def worst_module(self) -> ModuleEnergy | None:
        return min(self.modules, key=lambda m: m.captured, default=None)

    def summary_lines(self, top: int = 5) -> list[str]:
        """What a user reads after an extraction: kept energy, and the largest losses."""
        by_type = ", ".join(f"{k} {v:.3f}" for k, v in self.energy_by_type().items())
        lines = [
            f"rank {self.rank}{self._pattern_text()}: captured energy {self.energy:.4f} (||delta_r|| / ||delta||)",
            f"by module: {by_type}",
        ]
        worst = self.worst_module()
        if worst is not None:
            lines.append(f"lowest: {worst.name} {worst.captured:.4f}")
        changed = [c for c in self.not_carried if c.relative_change > 0]
        lines.append(
            f"not carried by the adapter ({len(changed)} of {len(self.not_carried)} changed), "
            "largest relative changes:"
        )
        lines += [f"  {c.name}: {c.relative_change:.2e}" for c in changed[:top]]
        return lines


class _Weights:
    """The tensors of a safetensors model folder, read one at a time.

    Two models in float32 do not fit in memory for the larger presets, and the
    SVD needs only one matrix pair at a time.
    """

    def __init__(self, model_dir: Path) -> None:
        from safetensors import safe_open

        files = sorted(model_dir.glob("*.safetensors"))
        if not files:
            raise LoraExtractionError(
                f"{model_dir}: no .safetensors weights (save the model with save_pretrained)"
            )
        self.dir = model_dir
        self.where: dict[str, Path] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        for file in files:
            with safe_open(str(file), framework="pt") as handle:
                for key in handle.keys():  # noqa: SIM118 - safe_open is not a mapping
                    self.where[key] = file
                    self.shapes[key] = tuple(handle.get_slice(key).get_shape())

    def get(self, name: str) -> Any:
        """One tensor as float64: deltas of a fine-tune are small next to the weights."""
        import torch
        from safetensors import safe_open

        with safe_open(str(self.where[name]), framework="pt") as handle:
            return handle.get_tensor(name).to(torch.float64)


def _config(model_dir: Path) -> dict[str, Any]:
    path = model_dir / "config.json"
    if not path.is_file():
        raise LoraExtractionError(f"{model_dir}: no config.json (not a Hugging Face model folder)")
    return json.loads(path.read_text(encoding="utf-8"))


def check_same_architecture(base: Path, tuned: Path) -> dict[str, Any]:
    """Raise unless both folders hold the same architecture; returns the base config."""
    base_cfg, tuned_cfg = _config(base), _config(tuned)
    differ = [
        f"{key}: {base_cfg.get(key)!r} vs {tuned_cfg.get(key)!r}"
        for key in _STRUCTURAL_KEYS
        if base_cfg.get(key) != tuned_cfg.get(key)
    ]
    if differ:
        raise LoraExtractionError(
            f"{tuned} is not a fine-tune of {base}: config differs in " + "; ".join(differ)
        )
    return base_cfg


def _check_same_tensors(base: _Weights, tuned: _Weights) -> None:
    missing = sorted(set(base.shapes) - set(tuned.shapes))
    extra = sorted(set(tuned.shapes) - set(base.shapes))
    reshaped = sorted(
        k for k in set(base.shapes) & set(tuned.shapes) if base.shapes[k] != tuned.shapes[k]
    )
    problems = []
    if missing:
        problems.append(f"missing in tuned: {missing[:5]}")
    if extra:
        problems.append(f"only in tuned: {extra[:5]}")
    if reshaped:
        problems.append(
            "shapes differ: "
            + ", ".join(f"{k} {base.shapes[k]} vs {tuned.shapes[k]}" for k in reshaped[:5])
        )
    if problems:
        raise LoraExtractionError(
            f"{base.dir} and {tuned.dir} do not have the same weights: " + "; ".join(problems)
        )


def _target_names(weights: _Weights, targets: list[str]) -> list[str]:
    """Every 2-D ``*.{target}.weight`` tensor; each target must match at least one."""
    names = [
        name
        for name in sorted(weights.shapes)
        if len(weights.shapes[name]) == 2
        and name.endswith(".weight")
        and _module_type(name) in targets
    ]
    found = {_module_type(name) for name in names}
    unmatched = [t for t in targets if t not in found]
    if unmatched:
        raise LoraExtractionError(
            f"target modules {unmatched} match no linear weight in {weights.dir} "
            f"(e.g. {', '.join(DEFAULT_TARGETS)})"
        )
    return names


def low_rank_factors(delta: Any, rank: int) -> tuple[Any, Any, float, float]:
    """(A, B, kept, total): ``B @ A`` is the best rank-``rank`` fit of ``delta``.

    ``kept`` and ``total`` are squared Frobenius norms of the fit and of ``delta``;
    factors are zero-padded when the matrix is smaller than ``rank`` (PEFT wants one r).
    """
    import torch

    u, s, vh = torch.linalg.svd(delta, full_matrices=False)
    r = min(rank, s.numel())
    root = s[:r].sqrt()
    lora_a = torch.zeros(rank, delta.shape[1], dtype=delta.dtype)
    lora_b = torch.zeros(delta.shape[0], rank, dtype=delta.dtype)
    lora_a[:r] = root[:, None] * vh[:r]
    lora_b[:, :r] = u[:, :r] * root[None, :]
    return lora_a, lora_b, float(s[:r].pow(2).sum()), float(s.pow(2).sum())


def _relative(diff: Any, reference: Any) -> float:
    ref = float(reference.norm())
    change = float(diff.norm())
    return change / ref if ref else change


def _uncarried(base: _Weights, tuned: _Weights, names: set[str]) -> list[UncarriedChange]:
    """Relative change of each weight left at its base value, largest first."""
    changes = []
    for name in sorted(names):
        w_base = base.get(name)
        changes.append(
            UncarriedChange(name=name, relative_change=_relative(tuned.get(name) - w_base, w_base))
        )
    return sorted(changes, key=lambda c: c.relative_change, reverse=True)


def _peft_key(name: str, which: str) -> str:
    """PEFT's saved key of a LoRA factor: base_model.model.<module>.lora_A.weight."""
    return f"base_model.model.{name.removesuffix('.weight')}.lora_{which}.weight"


def _factor(
    base: _Weights, tuned: _Weights, names: list[str], rank: int, rank_pattern: dict[str, int]
) -> tuple[dict[str, Any], list[ModuleEnergy]]:
    """PEFT-named float32 factors of every weight in ``names``, and what each keeps."""
    import torch

    tensors: dict[str, Any] = {}
    modules: list[ModuleEnergy] = []
    for name in names:
        w_base = base.get(name)
        delta = tuned.get(name) - w_base
        module_rank = rank_pattern.get(_module_type(name), rank)
        lora_a, lora_b, kept, total = low_rank_factors(delta, module_rank)
        tensors[_peft_key(name, "A")] = lora_a.to(torch.float32).contiguous()
        tensors[_peft_key(name, "B")] = lora_b.to(torch.float32).contiguous()
        modules.append(
            ModuleEnergy(
                name=name,
                shape=tuple(delta.shape),
                delta_norm=math.sqrt(total),
                relative_change=_relative(delta, w_base),
                captured=math.sqrt(kept / total) if total else 1.0,
            )
        )
    return tensors, modules


def _save_adapter(
    out_dir: Path,
    tensors: dict[str, Any],
    rank: int,
    rank_pattern: dict[str, int],
    targets: list[str],
    base_dir: Path,
) -> None:
    from peft import LoraConfig
    from safetensors.torch import save_file

    out_dir.mkdir(parents=True, exist_ok=True)
    config = LoraConfig(
        r=rank,
        lora_alpha=rank,  # scale alpha / r = 1: B @ A is the delta itself
        rank_pattern=dict(rank_pattern),
        alpha_pattern=dict(rank_pattern),  # the same scale 1 for the modules of other ranks
        lora_dropout=0.0,
        target_modules=sorted(targets),
        bias="none",
        task_type="CAUSAL_LM",
        base_model_name_or_path=str(base_dir),
    )
    config.save_pretrained(str(out_dir))
    save_file(tensors, str(out_dir / "adapter_model.safetensors"), metadata={"format": "pt"})


def extract_lora(
    base_dir: str | Path,
    tuned_dir: str | Path,
    out_dir: str | Path,
    rank: int = 32,
    target_modules: list[str] | None = None,
    rank_pattern: dict[str, int] | None = None,
) -> LoraExtraction:
    """Write the rank-``rank`` PEFT adapter that turns ``base_dir`` into (nearly) ``tuned_dir``.

    ``rank_pattern`` gives some module types their own rank: a full fine-tune's change to
    the small K and V projections needs far fewer directions than the MLP's, so a size
    budget is better spent unevenly.
    """

    rank_pattern = dict(rank_pattern or {})
    if rank < 1 or any(r < 1 for r in rank_pattern.values()):
        raise LoraExtractionError(f"ranks must be at least 1, got {rank} and {rank_pattern}")
    if target_modules and "embed_tokens" in target_modules:
        raise LoraExtractionError("embeddings are not linear layers; only linears are extracted")
    base_dir, tuned_dir, out_dir = Path(base_dir), Path(tuned_dir), Path(out_dir)
    targets = list(target_modules or DEFAULT_TARGETS)
    unknown = sorted(set(rank_pattern) - set(targets))
    if unknown:
        raise LoraExtractionError(f"rank_pattern names modules that are not targets: {unknown}")
    check_same_architecture(base_dir, tuned_dir)
    base, tuned = _Weights(base_dir), _Weights(tuned_dir)
    _check_same_tensors(base, tuned)
    carried = _target_names(base, targets)
    tensors, modules = _factor(base, tuned, carried, rank, rank_pattern)
    not_carried = _uncarried(base, tuned, set(base.shapes) - set(carried))
    _save_adapter(out_dir, tensors, rank, rank_pattern, targets, base_dir)
    result = LoraExtraction(
        adapter_dir=str(out_dir),
        rank=rank,
        rank_pattern=rank_pattern,
        target_modules=targets,
        energy=pooled_energy(modules),
        modules=modules,
        not_carried=not_carried,
    )
    (out_dir / REPORT_FILE).write_text(result.model_dump_json(indent=2), encoding="utf-8")
    return result
