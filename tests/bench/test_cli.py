"""``botpsy bench`` commands: clear errors for bad input, compare of two reports."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from botpsy.bench.cli import app
from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.schema import BenchReport

from .helpers import make_report, variant_row

runner = CliRunner()


def words(text: str) -> str:
    """The output with rich's line wrapping undone."""
    return " ".join(text.split())


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


def test_run_of_a_truncated_gguf_is_one_clear_line(tmp_path, tiny_gguf):
    # `head -c 1000000 model.gguf > trunc.gguf; bench run --model trunc.gguf` gave a traceback
    broken = tmp_path / "trunc.gguf"
    broken.write_bytes(tiny_gguf.read_bytes()[:1000])
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", "--out", str(out), "--model", str(broken)])
    assert result.exit_code == 2 and "bad_model" in result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(
        result.exception, SystemExit)
    assert not out.exists()


def test_run_of_a_missing_model_makes_no_output_folder(tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", "--out", str(out), "--model", str(tmp_path / "no.gguf")])
    assert result.exit_code == 2 and not out.exists()


def test_run_rejects_an_hf_folder_without_weights_before_measuring(tmp_path, tiny_gguf, fake_bench):
    hf = tmp_path / "hf"
    hf.mkdir()
    (hf / "config.json").write_text("{}")
    args = ["run", "--out", str(tmp_path / "out"), "--model", str(tiny_gguf), "--hf-model", str(hf),
            "--prompt-lens", "32"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "no weights" in result.output
    assert not fake_bench.calls


def _run_args(tmp_path, model, *extra):
    return ["run", "--out", str(tmp_path / "out"), "--model", str(model), "--quants", "source",
            "--prompt-lens", "32", "--repeats", "1", "--decode-tokens", "8",
            "--accuracy-cases", "0", *extra]


def test_ctrl_c_writes_a_partial_report_and_exits_130(tmp_path, tiny_gguf, fake_bench):
    def interrupt_second(job, n):
        if n == 2:
            raise KeyboardInterrupt

    fake_bench.on_run = interrupt_second
    result = runner.invoke(app, _run_args(tmp_path, tiny_gguf, "--threads", "1,2"),
                           terminal_width=200)
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.output and "partial" in result.output
    report = BenchReport.load(tmp_path / "out")
    assert report.partial and [v.key for v in report.variants] == ["f32@2t"]
    assert "(partial)" in (tmp_path / "out" / "report.md").read_text().splitlines()[0]


def test_terminal_shows_the_warnings_and_failed_runs_exit_1(tmp_path, tiny_gguf, fake_bench,
                                                            monkeypatch):
    # the CPU-starvation warnings were only in report.md; a failed run exited 0 as a note
    def starve_or_fail(job, n):
        if n == 2:
            raise BenchError(BenchErrorKind.worker_failed, "hf-fp32 tokenizer error")

    from botpsy.bench import summary

    original = summary.summarize_run

    def starved(*args, **kwargs):
        row = original(*args, **kwargs)
        row.cpu_share = 0.4
        return row

    monkeypatch.setattr(summary, "summarize_run", starved)
    fake_bench.on_run = starve_or_fail
    result = runner.invoke(app, _run_args(tmp_path, tiny_gguf, "--threads", "1,64"),
                           terminal_width=300)
    assert result.exit_code == 1, result.output
    text = words(result.output)
    assert "had 40% of its" in text  # the starvation warning
    assert "warning: f32 with 1 thread(s) failed" in text and "tokenizer error" in text
    assert "--threads 64: this machine has" in text
    assert (tmp_path / "out" / "report.json").is_file()  # what finished is still written


def test_compare_warns_about_differences_and_writes_json_and_markdown(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for folder, cpu, threads in ((a, "Laptop", 1), (b, "Desktop", 8)):
        folder.mkdir()
        (folder / "report.json").write_text(
            make_report([variant_row("q8_0", threads, 80.0, 138.0)], cpu=cpu).model_dump_json()
        )
    out = tmp_path / "cmp"
    result = runner.invoke(app, ["compare", str(a), str(b), "--out", str(out)],
                           terminal_width=200)
    assert result.exit_code == 0, result.output
    text = words(result.output)
    assert "CPU differs" in text and "1-thread runs are paired with B's 8-thread" in text
    assert text.index("CPU differs") < text.index("decode tok/s")
    assert (out / "comparison.json").is_file() and (out / "comparison.md").is_file()
