"""Multi-GPU launch bundle: stage configs, accelerate/DeepSpeed configs and a launch script.

GPU runs start each stage with ``accelerate launch`` (one process per GPU), so
the recipe writes what those commands need instead of running in-process:
``configs/<stage>.json`` (the stage dataclasses), ``accelerate/zero2.yaml``
(SFT, DAPO: ZeRO-2, bf16) and ``accelerate/zero3.yaml`` (distillation, where
three teachers sit next to the student), and ``launch.sh`` chaining them.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import yaml

from botpsy.train.common import dump_config
from botpsy.train.presets import RecipePlan


def accelerate_config(zero_stage: int, num_processes: int) -> dict[str, Any]:
    """An ``accelerate`` config for DeepSpeed ZeRO on one machine with ``num_processes`` GPUs."""
    return {
        "compute_environment": "LOCAL_MACHINE",
        "distributed_type": "DEEPSPEED",
        "deepspeed_config": {
            "zero_stage": zero_stage,
            "offload_optimizer_device": "none",
            "offload_param_device": "none",
            "zero3_init_flag": zero_stage == 3,
            "zero3_save_16bit_model": zero_stage == 3,
        },
        "mixed_precision": "bf16",
        "num_machines": 1,
        "machine_rank": 0,
        "num_processes": num_processes,
        "rdzv_backend": "static",
        "same_network": True,
        "use_cpu": False,
    }


def write_launch_bundle(plan: RecipePlan, num_gpus: int = 8) -> Path:
    """Write configs and ``launch.sh`` under ``plan.out_dir``; returns the script path."""
    out = Path(plan.out_dir)
    acc = out / "accelerate"
    acc.mkdir(parents=True, exist_ok=True)
    for stage in (2, 3):
        (acc / f"zero{stage}.yaml").write_text(
            yaml.safe_dump(accelerate_config(stage, num_gpus)), encoding="utf-8"
        )
    stages = {
        "sft": (plan.sft, 2),
        "distill": (plan.distill, 3),
        **({"balance": (plan.balance, 2)} if plan.balance else {}),
        "dapo1": (plan.dapo1, 2),
        "dapo2": (plan.dapo2, 2),
    }
    lines = [
        "#!/usr/bin/env bash",
        "# botpsy recipe launch script (written by botpsy train recipe)",
        "set -euo pipefail",
        f"cd {shlex.quote(str(out.resolve()))}",
        "python -m botpsy.train.cli data --config configs/data.json --out data",
    ]
    dump_config(plan.data, out / "configs" / "data.json")
    if plan.balance_data:
        dump_config(plan.balance_data, out / "configs" / "balance_data.json")
        lines.append(
            "python -m botpsy.train.cli data --config configs/balance_data.json --out data/balance"
        )
    for name, (cfg, zero) in stages.items():
        dump_config(cfg, out / "configs" / f"{name}.json")
        command = {"balance": "sft", "dapo1": "dapo", "dapo2": "dapo"}.get(name, name)
        lines.append(
            f"accelerate launch --config_file accelerate/zero{zero}.yaml "
            f"-m botpsy.train.cli {command} "
            f"--config configs/{name}.json"
        )
    lines += [f"# {note}" for note in plan.notes]
    script = out / "launch.sh"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    script.chmod(0o755)
    return script
