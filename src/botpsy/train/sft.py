"""Stage 1: supervised fine-tuning on tool-use conversations (TRL ``SFTTrainer``).

Each conversation is rendered by the botpsy format the model will run with
and pre-tokenized with ``assistant_masks`` (see ``botpsy.train.render``), so
the loss covers assistant turns only: tool outputs, user and system text in
the sequence are context, never targets. Full fine-tuning by default; set
``lora`` for a PEFT LoRA run (merged into the saved model), or ``init_adapter`` to go on
training an existing PEFT adapter over ``model`` at its own ranks (the shipped adapter stays
the size it is, and nothing is lost to a second truncation).

Run: ``botpsy train sft --config sft.json`` or ``main(SFTStageConfig(...))``;
``accelerate launch -m botpsy.train.cli sft --config sft.json`` for several
processes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botpsy.formats import get_format
from botpsy.train.common import StageCommon, StageResult, StageRun, run_stage, trainer_args
from botpsy.train.evaluate import ModelEvaluator
from botpsy.train.loaders import read_samples
from botpsy.train.render import sft_rows
from botpsy.train.sample import TrainSample


@dataclass
class SFTStageConfig(StageCommon):
    """Stage 1 settings; ``groups`` restricts training to some teacher groups (to make teachers).

    ``stage_name`` names the result: the recipe's SFT phase before RL (on a balanced
    call/no-call mix, ``botpsy.train.presets.BALANCE_KIND_WEIGHTS``) reports as ``balance``."""

    stage_name: str = "sft"
    learning_rate: float = 5e-5
    max_length: int = 2048
    warmup_ratio: float = 0.03
    groups: list[str] | None = None
    # Batches of similar lengths: random batches of these conversations are a third padding,
    # which costs as much compute as real tokens on a CPU.
    group_by_length: bool = True
    # A PEFT LoRA folder over ``model`` whose weights this stage trains further (its ranks,
    # alphas and targets kept); the saved adapter is the continued one. Excludes ``lora``.
    init_adapter: str | None = None

    def __post_init__(self) -> None:
        """A wrong adapter setting fails here, before a model is loaded or data is read."""
        super().__post_init__()
        if self.max_length < 16:
            raise ValueError(f"max_length must be >= 16 tokens, got {self.max_length}")
        if self.init_adapter and self.lora:
            raise ValueError("set lora (a new adapter) or init_adapter (continue one), not both")
        if self.init_adapter and not (Path(self.init_adapter) / "adapter_config.json").is_file():
            raise ValueError(
                f"init_adapter {self.init_adapter}: not a PEFT adapter folder "
                "(no adapter_config.json)"
            )


def training_samples(cfg: SFTStageConfig) -> list[TrainSample]:
    samples = read_samples(cfg.train_file)
    if cfg.groups:
        samples = [s for s in samples if s.group in cfg.groups]
    if not samples:
        raise ValueError(f"{cfg.train_file}: no training samples (groups={cfg.groups})")
    return samples


def build_trainer(cfg: SFTStageConfig, model: Any, tokenizer: Any) -> Any:
    """An ``SFTTrainer`` over pre-tokenized, assistant-masked conversations."""
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    rows = sft_rows(get_format(cfg.format), tokenizer, training_samples(cfg))
    args = trainer_args(
        cfg,
        SFTConfig,
        max_length=cfg.max_length,
        warmup_steps=cfg.warmup_ratio,
        dataset_num_proc=None,
        train_sampling_strategy="group_by_length" if cfg.group_by_length else "random",
    )
    return SFTTrainer(
        model=model,
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        peft_config=cfg.lora.to_peft() if cfg.lora else None,
    )


def continued_adapter(model: Any, adapter: str) -> Any:
    """``model`` wrapped in the PEFT adapter at ``adapter``, its LoRA weights trainable."""
    from peft import PeftModel

    return PeftModel.from_pretrained(model, adapter, is_trainable=True)


def main(cfg: SFTStageConfig, evaluator: ModelEvaluator | None = None) -> StageResult:
    """Run stage 1; returns its report (also written to ``output_dir/stage_result.json``)."""

    def prepare(model: Any) -> Any:
        return continued_adapter(model, cfg.init_adapter) if cfg.init_adapter else model

    run = StageRun(
        cfg.stage_name, lambda model, tok: build_trainer(cfg, model, tok), prepare=prepare
    )
    return run_stage(cfg, run, evaluator)
