"""Stage 1 (SFT) on the tiny model: the loss falls, weights move, runs resume, LoRA merges."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from botpsy.train.common import LoraSettings
from botpsy.train.recipe import CachedEvaluator
from botpsy.train.sft import SFTStageConfig, main


def test_sft_lowers_the_loss_and_moves_the_weights(tiny_run):
    plan, report = tiny_run
    result = report.stages[0]
    assert result.stage == "sft" and result.steps == plan.sft.max_steps
    assert result.loss_last < result.loss_first
    assert result.param_change > 0.01
    assert result.val_before.n == result.val_after.n == plan.sft.val_samples
    config = json.loads((Path(result.model_dir) / "config.json").read_text())
    assert config["model_type"] == "qwen3"


def test_finished_stage_is_skipped_on_rerun(tiny_run):
    plan, report = tiny_run
    again = main(plan.sft)
    assert again.skipped and again.steps == report.stages[0].steps


def _weight_norm(model_dir: str) -> dict[str, float]:
    """A real (cheap) model metric standing in for BFCL: the L2 norm of all weights."""
    from safetensors.torch import load_file

    weights = load_file(f"{model_dir}/model.safetensors")
    return {"weight_norm": float(sum(w.float().pow(2).sum() for w in weights.values()) ** 0.5)}


def test_lora_run_saves_adapter_and_merged_model_and_calls_the_hook(
    tiny_model_dir, data_files, tmp_path
):
    calls: list[str] = []
    evaluator = CachedEvaluator(lambda d: calls.append(d) or _weight_norm(d))
    cfg = SFTStageConfig(
        model=str(tiny_model_dir),
        output_dir=str(tmp_path / "lora"),
        train_file=str(data_files.train),
        max_steps=4,
        learning_rate=5e-3,
        batch_size=2,
        val_samples=0,
        lora=LoraSettings(r=4, alpha=8, target_modules=["q_proj", "v_proj", "up_proj"]),
    )
    result = main(cfg, evaluator)
    assert result.adapter_dir and (tmp_path / "lora" / "adapter" / "adapter_config.json").exists()
    assert result.param_change > 0 and result.train_loss[0].loss != result.train_loss[-1].loss
    assert result.external_before["weight_norm"] != result.external_after["weight_norm"]
    assert calls == [str(tiny_model_dir), result.model_dir]


def test_interrupted_stage_resumes_from_its_checkpoint(tiny_model_dir, data_files, tmp_path):
    cfg = SFTStageConfig(
        model=str(tiny_model_dir),
        output_dir=str(tmp_path / "sft"),
        train_file=str(data_files.train),
        max_steps=2,
        save_steps=2,
        batch_size=2,
        learning_rate=1e-3,
        val_samples=0,
    )
    main(cfg)
    (tmp_path / "sft" / "stage_result.json").unlink()  # as if the run had died after the checkpoint
    cfg.max_steps = 3
    resumed = main(cfg)
    assert resumed.steps == 3
    assert [p.step for p in resumed.train_loss] == [
        1,
        2,
        3,
    ]  # steps 1-2 come from the checkpoint's log


def _padding_ratio(tiny_model_dir, data_files, tmp_path, group_by_length: bool) -> float:
    """Padded tokens over real tokens across one pass of the trainer's own dataloader."""
    from botpsy.train.common import load_model
    from botpsy.train.sft import build_trainer

    cfg = SFTStageConfig(
        model=str(tiny_model_dir),
        output_dir=str(tmp_path / f"gbl-{group_by_length}"),
        train_file=str(data_files.train),
        batch_size=4,
        group_by_length=group_by_length,
    )
    trainer = build_trainer(cfg, *load_model(cfg.model))
    padded = real = 0
    for batch in trainer.get_train_dataloader():
        padded += batch["input_ids"].numel()
        real += int(batch["attention_mask"].sum())
    return padded / real


def test_length_grouped_batches_waste_less_compute_on_padding(tiny_model_dir, data_files, tmp_path):
    grouped = _padding_ratio(tiny_model_dir, data_files, tmp_path, group_by_length=True)
    shuffled = _padding_ratio(tiny_model_dir, data_files, tmp_path, group_by_length=False)
    assert grouped < 1.1 < shuffled


def _lora_run(model: str, out: Path, train_file: str, **extra) -> SFTStageConfig:
    return SFTStageConfig(
        model=model,
        output_dir=str(out),
        train_file=train_file,
        max_steps=3,
        learning_rate=5e-3,
        batch_size=2,
        val_samples=0,
        **extra,
    )


def test_init_adapter_trains_the_given_adapter_further_at_its_own_ranks(
    tiny_model_dir, data_files, tmp_path
):
    from peft import PeftConfig
    from safetensors.torch import load_file

    lora = LoraSettings(r=4, alpha=8, target_modules=["q_proj", "v_proj"])
    first = main(_lora_run(str(tiny_model_dir), tmp_path / "a", str(data_files.train), lora=lora))
    scored: list[str] = []
    more = main(
        _lora_run(
            str(tiny_model_dir),
            tmp_path / "b",
            str(data_files.train),
            init_adapter=first.adapter_dir,
        ),
        lambda d: scored.append(d) or _weight_norm(d),
    )
    # The evaluator's "before" is base + adapter (a merged copy), not the bare base it names.
    assert scored == [str(tmp_path / "b" / "start"), more.model_dir]
    start_norm = more.external_before["weight_norm"]
    assert start_norm == pytest.approx(_weight_norm(first.model_dir)["weight_norm"], rel=1e-6)
    assert start_norm != pytest.approx(_weight_norm(str(tiny_model_dir))["weight_norm"], rel=1e-6)
    config = PeftConfig.from_pretrained(more.adapter_dir)
    assert config.r == 4 and set(config.target_modules) == {"q_proj", "v_proj"}
    before = load_file(f"{first.adapter_dir}/adapter_model.safetensors")
    after = load_file(f"{more.adapter_dir}/adapter_model.safetensors")
    assert before.keys() == after.keys()
    assert any(not before[k].equal(after[k]) for k in before)  # trained on, not re-initialised
    assert more.param_change > 0


def test_a_peft_model_is_snapshotted_as_its_merged_weights(tiny_model_dir):
    """The change of a continued adapter is measured from base + adapter, where it starts."""
    import torch
    from peft import get_peft_model

    from botpsy.train.common import load_model, snapshot

    model = load_model(str(tiny_model_dir))[0]
    base = snapshot(model)
    peft = get_peft_model(model, LoraSettings(r=2, target_modules=["q_proj"]).to_peft())
    for name, p in peft.named_parameters():
        if "lora_B" in name:
            torch.nn.init.normal_(p)
    merged = snapshot(peft)
    assert merged.keys() == base.keys()
    changed = [k for k in base if not base[k].equal(merged[k])]
    assert changed and all("q_proj" in k for k in changed)
    assert not any("lora" in k for k in merged)


def test_init_adapter_must_be_a_peft_folder_and_excludes_a_new_lora(tiny_model_dir, tmp_path):
    with pytest.raises(ValueError, match="not both"):
        _lora_run("m", tmp_path / "d", "t.jsonl", init_adapter="x", lora=LoraSettings())
    with pytest.raises(ValueError, match="not a PEFT adapter folder"):
        _lora_run(str(tiny_model_dir), tmp_path / "c", "t.jsonl", init_adapter=str(tmp_path))
