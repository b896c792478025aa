"""The bench's side of quantization: the ``--quants`` list it measures, and variants whose
failures come back as bench failures.

The variants themselves are made by ``botpsy.backends.quantize`` (llama.cpp's quantizer,
cached), which the model specs use too; this module only reads the bench's option and
turns a ``QuantizeError`` into the ``BenchError`` of the same kind that the bench CLI prints.
"""

from __future__ import annotations

from pathlib import Path

from botpsy.backends.quantize import (
    QUANT_FTYPES,
    SOURCE,
    QuantizeError,
    Variant,
    known_quants,
)
from botpsy.backends.quantize import make_variant as _make_variant
from botpsy.bench.errors import BenchError, BenchErrorKind


def parse_quants(text: str) -> list[str]:
    """``"f16, Q8_0,q8_0"`` -> ``["f16", "q8_0"]``; an unknown name raises listing the known ones."""
    names: list[str] = []
    for raw in text.split(","):
        name = raw.strip().lower()
        if not name:
            continue
        if name not in QUANT_FTYPES and name != SOURCE:
            raise BenchError(
                BenchErrorKind.unknown_quant,
                f"unknown quantization {raw.strip()!r}; known: {', '.join(known_quants())}",
            )
        if name not in names:
            names.append(name)
    if not names:
        raise BenchError(
            BenchErrorKind.unknown_quant,
            f"no quantization given; known: {', '.join(known_quants())}",
        )
    return names


def make_variant(
    source: Path, quant: str, cache_dir: Path, *, source_sha256: str, source_quant: str
) -> Variant:
    """``botpsy.backends.quantize.make_variant``, failing with the bench's categorised error."""
    try:
        return _make_variant(
            source, quant, cache_dir, source_sha256=source_sha256, source_quant=source_quant
        )
    except QuantizeError as exc:
        raise BenchError(BenchErrorKind(exc.kind.value), str(exc)) from exc
