"""The whole tiny recipe: data -> SFT -> distillation -> DAPO x2 -> GGUF, report, resume."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from botpsy.train.presets import BALANCE_KIND_WEIGHTS
from botpsy.train.recipe import main
from botpsy.train.report import RecipeReport

from .conftest import stage_result


def test_recipe_trains_every_stage_and_exports_loadable_ggufs(tiny_run):
    plan, report = tiny_run
    assert [s.stage for s in report.stages] == ["sft", "distill", "balance", "dapo1", "dapo2"]
    assert report.stages[0].loss_last < report.stages[0].loss_first
    assert all(s.param_change > 0 for s in report.stages)
    names = sorted(Path(c.path).name for c in report.export.checks)
    assert names == ["botpsy-tiny-F16.gguf", "botpsy-tiny-Q4_K_M.gguf", "botpsy-tiny-Q8_0.gguf"]
    assert all(c.n_vocab == plan.tiny.vocab_size for c in report.export.checks)
    out = Path(plan.out_dir)
    assert (
        RecipeReport.model_validate_json((out / "recipe_report.json").read_text()).stages[0].steps
        == 24
    )
    assert "| sft |" in (out / "recipe_report.md").read_text()
    assert (out / "recipe_report.png").read_bytes()[:4] == b"\x89PNG"


def test_balance_phase_trains_before_rl_on_its_own_half_no_call_data(tiny_run):
    plan, report = tiny_run
    balance = stage_result(report, "balance")
    assert balance.steps == plan.balance.max_steps and balance.param_change > 0
    assert plan.balance.learning_rate == plan.sft.learning_rate / 2
    stats = json.loads((Path(plan.balance.train_file).parent / "stats.json").read_text())
    share = stats["by_kind"]["irrelevance"] / stats["train"]
    assert 0.35 < share < 0.65  # half no-call, against the main data's 0.22
    assert set(stats["by_kind"]) <= {*BALANCE_KIND_WEIGHTS}
    main_rows = set(Path(plan.sft.train_file).read_text().splitlines())
    fresh = Path(plan.balance.train_file).read_text().splitlines()
    assert sum(row in main_rows for row in fresh) < len(fresh) / 10  # fresh conversations


def test_rerun_resumes_by_skipping_finished_stages(tiny_run):
    plan, report = tiny_run
    started = time.time()
    again = main(plan)
    assert all(s.skipped for s in again.stages)
    assert [s.param_change for s in again.stages] == [s.param_change for s in report.stages]
    assert time.time() - started < 30


def test_presets_chain_each_stage_to_the_previous_model(tmp_path):
    from botpsy.train.presets import get_preset

    plan = get_preset("tiny", str(tmp_path))
    assert plan.distill.model == plan.sft.output_dir + "/model"
    assert plan.balance.model == plan.distill.output_dir + "/model"
    assert plan.dapo1.model == plan.balance.output_dir + "/model" == plan.before_rl
    assert plan.dapo2.model == plan.dapo1.output_dir + "/model"
    assert plan.export.model_dir == plan.dapo2.output_dir + "/model"
    assert plan.dapo1.kinds is None and set(plan.dapo2.kinds) == {
        "multi_turn",
        "parallel",
        "parallel_multiple",
    }


@pytest.mark.slow
@pytest.mark.model
def test_smol_preset_runs_every_stage_at_real_scale(tmp_path):
    """SmolLM2-135M dequantized from the shipped GGUF, bf16 autocast, 1-2 steps per stage."""
    from botpsy.train.presets import get_preset

    plan = get_preset("smol", str(tmp_path))
    plan.data.n_samples = 120
    plan.sft.max_steps, plan.distill.max_steps, plan.distill.teacher.max_steps = 2, 1, 1
    plan.balance.max_steps, plan.balance_data.n_samples = 1, 40
    for stage in plan.stages:
        stage.val_samples, stage.val_max_new_tokens = 2, 48
    for stage in (plan.dapo1, plan.dapo2):
        stage.max_steps, stage.pool_target, stage.filter_max_new_tokens = 1, 2, 48
        stage.max_completion_length, stage.overlong_cache = 48, 12
    report = main(plan)
    assert all(s.steps > 0 for s in report.stages)
    assert report.stages[0].param_change > 0
    assert len(report.export.checks) == 3


def test_scale_multiplies_data_and_steps_of_every_stage(tmp_path):
    from botpsy.train.presets import get_preset, with_scale

    plan = get_preset("smol", str(tmp_path))
    big = with_scale(plan, 30)
    assert (big.data.n_samples, big.balance_data.n_samples) == (27000, 7800)
    assert [s.max_steps for s in big.stages] == [30 * s.max_steps for s in plan.stages]
    assert big.distill.teacher.max_steps == 30 * plan.distill.teacher.max_steps
    assert (big.dapo1.pool_target, big.dapo2.pool_target) == (360, 360)
    assert [s.learning_rate for s in big.stages] == [s.learning_rate for s in plan.stages]
    assert plan.data.n_samples == 900  # the preset itself is left as it was
    assert with_scale(plan, 1) is plan
    with pytest.raises(ValueError, match="scale must be >= 1"):
        with_scale(plan, 0)


def test_a_run_folder_refuses_to_resume_under_other_settings(tmp_path):
    """Resuming reuses saved data and skips finished stages: under other settings that would
    pass the old run off as the new plan's."""
    from botpsy.train.presets import get_preset, with_scale
    from botpsy.train.recipe import PLAN_FILE, check_plan

    plan = get_preset("tiny", str(tmp_path))
    check_plan(plan)
    assert (tmp_path / PLAN_FILE).is_file()
    check_plan(get_preset("tiny", str(tmp_path)))  # the same command resumes
    moved = tmp_path.rename(tmp_path.with_name(tmp_path.name + "-moved"))
    check_plan(get_preset("tiny", str(moved)))  # so does a run folder moved elsewhere
    plan = get_preset("tiny", str(moved))
    with pytest.raises(ValueError, match=r"balance_data.n_samples: 60 -> 120.*new --out"):
        check_plan(with_scale(plan, 2))
