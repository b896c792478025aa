"""The package layering of pyproject.toml's [tool.importlinter] contract holds: no module
imports from a layer above its own (shared leaf modules, then types, tools, formats;
backends; safety; agent; assistant; evals, bench, train, server; the CLI on top). A test, so the README's
one test command enforces it; import-linter reads the imports without running them."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).parents[1]


def test_no_module_imports_from_a_layer_above_its_own():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # botpsy is found on the path pytest set up (src/)
        code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    assert code == 0, out.getvalue()
