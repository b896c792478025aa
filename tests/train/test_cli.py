"""The ``botpsy train`` commands (fast paths; the training paths are covered by the stage tests)."""

from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

from botpsy.train.cli import app

runner = CliRunner()


def _flat(result) -> str:
    """The output without the box typer draws round errors, nor any whitespace."""
    return "".join(result.output.replace("│", "").split())


def test_data_command_writes_splits_and_stats(tmp_path):
    result = runner.invoke(app, ["data", "--out", str(tmp_path), "--n", "40", "--seed", "3"])
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert (
        stats["train"] + stats["validation"] == 40 - stats["duplicates_dropped"]
        or stats["train"] > 0
    )
    assert len((tmp_path / "train.jsonl").read_text().splitlines()) == stats["train"]


def test_data_command_sets_the_naming_style_share(tmp_path):
    for share, check in (("0", lambda r, n: r == 0), ("1", lambda r, n: r > 0.8 * n)):
        out = tmp_path / share
        args = ["data", "--out", str(out), "--n", "40", "--name-style-share", share]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        stats = json.loads((out / "stats.json").read_text())
        assert check(stats["restyled"], stats["train"] + stats["validation"]), stats
    bad = runner.invoke(app, ["data", "--out", str(tmp_path / "x"), "--name-style-share", "2"])
    assert bad.exit_code == 2
    config = tmp_path / "data.json"
    config.write_text(json.dumps({"n_samples": 40, "name_style_share": 5}))
    bad = runner.invoke(app, ["data", "--out", str(tmp_path / "y"), "--config", str(config)])
    assert bad.exit_code == 2 and "name_style_share" in bad.output


def test_data_command_sets_the_source_text_share(tmp_path):
    args = ["data", "--out", str(tmp_path), "--n", "40", "--source-text-share", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["source_text"] > 0, stats
    bad = runner.invoke(app, ["data", "--out", str(tmp_path / "x"), "--source-text-share", "-1"])
    assert bad.exit_code == 2


def test_gpu_preset_writes_a_launch_bundle(tmp_path):
    base = tmp_path / "qwen"
    base.mkdir()
    result = runner.invoke(
        app,
        [
            "recipe",
            "--preset",
            "qwen3.5-0.8b",
            "--out",
            str(tmp_path / "run"),
            "--base-model",
            str(base),
        ],
    )
    assert result.exit_code == 0, result.output
    run = tmp_path / "run"
    script = (run / "launch.sh").read_text()
    assert (
        "accelerate launch --config_file accelerate/zero3.yaml -m botpsy.train.cli distill"
        in script
    )
    zero2 = yaml.safe_load((run / "accelerate" / "zero2.yaml").read_text())
    assert zero2["distributed_type"] == "DEEPSPEED" and zero2["deepspeed_config"]["zero_stage"] == 2
    assert "cli data --config configs/balance_data.json --out data/balance" in script
    assert "-m botpsy.train.cli sft --config configs/balance.json" in script
    balance = json.loads((run / "configs" / "balance.json").read_text())
    assert balance["stage_name"] == "balance" and balance["model"].endswith("distill/model")
    dapo = json.loads((run / "configs" / "dapo1.json").read_text())
    assert dapo["use_vllm"] and dapo["format"] == "qwen35" and dapo["epsilon_high"] == 0.28
    # GPU-only needs are checked first and named; the export comes last
    assert 'python -c "import deepspeed"' in script and "pip install deepspeed" in script
    assert 'python -c "import vllm"' in script and "GPUs only" in script
    assert script.index("import vllm") < script.index("cli data")
    commands = [line for line in script.splitlines() if not line.startswith("#")]
    assert "-m botpsy.train.cli export --model" in commands[-1]


def test_cpu_bundle_at_smoke_scale_leaves_deepspeed_and_vllm_out(tmp_path):
    base = tmp_path / "qwen"
    base.mkdir()
    run = tmp_path / "run"
    result = runner.invoke(app, ["recipe", "--preset", "qwen3.5-0.8b", "--out", str(run),
                                 "--base-model", str(base), "--smoke", "--bundle", "--cpu",
                                 "--processes", "2"])
    assert result.exit_code == 0, result.output
    script = (run / "launch.sh").read_text()
    cpu = yaml.safe_load((run / "accelerate" / "cpu.yaml").read_text())
    assert cpu["num_processes"] == 2 and cpu["distributed_type"] == "MULTI_GPU"
    assert not list((run / "accelerate").glob("zero*.yaml"))
    assert "deepspeed" not in script and "vllm" not in script
    assert script.count("accelerate launch --config_file accelerate/cpu.yaml") == 5
    dapo = json.loads((run / "configs" / "dapo2.json").read_text())
    assert dapo["max_steps"] == 1 and not dapo["use_vllm"] and not dapo["bf16"]


def test_unknown_preset_and_bad_config_are_clear_errors(tmp_path):
    result = runner.invoke(app, ["recipe", "--preset", "huge", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "unknown preset" in result.output
    (tmp_path / "bad.json").write_text(
        json.dumps({"model": "m", "output_dir": "o", "train_file": "t", "learning_rate": "fast"})
    )
    result = runner.invoke(app, ["sft", "--config", str(tmp_path / "bad.json")])
    assert result.exit_code != 0 and "learning_rate" in result.output


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"learnng_rate": 1e-3, "max_stepz": 1}', "'learnng_rate'(didyoumean'learning_rate'?)"),
        ("[1]", "mustholdaJSONobject"),
        ("{bad", "isnotJSON"),
        ('{"learning_rate": -1}', "learning_ratemustbe>0"),
        ('{"max_steps": -3}', "max_stepsmustbe>=1"),
    ],
)
def test_a_config_no_run_can_use_is_refused_before_training(tmp_path, text, message):
    # a misspelt key used to train with the default; a negative step count, every epoch
    (tmp_path / "c.json").write_text(text)
    args = ["sft", "--config", str(tmp_path / "c.json"), "--model", "m", "--train", "t",
            "--out", str(tmp_path / "o")]
    result = runner.invoke(app, args)
    flat = _flat(result)
    assert result.exit_code == 2 and message in flat, result.output
    assert not (tmp_path / "o").exists()


def test_stage_commands_map_the_shared_flags_to_config_fields(tmp_path):
    """--model and --train fill ``model``/``train_file`` in every stage; only ``output_dir``
    (no --out) is then missing, so validation fails before any training starts."""
    for stage in ("sft", "distill", "dapo"):
        result = runner.invoke(app, [stage, "--model", "m", "--train", "t", "--max-steps", "2"])
        flat = _flat(result)
        assert result.exit_code == 2, (stage, result.output)
        assert "1validationerror" in flat and "output_dir" in flat, (stage, result.output)


def test_sft_init_adapter_option_is_checked_before_any_training(tiny_model_dir, tmp_path):
    base = ["sft", "--model", str(tiny_model_dir), "--train", "t.jsonl", "--out", str(tmp_path)]
    result = runner.invoke(app, [*base, "--init-adapter", str(tmp_path)])
    flat = _flat(result)
    assert result.exit_code == 2 and "notaPEFTadapterfolder" in flat, result.output
    assert not (tmp_path / "model").exists()


def test_dapo_share_option_is_validated_before_any_training():
    base = ["dapo", "--model", "m", "--train", "t", "--out", "o", "--pool-target", "12"]
    for share, message in (
        ("irrelevance", "expectedKIND=FRACTION"),
        ("chitchat=0.2", "unknownsamplekinds"),
        ("irrelevance=1.5", "between0and1"),
    ):
        result = runner.invoke(app, [*base, "--share", share])
        flat = _flat(result)
        assert result.exit_code == 2 and message in flat, (share, result.output)
    result = runner.invoke(app, [*base[:-2], "--share", "irrelevance=0.5"])
    assert result.exit_code == 2 and "pool_target" in result.output


def test_recipe_refuses_adapter_rl_where_it_cannot_run(tmp_path):
    args = ["recipe", "--preset", "qwen3.5-0.8b", "--base-model", str(tmp_path), "--out"]
    result = runner.invoke(app, [*args, str(tmp_path / "q"), "--adapter-rank", "32"])
    said = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 2 and "adapter RL runs in-process" in said
    result = runner.invoke(app, ["recipe", "--out", str(tmp_path / "t"), "--adapter-rank", "0"])
    assert result.exit_code == 2 and "--adapter-rank" in result.output
    bad = ["--adapter-rank", "8", "--adapter-rank-pattern", "k_proj=x"]
    result = runner.invoke(app, ["recipe", "--out", str(tmp_path / "t"), *bad])
    said = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 2 and "--adapter-rank-pattern wants MODULE=RANK" in said
    orphan = ["recipe", "--out", str(tmp_path / "o"), "--adapter-balance-rank", "8"]
    result = runner.invoke(app, orphan)
    said = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 2 and "need --adapter-rank" in said


def test_missing_models_and_files_are_named_before_any_loading(tmp_path):
    # a missing folder used to become a hub download that fails offline with a traceback
    for args in (["sft", "--model", "nosuch", "--train", "t.jsonl", "--out", str(tmp_path / "o")],
                 ["export", "--model", "nosuch", "--out", str(tmp_path / "e")]):
        result = runner.invoke(app, args)
        flat = _flat(result)
        assert result.exit_code == 2 and "notalocalHuggingFacemodelfolder" in flat, result.output
    (tmp_path / "x.gguf").write_text("junk")
    result = runner.invoke(app, ["import-gguf", "--gguf", str(tmp_path / "x.gguf"),
                                 "--out", str(tmp_path / "i")])
    flat = _flat(result)
    assert result.exit_code == 2 and "GGUFmagicinvalid" in flat, result.output


@pytest.mark.parametrize("args", [["--n", "0"], ["--val-fraction", "2"],
                                  ["--max-distractors", "-4"], ["--recipes", "nope.json"]])
def test_data_settings_no_run_can_use_are_refused(tmp_path, args):
    result = runner.invoke(app, ["data", "--out", str(tmp_path / "d"), *args])
    assert result.exit_code == 2 and "DataConfig" in result.output
    assert not (tmp_path / "d").exists()


def test_recipe_and_teacher_folders_are_checked_before_any_work(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(app, ["recipe", "--preset", "tiny", "--out", str(out),
                                 "--base-model", str(tmp_path / "none")])
    assert result.exit_code == 2 and not out.exists()  # no data written first
    for teacher, message in (("personal", "writeGROUP=MODEL_DIR"),
                             (f"personal={tmp_path / 'none'}", "notalocalHuggingFace")):
        result = runner.invoke(app, ["distill", "--model", "m", "--train", "t", "--out", "o",
                                     "--teacher", teacher])
        flat = _flat(result)
        assert result.exit_code == 2 and message in flat, result.output


def test_recipe_takes_your_own_tools_and_checks_them_first(tmp_path):
    from botpsy.train.presets import get_preset, with_user_recipes

    mine = str(tmp_path / "mine.json")
    (tmp_path / "mine.json").write_text("[]")
    plan = with_user_recipes(get_preset("tiny", str(tmp_path)), mine, only=True)
    assert (plan.data.recipes_file, plan.data.only_user_recipes) == (mine, True)
    (tmp_path / "bad.json").write_text('{"not": "a list"}')
    out = tmp_path / "run"
    for extra in (["--recipes", str(tmp_path / "bad.json")], ["--only-user-recipes"]):
        result = runner.invoke(app, ["recipe", "--preset", "tiny", "--out", str(out), *extra])
        assert result.exit_code == 2 and not out.exists(), result.output


def test_recipe_refuses_a_run_folder_made_with_another_scale(tmp_path):
    """--scale on a folder holding a run at another scale would resume the old data and stages."""
    from botpsy.train.presets import get_preset
    from botpsy.train.recipe import check_plan

    out = tmp_path / "run"
    check_plan(get_preset("tiny", str(out)))  # as the first sitting of the run did
    result = runner.invoke(app, ["recipe", "--preset", "tiny", "--out", str(out),
                                 "--scale", "3"])
    assert result.exit_code == 2 and "othersettings" in _flat(result), result.output
    assert not (out / "data").exists()  # nothing prepared under the wrong plan
