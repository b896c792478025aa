"""The call-probability probe: the teacher-forced opener probability equals what the model
assigns step by step, prompts come from BFCL and from data files, bad input is a clear error."""

from __future__ import annotations

import json
import math

import pytest
import torch
from typer.testing import CliRunner

from botpsy.formats import get_format
from botpsy.train.cli import app
from botpsy.train.common import load_model
from botpsy.train.probe import (
    bfcl_prompts,
    call_probability,
    data_prompts,
    opener_ids,
    probe,
)

runner = CliRunner(env={"COLUMNS": "400"})  # error boxes on one line


def _stepwise(model, prompt_ids: list[int], opener: list[int]) -> float:
    """The same probability by greedy-decoding style steps: one forward per opener token."""
    ids = list(prompt_ids)
    total = 0.0
    for token in opener:
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0, -1]
        total += float(logits.log_softmax(-1)[token])
        ids.append(token)
    return math.exp(total)


def test_opener_is_how_a_rendered_call_starts(tiny_model_dir):
    _, tokenizer = load_model(str(tiny_model_dir))
    fmt = get_format("hermes")
    opener = opener_ids(fmt, tokenizer)
    assert opener
    assert tokenizer.decode(opener).startswith("<tool_call")


def test_call_probability_matches_step_by_step_forward(tiny_model_dir, small_data):
    model, tokenizer = load_model(str(tiny_model_dir))
    model.eval()
    fmt = get_format("hermes")
    opener = opener_ids(fmt, tokenizer)
    prompt = data_prompts(fmt, _write(small_data.validation[:1], tiny_model_dir), None)[0].prompt
    got = call_probability(model, tokenizer, prompt, opener)
    ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    assert 0.0 < got < 1.0
    assert got == pytest.approx(_stepwise(model, ids, opener), rel=1e-4)


def _write(samples, folder):
    path = folder.parent / f"probe-{samples[0].id}.jsonl"
    from botpsy.train.data import write_jsonl

    return write_jsonl(samples, path)


def test_probe_groups_bfcl_categories_and_data_kinds(tiny_model_dir, data_files):
    fmt = get_format("hermes")
    prompts = bfcl_prompts(fmt, ["irrelevance", "simple_python"], 2)
    prompts += data_prompts(fmt, data_files.validation, 6)
    report = probe(str(tiny_model_dir), prompts)
    groups = {g.group: g for g in report.groups}
    assert groups["irrelevance"].n == 2 and groups["simple_python"].n == 2
    assert sum(g.n for g in report.groups if g.group.startswith("data:")) == 6
    for g in report.groups:
        assert all(0.0 <= v <= 1.0 for v in g.values)
        assert g.mean == pytest.approx(sum(g.values) / g.n, abs=1e-3)
    assert "| irrelevance | 2 |" in report.table()


def test_bfcl_prompts_are_rendered_like_the_eval():
    prompts = bfcl_prompts(get_format("hermes"), ["irrelevance"], 1)
    assert [p.id for p in prompts] == ["irrelevance_0"]
    assert "<tools>" in prompts[0].prompt and prompts[0].prompt.rstrip().endswith("assistant")


def test_bad_input_is_a_clear_error(tiny_model_dir, tmp_path):
    fmt = get_format("hermes")
    with pytest.raises(ValueError, match="single-turn"):
        bfcl_prompts(fmt, ["multi_turn_base"], 1)
    with pytest.raises(ValueError, match="unknown BFCL category"):
        bfcl_prompts(fmt, ["simple_cobol"], 1)
    with pytest.raises(ValueError, match="no prompts"):
        probe(str(tiny_model_dir), [])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    result = runner.invoke(app, ["probe", "--model", str(tiny_model_dir), "--data", str(bad)])
    assert result.exit_code == 2 and "bad.jsonl" in result.output
    result = runner.invoke(app, ["probe", "--model", str(tmp_path / "none"), "-c", "irrelevance"])
    assert result.exit_code == 2 and "not an HF model folder" in result.output


def test_cli_prints_a_table_and_writes_json(tiny_model_dir, tmp_path):
    out = tmp_path / "probe.json"
    result = runner.invoke(
        app,
        [
            "probe",
            "--model",
            str(tiny_model_dir),
            "-c",
            "irrelevance",
            "--limit",
            "2",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "| irrelevance | 2 |" in result.output
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["groups"][0]["n"] == 2 and saved["opener_tokens"] >= 1
