"""BFCL-style scoring on your own tool schemas.

Two JSON-lines files in BFCL's format:

- tests, one case a line::

    {"id": "t1", "question": [[{"role": "user", "content": "Weather in Paris?"}]],
     "function": [<BFCL function doc>, ...]}

  (``question`` may also be a plain list of messages, or a string for one user message);
- answers, one a line (an empty ``ground_truth`` means no call should be made)::

    {"id": "t1", "ground_truth": [{"get_weather": {"city": ["Paris", "paris"], "unit": ["", "c"]}}]}

Each case is asked once (resumable), then judged by BFCL's AST checker (as
"simple", "multiple" or "parallel" from the shape of the answer, "irrelevance"
when none is expected) and by ``botpsy.rewards.score_calls``.

    botpsy eval toolcalls --data tests.jsonl --answers answers.jsonl --model smollm2
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from botpsy.backends.base import ChatModel
from botpsy.evals.bfcl import upstream
from botpsy.evals.bfcl.categories import Category, CategoryKind
from botpsy.evals.bfcl.dataset import TestCase
from botpsy.evals.bfcl.generate import check_resumable, new_manifest, run_case
from botpsy.evals.bfcl.results import (
    Mode,
    ResultRecord,
    append_result,
    model_dir_name,
    read_manifest,
    read_results,
    write_manifest,
    write_results,
)
from botpsy.evals.bfcl.run_report import CATEGORY_HEADERS, bar_chart, category_rows
from botpsy.evals.bfcl.score import (
    score_ast_sample,
    score_relevance_sample,
    summarize,
)
from botpsy.evals.bfcl.scored import CategoryScore, SampleScore, write_score_file
from botpsy.evals.markdown import markdown_table
from botpsy.evals.progress import progress_bar
from botpsy.rewards import references_from_bfcl
from botpsy.tools import Tool
from botpsy.tools.bfcl import BFCL_TYPES
from botpsy.types import GenerationParams

# Beside BFCL's run.json, which a BFCL run into the same --out writes for the same model.
MANIFEST = "toolcalls_run.json"


class ToolcallsDataError(ValueError):
    """A tests or answers file that is not in BFCL's format (the message names the line)."""


class ToolcallCase(BaseModel):
    """A test case with its answer and the BFCL checker shape it is judged as."""

    case_id: str
    turns: list[list[dict[str, Any]]]
    functions: list[dict[str, Any]]
    ground_truth: list[dict[str, Any]]

    @property
    def shape(self) -> str:
        if not self.ground_truth:
            return "irrelevance"
        if len(self.ground_truth) > 1:
            return "parallel"
        return "multiple" if len(self.functions) > 1 else "simple"

    @property
    def print(self) -> str:
        """A hash of what the model is asked (turns and functions): a record answers this
        case only if it carries the same print, since ids alone repeat across data files."""
        text = json.dumps([self.turns, self.functions], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def test_case(self) -> TestCase:
        entry = {"id": self.case_id, "question": self.turns, "function": self.functions}
        return TestCase(self.case_id, self.turns, self.functions, entry)


class ToolcallsReport(BaseModel):
    model: str
    mode: str
    data: str
    answers: str
    created: str
    overall: CategoryScore
    by_shape: dict[str, CategoryScore]


def _json_lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    rows = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ToolcallsDataError(f"{path}:{number}: not JSON ({exc.msg})") from exc
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            raise ToolcallsDataError(f'{path}:{number}: expected an object with a string "id"')
        rows.append((number, row))
    return rows


def _turns(question: Any, where: str) -> list[list[dict[str, Any]]]:
    if isinstance(question, str):
        return [[{"role": "user", "content": question}]]
    if isinstance(question, list) and question and all(isinstance(m, dict) for m in question):
        question = [question]
    if (
        not isinstance(question, list)
        or len(question) != 1
        or not all(isinstance(m, dict) and "role" in m for m in question[0])
    ):
        raise ToolcallsDataError(f"{where}: 'question' must be one turn of chat messages")
    return question


# JSON-schema type -> the name BFCL's Python checker knows (its PYTHON_TYPE_MAPPING).
_CHECKER_TYPES = {"object": "dict", "number": "float", "integer": "integer",
                  "string": "string", "boolean": "boolean", "array": "array"}


def _checker_type(declared: Any) -> str:
    """A declared type ("number", "int", "HashMap", ["string", "null"]) in BFCL's words."""
    if isinstance(declared, list):
        kinds = [k for k in declared if str(k).lower() != "null"]
        return _checker_type(kinds[0]) if len(kinds) == 1 else "any"
    name = str(declared or "").strip().lower()
    if name == "tuple":
        return "tuple"
    return _CHECKER_TYPES.get(BFCL_TYPES.get(name) or "", "any")


def _checker_schema(schema: dict[str, Any]) -> dict[str, Any]:
    out = {**schema, "type": _checker_type(schema.get("type"))}
    if isinstance(schema.get("items"), dict):
        out["items"] = _checker_schema(schema["items"])
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {k: _checker_schema(v) if isinstance(v, dict) else v
                             for k, v in schema["properties"].items()}
    return out


def checker_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """A function doc as BFCL's checker reads it: its types in the checker's own words
    ("number" -> "float", "object" -> "dict") and ``required`` present. Why: the checker
    knows only those, and crashed on a JSON-schema type or a doc without ``required``,
    scoring a right answer 0; the model reads the same schema either way."""
    params = doc.get("parameters") or {"type": "dict", "properties": {}}
    params = {**_checker_schema(params), "type": "dict"}
    params.setdefault("required", [])
    return {**doc, "parameters": params}


def _functions(functions: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(functions, list) or not functions:
        raise ToolcallsDataError(f"{where}: 'function' must be a non-empty list of function docs")
    for doc in functions:
        try:
            Tool.from_bfcl(doc)
        except ValueError as exc:
            raise ToolcallsDataError(f"{where}: bad function doc: {exc}") from exc
    return [checker_doc(doc) for doc in functions]


def _offered(case: ToolcallCase, where: str) -> ToolcallCase:
    """Refuse an answer that calls a function the case does not offer: no model can
    match it, so the case would be silently unwinnable."""
    names = {doc.get("name") for doc in case.functions}
    called = [next(iter(call)) for call in case.ground_truth if isinstance(call, dict) and call]
    unknown = sorted(set(called) - names)
    if unknown:
        raise ToolcallsDataError(
            f"{where}: the answer calls {', '.join(map(repr, unknown))}, which the case does "
            f"not offer (offered: {', '.join(sorted(map(str, names)))})"
        )
    return case


def load_toolcall_cases(data: str | Path, answers: str | Path) -> list[ToolcallCase]:
    """Read and check both files; every test needs exactly one answer and vice versa."""
    truths: dict[str, list[dict[str, Any]]] = {}
    for number, row in _json_lines(Path(answers)):
        where = f"{answers}:{number}"
        truth = row.get("ground_truth")
        if not isinstance(truth, list):
            raise ToolcallsDataError(
                f'{where}: "ground_truth" must be a list of calls ([] when none is expected), '
                f"got {type(truth).__name__}"
            )
        try:
            references_from_bfcl(truth)
        except ValueError as exc:
            raise ToolcallsDataError(f"{where}: bad ground_truth: {exc}") from exc
        if row["id"] in truths:
            raise ToolcallsDataError(f"{where}: duplicate id {row['id']!r}")
        truths[row["id"]] = truth
    cases: list[ToolcallCase] = []
    seen: set[str] = set()
    for number, row in _json_lines(Path(data)):
        where = f"{data}:{number}"
        if row["id"] in seen:
            raise ToolcallsDataError(f"{where}: duplicate id {row['id']!r}")
        seen.add(row["id"])
        if row["id"] not in truths:
            raise ToolcallsDataError(f"{where}: no answer for id {row['id']!r} in {answers}")
        case = ToolcallCase(
            case_id=row["id"],
            turns=_turns(row.get("question"), where),
            functions=_functions(row.get("function"), where),
            ground_truth=truths.pop(row["id"]),
        )
        cases.append(_offered(case, where))
    if truths:
        raise ToolcallsDataError(f"{answers}: answers without a test: {sorted(truths)[:5]}")
    return cases


def _category(shape: str) -> Category:
    kind = CategoryKind.irrelevance if shape == "irrelevance" else CategoryKind.ast
    return Category(shape, kind, "toolcalls", upstream.Language.PYTHON)


def _score_case(case: ToolcallCase, record: ResultRecord) -> SampleScore:
    if record.inference_error:
        return SampleScore(
            id=case.case_id, valid=False, error_type="inference_error", error=record.inference_error
        )
    cat = _category(case.shape)
    if cat.kind is CategoryKind.irrelevance:
        return score_relevance_sample(case.test_case(), None, record, cat)
    return score_ast_sample(case.test_case(), case.ground_truth, record, cat)


def _answer_all(
    model: ChatModel,
    cases: list[ToolcallCase],
    path: Path,
    mode: Mode,
    params: GenerationParams,
    resume: bool,
    progress: bool,
) -> dict[str, ResultRecord]:
    """Records by id; cases already answered (without an inference error, and for the same
    question and functions) are not asked again."""
    done = read_results(path, salvage=True) if resume and path.exists() else {}
    with progress_bar(progress) as bar:
        task = bar.add_task("toolcalls", total=len(cases))
        for case in cases:
            old = done.get(case.case_id)
            if old is None or old.inference_error or getattr(old, "case_print", None) != case.print:
                record = run_case(model, _category(case.shape), case.test_case(), mode, params)
                record.case_print = case.print
                append_result(path, record)
                done[case.case_id] = record
            bar.advance(task)
    write_results(path, done.values())
    return done


def _by_shape(
    cases: list[ToolcallCase], samples: list[SampleScore], records: list[ResultRecord]
) -> dict[str, CategoryScore]:
    summaries = {}
    for shape in sorted({c.shape for c in cases}):
        idx = [i for i, c in enumerate(cases) if c.shape == shape]
        summaries[shape] = summarize(
            _category(shape), [samples[i] for i in idx], [records[i] for i in idx], len(idx)
        )
    return summaries


def _check_model(
    model: ChatModel, model_dir: Path, mode: Mode, params: GenerationParams, resume: bool
) -> None:
    """Record the model and settings in ``run.json``; refuse to resume another's answers."""
    previous = read_manifest(model_dir, MANIFEST) if resume else None
    manifest = new_manifest(model, mode, params)
    check_resumable(previous, manifest)
    if previous is not None:
        manifest.started = previous.started or manifest.started
        manifest.model_source = manifest.model_source or previous.model_source
    write_manifest(model_dir, manifest, MANIFEST)


def toolcalls_markdown(report: ToolcallsReport) -> str:
    """The Markdown summary: one table row overall, one per call shape."""
    rows = category_rows({"all": report.overall, **report.by_shape})
    title = f"# Tool calls: {report.model} ({report.mode} mode) on {Path(report.data).name}"
    return f"{title}\n\n{markdown_table(CATEGORY_HEADERS, rows)}\n"


def write_toolcalls_report(
    report: ToolcallsReport, samples: list[SampleScore], scores_dir: Path
) -> None:
    """toolcalls_score.json (per case), toolcalls_report.{json,md} and toolcalls_accuracy.png."""
    scores_dir.mkdir(parents=True, exist_ok=True)
    write_score_file(scores_dir / "toolcalls_score.json", report.overall, samples)
    (scores_dir / "toolcalls_report.json").write_text(
        report.model_dump_json(indent=2), encoding="utf-8"
    )
    (scores_dir / "toolcalls_report.md").write_text(toolcalls_markdown(report), encoding="utf-8")
    accuracies = {"all": report.overall.accuracy}
    accuracies.update({shape: s.accuracy for shape, s in report.by_shape.items()})
    bar_chart(accuracies, scores_dir / "toolcalls_accuracy.png", f"Tool calls - {report.model}")


def run_toolcalls(
    model: ChatModel,
    data: str | Path,
    answers: str | Path,
    out_dir: str | Path,
    *,
    mode: Mode = "fc",
    limit: int | None = None,
    resume: bool = True,
    params: GenerationParams | None = None,
    progress: bool = True,
) -> ToolcallsReport:
    """Ask every case (skipping those already answered), score them, write the report."""
    cases = load_toolcall_cases(data, answers)[:limit]
    params = params or GenerationParams(max_tokens=512)
    model_dir = Path(out_dir) / "results" / model_dir_name(model.name)
    _check_model(model, model_dir, mode, params, resume)
    results = model_dir / "toolcalls_result.json"
    done = _answer_all(model, cases, results, mode, params, resume, progress)
    records = [done[case.case_id] for case in cases]
    samples = [_score_case(case, record) for case, record in zip(cases, records)]
    report = ToolcallsReport(
        model=model.name,
        mode=mode,
        data=str(data),
        answers=str(answers),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        overall=summarize(_category("toolcalls"), samples, records, len(cases)),
        by_shape=_by_shape(cases, samples, records),
    )
    write_toolcalls_report(report, samples, Path(out_dir) / "scores" / model_dir_name(model.name))
    return report
