"""Multi-GPU launch bundle: stage configs, accelerate/DeepSpeed configs and a launch script.

GPU runs start each stage with ``accelerate launch`` (one process per GPU), so
the recipe writes what those commands need instead of running in-process:
``configs/<stage>.json`` (the stage dataclasses), ``accelerate/zero2.yaml``
(SFT, DAPO: ZeRO-2, bf16) and ``accelerate/zero3.yaml`` (distillation, where
three teachers sit next to the student), and ``launch.sh`` chaining them, then
the GGUF export.

The GPU bundle needs what botpsy's extras do not install: DeepSpeed, and vLLM where
DAPO's rollouts use it (both GPU-only); ``launch.sh`` checks for them first and says
so. ``LaunchSettings(cpu=True)`` writes the same chain for CPU processes instead
(``accelerate/cpu.yaml``: torchrun, gloo, no DeepSpeed): with ``with_smoke_scale`` it
runs the bundle's every stage on two CPU processes, as the tests do.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from botpsy.train.common import dump_config
from botpsy.train.presets import RecipePlan

DEEPSPEED_NOTE = (
    "the GPU bundle runs its stages under DeepSpeed ZeRO: pip install deepspeed (CUDA), "
    "or write a CPU bundle (botpsy train recipe --bundle --cpu)"
)
VLLM_NOTE = (
    "DAPO's rollouts use vLLM, which runs on GPUs only: pip install vllm, "
    "or set use_vllm to false in configs/dapo1.json and configs/dapo2.json"
)


@dataclass(frozen=True)
class LaunchSettings:
    """How the bundle launches each stage: ``processes`` per stage, on GPUs or CPUs."""

    processes: int = 8
    cpu: bool = False


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


def cpu_accelerate_config(num_processes: int) -> dict[str, Any]:
    """An ``accelerate`` config for ``num_processes`` CPU processes: accelerate's torchrun
    launcher (its ``--cpu`` multi-process path needs MPI), and the stages, finding no GPU,
    join a gloo group."""
    return {
        "compute_environment": "LOCAL_MACHINE",
        "distributed_type": "MULTI_GPU",
        "mixed_precision": "no",
        "dynamo_config": {},
        "num_machines": 1,
        "machine_rank": 0,
        "num_processes": num_processes,
        "rdzv_backend": "static",
        "same_network": True,
        "use_cpu": False,
    }


def _accelerate_files(out: Path, launch: LaunchSettings) -> dict[int, str]:
    """Write the accelerate configs; ZeRO stage -> the config file a stage of it uses."""
    acc = out / "accelerate"
    acc.mkdir(parents=True, exist_ok=True)
    if launch.cpu:
        (acc / "cpu.yaml").write_text(
            yaml.safe_dump(cpu_accelerate_config(launch.processes)), encoding="utf-8"
        )
        return {2: "accelerate/cpu.yaml", 3: "accelerate/cpu.yaml"}
    for stage in (2, 3):
        (acc / f"zero{stage}.yaml").write_text(
            yaml.safe_dump(accelerate_config(stage, launch.processes)), encoding="utf-8"
        )
    return {2: "accelerate/zero2.yaml", 3: "accelerate/zero3.yaml"}


def _preflight(plan: RecipePlan, launch: LaunchSettings) -> list[str]:
    """Lines of ``launch.sh`` that stop with a plain message when a GPU-only need is missing."""
    needs = [] if launch.cpu else [("deepspeed", DEEPSPEED_NOTE)]
    if plan.dapo1.use_vllm or plan.dapo2.use_vllm:
        needs.append(("vllm", VLLM_NOTE))
    return [
        f'python -c "import {module}" 2>/dev/null || {{ echo {shlex.quote(note)} >&2; exit 3; }}'
        for module, note in needs
    ]


def _export_line(plan: RecipePlan) -> list[str]:
    if not plan.export:
        return []
    cfg = plan.export
    quants = " ".join(f"--quant {q}" for q in cfg.quants)
    line = (
        f"python -m botpsy.train.cli export --model {shlex.quote(cfg.model_dir)} "
        f"--out {shlex.quote(cfg.out_dir)} --name {shlex.quote(cfg.name)} {quants}"
    )
    return [line]


def write_launch_bundle(plan: RecipePlan, launch: LaunchSettings | None = None) -> Path:
    """Write configs and ``launch.sh`` under ``plan.out_dir``; returns the script path."""
    launch = launch or LaunchSettings()
    out = Path(plan.out_dir)
    configs = _accelerate_files(out, launch)
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
        *_preflight(plan, launch),
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
            f"accelerate launch --config_file {configs[zero]} "
            f"-m botpsy.train.cli {command} "
            f"--config configs/{name}.json"
        )
    lines += _export_line(plan)
    lines += [f"# {note}" for note in plan.notes]
    script = out / "launch.sh"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    script.chmod(0o755)
    return script
