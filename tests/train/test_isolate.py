"""Recipe steps in a fresh process: the result comes back, errors surface, a kill says how to
resume, and the parent keeps the scores a child computed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from botpsy.train.common import StageResult
from botpsy.train.isolate import StageProcessDied, run_isolated
from botpsy.train.presets import get_preset
from botpsy.train.recipe import CachedEvaluator, _run_stage


def _pid_plus(n: int) -> tuple[int, int]:
    return os.getpid(), n + 1


def _fails(message: str) -> None:
    raise ValueError(message)


def _killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # what the OOM killer does


def _scores(model_dir: str) -> dict[str, float]:
    return {"ast": float(len(Path(model_dir).name))}


def _fake_stage(cfg, evaluator) -> StageResult:
    """A stage that scores its input and output models through the evaluator it is given."""
    after = str(Path(cfg.output_dir) / "model")
    return StageResult(
        stage="sft",
        output_dir=cfg.output_dir,
        model_dir=after,
        external_before=evaluator(cfg.model),
        external_after=evaluator(after),
    )


def test_result_comes_back_from_another_process():
    pid, value = run_isolated(_pid_plus, 41)
    assert value == 42 and pid != os.getpid()


def test_child_exception_reaches_the_caller():
    with pytest.raises(ValueError, match="bad config"):
        run_isolated(_fails, "bad config")


def test_killed_child_says_how_to_resume():
    with pytest.raises(StageProcessDied, match="stage dapo2 died.*re-run the same command"):
        run_isolated(_killed, label="stage dapo2")


def test_stage_process_scores_are_kept_by_the_parent(tmp_path):
    plan = replace(get_preset("tiny", str(tmp_path)), stage_processes=True)
    cached = CachedEvaluator(_scores)
    result = _run_stage(plan, _fake_stage, plan.sft, cached)
    assert result.external_after == {"ast": 5.0}
    keys = {Path(k).name for k in cached.cache}
    assert keys == {"base", "model"}  # both scored in the child, neither to be scored again


def test_smol_runs_each_stage_in_its_own_process(tmp_path):
    assert get_preset("smol", str(tmp_path)).stage_processes
    assert not get_preset("tiny", str(tmp_path)).stage_processes


def _alive(pid: int) -> bool:
    """Running, neither gone nor a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_stage_process_dies_with_the_recipe(tmp_path):
    """A recipe killed from outside leaves no stage training on in the background."""
    (tmp_path / "sleeper.py").write_text(
        "import os, time\n"
        "def sleep(path):\n"
        "    open(path, 'w').write(str(os.getpid()))\n"
        "    time.sleep(120)\n"
    )
    pid_file = tmp_path / "child.pid"
    script = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "from sleeper import sleep\n"
        "from botpsy.train.isolate import run_isolated\n"
        f"run_isolated(sleep, {str(pid_file)!r})\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.time() + 60
    while not pid_file.exists() or not pid_file.read_text():
        assert time.time() < deadline and parent.poll() is None
        time.sleep(0.1)
    child = int(pid_file.read_text())
    assert _alive(child)
    parent.kill()
    parent.wait()
    deadline = time.time() + 10
    while _alive(child) and time.time() < deadline:
        time.sleep(0.1)
    assert not _alive(child)
