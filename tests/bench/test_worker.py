"""The worker protocol: steps, peak memory, failures reported with their cause."""

from __future__ import annotations

import pytest

from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.schema import WorkerJob
from botpsy.bench.worker import main, peak_rss_mb, run_worker, total_steps


def job(**kw) -> WorkerJob:
    base = {
        "model_path": "m.gguf",
        "label": "q8_0",
        "threads": 1,
        "prompt_lens": [128, 512],
        "decode_tokens": 8,
        "repeats": 2,
        "n_ctx": 2048,
    }
    return WorkerJob(**{**base, **kw})


@pytest.mark.parametrize(
    ("kw", "steps"),
    [
        ({}, 1 + 2 * (2 + 1 + 3)),
        ({"accuracy_cases": 5}, 1 + 12 + 5),
        ({"turns": 0, "repeats": 1}, 1 + 3),
        ({"threads": 2}, 1 + 2 * (2 + 2 + 3)),  # the one-thread decode probe
    ],
)
def test_total_steps(kw, steps):
    assert total_steps(job(**kw)) == steps


def test_peak_rss_reads_the_high_water_mark(tmp_path):
    status = tmp_path / "status"
    status.write_text(
        "Name:\tpython\nVmPeak:\t  900000 kB\nVmHWM:\t  204800 kB\nVmRSS:\t  100000 kB\n"
    )
    assert peak_rss_mb(status) == 200.0


def test_peak_rss_of_this_process_is_plausible(tmp_path):
    assert 5 < peak_rss_mb() < 100_000
    assert peak_rss_mb(tmp_path / "no-status") > 5  # falls back to getrusage


def test_main_needs_exactly_one_job():
    assert main([]) == 2


def test_a_failing_worker_reports_its_cause(tmp_path):
    missing = tmp_path / "missing.gguf"
    with pytest.raises(BenchError) as err:
        run_worker(job(model_path=str(missing)), timeout_s=120)
    assert err.value.kind is BenchErrorKind.worker_failed
    assert "q8_0" in str(err.value) and "exited with 1" in str(err.value)
    assert "missing.gguf" in str(err.value)  # the worker's own error, from its stderr
