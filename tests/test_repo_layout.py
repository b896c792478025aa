"""The repository's shape: a root that holds only what belongs there, a docs/ folder of
guides and current baselines (small, never read by tests). Debris committed by accident
(a stray pid file, a broken config folder) and raw run dumps under docs/ fail here."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
ALLOWED_ROOT = {
    ".ci", ".gitignore", "README.md", "benchmarks", "docs", "pyproject.toml", "setup.sh", "src",
    "tests",
}
DOCS_BUDGET = 2 * 1024 * 1024
README_LINES = 250


def _tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True, timeout=30).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [line for line in out.splitlines() if line]


def test_the_root_holds_only_what_belongs_there():
    top = {path.split("/", 1)[0] for path in _tracked()}
    assert top <= ALLOWED_ROOT, f"unexpected at the root: {sorted(top - ALLOWED_ROOT)}"


def test_docs_stay_small_and_hold_no_raw_run_output():
    docs = [ROOT / p for p in _tracked() if p.startswith("docs/") and (ROOT / p).exists()]
    size = sum(p.stat().st_size for p in docs)
    assert size <= DOCS_BUDGET, f"docs/ is {size / 2**20:.1f} MiB (budget 2 MiB)"
    dumps = [str(p.relative_to(ROOT)) for p in docs if p.suffix == ".jsonl"]
    assert not dumps, f"per-case dumps belong outside the tree: {dumps}"


def test_no_test_reads_docs():
    # a path built from parents[...] / "docs" or a literal "docs/..." file path
    reads = re.compile(r"""(/\s*["']docs["']|["']docs/[\w./-]+["'])""")
    offenders = [
        str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py")
        if p.name != Path(__file__).name and reads.search(p.read_text(encoding="utf-8"))
    ]
    assert not offenders, f"tests read docs/: {offenders}"


def test_the_readme_is_a_product_readme():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines (at most {README_LINES})"
    commands = [line for line in lines[:12] if line.startswith("./setup.sh")]
    assert len(commands) == 2, "the README opens with the two set-up commands"
