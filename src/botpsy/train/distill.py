"""Stage 2: on-policy distillation from specialist teachers (TRL ``DistillationTrainer``).

The student samples its own answers to the training prompts and is trained
on the per-token reverse KL (``beta=1``) to a teacher's distribution over those
same tokens. Each prompt goes to the teacher of its domain group (personal /
services / judgment), like the release's three specialist teachers.

Routing choice: a small subclass rather than one trainer pass per group. TRL
generates a whole batch at once; the subclass tags every generated row with its
teacher index and computes the loss group by group inside a micro-batch, each
part normalised by the batch's token count, so the sum is exactly the loss a
single teacher would give and all groups share one optimizer and schedule
(sequential passes would make the last group's teacher win).

When no teachers are given, they are made with the stage-1 SFT code: the
student's starting model fine-tuned further on each group's data.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from botpsy.formats import get_format
from botpsy.train.common import (
    LoraSettings,
    StageCommon,
    StageResult,
    StageRun,
    finished,
    run_stage,
    trainer_args,
)
from botpsy.train.evaluate import ModelEvaluator
from botpsy.train.loaders import read_samples
from botpsy.train.render import prompt_rows
from botpsy.train.sft import SFTStageConfig
from botpsy.train.sft import main as sft_main


@dataclass
class TeacherSettings:
    """How teachers are made when none are given: SFT on one group's data."""

    max_steps: int = 200
    learning_rate: float = 5e-5
    batch_size: int = 4
    epochs: float = 1.0
    lora: LoraSettings | None = None


@dataclass
class DistillStageConfig(StageCommon):
    learning_rate: float = 1e-5
    teachers: dict[str, str] | None = None  # group -> teacher model folder
    teacher_init: str | None = None  # model the made teachers start from (default: ``model``)
    teacher: TeacherSettings = field(default_factory=TeacherSettings)
    beta: float = 1.0  # 1 = reverse KL (mode seeking), 0 = forward KL
    temperature: float = 1.0
    max_completion_length: int = 128
    all_turns: bool = True  # also distill the turns after tool outputs


def make_teachers(cfg: DistillStageConfig, groups: list[str]) -> dict[str, str]:
    """One specialist per group, fine-tuned with the stage-1 code (resumable like any stage)."""
    teachers = {}
    for group in groups:
        result = sft_main(
            SFTStageConfig(
                model=cfg.teacher_init or cfg.model,
                output_dir=str(Path(cfg.output_dir) / "teachers" / group),
                train_file=cfg.train_file,
                format=cfg.format,
                groups=[group],
                max_steps=cfg.teacher.max_steps,
                epochs=cfg.teacher.epochs,
                learning_rate=cfg.teacher.learning_rate,
                batch_size=cfg.teacher.batch_size,
                bf16=cfg.bf16,
                seed=cfg.seed,
                save_steps=cfg.save_steps,
                lora=cfg.teacher.lora,
                val_samples=0,
                resume=cfg.resume,
                threads=cfg.threads,
            )
        )
        teachers[group] = result.model_dir
    return teachers


def routed_trainer_class() -> type:
    """``DistillationTrainer`` that sends every row to the teacher of its group."""
    import torch
    from trl import DistillationTrainer
    from trl.models import prepare_deepspeed

    class RoutedDistillationTrainer(DistillationTrainer):
        def __init__(self, *args: Any, teachers: dict[str, Any], **kwargs: Any) -> None:
            names = sorted(teachers)
            super().__init__(*args, teacher_model=teachers[names[0]], **kwargs)
            self.group_index = {name: i for i, name in enumerate(names)}
            self.teacher_list = [self.teacher_model] + [
                self._prepare_teacher(teachers[n]) for n in names[1:]
            ]

        def _prepare_teacher(self, teacher: Any) -> Any:
            if self.is_deepspeed_enabled:
                return prepare_deepspeed(teacher, self.accelerator)
            return self.accelerator.prepare_model(teacher, evaluation_mode=True)

        def _generate_and_score_completions(self, inputs: list[dict[str, Any]]) -> dict[str, Any]:
            output = super()._generate_and_score_completions(inputs)
            index = [self.group_index[row["group"]] for row in inputs]
            output["teacher_index"] = torch.tensor(index, device=self.accelerator.device)
            return output

        def _compute_loss(
            self, unwrapped_student: Any, inputs: dict[str, Any], num_items_in_batch: Any
        ) -> Any:
            route = inputs["teacher_index"]
            rows = route.shape[0]
            if num_items_in_batch is None:  # eval: normalise every part by the whole micro-batch
                num_items_in_batch = inputs["completion_mask"].sum().clamp(min=1)
            loss = entropy = valid = 0
            for teacher in route.unique().tolist():
                pick = route == teacher
                part = {
                    k: v[pick] if torch.is_tensor(v) and v.ndim and v.shape[0] == rows else v
                    for k, v in inputs.items()
                }
                self.teacher_model = self.teacher_list[teacher]
                part_loss, part_entropy, part_valid = super()._compute_loss(
                    unwrapped_student, part, num_items_in_batch
                )
                loss, entropy, valid = loss + part_loss, entropy + part_entropy, valid + part_valid
            return loss, entropy, valid

    return RoutedDistillationTrainer


def build_trainer(
    cfg: DistillStageConfig, model: Any, tokenizer: Any, teachers: dict[str, str]
) -> Any:
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM
    from trl import DistillationConfig

    rows = prompt_rows(get_format(cfg.format), read_samples(cfg.train_file), cfg.all_turns)
    missing = {row["group"] for row in rows} - set(teachers)
    if missing:
        raise ValueError(
            f"no teacher for group(s) {sorted(missing)}; teachers given: {sorted(teachers)}"
        )
    tokenizer.padding_side = "left"
    loaded = {
        g: AutoModelForCausalLM.from_pretrained(p, dtype=torch.float32) for g, p in teachers.items()
    }
    args = trainer_args(
        cfg,
        DistillationConfig,
        beta=cfg.beta,
        temperature=cfg.temperature,
        max_completion_length=cfg.max_completion_length,
    )
    cls = routed_trainer_class()
    return cls(
        model=model,
        teachers=loaded,
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        peft_config=cfg.lora.to_peft() if cfg.lora else None,
    )


def main(cfg: DistillStageConfig, evaluator: ModelEvaluator | None = None) -> StageResult:
    """Run stage 2 (making the teachers first when none are given; a finished stage needs
    none, so a resumed run whose teachers were deleted does not train them again)."""
    if previous := finished(cfg):
        return previous
    samples = read_samples(cfg.train_file)
    groups = sorted({s.group for s in samples})
    teachers = cfg.teachers or make_teachers(cfg, groups)
    routed = Counter(s.group for s in samples)

    def metrics(trainer: Any) -> dict[str, float]:
        # conversations per teacher group (each may give several prompts, one per turn)
        return {f"conversations/{group}": float(n) for group, n in routed.items()}

    run = StageRun("distill", lambda model, tok: build_trainer(cfg, model, tok, teachers), metrics)
    return run_stage(cfg, run, evaluator)
