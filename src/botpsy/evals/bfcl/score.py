"""The scoring step: BFCL result files in, per-category scores and a report out.

    from botpsy.evals.bfcl import score
    report = score("runs/smollm2/results/smollm2", "runs/smollm2")

No model is needed: everything is read from the result files. Each answer is
judged by bfcl-eval's own checkers (the AST checker for single-turn categories,
relevance rules for (ir)relevance, the state-and-response multi-turn checker for
multi-turn), and, beside the checker, by ``botpsy.rewards.score_calls`` (the RL
reward). Any sample where the grader's ``exact`` and the checker's ``valid``
disagree is listed, so the training reward cannot drift from the benchmark
unnoticed. Writes ``scores/<model>/<group>/BFCL_v4_<category>_score.json`` (a
header line as in BFCL, then one line per case) and the report files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from botpsy.evals.bfcl import upstream
from botpsy.evals.bfcl.categories import Category, CategoryKind, category, resolve
from botpsy.evals.bfcl.convert import (
    DecodeError,
    checker_tag,
    checker_values,
    decode_ast,
    decode_execute,
    strict_fc_result,
)
from botpsy.evals.bfcl.dataset import TestCase, dataset_size, load_answers, load_cases
from botpsy.evals.bfcl.overall import Accuracy, overall_score
from botpsy.evals.bfcl.results import (
    ResultRecord,
    find_result_files,
    model_dir_name,
    read_manifest,
    read_results,
)
from botpsy.evals.bfcl.run_report import write_report
from botpsy.evals.bfcl.scored import (
    BfclReport,
    CategoryScore,
    Disagreement,
    SampleScore,
    write_score_file,
)
from botpsy.evals.progress import progress_bar
from botpsy.rewards import CallScore, references_from_bfcl, score_calls


def _graded(sample: SampleScore, grade: CallScore) -> SampleScore:
    sample.reward, sample.exact, sample.grader_error = (
        grade.reward,
        grade.exact,
        grade.error_type.value,
    )
    if sample.disagrees:
        sample.error = sample.error or grade.detail
    return sample


def _parse_ok(record: ResultRecord) -> bool:
    return all(isinstance(e, dict) and e.get("recovered") for e in record.parse_errors)


def _first_error(checked: dict[str, Any]) -> str:
    errors = checked.get("error") or checked.get("error_message") or ""
    return str(errors[0] if isinstance(errors, list) and errors else errors)


def score_ast_sample(
    case: TestCase, truth: list, record: ResultRecord, cat: Category
) -> SampleScore:
    """One single-turn case with possible answers: BFCL's AST checker and the grader."""
    references = references_from_bfcl(truth, case.functions)
    try:
        decoded = decode_ast(record.result, record.mode, cat.language)
    except DecodeError as exc:
        sample = SampleScore(
            id=case.id, valid=False, error_type="ast_decoder:decoder_failed", error=str(exc)
        )
        # In FC mode a text answer is a choice, not a format error; in prompt mode it is both.
        parse_ok = record.mode == "fc" and _parse_ok(record)
        return _graded(sample, score_calls([], references, parse_ok=parse_ok))
    predicted = checker_values(decoded, case.functions, cat.language)
    try:
        checked = upstream.ast_checker(
            case.functions, decoded, truth, cat.language, cat.name, upstream.CHECKER_MODEL
        )
    except Exception as exc:  # noqa: BLE001 - odd model output can crash BFCL's checker
        checked = {
            "valid": False,
            "error": [f"{type(exc).__name__}: {exc}"],
            "error_type": "ast_checker:crashed",
        }
    sample = SampleScore(
        id=case.id,
        valid=bool(checked["valid"]),
        error_type="ok" if checked["valid"] else checked.get("error_type", "unknown"),
        error="" if checked["valid"] else _first_error(checked),
    )
    return _graded(sample, score_calls(predicted, references, parse_ok=_parse_ok(record)))


def score_relevance_sample(
    case: TestCase, truth: Any, record: ResultRecord, cat: Category
) -> SampleScore:
    """(Ir)relevance: is there any call? For irrelevance the grader expects no call too."""
    try:
        decoded = decode_ast(record.result, record.mode, upstream.Language.PYTHON)
        called = not upstream.is_empty_output(decoded)
    except DecodeError:
        decoded, called = [], False
    wants_call = cat.kind is CategoryKind.relevance
    valid = called == wants_call
    error_type = (
        "ok"
        if valid
        else (
            "relevance_error:decoder_failed" if wants_call else "irrelevance_error:decoder_success"
        )
    )
    sample = SampleScore(id=case.id, valid=valid, error_type=error_type)
    if wants_call:
        return sample  # live_relevance has no reference calls: nothing for the grader
    predicted = checker_values(decoded, case.functions, upstream.Language.PYTHON) if called else []
    return _graded(sample, score_calls(predicted, [], parse_ok=_parse_ok(record)))


def score_multi_turn_sample(
    case: TestCase, truth: list, record: ResultRecord, cat: Category, tag: str
) -> SampleScore:
    """A conversation: BFCL executes the model's and the reference calls and compares states."""
    result = record.result
    if not isinstance(result, list):
        return SampleScore(
            id=case.id,
            valid=False,
            error_type="multi_turn:inference_error",
            error="the result is not a list of turns",
        )
    if len(result) != len(truth):
        return SampleScore(
            id=case.id,
            valid=False,
            error_type="multi_turn:force_terminated",
            error=f"{len(result)} turns answered of {len(truth)}",
        )
    decoded = [
        [calls for calls in (_decode_step(step, record.mode) for step in steps) if calls]
        for steps in result
    ]
    classes = case.entry["involved_classes"]
    names = (f"{tag}_eval", f"{tag}_ground_truth_eval")
    for name in names:
        upstream.forget_instances(name, case.id, classes)
    try:
        checked = upstream.multi_turn_checker(decoded, truth, case.entry, cat.name, tag)
    except Exception as exc:  # noqa: BLE001 - keep scoring the other conversations
        checked = {
            "valid": False,
            "error_message": f"{type(exc).__name__}: {exc}",
            "error_type": "multi_turn:checker_crashed",
        }
    finally:
        for name in names:
            upstream.forget_instances(name, case.id, classes)
    valid = bool(checked["valid"])
    return SampleScore(
        id=case.id,
        valid=valid,
        error_type="ok" if valid else checked.get("error_type", "unknown"),
        error="" if valid else _first_error(checked),
    )


def _decode_step(step: Any, mode: str) -> list[str]:
    try:
        calls = decode_execute(step, mode)  # type: ignore[arg-type]
    except DecodeError:
        return []  # text, not calls (BFCL ignores such steps too)
    return [] if upstream.is_empty_execute_response(calls) else calls


def score_sample(
    case: TestCase, truth: Any, record: ResultRecord, cat: Category, tag: str
) -> SampleScore:
    """Dispatch on the category kind; a failed inference is a failure of its own kind."""
    if record.inference_error:
        return SampleScore(
            id=case.id, valid=False, error_type="inference_error", error=record.inference_error
        )
    if cat.kind is CategoryKind.multi_turn:
        return score_multi_turn_sample(case, truth, record, cat, tag)
    if cat.kind in (CategoryKind.relevance, CategoryKind.irrelevance):
        return score_relevance_sample(case, truth, record, cat)
    return score_ast_sample(case, truth, record, cat)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _flat_numbers(value: Any) -> list[float]:
    if isinstance(value, list):
        return [x for item in value for x in _flat_numbers(item)]
    return [float(value)] if isinstance(value, (int, float)) and value else []


def summarize(
    cat: Category, samples: list[SampleScore], records: list[ResultRecord], size: int
) -> CategoryScore:
    """Accuracy, error-type counts, grader agreement and cost of one category."""
    correct = sum(s.valid for s in samples)
    graded = [s for s in samples if s.exact is not None]
    return CategoryScore(
        category=cat.name,
        kind=cat.kind.value,
        group=cat.group,
        accuracy=correct / len(samples) if samples else 0.0,
        correct=correct,
        total=len(samples),
        dataset_size=size,
        error_types=dict(Counter(s.error_type for s in samples if not s.valid).most_common()),
        inference_errors=sum(s.error_type == "inference_error" for s in samples),
        reward_mean=_mean([s.reward for s in graded if s.reward is not None]),
        exact_rate=_mean([float(bool(s.exact)) for s in graded]),
        disagreements=[
            Disagreement(
                id=s.id,
                checker_valid=s.valid,
                checker_error_type=s.error_type,
                exact=bool(s.exact),
                grader_error=s.grader_error,
                detail=s.error,
            )
            for s in graded
            if s.disagrees
        ],
        latency_mean_s=_mean([x for r in records for x in _flat_numbers(r.latency)]),
        output_tokens_mean=_mean([x for r in records for x in _flat_numbers(r.output_token_count)]),
        stopped_early=dict(Counter(r.stopped for r in records if r.stopped).most_common()),
    )


class UnknownResultIdsError(ValueError):
    """A result file with ids its category does not have (a misnamed or foreign file)."""


def score_records(
    cat: Category,
    records: dict[str, ResultRecord],
    tag: str,
    on_sample: Callable[[], None] | None = None,
) -> tuple[CategoryScore, list[SampleScore]]:
    """Score the records of one category (any subset of its cases)."""
    cases = {case.id: case for case in load_cases(cat, for_model=False)}
    unknown = sorted(set(records) - set(cases))
    if unknown:
        raise UnknownResultIdsError(
            f"{cat.name}: {len(unknown)} ids not in BFCL's data, e.g. {unknown[:3]}"
        )
    truths = load_answers(cat)
    ordered = [cid for cid in cases if cid in records]  # BFCL's order
    samples = []
    for cid in ordered:
        samples.append(score_sample(cases[cid], truths.get(cid), records[cid], cat, tag))
        if on_sample:
            on_sample()
    summary = summarize(cat, samples, [records[c] for c in ordered], dataset_size(cat))
    return summary, samples


def score_dir_for(out_dir: Path, model: str) -> Path:
    return Path(out_dir) / "scores" / model_dir_name(model)


def _strict(record: ResultRecord) -> ResultRecord:
    """A single-turn FC record decoded again from its raw text the way BFCL's Hermes FC
    handler decodes it (``convert.strict_fc_result``)."""
    if record.mode != "fc" or not isinstance(record.raw, str) or "<tool_call>" not in record.raw:
        return record  # no Hermes call markup to read again (text, or no raw text kept)
    return record.model_copy(update={"result": strict_fc_result(record.raw)})


def _score_files(
    files: dict[str, Path],
    tag: str,
    scores_dir: Path,
    not_run: dict[str, str],
    progress: bool,
    strict_fc: bool = False,
) -> dict[str, CategoryScore]:
    """Score each category's result file and write its score file; skipped ones go to not_run."""
    scored: dict[str, CategoryScore] = {}
    with progress_bar(progress) as bar:
        for name, path in files.items():
            cat = category(name)
            if not cat.runnable:
                not_run[name] = cat.not_run_reason or ""
                continue
            records = read_results(path)
            if strict_fc and cat.kind is not CategoryKind.multi_turn:
                records = {rid: _strict(record) for rid, record in records.items()}
            task = bar.add_task(f"score {name}", total=len(records))
            summary, samples = score_records(cat, records, tag, partial(bar.advance, task))
            score_file = scores_dir / cat.group / f"{upstream.VERSION_PREFIX}_{name}_score.json"
            write_score_file(score_file, summary, samples)
            scored[name] = summary
    return scored


def score(
    result_dir: str | Path,
    out_dir: str | Path,
    *,
    categories: list[str] | None = None,
    progress: bool = True,
    strict_fc: bool = False,
) -> BfclReport:
    """Score every BFCL result file under ``result_dir`` (one model's folder) into ``out_dir``.
    ``strict_fc``: decode FC answers from their raw text as BFCL's Hermes FC handler does
    (``convert.strict_fc_result``) rather than as botpsy's parser read them."""
    result_dir = Path(result_dir)
    files = find_result_files(result_dir)
    if categories is not None:
        # Collections (non_live, multi_turn...) as in generation; unknown names are an error.
        wanted = {cat.name for cat in resolve(categories)}
        files = {k: v for k, v in files.items() if k in wanted}
    if not files:
        raise FileNotFoundError(
            f"no {upstream.VERSION_PREFIX}_*_result.json files under {result_dir}"
        )
    manifest = read_manifest(result_dir)
    if strict_fc and manifest and manifest.chat_format not in (None, "hermes"):
        raise ValueError(
            f"--strict-fc reads answers as BFCL's Hermes FC handler does; this run asked "
            f"{manifest.model} in the {manifest.chat_format!r} format"
        )
    model = manifest.model if manifest else result_dir.name
    scores_dir = score_dir_for(Path(out_dir), model)
    not_run = dict(manifest.not_run) if manifest else {}
    scored = _score_files(files, checker_tag(model), scores_dir, not_run, progress, strict_fc)
    # A category scored on part of its cases (--limit) leaves its groups incomplete too.
    accuracies = {
        n: Accuracy(accuracy=s.accuracy, total_count=s.total, complete=not s.partial)
        for n, s in scored.items()
    }
    report = BfclReport(
        model=model,
        mode=manifest.mode if manifest else "fc",
        tool_choice=manifest.tool_choice if manifest else "auto",
        result_dir=str(result_dir),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        categories=scored,
        not_run=not_run,
        overall=overall_score(accuracies),
        max_tokens=manifest.params.get("max_tokens") if manifest else None,
        early_stop=manifest.early_stop if manifest else None,
        generated=manifest.generated if manifest else 0,
        generation_s=manifest.generation_s if manifest else None,
        decoding="bfcl-hermes" if strict_fc else "botpsy",
    )
    write_report(report, scores_dir)
    return report
