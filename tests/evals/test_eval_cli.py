"""``botpsy eval`` commands, end to end with the real model store (scripted model specs)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from botpsy.evals.cli import app

runner = CliRunner()


def _script(path, outputs):
    path.write_text("".join(json.dumps(o) + "\n" for o in outputs))
    return f"scripted:{path}"


def test_bfcl_prompt_mode_generates_and_scores(tmp_path):
    spec = _script(
        tmp_path / "model.jsonl",
        [
            "[calculate_triangle_area(base=10, height=5)]",
            "[math.factorial(number=6)]",
        ],
    )
    result = runner.invoke(
        app,
        [
            "bfcl",
            "--model",
            spec,
            "--category",
            "simple_python",
            "--limit",
            "2",
            "--mode",
            "prompt",
            "--out",
            str(tmp_path / "run"),
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(
        (tmp_path / "run" / "scores" / "scripted_model.jsonl" / "report.json").read_text()
    )
    assert report["mode"] == "prompt"
    assert report["categories"]["simple_python"]["correct"] == 1
    assert report["categories"]["simple_python"]["error_types"] == {"value_error:others": 1}


def test_score_again_and_compare_without_a_model(oracle_run, tmp_path):
    result = runner.invoke(
        app, ["score", str(oracle_run.out), "--out", str(tmp_path), "--category", "parallel"]
    )
    assert result.exit_code == 0, result.output
    assert "parallel" in result.output
    compared = runner.invoke(
        app,
        [
            "compare",
            str(oracle_run.out / "scores" / "oracle"),
            str(tmp_path / "scores" / "oracle"),
            "--json",
        ],
    )
    assert compared.exit_code == 0, compared.output
    rows = {row["category"]: row for row in json.loads(compared.output)["categories"]}
    assert rows["parallel"]["delta"] == 0.0 and rows["parallel"]["broken"] == []


def test_score_of_several_runs_reports_mean_and_std(oracle_run, tmp_path):
    result = runner.invoke(
        app,
        [
            "score",
            str(oracle_run.model_dir),
            str(oracle_run.model_dir),
            "--out",
            str(tmp_path),
            "--category",
            "irrelevance",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "runs_report.json").read_text())
    assert summary["runs"] == 2 and summary["categories"]["irrelevance"]["std"] == 0.0


def test_toolcalls_command(tmp_path):
    tool = {
        "name": "get_time",
        "description": "Time in a city.",
        "parameters": {
            "type": "dict",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    }
    (tmp_path / "t.jsonl").write_text(
        json.dumps({"id": "a", "question": "Time in Oslo?", "function": [tool]}) + "\n"
    )
    (tmp_path / "a.jsonl").write_text(
        json.dumps({"id": "a", "ground_truth": [{"get_time": {"city": ["Oslo"]}}]}) + "\n"
    )
    spec = _script(tmp_path / "m.jsonl", ['[get_time(city="oslo")]'])
    result = runner.invoke(
        app,
        [
            "toolcalls",
            "--data",
            str(tmp_path / "t.jsonl"),
            "--answers",
            str(tmp_path / "a.jsonl"),
            "--model",
            spec,
            "--mode",
            "prompt",
            "--out",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "100.0" in result.output


def test_bad_input_ends_with_a_message_not_a_traceback(tmp_path):
    result = runner.invoke(app, ["score", str(tmp_path)])
    assert result.exit_code == 2 and "no BFCL result files" in result.output
    result = runner.invoke(
        app,
        [
            "bfcl",
            "--category",
            "nonsense",
            "--model",
            _script(tmp_path / "m.jsonl", []),
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 2 and "unknown BFCL category" in result.output
    (tmp_path / "t.jsonl").write_text("{}\n")
    result = runner.invoke(
        app,
        ["toolcalls", "--data", str(tmp_path / "t.jsonl"), "--answers", str(tmp_path / "t.jsonl")],
    )
    assert result.exit_code == 2 and "t.jsonl:1" in result.output


def test_bfcl_tool_choice_required_is_recorded_and_reported(tmp_path):
    call = {"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}
    spec = _script(tmp_path / "model.jsonl", [f"<tool_call>\n{json.dumps(call)}\n</tool_call>"])
    args = ["bfcl", "--model", spec, "-c", "simple_python", "-n", "1", "--out", str(tmp_path)]
    result = runner.invoke(app, [*args, "--tool-choice", "required", "--no-early-stop"])
    assert result.exit_code == 0, result.output
    run = json.loads((tmp_path / "results" / "scripted_model.jsonl" / "run.json").read_text())
    assert run["tool_choice"] == "required" and run["early_stop"] is None
    report = json.loads((tmp_path / "scores" / "scripted_model.jsonl" / "report.json").read_text())
    assert report["tool_choice"] == "required"
    assert report["categories"]["simple_python"]["correct"] == 1
    refused = runner.invoke(app, [*args, "--tool-choice", "sometimes"])
    assert refused.exit_code == 2 and "sometimes" in refused.output
    mixed = runner.invoke(app, [*args, "--tool-choice", "auto"])
    assert mixed.exit_code == 2 and "use --no-resume" in mixed.output


def test_bad_model_specs_and_parallel_end_with_a_message_not_a_trace(tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text('"hi"\n')
    out = tmp_path / "run"
    parallel = runner.invoke(
        app, ["bfcl", "-m", f"scripted:{script}", "--parallel", "2", "-n", "1", "-o", str(out)]
    )
    assert parallel.exit_code == 2 and "parallel requests need a GGUF" in parallel.output
    unknown = runner.invoke(app, ["bfcl", "-m", "gpt-17", "-n", "1", "-o", str(out)])
    assert unknown.exit_code == 2 and "unknown model" in unknown.output
    assert not out.exists()


def test_score_finds_the_models_of_a_runs_folder_and_never_averages_two_models(
    oracle_run, tmp_path
):
    """A --runs folder (run1/results/<model>) is scored per model, not as models named
    "run1"; two models in one run folder are shown each, not as two runs of one."""
    import shutil

    runs = tmp_path / "runs"
    for name in ("run1", "run2"):
        shutil.copytree(oracle_run.model_dir, runs / name / "results" / "oracle")
    result = runner.invoke(app, ["score", str(runs), "--category", "irrelevance"])
    assert result.exit_code == 0, result.output
    assert (runs / "run1" / "scores" / "oracle" / "report.json").is_file()
    assert not (runs / "scores" / "run1").exists()
    two = tmp_path / "two" / "results"
    shutil.copytree(oracle_run.model_dir, two / "oracle")
    other = two / "other"
    shutil.copytree(oracle_run.model_dir, other)
    manifest = json.loads((other / "run.json").read_text())
    (other / "run.json").write_text(json.dumps({**manifest, "model": "other"}))
    result = runner.invoke(app, ["score", str(two.parent), "--category", "irrelevance"])
    assert result.exit_code == 0, result.output
    assert "2 models (oracle, other): scored each, no mean" in " ".join(result.output.split())


def test_runs_are_scored_in_the_order_they_were_made(oracle_run, tmp_path):
    """run2 before run10, so --out's run<k> folders line up with the runs."""
    import shutil

    from botpsy.evals.cli import _model_dirs

    runs = tmp_path / "runs"
    for k in (1, 2, 10):
        shutil.copytree(oracle_run.model_dir, runs / f"run{k}" / "results" / "oracle")
    assert [d.parent.parent.name for d in _model_dirs(runs)] == ["run1", "run2", "run10"]
