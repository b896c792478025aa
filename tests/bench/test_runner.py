"""Rejecting bad input before any work is done: output folder, model, HF folder, run order."""

from __future__ import annotations

from pathlib import Path

import pytest

from botpsy.bench.config import BenchConfig
from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.runner import check_hf_model, ensure_writable, resolve_gguf, run_bench


def test_output_folder_under_a_file_is_not_writable(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(BenchError) as err:
        ensure_writable(blocker / "out")
    assert err.value.kind is BenchErrorKind.output_not_writable
    assert str(blocker / "out") in str(err.value)


def test_output_folder_is_created_and_left_clean(tmp_path):
    ensure_writable(tmp_path / "new" / "out")
    assert list((tmp_path / "new" / "out").iterdir()) == []


def test_missing_model_file(tmp_path):
    with pytest.raises(BenchError) as err:
        resolve_gguf(str(tmp_path / "nope.gguf"))
    assert err.value.kind is BenchErrorKind.model_not_found


def test_unknown_model_name():
    with pytest.raises(BenchError) as err:
        resolve_gguf("no-such-model")
    assert err.value.kind is BenchErrorKind.model_not_found
    assert "smollm2" in str(err.value)  # the error lists what is known


def test_hf_folder_is_not_a_gguf(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(BenchError) as err:
        resolve_gguf(str(tmp_path))
    assert err.value.kind is BenchErrorKind.not_gguf and "--hf-model" in str(err.value)


def test_gguf_path_resolves(tiny_gguf):
    assert resolve_gguf(str(tiny_gguf)) == tiny_gguf


def test_hf_model_must_be_a_model_folder(tmp_path, tiny_gguf):
    check_hf_model(str(tiny_gguf))  # transformers can dequantize a GGUF
    (tmp_path / "hf").mkdir()
    with pytest.raises(BenchError) as err:
        check_hf_model(str(tmp_path / "hf"))
    assert err.value.kind is BenchErrorKind.model_not_found


def test_run_bench_checks_the_output_folder_first(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    config = BenchConfig.create(model=str(tmp_path / "missing.gguf"), out_dir=blocker / "out")
    with pytest.raises(BenchError) as err:
        run_bench(config)
    assert err.value.kind is BenchErrorKind.output_not_writable


def test_run_bench_with_a_missing_model_writes_nothing(tmp_path):
    out = tmp_path / "out"
    config = BenchConfig.create(model=str(tmp_path / "missing.gguf"), out_dir=out, quick=True)
    with pytest.raises(BenchError) as err:
        run_bench(config)
    assert err.value.kind is BenchErrorKind.model_not_found
    assert list(out.iterdir()) == []


def test_run_bench_rejects_bad_settings_before_touching_the_output(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(BenchError):
        run_bench(BenchConfig.create(out_dir=out, repeats=0))
    assert not Path(out).exists()
