"""Adapter-aware RL: DAPO trains LoRA over the truncated model, and the adapter that ships
turns the base into exactly the model DAPO produced."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from botpsy.train.adapter_rl import (
    FINAL_ADAPTER,
    LOWRANK_STAGE,
    AdapterRL,
    truncate_to_adapter,
)
from botpsy.train.export import merge_lora
from botpsy.train.presets import get_preset, with_adapter_rl
from botpsy.train.recipe import main

from .conftest import shrink


def _weights(model_dir: Path) -> dict[str, torch.Tensor]:
    return load_file(str(model_dir / "model.safetensors"))


@pytest.fixture(scope="module")
def adapter_run(tiny_run, tmp_path_factory):
    """The tiny run's data, base, SFT, distillation and balance phase, then adapter-aware DAPO
    + export."""
    plan, _ = tiny_run
    out = tmp_path_factory.mktemp("adapter-rl")
    for name in ("data", "base", "sft", "distill", "balance"):
        shutil.copytree(Path(plan.out_dir) / name, out / name)
    settings = AdapterRL(
        sft_rank=4, rl_rank=2, learning_rate=1e-3, adapter_dtype="f16", rank_pattern={"k_proj": 2}
    )
    adapted = with_adapter_rl(shrink(get_preset("tiny", str(out))), settings)
    return adapted, main(adapted)


def test_the_plan_trains_lora_from_the_truncated_model_and_exports_the_adapter(tmp_path):
    plan = with_adapter_rl(get_preset("tiny", str(tmp_path)), AdapterRL(sft_rank=8, rl_rank=2))
    assert plan.dapo1.model == str(tmp_path / LOWRANK_STAGE / "model")
    assert plan.dapo2.model == plan.dapo1.output_dir + "/model"
    assert plan.dapo1.lora.r == plan.dapo2.lora.r == 2
    assert plan.export.model_dir == plan.base_model
    assert plan.export.adapter_dir == str(tmp_path / FINAL_ADAPTER)
    assert plan.adapter_rl.final_rank == 12
    assert any("truncation" in note and "rank 12" in note for note in plan.notes)


def test_module_types_can_have_their_own_ranks():
    settings = AdapterRL(sft_rank=56, rl_rank=4, rank_pattern={"k_proj": 24, "v_proj": 24})
    assert settings.final_rank_pattern == {"k_proj": 32, "v_proj": 32}
    assert settings.describe() == "56 (k_proj 24, v_proj 24)"
    assert settings.describe(final=True) == "64 (k_proj 32, v_proj 32)"


def _best(delta: torch.Tensor, rank: int) -> torch.Tensor:
    u, s, vh = torch.linalg.svd(delta)
    return (u[:, :rank] * s[:rank]) @ vh[:rank]


def test_the_balance_phase_can_keep_ranks_of_its_own(tiny_run, tmp_path):
    plan, _ = tiny_run
    out = Path(plan.out_dir)
    settings = AdapterRL(sft_rank=4, rl_rank=2, rank_pattern={"k_proj": 2}, balance_rank=1)
    parts = settings.parts(out / "balance" / "model", out / "distill" / "model")
    assert [(p.rank, p.rank_pattern) for p in parts] == [(3, {"k_proj": 1}), (1, {})]
    lowrank = _weights(truncate_to_adapter(out / "base", parts, tmp_path / "lowrank"))
    assert not (tmp_path / "lowrank" / "merged-1").exists()  # the intermediate merge is gone
    base, distill = _weights(out / "base"), _weights(out / "distill" / "model")
    balance = _weights(out / "balance" / "model")
    q = next(k for k in base if k.endswith("q_proj.weight"))
    # distillation's change at the remaining ranks, plus the balance phase's own at its one
    expected = _best(distill[q] - base[q], 3) + _best(balance[q] - distill[q], 1)
    assert torch.linalg.norm(lowrank[q] - base[q] - expected) < 1e-3 * torch.linalg.norm(expected)
    k = q.replace("q_proj", "k_proj")
    assert torch.linalg.matrix_rank(lowrank[k] - base[k], rtol=1e-4) <= 2
    # one truncation of the whole change would be another model
    assert not torch.allclose(lowrank[q] - base[q], _best(balance[q] - base[q], 4), atol=1e-6)
    # a finished truncation is reused only when made the same way
    assert truncate_to_adapter(out / "base", parts, tmp_path / "lowrank").is_dir()
    other = AdapterRL(sft_rank=4, rl_rank=2, rank_pattern={"k_proj": 2}, balance_rank=0)
    with pytest.raises(ValueError, match="made another way"):
        truncate_to_adapter(
            out / "base", other.parts(out / "balance" / "model", None), tmp_path / "lowrank"
        )


def test_without_a_balance_rank_the_change_before_rl_is_truncated_as_one():
    settings = AdapterRL(sft_rank=56, rank_pattern={"k_proj": 24})
    (part,) = settings.parts("run/balance/model", "run/distill/model")
    assert (str(part.model), part.rank, part.rank_pattern) == (
        "run/balance/model",
        56,
        {"k_proj": 24},
    )
    with_rank = AdapterRL(sft_rank=56, rank_pattern={"k_proj": 24}, balance_rank=8)
    (part,) = with_rank.parts("run/distill/model", None)  # a plan without a balance phase
    assert part.rank == 56


def test_a_balance_rank_needs_a_balance_phase_and_room(tmp_path):
    settings = AdapterRL(sft_rank=8, rl_rank=2, balance_rank=2)
    plan = with_adapter_rl(get_preset("tiny", str(tmp_path)), settings)
    assert any("2 of the ranks truncate the balance phase's own change" in n for n in plan.notes)
    assert plan.adapter_rl.final_rank == 12  # the balance ranks come out of sft_rank
    with pytest.raises(ValueError, match="has no balance phase"):
        with_adapter_rl(replace(get_preset("tiny", str(tmp_path)), balance=None), settings)
    with pytest.raises(ValueError, match="below every truncation rank"):
        AdapterRL(sft_rank=56, rank_pattern={"k_proj": 8}, balance_rank=8)


def test_bad_ranks_are_a_clear_error():
    with pytest.raises(ValueError, match="at least 1"):
        AdapterRL(sft_rank=0)
    with pytest.raises(ValueError, match="at least 1"):
        AdapterRL(rank_pattern={"k_proj": 0})
    with pytest.raises(ValueError, match="positive"):
        AdapterRL(learning_rate=0.0)


def test_dapo_starts_from_exactly_what_the_truncated_adapter_gives(adapter_run):
    plan, report = adapter_run
    out = Path(plan.out_dir)
    base, lowrank = _weights(out / "base"), _weights(out / LOWRANK_STAGE / "model")
    before_rl = _weights(out / "balance" / "model")  # the last stage before RL
    norms = [k for k in base if "norm" in k]
    assert norms and all(torch.equal(lowrank[k], base[k]) for k in norms)
    q = next(k for k in base if k.endswith("q_proj.weight"))
    assert torch.linalg.matrix_rank(lowrank[q] - base[q], rtol=1e-4) <= 4
    k = q.replace("q_proj", "k_proj")  # its own, lower rank
    assert torch.linalg.matrix_rank(lowrank[k] - base[k], rtol=1e-4) <= 2
    assert not torch.equal(lowrank[q], before_rl[q])  # the truncation changed it
    u, s, vh = torch.linalg.svd(before_rl[q] - base[q])  # ... of the balance model's change
    best = (u[:, :4] * s[:4]) @ vh[:4]
    assert torch.linalg.norm(lowrank[q] - base[q] - best) < 1e-3 * torch.linalg.norm(best)
    assert [s.stage for s in report.stages] == ["sft", "distill", "balance", "dapo1", "dapo2"]
    assert report.stages[3].param_change > 0 and report.stages[4].param_change > 0


def test_the_final_adapter_carries_the_whole_change(adapter_run, tmp_path):
    plan, report = adapter_run
    out = Path(plan.out_dir)
    assert any("Final adapter: rank 8 (k_proj 6)" in note for note in report.notes)
    merged = _weights(merge_lora(out / "base", out / FINAL_ADAPTER, tmp_path / "merged"))
    tuned = _weights(out / "dapo2" / "model")
    for name, weight in tuned.items():
        assert torch.allclose(merged[name], weight, atol=1e-5), name
    assert report.export.adapter and Path(report.export.adapter).exists()
    assert all(c.n_vocab == plan.tiny.vocab_size for c in report.export.checks)


def test_rescoring_the_run_starts_dapo1_from_the_truncation(adapter_run):
    """``botpsy train score-run`` gives DAPO round 1 the truncated model's scores as its
    start, so the report keeps the truncation's own row."""
    from botpsy.train.score_run import score_run

    plan, _ = adapter_run
    run = Path(plan.out_dir)
    models: list[str] = []

    def evaluator(model: str) -> dict[str, float]:
        models.append(str(Path(model).resolve()))
        return {"non_live_ast": float(models.index(str(Path(model).resolve())))}

    report = score_run(run, evaluator)
    truncated = evaluator(str(run / LOWRANK_STAGE / "model"))
    stages = {s.stage: s for s in report.stages}
    assert stages["dapo1"].external_before == truncated
    assert stages["dapo1"].external_before != stages["balance"].external_after
    assert stages["dapo2"].external_before == stages["dapo1"].external_after
