"""``botpsy bench`` commands: clear errors for bad input, compare of two reports."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from botpsy.bench.cli import app

from .helpers import make_report, variant_row

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "/nowhere/model.gguf"], "model_not_found"),
        (["--quants", "q4_0,q9_9"], "unknown quantization 'q9_9'"),
        (["--prompt-lens", "128,lots"], "comma-separated integers"),
        (["--threads", "0"], "thread counts must be >= 1"),
    ],
)
def test_run_rejects_bad_input_with_a_clear_message(tmp_path, args, message):
    result = runner.invoke(app, ["run", "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_run_into_an_unwritable_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = runner.invoke(app, ["run", "--out", str(blocker / "out"), "--quick"])
    assert result.exit_code == 2 and "output_not_writable" in result.output


def test_compare_prints_ratios(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for folder, speed in ((a, 80.0), (b, 160.0)):
        folder.mkdir()
        (folder / "report.json").write_text(
            make_report([variant_row("q8_0", 2, speed, 138.0)]).model_dump_json()
        )
    result = runner.invoke(app, ["compare", str(a), str(b)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "decode tok/s" in result.output and "2.00x" in result.output


def test_compare_of_a_missing_report(tmp_path):
    result = runner.invoke(app, ["compare", str(tmp_path / "a"), str(tmp_path / "b")])
    assert result.exit_code == 2 and "bad_report" in result.output
