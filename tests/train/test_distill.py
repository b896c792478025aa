"""Stage 2 (on-policy distillation) and its routing of each prompt to its group's teacher."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from botpsy.train.distill import DistillStageConfig, build_trainer

from .conftest import stage_result


def test_distillation_trains_against_three_made_teachers(tiny_run):
    plan, report = tiny_run
    result = stage_result(report, "distill")
    assert result.stage == "distill" and result.steps == plan.distill.max_steps
    assert result.param_change > 0
    assert result.train_loss and all(p.loss >= 0 for p in result.train_loss)  # a divergence
    teachers = Path(plan.distill.output_dir) / "teachers"
    assert sorted(p.name for p in teachers.iterdir()) == ["judgment", "personal", "services"]
    assert all(
        (teachers / g / "model" / "config.json").exists()
        for g in ("judgment", "personal", "services")
    )
    assert {k for k in result.metrics if k.startswith("conversations/")} == {
        "conversations/judgment",
        "conversations/personal",
        "conversations/services",
    }


@pytest.fixture(scope="module")
def routed(tiny_model_dir, data_files, tmp_path_factory):
    """A routed trainer whose two teachers differ (a second random tiny model)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from botpsy.train.tiny import TinySpec, build_model

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    other = tmp_path_factory.mktemp("teacher_b")
    build_model(tokenizer, TinySpec(seed=5)).save_pretrained(other)
    cfg = DistillStageConfig(
        model=str(tiny_model_dir),
        output_dir=str(tmp_path_factory.mktemp("d")),
        train_file=str(data_files.train),
        max_steps=1,
    )
    teachers = {
        "judgment": str(tiny_model_dir),
        "personal": str(other),
        "services": str(tiny_model_dir),
    }
    return build_trainer(
        cfg, AutoModelForCausalLM.from_pretrained(tiny_model_dir), tokenizer, teachers
    )


def _batch(route: list[int]) -> dict[str, torch.Tensor]:
    gen = torch.Generator().manual_seed(0)
    rows = len(route)
    return {
        "prompt_ids": torch.randint(3, 500, (rows, 6), generator=gen),
        "prompt_mask": torch.ones(rows, 6, dtype=torch.long),
        "completion_ids": torch.randint(3, 500, (rows, 5), generator=gen),
        "completion_mask": torch.tensor([[1, 1, 1, 1, 0]] * rows),
        "teacher_index": torch.tensor(route),
    }


def test_each_row_is_scored_against_its_own_teacher(routed):
    student = routed.accelerator.unwrap_model(routed.model)
    personal = routed.group_index["personal"]
    judgment = routed.group_index["judgment"]
    n = torch.tensor(16.0)  # one normaliser for every variant, as in training

    def loss(route: list[int]) -> float:
        with torch.no_grad():
            return float(routed._compute_loss(student, _batch(route), n)[0])

    all_judgment, all_personal = loss([judgment] * 4), loss([personal] * 4)
    assert abs(all_judgment - all_personal) > 1e-4  # the teachers really differ
    # Rows 0-1 to one teacher, rows 2-3 to the other: each half scored against its own teacher.
    mixed = loss([judgment, judgment, personal, personal])
    with torch.no_grad():
        first = routed._compute_loss(
            student, {k: v[:2] for k, v in _batch([judgment] * 4).items()}, n
        )[0]
        second = routed._compute_loss(
            student, {k: v[2:] for k, v in _batch([personal] * 4).items()}, n
        )[0]
    assert mixed == pytest.approx(float(first + second), rel=1e-5)


def test_a_group_without_teacher_is_an_error(tiny_model_dir, data_files, tmp_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    cfg = DistillStageConfig(
        model=str(tiny_model_dir), output_dir=str(tmp_path), train_file=str(data_files.train)
    )
    with pytest.raises(ValueError, match="no teacher for group"):
        build_trainer(
            cfg,
            AutoModelForCausalLM.from_pretrained(tiny_model_dir),
            AutoTokenizer.from_pretrained(tiny_model_dir),
            {"personal": str(tiny_model_dir)},
        )


def test_finished_stage_resumes_without_making_its_teachers_again(tiny_run, tmp_path):
    """Teachers are deleted after a run to save disk; resuming must not retrain them."""
    from botpsy.train.distill import main

    plan, report = tiny_run
    ignore = shutil.ignore_patterns("teachers", "checkpoint-*")
    shutil.copytree(plan.distill.output_dir, tmp_path / "distill", ignore=ignore)
    again = main(replace(plan.distill, output_dir=str(tmp_path / "distill")))
    assert again.skipped and again.steps == stage_result(report, "distill").steps
    assert not (tmp_path / "distill" / "teachers").exists()
