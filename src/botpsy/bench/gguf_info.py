"""What a GGUF file holds, as far as speed is concerned: tensor bytes by kind and the KV shape.

The roofline needs the bytes one decode step must stream from memory, which is
a property of the file (its tensors and their quantization types), not of the
runtime; it is read here with the ``gguf`` package's reader, which memory-maps
the file and touches only its header.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EMBEDDING_TENSOR = "token_embd.weight"
OUTPUT_TENSOR = "output.weight"


@dataclass(frozen=True)
class GgufInfo:
    """Tensor accounting and attention shape of one GGUF file.

    ``output_bytes`` is None when the output projection is tied to the token
    embeddings (SmolLM2): then every decode step reads the whole embedding
    matrix through the output matmul. When untied, a decode step reads only one
    embedding row (``embedding_row_bytes``) plus the separate output matrix.
    """

    path: Path
    file_bytes: int
    tensor_bytes: int
    n_params: int
    file_type: str  # llama.cpp's name of the file's main quantization, e.g. "q4_1"
    architecture: str
    embedding_bytes: int
    embedding_row_bytes: int
    output_bytes: int | None
    n_layer: int
    n_head_kv: int
    head_dim: int
    bytes_by_type: dict[str, int] = field(default_factory=dict)

    @property
    def tied_embeddings(self) -> bool:
        return self.output_bytes is None


def file_type_name(code: int) -> str:
    """``general.file_type`` as a quant name (``3`` -> ``q4_1``, ``0`` -> ``f32``)."""
    from gguf import LlamaFileType

    try:
        name = LlamaFileType(code).name
    except ValueError:
        return f"ftype_{code}"
    return "f32" if name == "ALL_F32" else name.removeprefix("MOSTLY_").lower()


def _field(reader: Any, key: str, default: Any = None) -> Any:
    entry = reader.fields.get(key)
    return default if entry is None else entry.contents()


def read_gguf_info(path: str | Path) -> GgufInfo:
    """Read a GGUF's tensor table and hyperparameters (header only, fast)."""
    from gguf import GGUFReader

    path = Path(path)
    reader = GGUFReader(path)
    arch = str(_field(reader, "general.architecture", "unknown"))
    by_type: Counter[str] = Counter()
    tensors = {}
    for tensor in reader.tensors:
        by_type[tensor.tensor_type.name.lower()] += int(tensor.n_bytes)
        tensors[tensor.name] = tensor
    embd = tensors.get(EMBEDDING_TENSOR)
    output = tensors.get(OUTPUT_TENSOR)
    n_head = int(_field(reader, f"{arch}.attention.head_count", 1))
    n_embd = int(_field(reader, f"{arch}.embedding_length", 0))
    head_dim = int(_field(reader, f"{arch}.attention.key_length", n_embd // max(n_head, 1)))
    return GgufInfo(
        path=path,
        file_bytes=path.stat().st_size,
        tensor_bytes=sum(by_type.values()),
        n_params=sum(int(t.n_elements) for t in reader.tensors),
        file_type=file_type_name(int(_field(reader, "general.file_type", -1))),
        architecture=arch,
        embedding_bytes=int(embd.n_bytes) if embd is not None else 0,
        embedding_row_bytes=int(embd.n_bytes) // int(embd.shape[-1]) if embd is not None else 0,
        output_bytes=int(output.n_bytes) if output is not None else None,
        n_layer=int(_field(reader, f"{arch}.block_count", 0)),
        n_head_kv=int(_field(reader, f"{arch}.attention.head_count_kv", n_head)),
        head_dim=head_dim,
        bytes_by_type=dict(by_type),
    )
