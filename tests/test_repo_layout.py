"""The repository's shape: a root that holds only what belongs there, a docs/ folder of
guides and current baselines (small, never read by tests). Debris committed by accident
(a stray pid file, a broken config folder) and raw run dumps under docs/ fail here."""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
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


# A measured figure in prose: "25% accuracy", "9 of 13 cases", "8 solved against 2", "p = 0.02",
# "41 tok/s". Figures live in reports, where they can be regenerated; a comment that quotes
# one goes stale with the next run.
_MEASURED = re.compile(
    r"\b\d+(?:\.\d+)?\s*%\s*(?:accuracy|recall|precision|pass(?:ed)?|solved|ast\b|irrelevance)"
    r"|\b\d+\s*(?:of|/)\s*\d+\s+(?:[\w-]+\s+){0,3}?(?:cases|requests|scenarios|prompts|runs|did)\b"
    r"|\b(?:solved|passed|scored?)\s+\d+\s*(?:of|/)\s*\d+|\b\d+\s+(?:solved|passed)\s+against\b"
    r"|\bp\s*[=<]\s*0\.\d+"
    r"|\b\d+(?:\.\d+)?\s*(?:tok/s|tokens/s|tokens per second)", re.IGNORECASE)


def _comments_and_docstrings(path: Path) -> list[tuple[int, str]]:
    source = path.read_text(encoding="utf-8")
    found = [(tok.start[0], tok.string)
             for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                found.append((getattr(node, "lineno", 1), doc))
    return found


def test_code_comments_state_no_measured_figures():
    stated = [f"{path.relative_to(ROOT)}:{line}: {match.group()!r}"
              for path in sorted((ROOT / "src" / "botpsy").rglob("*.py"))
              for line, text in _comments_and_docstrings(path)
              for match in _MEASURED.finditer(text)]
    assert stated == [], "measured figures belong in reports:\n" + "\n".join(stated)
