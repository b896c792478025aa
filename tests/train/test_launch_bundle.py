"""The qwen3.5-0.8b preset's launch bundle, run: every stage on two CPU processes.

``launch.sh`` of a CPU bundle at smoke scale (``--smoke --bundle --cpu --processes 2``)
starts each stage with ``accelerate launch`` (torchrun, gloo), as the GPU bundle does
with DeepSpeed, then exports the GGUF. Slow: five two-process launches.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from botpsy.train.cli import app

pytestmark = [pytest.mark.slow, pytest.mark.model]


def test_the_cpu_bundle_runs_every_stage_on_two_processes(tiny_qwen35_dir, tmp_path):
    run = tmp_path / "run"
    result = CliRunner().invoke(app, [
        "recipe", "--preset", "qwen3.5-0.8b", "--base-model", str(tiny_qwen35_dir),
        "--out", str(run), "--smoke", "--bundle", "--cpu", "--processes", "2"])
    assert result.exit_code == 0, result.output
    env = {**os.environ, "OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(run / "launch.sh")], capture_output=True, text=True,
                          env=env, timeout=3000, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    for stage in ("sft", "distill", "balance", "dapo1", "dapo2"):
        result = json.loads((run / stage / "stage_result.json").read_text())
        assert result["metrics"]["processes"] == 2, stage  # really data-parallel
    assert (run / "gguf" / "botpsy-qwen3.5-0.8b-Q8_0.gguf").is_file()
