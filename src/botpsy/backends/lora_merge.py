"""Fold a GGUF LoRA adapter into its base GGUF, so llama.cpp runs one model instead of two.

Why: llama.cpp applies an adapter at run time as two extra low-rank products beside
every adapted weight, on every token; for a small model with an adapter on all seven
projections of every layer that is a large share of the work of decoding. Folding
``W + scale * B @ A`` into the weight once gives the same function at the cost of
one rounding of the sum into the base tensor's type (``benchmarks/cold_ask.py``
measures the speed, the assistant evals the answers).

Only float bases take a fold. A fine-tuning delta is far smaller than the rounding step
of an 8-bit (let alone 4-bit) block quantization, so rounding ``W + delta`` to Q8_0
loses most of the delta, and the model with it: the tests compare the next-token logits
of a folded and a run-time adapter. F16 keeps it (and holds a Q4_1 base's weights
exactly).

The adapted tensors are read as float, summed and written back in their own type;
every other tensor and every metadata key is copied as it is. The scale is llama.cpp's:
``alpha / rank`` when the adapter records an alpha, else 1, times the user's scale.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import gguf
import numpy as np

# Base tensor types a delta survives being rounded into (see above).
WRITABLE = frozenset({
    gguf.GGMLQuantizationType.F32,
    gguf.GGMLQuantizationType.F16,
    gguf.GGMLQuantizationType.BF16,
})


class LoraMergeError(ValueError):
    """The adapter does not fit the base (other tensors, shapes or types)."""


@dataclass(frozen=True)
class MergeReport:
    """What a merge did: how many base tensors took a delta, at which scale."""

    target: Path
    merged_tensors: int
    scale: float


def _field(reader: gguf.GGUFReader, key: str, default=None):
    field = reader.fields.get(key)
    return field.contents() if field is not None else default


def adapter_pairs(adapter: gguf.GGUFReader) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Base tensor name -> (A, B) as float32 matrices (A: rank x in, B: out x rank)."""
    halves: dict[str, dict[str, np.ndarray]] = {}
    for tensor in adapter.tensors:
        base, _, half = tensor.name.rpartition(".lora_")
        if half not in ("a", "b"):
            raise LoraMergeError(f"{tensor.name} is not a LoRA tensor (name.lora_a / name.lora_b)")
        halves.setdefault(base, {})[half] = gguf.quants.dequantize(tensor.data, tensor.tensor_type)
    pairs = {}
    for base, pair in halves.items():
        if set(pair) != {"a", "b"}:
            raise LoraMergeError(f"the adapter has only one half of {base}")
        pairs[base] = (pair["a"].astype(np.float32), pair["b"].astype(np.float32))
    return pairs


def lora_scale(adapter: gguf.GGUFReader, rank: int, user_scale: float = 1.0) -> float:
    """llama.cpp's scale of an adapter: ``alpha / rank`` when alpha is set, else 1."""
    alpha = float(_field(adapter, "adapter.lora.alpha", 0.0) or 0.0)
    return user_scale * (alpha / rank if alpha else 1.0)


def merged_weight(tensor, a: np.ndarray, b: np.ndarray, scale: float) -> np.ndarray:
    """The base tensor plus ``scale * B @ A``, in the base tensor's own type (raw bytes
    for quantized types)."""
    if tensor.tensor_type not in WRITABLE:
        raise LoraMergeError(
            f"{tensor.name} is {tensor.tensor_type.name}: an adapter folded into a quantized "
            f"weight is lost in its rounding; fold into a base in "
            f"{', '.join(sorted(t.name for t in WRITABLE))} (requantize the base first), or "
            "apply the adapter at run time"
        )
    weight = gguf.quants.dequantize(tensor.data, tensor.tensor_type).astype(np.float32)
    if weight.shape != (b.shape[0], a.shape[1]) or a.shape[0] != b.shape[1]:
        raise LoraMergeError(
            f"adapter for {tensor.name} is {b.shape[0]}x{b.shape[1]} @ {a.shape[0]}x{a.shape[1]}, "
            f"the weight is {weight.shape[0]}x{weight.shape[1]}"
        )
    weight += scale * (b @ a)
    if tensor.tensor_type == gguf.GGMLQuantizationType.F32:
        return weight
    return gguf.quants.quantize(weight, tensor.tensor_type)


def _copy_metadata(reader: gguf.GGUFReader, writer: gguf.GGUFWriter) -> None:
    for field in reader.fields.values():
        if field.name == gguf.Keys.General.ARCHITECTURE or field.name.startswith("GGUF."):
            continue  # written by GGUFWriter itself
        kind = field.types[0]
        sub = field.types[-1] if kind == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(field.name, field.contents(), kind, sub_type=sub)


def merge_lora(base: Path, adapter: Path, target: Path, user_scale: float = 1.0) -> MergeReport:
    """Write ``target``: ``base`` with ``adapter`` folded in (atomically: a partial file
    is never left under the target's name)."""
    reader, lora = gguf.GGUFReader(base), gguf.GGUFReader(adapter)
    pairs = adapter_pairs(lora)
    names = {t.name for t in reader.tensors}
    missing = sorted(set(pairs) - names)
    if missing:
        raise LoraMergeError(f"the adapter adapts tensors the base lacks: {', '.join(missing[:5])}")
    rank = next(iter(pairs.values()))[0].shape[0] if pairs else 1
    scale = lora_scale(lora, rank, user_scale)
    arch = _field(reader, gguf.Keys.General.ARCHITECTURE)
    partial = target.with_name(f"{target.name}.part-{os.getpid()}")
    writer = gguf.GGUFWriter(partial, arch, endianess=reader.endianess)
    try:
        _copy_metadata(reader, writer)
        data = []
        for tensor in reader.tensors:
            value = tensor.data
            if tensor.name in pairs:
                value = merged_weight(tensor, *pairs[tensor.name], scale)
            writer.add_tensor_info(tensor.name, value.shape, value.dtype, value.nbytes, tensor.tensor_type)
            data.append(value)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_ti_data_to_file()
        for value in data:
            writer.write_tensor_data(value, tensor_endianess=reader.endianess)
        writer.close()
        partial.replace(target)
    except BaseException:
        writer.close()
        partial.unlink(missing_ok=True)
        raise
    return MergeReport(target, len(pairs), scale)
