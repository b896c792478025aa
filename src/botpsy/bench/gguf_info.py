"""What a GGUF file holds, as far as speed is concerned: tensor bytes by kind and the KV shape.

The roofline needs the bytes one decode step must stream from memory, which is
a property of the file (its tensors and their quantization types), not of the
runtime; it is read here with the ``gguf`` package's reader, which memory-maps
the file and touches only its header. A LoRA adapter that llama.cpp applies over
the model is read the same way: its A and B matrices are streamed at every
decode step too, so its tensor bytes belong to the bytes per token.

A file the reader cannot parse, or whose tensor table points past its end (a
truncated download), raises ``BenchError`` (``bad_model``) here, before anything
is measured.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from botpsy.bench.errors import BenchError, BenchErrorKind

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
    context_length: int | None = None  # the context the model was trained for (metadata)
    adapter_path: Path | None = None  # a LoRA adapter applied over the model (``with_adapter``)
    adapter_bytes: int = 0  # its tensor bytes: read at every decode step like the weights
    adapter_file_bytes: int = 0

    @property
    def tied_embeddings(self) -> bool:
        return self.output_bytes is None

    @property
    def size_bytes(self) -> int:
        """What is loaded: the model file plus its adapter file."""
        return self.file_bytes + self.adapter_file_bytes


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


def open_gguf(path: Path) -> Any:
    """The ``gguf`` reader of ``path``, checked: every tensor must lie inside the file.

    The reader raises all sorts of errors on a damaged file (ValueError, IndexError,
    struct errors...) and, when a cut falls between tensors, none at all; both become
    one ``bad_model`` error that names the file."""
    from gguf import GGUFReader

    try:
        reader = GGUFReader(path)
        size = path.stat().st_size
        end = max((int(t.data_offset) + int(t.n_bytes) for t in reader.tensors), default=0)
    except Exception as exc:  # any reader failure means an unusable file
        raise BenchError(
            BenchErrorKind.bad_model,
            f"{path} is not a readable GGUF (truncated or corrupt?): {type(exc).__name__}: {exc}",
        ) from exc
    if end > size:
        raise BenchError(
            BenchErrorKind.bad_model,
            f"{path} is truncated: its tensors need {end} bytes, the file has {size}",
        )
    return reader


def read_gguf_info(path: str | Path) -> GgufInfo:
    """Read a GGUF's tensor table and hyperparameters (header only, fast)."""
    path = Path(path)
    reader = open_gguf(path)
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
        context_length=_int_or_none(_field(reader, f"{arch}.context_length")),
    )


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def with_adapter(info: GgufInfo, adapter: str | Path | None) -> GgufInfo:
    """``info`` with the tensor and file bytes of the LoRA adapter llama.cpp applies over it.

    Why: llama.cpp computes ``W x + B (A x)`` for every adapted matrix at every decode
    step, so the adapter's A and B are streamed like the weights (botpsy-smol's q8_0
    adapter is a sizable fraction of its base: leaving it out overstates the roofline)."""
    if adapter is None:
        return info
    path = Path(adapter)
    reader = open_gguf(path)
    return replace(
        info,
        adapter_path=path,
        adapter_bytes=sum(int(t.n_bytes) for t in reader.tensors),
        adapter_file_bytes=path.stat().st_size,
    )
