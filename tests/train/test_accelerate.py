"""A stage under ``accelerate launch`` with two CPU processes (DDP over gloo).

accelerate's ``--cpu`` multi-process path needs MPI; its torchrun launcher
(``--multi_gpu``) works on CPU because the stages set ``use_cpu`` when no GPU is
present, so the processes form a gloo group (accelerate's MULTI_CPU).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from botpsy.train.common import dump_config
from botpsy.train.sft import SFTStageConfig

ACCELERATE = Path(sys.executable).with_name("accelerate")


def test_sft_runs_on_two_processes(tiny_model_dir, data_files, tmp_path):
    out = tmp_path / "sft"
    config = dump_config(
        SFTStageConfig(
            model=str(tiny_model_dir),
            output_dir=str(out),
            train_file=str(data_files.train),
            max_steps=3,
            batch_size=2,
            learning_rate=1e-3,
            val_samples=0,
            threads=1,
        ),
        tmp_path / "sft.json",
    )
    env = {**os.environ, "OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run(
        [
            str(ACCELERATE),
            "launch",
            "--multi_gpu",
            "--num_processes",
            "2",
            "--num_machines",
            "1",
            "--mixed_precision",
            "no",
            "--dynamo_backend",
            "no",
            "-m",
            "botpsy.train.cli",
            "sft",
            "--config",
            str(config),
        ],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads((out / "stage_result.json").read_text())
    assert result["metrics"]["processes"] == 2  # really data-parallel
    assert result["steps"] == 3 and result["param_change"] > 0
    assert (out / "model" / "config.json").exists()
