"""Fixtures of the bench tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from botpsy.bench.roofline import BandwidthResult
from botpsy.bench.schema import WorkerJob

from .helpers import fake_result, machine, write_tiny_gguf


@pytest.fixture
def tiny_gguf(tmp_path: Path) -> Path:
    """A one-layer random llama GGUF (f32, tied embeddings)."""
    return write_tiny_gguf(tmp_path / "tiny.gguf")


@pytest.fixture
def fake_bench(monkeypatch):
    """run_bench without measuring: fixed bandwidth and machine, and a worker that answers
    from ``fake_result`` (after calling ``fake_bench.on_run(job, n)``, which may raise)."""
    from botpsy.bench import machine as machine_mod
    from botpsy.bench import roofline, worker

    calls: list[WorkerJob] = []

    def run_worker(job, **_):
        calls.append(job)
        if fake_bench.on_run is not None:
            fake_bench.on_run(job, len(calls))
        return fake_result(job)

    def measure_bandwidth(threads, size, repeats):
        return BandwidthResult(threads=threads, bytes_per_s=10e9 * threads, array_mb=1,
                               repeats_gb_s=[10.0 * threads], cpu_share=1.0)

    monkeypatch.setattr(worker, "run_worker", run_worker)
    monkeypatch.setattr(roofline, "measure_bandwidth", measure_bandwidth)
    monkeypatch.setattr(machine_mod, "collect_machine", machine)
    fake_bench.on_run = None
    fake_bench.calls = calls
    return fake_bench
