"""Fixtures for the trainer tests: a small data set, a tiny model and one shrunken recipe run.

Training is the slow part, so the whole four-stage recipe runs once per session
(``tiny_run``) and the stage tests check their own stage's report and files.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from botpsy.formats import get_format
from botpsy.train.data import DataConfig, DataFiles, SyntheticData, generate, save


@pytest.fixture(scope="session", autouse=True)
def one_thread():
    """Tiny models run fastest on one thread; two spin-wait badly on a busy 2-core machine."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(scope="session")
def small_data() -> SyntheticData:
    return generate(DataConfig(n_samples=240, seed=0, max_distractors=1))


@pytest.fixture(scope="session")
def data_files(small_data: SyntheticData, tmp_path_factory: pytest.TempPathFactory) -> DataFiles:
    return save(small_data, tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="session")
def tiny_model_dir(small_data: SyntheticData, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from botpsy.train.tiny import make_tiny_model

    return make_tiny_model(tmp_path_factory.mktemp("tiny"), get_format("hermes"), small_data.train)


def stage_result(report, name: str):
    """The result of the stage called ``name`` in a recipe report."""
    (result,) = [s for s in report.stages if s.stage == name]
    return result


def shrink(plan):
    """The tiny preset cut down further so the whole recipe fits the test budget."""
    plan.sft.max_steps = 24
    plan.balance.max_steps = 4
    plan.distill.max_steps = 2
    plan.distill.teacher.max_steps = 4
    for stage in plan.stages:
        stage.val_samples = 4
        stage.val_max_new_tokens = 24
    for stage in (plan.dapo1, plan.dapo2):
        stage.max_steps = 2
        stage.pool_target = 4
    return plan


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory: pytest.TempPathFactory):
    """The recipe (SFT, distillation, balance, DAPO x2) with export, once per session."""
    from botpsy.train.presets import get_preset
    from botpsy.train.recipe import main

    plan = shrink(get_preset("tiny", str(tmp_path_factory.mktemp("recipe"))))
    return plan, main(plan)


@pytest.fixture(scope="session")
def tiny_qwen35_dir(default_gguf, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random Qwen3.5 (linear x3 + full attention, hidden 64) with SmolLM2's tokenizer."""
    from botpsy.train.tiny import make_tiny_qwen35

    return make_tiny_qwen35(tmp_path_factory.mktemp("qwen35"))
