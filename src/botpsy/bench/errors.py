"""Categorised failures of the device benchmark.

Every way a bench run can fail has a kind, so the CLI can print one clear line
(and a test can assert *which* failure happened) instead of a traceback.
"""

from __future__ import annotations

from enum import Enum


class BenchErrorKind(str, Enum):
    """Why a bench run stopped."""

    model_not_found = "model_not_found"  # the model spec names nothing usable
    not_gguf = "not_gguf"  # the bench measures llama.cpp variants: it needs a GGUF
    bad_model = "bad_model"  # a GGUF (model or adapter) that is truncated or cannot be read
    unknown_quant = "unknown_quant"  # a quantization name llama.cpp's quantizer does not know
    bad_setting = "bad_setting"  # prompt lengths, threads, repeats or context out of range
    output_not_writable = "output_not_writable"  # the output folder cannot be created or written
    quantize_failed = "quantize_failed"  # llama.cpp's quantizer returned an error
    worker_failed = "worker_failed"  # a measuring subprocess crashed or printed no result
    worker_timeout = "worker_timeout"  # a measuring subprocess ran past its time limit
    bad_report = "bad_report"  # a report.json that does not match the schema (compare)


class BenchError(RuntimeError):
    """A bench failure with its category; the message says what to do about it."""

    def __init__(self, kind: BenchErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind

    def __str__(self) -> str:
        return f"[{self.kind.value}] {self.args[0]}"
