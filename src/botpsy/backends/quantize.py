"""Quantized variants of a GGUF, made with llama.cpp's own quantizer and cached.

``llama_model_quantize`` (llama.cpp's quantize tool, exposed by llama-cpp-python)
writes a new GGUF with the requested file type. The shipped SmolLM2 is already
Q4_1, so variants are *requantized* (``allow_requantize``): each tensor is
dequantized and quantized again. A variant can then be no better than its
source, which the report records as ``source_quant``.

Variants are cached under ``<cache>/bench/variants`` by the source's sha256 and
the quant name, so the second bench run of a model quantizes nothing. The model specs
(``smollm2:q8_0``, ``botpsy.backends.model_files``), the bench and the export all make their
variants here; a failure is a ``QuantizeError`` whose ``kind`` says which.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

SOURCE = "source"  # the model file as given, not requantized
UNQUANTIZED = frozenset({"f32", "f16", "bf16"})

# Quant name -> llama_cpp constant. Limited to the types llama.cpp can make
# without an importance matrix (the IQ1/IQ2/IQ3 types need one).
QUANT_FTYPES: dict[str, str] = {
    "f16": "LLAMA_FTYPE_MOSTLY_F16",
    "bf16": "LLAMA_FTYPE_MOSTLY_BF16",
    "q8_0": "LLAMA_FTYPE_MOSTLY_Q8_0",
    "q6_k": "LLAMA_FTYPE_MOSTLY_Q6_K",
    "q5_k_m": "LLAMA_FTYPE_MOSTLY_Q5_K_M",
    "q5_k_s": "LLAMA_FTYPE_MOSTLY_Q5_K_S",
    "q5_1": "LLAMA_FTYPE_MOSTLY_Q5_1",
    "q5_0": "LLAMA_FTYPE_MOSTLY_Q5_0",
    "q4_k_m": "LLAMA_FTYPE_MOSTLY_Q4_K_M",
    "q4_k_s": "LLAMA_FTYPE_MOSTLY_Q4_K_S",
    "q4_1": "LLAMA_FTYPE_MOSTLY_Q4_1",
    "q4_0": "LLAMA_FTYPE_MOSTLY_Q4_0",
    "iq4_nl": "LLAMA_FTYPE_MOSTLY_IQ4_NL",
    "iq4_xs": "LLAMA_FTYPE_MOSTLY_IQ4_XS",
    "q3_k_l": "LLAMA_FTYPE_MOSTLY_Q3_K_L",
    "q3_k_m": "LLAMA_FTYPE_MOSTLY_Q3_K_M",
    "q3_k_s": "LLAMA_FTYPE_MOSTLY_Q3_K_S",
    "q2_k": "LLAMA_FTYPE_MOSTLY_Q2_K",
}


class QuantizeErrorKind(str, Enum):
    """Why no variant was made (the bench reports each as its ``BenchErrorKind`` of that name)."""

    unknown_quant = "unknown_quant"  # a quantization name llama.cpp's quantizer does not know
    quantize_failed = "quantize_failed"  # llama.cpp's quantizer returned an error


class QuantizeError(RuntimeError):
    """A variant that could not be made, with its category; the message says why."""

    def __init__(self, kind: QuantizeErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Variant:
    """One GGUF to measure: its quant, where it is, and how it was made."""

    quant: str  # the file's quant name (the source's own type when ``is_source``)
    path: Path
    source_quant: str
    is_source: bool = False
    cached: bool = False  # True when an earlier run had made it already
    quantize_s: float | None = None  # seconds llama.cpp took, None when nothing was made

    @property
    def requantized(self) -> bool:
        """Made from an already-quantized source: its quality is bounded by the source's."""
        return not self.is_source and self.source_quant not in UNQUANTIZED


def known_quants() -> list[str]:
    """Accepted quant names, ``source`` first."""
    return [SOURCE, *QUANT_FTYPES]


def variant_path(cache_dir: Path, source_sha256: str, quant: str) -> Path:
    """Cache location of ``quant`` made from the source with this sha256."""
    return cache_dir / f"{source_sha256[:16]}-{quant}.gguf"


@contextlib.contextmanager
def captured_llama_log() -> Iterator[list[str]]:
    """Collect llama.cpp's log lines instead of printing them (the quantizer logs every tensor).

    The lines are kept so that a failure can show the quantizer's own reason.
    """
    import llama_cpp
    from llama_cpp import _logger

    lines: list[str] = []

    @llama_cpp.llama_log_callback
    def collect(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        lines.append(text.decode("utf-8", errors="replace"))

    llama_cpp.llama_log_set(collect, ctypes.c_void_p(0))
    try:
        yield lines
    finally:
        llama_cpp.llama_log_set(_logger.llama_log_callback, ctypes.c_void_p(0))


def run_quantizer(source: Path, target: Path, quant: str, nthread: int | None = None) -> float:
    """Quantize ``source`` into ``target`` (atomically); returns the seconds it took."""
    import llama_cpp

    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = getattr(llama_cpp, QUANT_FTYPES[quant])
    params.allow_requantize = True  # the source may itself be quantized (SmolLM2 ships Q4_1)
    params.nthread = nthread or os.cpu_count() or 1
    partial = target.with_name(f"{target.name}.part-{os.getpid()}")
    start = time.perf_counter()
    with captured_llama_log() as log:
        code = llama_cpp.llama_model_quantize(str(source).encode(), str(partial).encode(), params)
    elapsed = time.perf_counter() - start
    if code != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        tail = "".join(log).strip().splitlines()[-5:]
        raise QuantizeError(
            QuantizeErrorKind.quantize_failed,
            f"llama.cpp could not quantize {source.name} to {quant} (code {code}): {' / '.join(tail)}",
        )
    partial.replace(target)
    return elapsed


def make_variant(
    source: Path, quant: str, cache_dir: Path, *, source_sha256: str, source_quant: str
) -> Variant:
    """The GGUF for ``quant``: the source itself, a cached file, or a fresh quantization."""
    if quant == SOURCE or quant == source_quant:
        return Variant(quant=source_quant, path=source, source_quant=source_quant, is_source=True)
    if quant not in QUANT_FTYPES:
        raise QuantizeError(
            QuantizeErrorKind.unknown_quant,
            f"unknown quantization {quant!r}; known: {', '.join(known_quants())}",
        )
    target = variant_path(cache_dir, source_sha256, quant)
    if target.is_file():
        return Variant(quant=quant, path=target, source_quant=source_quant, cached=True)
    cache_dir.mkdir(parents=True, exist_ok=True)
    seconds = run_quantizer(source, target, quant)
    return Variant(quant=quant, path=target, source_quant=source_quant, quantize_s=seconds)
