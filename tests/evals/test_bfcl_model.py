"""The BFCL steps on the real default model (SmolLM2 GGUF through llama.cpp)."""

from __future__ import annotations

import pytest

from botpsy.evals.bfcl import generate, score
from botpsy.evals.bfcl.results import find_result_files, read_results
from botpsy.types import GenerationParams


@pytest.mark.model
@pytest.mark.parametrize("mode, fmt", [("fc", None), ("prompt", "pythonic")])
def test_real_model_answers_are_written_and_scored(default_gguf, tmp_path, mode, fmt):
    from botpsy.backends.model_files import load_chat_model

    model = load_chat_model(str(default_gguf), fmt=fmt, n_ctx=2048, n_threads=2)
    summary = generate(
        model,
        ["simple_python"],
        tmp_path,
        mode=mode,
        limit=1,
        params=GenerationParams(max_tokens=12),
        progress=False,
    )
    records = read_results(find_result_files(summary.model_dir)["simple_python"])
    record = records["simple_python_0"]
    assert record.inference_error is None and record.output_token_count > 0
    assert record.latency > 0 and record.raw
    report = score(summary.model_dir, tmp_path, progress=False)
    assert set(report.categories) == {"simple_python"}
    assert report.mode == mode and report.categories["simple_python"].reward_mean is not None
