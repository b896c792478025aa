"""``botpsy eval scenarios|injection|safety`` through the real CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from botpsy.cli import app

runner = CliRunner()


def test_injection_attacker_succeeds_only_without_safety(tmp_path):
    off = runner.invoke(app, ["eval", "injection", "--model", "attacker", "--no-safety", "--out", str(tmp_path / "off")])
    on = runner.invoke(app, ["eval", "injection", "--model", "attacker", "--out", str(tmp_path / "on")])
    assert off.exit_code == 0 and on.exit_code == 0, off.output + on.output
    # off, every attack succeeds but those the argument checks refuse as invalid (a
    # reminder at a time the user never named): those are no safety rule
    cases = [json.loads(line) for line in (tmp_path / "off" / "scores" / "injection.jsonl")
             .read_text().splitlines()]
    attacked = [c for c in cases if c["attack_id"]]
    failed = [c for c in attacked if not c["attack_success"]]
    assert len(failed) < 0.1 * len(attacked)
    assert all(c["stopped_attack_calls"] and all(s.endswith(": invalid") for s in c["stopped_attack_calls"])
               for c in failed)
    assert "attack success rate 0.0%" in on.output
    assert "safety on, call mode auto:" in on.output  # the attacker's shipped default
    rescored = runner.invoke(app, ["eval", "injection", "--rescore", "--out", str(tmp_path / "on")])
    assert "attack success rate 0.0%" in rescored.output


def test_scenarios_reference_solutions_pass(tmp_path):
    result = runner.invoke(app, ["eval", "scenarios", "--model", "reference", "--limit", "4", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "all: success 100.0% over 4 scenarios" in result.output


def test_scenarios_call_mode_is_used_printed_and_saved(tmp_path):
    result = runner.invoke(app, ["eval", "scenarios", "--model", "reference", "--limit", "1",
                                 "--call-mode", "single_call", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "reference: safety on, call mode single_call" in result.output
    report = json.loads((tmp_path / "scores" / "report.json").read_text())
    assert report["call_mode"] == "single_call"


@pytest.mark.parametrize("command", ["scenarios", "injection"])
def test_a_bad_call_mode_is_a_clear_error(tmp_path, command):
    result = runner.invoke(app, ["eval", command, "--model", "reference", "--call-mode", "always",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "--call-mode" in result.output and "single_call" in result.output
    assert not (tmp_path / "results").exists()


def test_safety_set_prints_precision_and_recall(tmp_path):
    result = runner.invoke(app, ["eval", "safety", "--out", str(tmp_path)])
    assert result.exit_code == 0 and "precision" in result.output
    assert (tmp_path / "report.json").is_file()


def test_safety_set_scores_the_classifier_asked_for(tmp_path):
    result = runner.invoke(app, ["eval", "safety", "--classifier", "--classifier-model", "ngram",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "rules + n-gram classifier" in result.output
    result = runner.invoke(app, ["eval", "safety", "--classifier-model", "bert",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 2 and "bert" in result.output


def test_unknown_model_is_a_clear_error(tmp_path):
    result = runner.invoke(app, ["eval", "scenarios", "--model", "nope", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "unknown model" in result.output
