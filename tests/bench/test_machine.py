"""The machine record: parsing sysfs and llama.cpp's system line, and a live collection."""

from __future__ import annotations

import pytest

from botpsy.bench.machine import (
    collect_machine,
    last_level_cache_bytes,
    parse_cache_size,
    parse_system_info,
)


@pytest.mark.parametrize(
    ("text", "size"),
    [("32768K", 32 * 2**20), ("1M", 2**20), ("512", 512), (" 48K\n", 48 * 1024), ("1G", 2**30)],
)
def test_parse_cache_size(text, size):
    assert parse_cache_size(text) == size


def test_parse_cache_size_rejects_garbage():
    with pytest.raises(ValueError):
        parse_cache_size("lots")


def test_last_level_cache_is_the_highest_level(tmp_path):
    for index, (level, size) in enumerate([(1, "32K"), (1, "32K"), (2, "1024K"), (3, "32768K")]):
        folder = tmp_path / f"index{index}"
        folder.mkdir()
        (folder / "level").write_text(f"{level}\n")
        (folder / "size").write_text(f"{size}\n")
    assert last_level_cache_bytes(tmp_path) == 32 * 2**20


def test_no_cache_information(tmp_path):
    assert last_level_cache_bytes(tmp_path) is None


def test_parse_system_info():
    line = "CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 0 | OPENMP = 1 | REPACK = 1 | "
    assert parse_system_info(line) == {
        "SSE3": "1",
        "AVX2": "1",
        "AVX512": "0",
        "OPENMP": "1",
        "REPACK": "1",
    }


def test_collect_machine_describes_this_machine():
    info = collect_machine()
    assert info.cpu_model and info.os and info.python
    assert (info.logical_cores or 0) >= 1 and info.ram_gb > 0
    assert "llama_cpp_python" in info.packages
    assert info.llama_cpp_flags  # llama.cpp reports its build
    assert len(info.load_avg_start) == 3
