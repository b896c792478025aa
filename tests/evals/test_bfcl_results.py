"""Result files: BFCL layout, append-as-you-go, sorted rewrite, salvage of broken lines."""

from __future__ import annotations

import pytest

from botpsy.evals.bfcl.categories import category
from botpsy.evals.bfcl.results import (
    ResultFileError,
    ResultRecord,
    RunManifest,
    append_result,
    category_of_result_file,
    find_result_files,
    model_dir_name,
    read_manifest,
    read_results,
    result_path,
    write_manifest,
    write_results,
)


def test_paths_follow_bfcl(tmp_path):
    path = result_path(tmp_path / "m", category("live_simple"))
    assert path.relative_to(tmp_path).as_posix() == "m/live/BFCL_v4_live_simple_result.json"
    assert category_of_result_file(path) == "live_simple"
    assert category_of_result_file(tmp_path / "notes.json") is None
    assert model_dir_name("org/model") == "org_model"
    assert model_dir_name("openai:http://h:8080/v1#qwen-0.8b") == "openai_http_h_8080_v1_qwen-0.8b"


def test_append_then_rewrite_sorted_by_bfcl_index(tmp_path):
    path = tmp_path / "non_live" / "BFCL_v4_simple_python_result.json"
    for i in (10, 2, 1):
        append_result(path, ResultRecord(id=f"simple_python_{i}", result=[]))
    write_results(path, read_results(path).values())
    assert list(read_results(path)) == ["simple_python_1", "simple_python_2", "simple_python_10"]
    assert find_result_files(tmp_path) == {"simple_python": path}


def test_bad_lines_raise_with_the_line_number(tmp_path):
    path = tmp_path / "BFCL_v4_parallel_result.json"
    path.write_text('{"id": "parallel_0", "result": []}\n{"id": "parallel_1", "res')
    with pytest.raises(ResultFileError, match=":2:"):
        read_results(path)


def test_salvage_keeps_the_original_aside_and_the_good_lines(tmp_path):
    path = tmp_path / "BFCL_v4_parallel_result.json"
    original = '{"id": "parallel_0", "result": []}\n{"id": "parallel_1", "res'
    path.write_text(original)
    records = read_results(path, salvage=True)
    assert list(records) == ["parallel_0"]
    (kept,) = tmp_path.glob("BFCL_v4_parallel_result.json.bad-*")
    assert kept.read_text() == original
    assert list(read_results(path)) == ["parallel_0"]  # the file itself is clean again


def test_extras_survive_a_round_trip(tmp_path):
    path = tmp_path / "BFCL_v4_irrelevance_result.json"
    append_result(path, ResultRecord(id="irrelevance_0", result="no", raw="no", reasoning="hmm"))
    assert read_results(path)["irrelevance_0"].model_extra == {"reasoning": "hmm"}


def test_manifest_round_trip(tmp_path):
    manifest = RunManifest(model="m", mode="prompt", botpsy_version="0", bfcl_eval_version="1")
    write_manifest(tmp_path, manifest)
    assert read_manifest(tmp_path) == manifest
    assert read_manifest(tmp_path / "nowhere") is None


def test_a_line_from_bfcl_eval_itself_gets_its_mode_from_the_answer():
    """bfcl-eval writes no ``mode``: its prompting handlers' text answers were read as FC
    and failed to decode (0% on simple_python, 100% on irrelevance)."""
    text = ResultRecord.model_validate({"id": "simple_python_0",
                                        "result": "[calculate_triangle_area(base=10, height=5)]"})
    calls = ResultRecord.model_validate({"id": "simple_python_0",
                                         "result": [{"calculate_triangle_area": {"base": 10}}]})
    ours = ResultRecord.model_validate({"id": "irrelevance_0", "result": "No.", "mode": "fc"})
    assert (text.mode, calls.mode, ours.mode) == ("prompt", "fc", "fc")
