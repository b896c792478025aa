"""Stages 3-4 (DAPO) on the tiny model: rewards flow, weights move, round 2 sees hard prompts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from botpsy.train.dapo import HARD, DAPOStageConfig, build_trainer, reward_functions

from .conftest import stage_result


def test_both_rounds_train_with_dynamic_sampling(tiny_run):
    plan, report = tiny_run
    for cfg, result in (
        (plan.dapo1, stage_result(report, "dapo1")),
        (plan.dapo2, stage_result(report, "dapo2")),
    ):
        assert result.stage == cfg.stage_name and result.steps == cfg.max_steps
        assert result.param_change > 0
        assert result.train_loss and any(p.loss != 0 for p in result.train_loss)
        assert result.metrics["pool/kept"] <= cfg.pool_target
        assert result.metrics["pool/examined"] >= result.metrics["pool/kept"]
        assert 0 <= result.metrics["dynamic_sampling/kept_groups"] <= 1
        assert "reward_first" in result.metrics


def test_round_two_trains_only_on_hard_prompts(tiny_run):
    plan, _ = tiny_run
    pool = json.loads((Path(plan.dapo2.output_dir) / "pool.json").read_text())
    shared = set(plan.dapo2.kind_shares)
    assert pool["rows"] and {row["kind"] for row in pool["rows"]} <= set(HARD) | shared
    first = json.loads((Path(plan.dapo1.output_dir) / "pool.json").read_text())
    assert first["rows"]


def test_trainer_is_dapo_with_clip_higher(tiny_model_dir, data_files, tmp_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    cfg = DAPOStageConfig(
        model=str(tiny_model_dir),
        output_dir=str(tmp_path),
        train_file=str(data_files.train),
        batch_size=4,
        num_generations=4,
        dynamic_sampling=False,
        max_completion_length=16,
        overlong_cache=4,
    )
    trainer = build_trainer(
        cfg,
        AutoModelForCausalLM.from_pretrained(tiny_model_dir),
        AutoTokenizer.from_pretrained(tiny_model_dir),
        {},
    )
    args = trainer.args
    assert (args.loss_type, args.epsilon, args.epsilon_high, args.beta) == ("dapo", 0.2, 0.28, 0.0)
    assert args.mask_truncated_completions
    names = [f.__name__ for f in trainer.reward_funcs]
    assert names == ["tool_call", "format", "overlong", "final_answer"]
    assert args.reward_weights == [1.0, 0.2, 1.0, 0.5]
    cfg.answer_weight = 0.0  # off: the function is left out, not weighted 0
    assert [f.__name__ for f in reward_functions(cfg)[0]] == ["tool_call", "format", "overlong"]
    cfg.batch_size = 6
    with pytest.raises(ValueError, match="multiple of num_generations"):
        build_trainer(cfg, None, None, {})


def test_a_pool_smaller_than_one_batch_is_an_error(tiny_model_dir, data_files, tmp_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from botpsy.train.dapo import DynamicSamplingError

    cfg = DAPOStageConfig(
        model=str(tiny_model_dir), output_dir=str(tmp_path), train_file=str(data_files.train),
        batch_size=8, num_generations=4, max_completion_length=96, overlong_cache=4, pool_target=1,
    )  # fmt: skip
    with pytest.raises(DynamicSamplingError, match="fewer than the 2"):
        build_trainer(cfg, AutoModelForCausalLM.from_pretrained(tiny_model_dir),
                      AutoTokenizer.from_pretrained(tiny_model_dir), {})  # fmt: skip


def test_prompts_whose_answer_would_be_punished_as_overlong_are_left_out(
    tiny_model_dir, data_files, tmp_path
):
    """A correct answer longer than max_completion_length - overlong_cache would lose reward
    for its length: such prompts never enter the pool, and the count is reported."""
    from transformers import AutoTokenizer

    from botpsy.formats import get_format
    from botpsy.train.dapo import prompt_pool
    from botpsy.train.loaders import read_samples
    from botpsy.train.render import decision_points

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    samples = read_samples(data_files.train)
    points = [p for s in samples for p in decision_points(get_format("hermes"), s, True)]
    lengths = sorted(
        len(tokenizer(p.answer, add_special_tokens=False)["input_ids"]) for p in points
    )
    budget = lengths[len(lengths) // 2]
    cfg = DAPOStageConfig(
        model=str(tiny_model_dir), output_dir=str(tmp_path), train_file=str(data_files.train),
        max_completion_length=budget + 8, overlong_cache=8,
    )  # fmt: skip
    rows, too_long = prompt_pool(cfg, tokenizer)
    assert too_long == sum(n > budget for n in lengths) > 0
    assert len(rows) + too_long == len(points)
    assert "answer" not in rows[0]  # reward functions see only the grading columns
    cfg.max_completion_length = 9
    with pytest.raises(ValueError, match="raise max_completion_length"):
        prompt_pool(cfg, tokenizer)


def _cfg(**kw: object) -> DAPOStageConfig:
    return DAPOStageConfig(
        **{"model": "m", "output_dir": "o", "train_file": "t", "pool_target": 12, **kw}
    )


def _rows(kinds: dict[str, int]) -> list[dict[str, str]]:
    return [{"prompt": f"{k}{i}", "kind": k} for k, n in kinds.items() for i in range(n)]


def test_kind_shares_reserve_part_of_the_pool_and_the_rest_fills_the_remainder():
    from botpsy.train.dapo import pool_strata

    cfg = _cfg(kind_shares={"irrelevance": 0.5}, kinds=HARD)
    rows = _rows({"irrelevance": 5, "parallel": 4, "single": 3, "multi_turn": 2})
    strata = pool_strata(cfg, rows)
    assert [(len(r), n) for r, n in strata] == [(5, 6), (6, None)]
    assert {r["kind"] for r in strata[1][0]} == {"parallel", "multi_turn"}  # single: not HARD
    cfg.kind_shares = {}
    assert pool_strata(cfg, rows) == [(rows, 12)]


def test_the_remainder_takes_the_places_a_shared_kind_could_not_fill(monkeypatch):
    """The pool keeps its size when too few shared-kind prompts are informative."""
    from botpsy.train import dapo
    from botpsy.train.dynamic import PoolFilterResult

    def keep_first(model, tok, rows, funcs, weights, group, max_new, target, **kw):
        kept = rows[:target]
        return PoolFilterResult(kept, len(rows), len(rows) - len(kept), 0.5, [0.5] * len(rows))

    monkeypatch.setattr(dapo, "filter_prompt_pool", keep_first)
    cfg = _cfg(kind_shares={"irrelevance": 0.5})
    pool = dapo._filter_strata(cfg, None, None, _rows({"irrelevance": 2, "single": 20}))
    kinds = [r["kind"] for r in pool.rows]
    assert (kinds.count("irrelevance"), kinds.count("single")) == (2, 10)
    assert pool.examined == 22 and pool.dropped == 10
    assert kinds != ["irrelevance"] * 2 + ["single"] * 10  # shuffled: steps mix the kinds


@pytest.mark.parametrize(
    ("shares", "extra", "message"),
    [
        ({"chitchat": 0.2}, {}, "unknown sample kinds"),
        ({"irrelevance": 1.5}, {}, "between 0 and 1"),
        ({"irrelevance": 0.6, "decline": 0.4}, {}, "no room"),
        ({"irrelevance": 0.5}, {"pool_target": None}, "a pool_target"),
        ({"irrelevance": 0.5}, {"dynamic_sampling": False}, "dynamic_sampling"),
    ],
)
def test_bad_kind_shares_are_a_clear_error(shares, extra, message):
    with pytest.raises(ValueError, match=message):
        _cfg(kind_shares=shares, **extra)


def test_shared_kinds_enter_the_pool_even_when_kinds_leaves_them_out(
    tiny_model_dir, data_files, tmp_path
):
    from transformers import AutoTokenizer

    from botpsy.train.dapo import prompt_pool

    cfg = DAPOStageConfig(
        model=str(tiny_model_dir), output_dir=str(tmp_path), train_file=str(data_files.train),
        kinds=HARD, kind_shares={"irrelevance": 0.25}, pool_target=4, max_completion_length=256,
        overlong_cache=8,
    )  # fmt: skip
    rows, _ = prompt_pool(cfg, AutoTokenizer.from_pretrained(tiny_model_dir))
    assert {r["kind"] for r in rows} == set(HARD) | {"irrelevance"}
