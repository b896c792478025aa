"""Reuse of the previous stage's validation score as the next stage's "before"."""

from __future__ import annotations

from pathlib import Path

from botpsy.train.common import (
    RESULT_FILE,
    StageCommon,
    StageResult,
    last_checkpoint,
    reused_validation,
    validation_key,
)
from botpsy.train.evaluate import ValScore


def _cfg(model: Path, **overrides: object) -> StageCommon:
    settings: dict = {"val_file": "val.jsonl", "val_samples": 8, **overrides}
    return StageCommon(model=str(model), output_dir="unused", train_file="train.jsonl", **settings)


def _previous_stage(tmp_path: Path, key: str) -> Path:
    stage = tmp_path / "sft"
    model = stage / "model"
    model.mkdir(parents=True)
    score = ValScore(n=8, reward=0.5, exact=0.25, format_ok=1.0, by_kind={}, errors={}, key=key)
    result = StageResult(stage="sft", output_dir=str(stage), model_dir=str(model), val_after=score)
    (stage / RESULT_FILE).write_text(result.model_dump_json(), encoding="utf-8")
    return model


def test_next_stage_reuses_the_previous_after_score(tmp_path: Path) -> None:
    model = tmp_path / "sft" / "model"
    key = validation_key(_cfg(model))
    _previous_stage(tmp_path, key)
    reused = reused_validation(_cfg(model))
    assert reused is not None and reused.reward == 0.5 and reused.key == key


def test_different_prompts_or_budget_are_scored_again(tmp_path: Path) -> None:
    model = tmp_path / "sft" / "model"
    _previous_stage(tmp_path, validation_key(_cfg(model)))
    assert reused_validation(_cfg(model, val_samples=16)) is None
    assert reused_validation(_cfg(model, val_max_new_tokens=32)) is None


def test_a_model_without_a_stage_result_is_scored(tmp_path: Path) -> None:
    base = tmp_path / "base"
    base.mkdir()
    assert reused_validation(_cfg(base)) is None


def test_a_checkpoint_cut_off_while_saving_is_skipped(tmp_path: Path) -> None:
    # a run killed mid-save left checkpoint-4 without trainer_state.json: every re-run
    # tried to resume from it and failed; now the one before it is used
    for step in (2, 4, 10):
        (tmp_path / f"checkpoint-{step}").mkdir()
    (tmp_path / "checkpoint-2" / "trainer_state.json").write_text("{}")
    (tmp_path / "checkpoint-4" / "trainer_state.json").write_text("{}")
    assert last_checkpoint(tmp_path) == str(tmp_path / "checkpoint-4")
    assert not (tmp_path / "checkpoint-10").exists()
    assert last_checkpoint(tmp_path / "none") is None
