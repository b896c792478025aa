"""What every stage shares: common settings, the run skeleton and the stage report.

A stage = one config dataclass (extending ``StageCommon``) + one ``main(cfg)``.
``run_stage`` does the parts that are the same for SFT, distillation and DAPO:
resume or skip a finished stage, score validation before and after, snapshot
the weights to measure how far training moved them, train (resuming from the
newest checkpoint), save a plain HF model (LoRA merged; the adapter kept) and
write ``stage_result.json``.
"""

from __future__ import annotations

import copy
import ctypes
import gc
import json
import logging
import math
import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from botpsy.formats import get_format
from botpsy.train.evaluate import ModelEvaluator, ValScore, validation_score
from botpsy.train.loaders import read_samples
from botpsy.train.sample import TrainSample

log = logging.getLogger("botpsy.train")

RESULT_FILE = "stage_result.json"


@dataclass
class LoraSettings:
    """LoRA instead of full fine-tuning (peft); the saved model is merged either way."""

    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: list[str] = field(
        default_factory=lambda: [
            "q_proj",
            "k_proj",
            "v_proj",
            "o_proj",
            "gate_proj",
            "up_proj",
            "down_proj",
        ]
    )

    def to_peft(self) -> Any:
        from peft import LoraConfig

        return LoraConfig(
            r=self.r,
            lora_alpha=self.alpha,
            lora_dropout=self.dropout,
            target_modules=self.target_modules,
            task_type="CAUSAL_LM",
        )


@dataclass
class StageCommon:
    """Settings every stage has: model in, folder out, data, optimisation, checkpoints, checks."""

    model: str
    output_dir: str
    train_file: str
    val_file: str | None = None
    format: str = "hermes"
    learning_rate: float = 5e-5
    max_steps: int = -1  # > 0 overrides epochs
    epochs: float = 1.0
    batch_size: int = 4
    grad_accum: int = 1
    bf16: bool = False  # bf16 autocast (CPU or GPU); weights stay fp32
    gradient_checkpointing: bool = False
    seed: int = 0
    logging_steps: int = 1
    save_steps: int = 100
    lora: LoraSettings | None = None
    val_samples: int = 32  # validation prompts scored before and after (0: skip)
    val_max_new_tokens: int = 96
    resume: bool = True  # skip a finished stage; continue from the newest checkpoint
    threads: int | None = None  # torch CPU threads (1 suits tiny models: no OpenMP spin-waiting)

    def __post_init__(self) -> None:
        """Settings no run can use fail here, before a model is loaded: a negative step
        count used to mean "train every epoch", a negative learning rate trains away."""
        positive = {"learning_rate": self.learning_rate, "epochs": self.epochs,
                    "batch_size": self.batch_size, "grad_accum": self.grad_accum,
                    "logging_steps": self.logging_steps, "save_steps": self.save_steps}
        for name, value in positive.items():
            if not value > 0:
                raise ValueError(f"{name} must be > 0, got {value}")
        if self.max_steps != -1 and self.max_steps < 1:
            raise ValueError(f"max_steps must be >= 1 (or -1: train by epochs), got {self.max_steps}")
        if self.val_samples < 0:
            raise ValueError(f"val_samples must be >= 0, got {self.val_samples}")


class LossPoint(BaseModel):
    step: int
    loss: float


class StageResult(BaseModel):
    """The report of one stage (written as ``stage_result.json``)."""

    stage: str
    output_dir: str
    model_dir: str
    adapter_dir: str | None = None
    steps: int = 0
    train_loss: list[LossPoint] = []
    loss_first: float | None = None
    loss_last: float | None = None
    param_change: float = 0.0  # ||w_after - w_before|| / ||w_before|| over all weights
    val_before: ValScore | None = None
    val_after: ValScore | None = None
    external_before: dict[str, float] = {}
    external_after: dict[str, float] = {}
    metrics: dict[str, float] = {}
    seconds: float = 0.0
    skipped: bool = False


def dump_config(cfg: Any, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(cfg), indent=2), encoding="utf-8")
    return path


def is_main_process() -> bool:
    """Rank 0 (or not distributed). Read from the launcher's environment: creating
    accelerate's state here, before the trainer's config does, would fix it as non-CPU."""
    return int(os.environ.get("RANK", "0")) == 0


def no_accelerator() -> bool:
    import torch

    return not torch.cuda.is_available()


def load_model(path: str) -> tuple[Any, Any]:
    """An fp32 causal LM and its tokenizer (pad token defaulting to EOS)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    return model, tokenizer


def trainer_args(cfg: StageCommon, config_cls: type, **extra: Any) -> Any:
    """A TRL config with the common settings filled in from ``cfg``."""
    # use_cpu: bf16 autocast on CPU needs it, and under torchrun the processes then form a
    # gloo group (accelerate's MULTI_CPU).
    return config_cls(
        use_cpu=no_accelerator(),
        output_dir=cfg.output_dir,
        learning_rate=cfg.learning_rate,
        max_steps=cfg.max_steps,
        num_train_epochs=cfg.epochs,
        per_device_train_batch_size=cfg.batch_size,
        gradient_accumulation_steps=cfg.grad_accum,
        bf16=cfg.bf16,
        activation_checkpointing=cfg.gradient_checkpointing,
        seed=cfg.seed,
        logging_steps=cfg.logging_steps,
        save_strategy="steps",
        save_steps=cfg.save_steps,
        save_total_limit=2,
        report_to=[],
        disable_tqdm=True,
        dataloader_num_workers=0,
        log_level="warning",
        **extra,
    )


def snapshot(model: Any) -> dict[str, Any]:
    """Every weight, by name. A PEFT model is snapshotted as what it would save (its adapter
    merged into a copy), so the change is measured from the model the stage started from."""
    if hasattr(model, "merge_and_unload"):
        model = copy.deepcopy(model).merge_and_unload()
    return {name: p.detach().float().cpu().clone() for name, p in model.named_parameters()}


def start_dir(cfg: StageCommon, model: Any, tokenizer: Any) -> str:
    """The folder an external evaluator scores as the stage's start. Evaluators read a model
    folder, so a stage that starts from base + adapter (a PEFT model after ``prepare``) saves
    that start merged once, under ``output_dir/start``; otherwise it is ``cfg.model``."""
    if not hasattr(model, "merge_and_unload"):
        return cfg.model
    start = Path(cfg.output_dir) / "start"
    if not (start / "config.json").exists():
        copy.deepcopy(model).merge_and_unload().save_pretrained(start)
        tokenizer.save_pretrained(start)
    return str(start)


def param_change(before: dict[str, Any], model: Any) -> float:
    """Relative L2 distance of all weights from their snapshot (0 = untouched)."""
    moved = total = 0.0
    for name, p in model.named_parameters():
        if name in before:
            w0 = before[name]
            moved += float((p.detach().float().cpu() - w0).pow(2).sum())
            total += float(w0.pow(2).sum())
    return math.sqrt(moved / total) if total else 0.0


def loss_curve(log_history: list[dict[str, Any]]) -> list[LossPoint]:
    return [
        LossPoint(step=int(e["step"]), loss=float(e["loss"]))
        for e in log_history
        if "loss" in e and "step" in e and math.isfinite(float(e["loss"]))
    ]


_CHECKPOINT = re.compile(r"^checkpoint-(\d+)$")


def last_checkpoint(output_dir: Path) -> str | None:
    """The newest complete checkpoint to resume from. A run killed while saving leaves a
    checkpoint without ``trainer_state.json`` (the Trainer writes it last); resuming from
    it failed on every re-run, so such a folder is removed and the one before it used."""
    if not output_dir.is_dir():
        return None
    found = sorted(((int(m.group(1)), p) for p in output_dir.iterdir()
                    if p.is_dir() and (m := _CHECKPOINT.match(p.name))), reverse=True)
    for _, path in found:
        if (path / "trainer_state.json").is_file():
            return str(path)
        log.warning("removing %s: its save was cut off (no trainer_state.json)", path)
        shutil.rmtree(path)
    return None


def validation_samples(cfg: StageCommon) -> list[TrainSample]:
    if not cfg.val_file or cfg.val_samples <= 0:
        return []
    return read_samples(cfg.val_file)[: cfg.val_samples]


def validation_key(cfg: StageCommon) -> str:
    """Identifies a validation run: same file, sample count, budget and format -> same score."""
    return f"{cfg.val_file}|{cfg.val_samples}|{cfg.val_max_new_tokens}|{cfg.format}"


def reused_validation(cfg: StageCommon) -> ValScore | None:
    """The previous stage's "after" score when this stage starts from its saved model.

    Stage k's "before" is stage k-1's "after" on the same prompts: on a CPU, scoring
    it twice costs minutes of greedy generation per stage.
    """
    previous = Path(cfg.model).parent / RESULT_FILE
    if not previous.exists():
        return None
    prior = StageResult.model_validate_json(previous.read_text(encoding="utf-8"))
    same_model = Path(prior.model_dir).resolve() == Path(cfg.model).resolve()
    after = prior.val_after
    return after if same_model and after and after.key == validation_key(cfg) else None


def score_validation(
    model: Any, tokenizer: Any, cfg: StageCommon, samples: list[TrainSample]
) -> ValScore:
    fmt = get_format(cfg.format)
    score = validation_score(model, tokenizer, fmt, samples, cfg.val_max_new_tokens)
    return score.model_copy(update={"key": validation_key(cfg)})


def save_final(trainer: Any, tokenizer: Any, out: Path) -> tuple[Path, Path | None]:
    """Save the trained model as a plain HF folder (LoRA merged, adapter kept alongside).

    Every rank calls this: ``trainer.save_model`` gathers ZeRO-3/FSDP shards, and
    the other ranks wait until rank 0 has written the folder the next stage reads.
    """
    model = trainer.accelerator.unwrap_model(trainer.model)
    model_dir, adapter_dir = out / "model", None
    if hasattr(model, "merge_and_unload"):  # PEFT: keep the adapter, ship merged weights
        adapter_dir = out / "adapter"
        if is_main_process():
            model.save_pretrained(adapter_dir)
            tokenizer.save_pretrained(adapter_dir)
            model.merge_and_unload().save_pretrained(model_dir)
            tokenizer.save_pretrained(model_dir)
    else:
        trainer.save_model(str(model_dir))
    trainer.accelerator.wait_for_everyone()
    return model_dir, adapter_dir


def _mean(points: list[LossPoint], head: bool) -> float | None:
    if not points:
        return None
    k = max(1, len(points) // 5)
    chosen = points[:k] if head else points[-k:]
    return sum(p.loss for p in chosen) / len(chosen)


@dataclass
class StageRun:
    """What a stage hands to ``run_stage``: its name and how to build its trainer."""

    name: str
    build: Callable[[Any, Any], Any]  # (model, tokenizer) -> trainer
    metrics: Callable[[Any], dict[str, float]] = lambda trainer: {}
    # The loaded model -> the model the stage starts from (e.g. wrapped in an adapter to train
    # further); applied before the "before" validation, so that it scores the real start.
    prepare: Callable[[Any], Any] = lambda model: model


def release_memory() -> None:
    """Collect the finished stage's model, trainer and generation buffers and hand the freed
    heap back to the OS. Without it a whole ``smol`` recipe in one process kept every
    stage's memory: the DAPO round 2 process reached 24 GB and was killed on a 23 GB machine
    (the same stage alone peaks near 13 GB)."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the collection alone still helps
        pass


def finished(cfg: StageCommon) -> StageResult | None:
    """The saved result of a stage that already finished (marked skipped), when resuming."""
    done = Path(cfg.output_dir) / RESULT_FILE
    if not (cfg.resume and done.exists()):
        return None
    return StageResult.model_validate_json(done.read_text(encoding="utf-8")).model_copy(
        update={"skipped": True}
    )


def run_stage(
    cfg: StageCommon, run: StageRun, evaluator: ModelEvaluator | None = None
) -> StageResult:
    """The shared skeleton: resume/skip, validate, train, save, validate, report."""
    out = Path(cfg.output_dir)
    done = out / RESULT_FILE
    if previous := finished(cfg):
        return previous
    started = time.time()
    if cfg.threads:
        import torch

        torch.set_num_threads(cfg.threads)
    model, tokenizer = load_model(cfg.model)
    model = run.prepare(model)
    main = is_main_process()
    val = validation_samples(cfg) if main else []
    before = None
    if val:
        before = reused_validation(cfg) or score_validation(model, tokenizer, cfg, val)
    ext_before = evaluator(start_dir(cfg, model, tokenizer)) if evaluator and main else {}
    weights = snapshot(model) if main else {}
    trainer = run.build(model, tokenizer)
    trainer.train(resume_from_checkpoint=last_checkpoint(out) if cfg.resume else None)
    model_dir, adapter_dir = save_final(trainer, tokenizer, out)
    if not main:
        return StageResult(stage=run.name, output_dir=str(out), model_dir=str(model_dir))
    trained = load_model(str(model_dir))[0]  # what was saved is what the next stage gets
    curve = loss_curve(trainer.state.log_history)
    result = StageResult(
        stage=run.name,
        output_dir=str(out),
        model_dir=str(model_dir),
        adapter_dir=str(adapter_dir) if adapter_dir else None,
        steps=int(trainer.state.global_step),
        train_loss=curve,
        loss_first=_mean(curve, True),
        loss_last=_mean(curve, False),
        param_change=param_change(weights, trained),
        val_before=before,
        val_after=score_validation(trained, tokenizer, cfg, val) if val else None,
        external_before=ext_before,
        external_after=evaluator(str(model_dir)) if evaluator else {},
        metrics={"processes": float(trainer.accelerator.num_processes), **run.metrics(trainer)},
        seconds=time.time() - started,
    )
    done.write_text(result.model_dump_json(indent=2), encoding="utf-8")
    return result
