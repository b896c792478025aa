"""The report schema: summaries, JSON round trip, refusing files that are not reports."""

from __future__ import annotations

import json

import pytest

from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.schema import SCHEMA_VERSION, BenchReport, DecodeSample, PrefillSample, Stat

from .helpers import make_report, variant_row


@pytest.mark.parametrize(
    ("samples", "median", "low", "high"),
    [
        ([3.0, 1.0, 2.0], 2.0, 1.0, 3.0),
        ([5.0], 5.0, 5.0, 5.0),
        ([1.0, 2.0, 3.0, 10.0], 2.5, 1.0, 10.0),
    ],
)
def test_stat_of_samples(samples, median, low, high):
    stat = Stat.of(samples)
    assert (stat.median, stat.min, stat.max, stat.n) == (median, low, high, len(samples))


def test_stat_of_nothing_is_none():
    assert Stat.of([]) is None


def test_sample_speeds():
    assert PrefillSample(prompt_tokens=512, ttft_s=2.0).tok_s == 256.0
    assert DecodeSample(tokens=32, seconds=0.5, n_past=128).tok_s == 64.0


@pytest.mark.parametrize(
    ("cpu_s", "seconds", "threads", "share"),
    [(1.0, 0.5, 2, 1.0), (0.5, 0.5, 2, 0.5), (0.25, 0.5, 1, 0.5), (None, 0.5, 2, None)],
)
def test_cpu_share(cpu_s, seconds, threads, share):
    sample = DecodeSample(tokens=8, seconds=seconds, n_past=0, cpu_s=cpu_s)
    assert sample.cpu_share(threads) == share


def test_report_round_trips_through_json(tmp_path):
    report = make_report()
    path = tmp_path / "report.json"
    path.write_text(report.model_dump_json())
    loaded = BenchReport.load(tmp_path)  # a folder holding report.json is accepted
    assert loaded == report
    assert set(loaded.variants[0].ttft_s) == {128, 512}  # int keys survive JSON's string keys


def test_required_variant_fields_are_in_the_json():
    data = json.loads(make_report().model_dump_json())
    row = data["variants"][0]
    for key in (
        "quant",
        "size_mb",
        "load_s",
        "peak_rss_mb",
        "ttft_s",
        "prefill_tok_s",
        "decode_tok_s",
        "roofline_fraction",
        "turn_latency_s",
        "accuracy",
        "raw",
    ):
        assert key in row
    assert {"machine", "settings", "bandwidth", "schema_version"} <= set(data)


def test_best_runs():
    fast = variant_row("q4_0", 2, 150.0, 88.0)
    near = variant_row("f16", 2, 90.0, 258.0)
    near.roofline_fraction = 0.8
    report = make_report([fast, near])
    assert report.best_decode() is fast
    assert report.best_roofline() is near


@pytest.mark.parametrize(
    "content",
    ["not json at all", json.dumps({"schema_version": SCHEMA_VERSION}), json.dumps([1, 2, 3])],
)
def test_load_refuses_what_is_not_a_report(tmp_path, content):
    path = tmp_path / "report.json"
    path.write_text(content)
    with pytest.raises(BenchError) as err:
        BenchReport.load(path)
    assert err.value.kind is BenchErrorKind.bad_report


def test_load_refuses_another_schema_version(tmp_path):
    report = make_report()
    report.schema_version = SCHEMA_VERSION + 1
    (tmp_path / "report.json").write_text(report.model_dump_json())
    with pytest.raises(BenchError, match="schema"):
        BenchReport.load(tmp_path / "report.json")


def test_load_of_a_missing_report(tmp_path):
    with pytest.raises(BenchError) as err:
        BenchReport.load(tmp_path / "nothing-here")
    assert err.value.kind is BenchErrorKind.bad_report
