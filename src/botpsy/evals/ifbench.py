"""IFBench (instruction following, 294 prompts) through any model, scored by IFBench itself.

``run_ifbench(model, out)`` asks the model each prompt of ``IFBench_test.jsonl``
(one user turn, no tools) and writes, as they come, ``OUT/completions.jsonl``:
botpsy's ``Completion`` per prompt (for the looping rate and the token counts; a
run resumes from it). ``score_ifbench(out)`` then writes

- ``OUT/responses.jsonl``: ``{"prompt", "response"}`` lines, IFBench's own response
  format, so its ``run_eval`` can score the same answers again;
- ``OUT/summary.json``: prompt- and
instruction-level accuracy, strict and loose, computed by IFBench's
``evaluation_lib`` (its checkers, its loose variants of each response), and the
looping rate (``botpsy.evals.stats``).

IFBench needs two things no registry ships: NLTK's data (``punkt_tab``, the
stop-word list, the POS tagger), which ``nltk.download`` fetches at run time, and
spaCy's ``en_core_web_sm``, which it downloads at import and never loads. The
download calls are made no-ops here (nothing can be fetched); the instructions
whose checkers need NLTK data are found by running every checker on IFBench's own
sample answers (``unscorable_instructions``), named in the summary, and left out:
prompt-level accuracy is over the prompts whose instructions can all be scored,
instruction-level over the instructions that can.

    run_ifbench("smollm2", "runs/ifbench-smollm2", limit=20)
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import sys
import types
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from botpsy.backends.base import ChatModel
from botpsy.backends.model_files import load_chat_model
from botpsy.evals.progress import progress_bar
from botpsy.evals.stats import StatsSummary, summarize_completions
from botpsy.types import Completion, GenerationParams, Message

DATA = "IFBench_test.jsonl"
SAMPLE = "sample_output.jsonl"  # answers shipped with IFBench: the probe of the checkers


@contextmanager
def _offline_downloads() -> Iterator[None]:
    """IFBench's imports call ``nltk.download`` and spaCy's ``download``; offline they
    can only fail (spaCy's exits the process), so both are no-ops while it imports."""
    import nltk

    saved = {name: sys.modules.get(name) for name in ("spacy", "spacy.cli")}
    if saved["spacy"] is None:
        spacy, cli = types.ModuleType("spacy"), types.ModuleType("spacy.cli")
        spacy.cli = cli  # type: ignore[attr-defined]
        sys.modules.update({"spacy": spacy, "spacy.cli": cli})
    cli = sys.modules["spacy.cli"]
    old_spacy, old_nltk = getattr(cli, "download", None), nltk.download
    cli.download = lambda *args, **kwargs: None  # type: ignore[attr-defined]
    nltk.download = lambda *args, **kwargs: False
    try:
        yield
    finally:
        nltk.download = old_nltk
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
        if old_spacy is not None:
            cli.download = old_spacy


@functools.cache
def evaluation_lib() -> Any:
    """IFBench's ``evaluation_lib``, imported offline. Its checkers call
    ``nltk.download`` again while scoring; ``score_ifbench`` keeps that offline too."""
    with _offline_downloads():
        import ifbench.evaluation_lib as ev

    return ev


def _data_file(name: str) -> str:
    return str(importlib.resources.files("ifbench") / "data" / name)


def load_prompts(limit: int | None = None, every: int = 1) -> list[Any]:
    """IFBench's prompts (its ``InputExample``s): every ``every``-th one (the file is
    grouped by instruction, so a sample that spans them), the first ``limit`` of those."""
    prompts = evaluation_lib().read_prompt_list(_data_file(DATA))[::every]
    return prompts[:limit] if limit is not None else prompts


class GeneratedAnswer(BaseModel):
    """One line of ``completions.jsonl``."""

    key: str
    prompt: str
    completion: Completion


class IfbenchLevels(BaseModel):
    prompt_level: float | None = None
    instruction_level: float | None = None


class IfbenchSummary(BaseModel):
    model: str
    prompts: int  # answered
    prompts_total: int  # in IFBench
    complete: bool
    prompts_scored: int
    instructions_scored: int
    unscorable_instructions: dict[str, int] = Field(default_factory=dict)  # id -> instances left out
    strict: IfbenchLevels
    loose: IfbenchLevels
    per_instruction_strict: dict[str, float] = Field(default_factory=dict)
    stats: StatsSummary


def unscorable_instructions(inputs: list[Any]) -> set[str]:
    """The instruction ids whose checker cannot run here: it raises ``LookupError``
    (NLTK data missing) on IFBench's own sample answers."""
    ev = evaluation_lib()
    sample = ev.read_prompt_to_response_dict(_data_file(SAMPLE))
    bad = set()
    with _offline_downloads():
        for inp in inputs:
            for index, instruction_id in enumerate(inp.instruction_id_list):
                try:
                    _checker(inp, index).check_following(sample.get(inp.prompt, "probe"))
                except LookupError:
                    bad.add(instruction_id)
    return bad


def _checker(inp: Any, index: int) -> Any:
    """The checker of one instruction of a prompt, built as IFBench builds it."""
    ev = evaluation_lib()
    instruction_id = inp.instruction_id_list[index]
    checker = ev.instructions_registry.INSTRUCTION_DICT[instruction_id](instruction_id)
    checker.build_description(**{k: v for k, v in inp.kwargs[index].items() if v is not None})
    args = checker.get_instruction_args()
    if args and "prompt" in args:
        checker.build_description(prompt=inp.prompt)
    return checker


# -- generation ------------------------------------------------------------------------------
def _ask(model: ChatModel, params: GenerationParams, inp: Any) -> GeneratedAnswer:
    """One prompt, one user turn; a backend failure is kept as an empty, failed answer."""
    try:
        completion = model.complete([Message(role="user", content=inp.prompt)], None, params)
    except Exception as exc:  # noqa: BLE001 - one failed prompt must not end the run
        completion = Completion(finish_reason="error", raw=f"{type(exc).__name__}: {exc}")
    return GeneratedAnswer(key=str(inp.key), prompt=inp.prompt, completion=completion)


def read_answers(out: Path) -> dict[str, GeneratedAnswer]:
    path = out / "completions.jsonl"
    if not path.is_file():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    answers = (GeneratedAnswer.model_validate_json(line) for line in lines if line.strip())
    return {a.key: a for a in answers}


def generate_answers(model: ChatModel, prompts: list[Any], out: Path, params: GenerationParams,
                     parallel: int = 1, progress: bool = True) -> None:
    """Answer the prompts not answered yet in ``out``, appending each to
    ``completions.jsonl`` as it finishes."""
    out.mkdir(parents=True, exist_ok=True)
    done = read_answers(out)
    todo = [p for p in prompts if str(p.key) not in done]
    with ((out / "completions.jsonl").open("a", encoding="utf-8") as sink,
          ThreadPoolExecutor(max_workers=parallel) as pool, progress_bar(progress) as bar):
        task = bar.add_task(f"ifbench {model.name}", total=len(todo))
        for answer in pool.map(lambda p: _ask(model, params, p), todo):
            sink.write(answer.model_dump_json() + "\n")
            sink.flush()  # a killed run keeps every finished answer
            bar.advance(task)


def write_responses(out: Path, answers: dict[str, GeneratedAnswer]) -> Path:
    """``responses.jsonl`` from every answer so far, in IFBench's order and format (made
    at scoring time, so a run that was stopped half-way still scores what it answered)."""
    order = [str(p.key) for p in load_prompts()]
    lines = [json.dumps({"prompt": answers[k].prompt, "response": answers[k].completion.content},
                        ensure_ascii=False) for k in order if k in answers]
    path = out / "responses.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- scoring ---------------------------------------------------------------------------------
def _scorable(inp: Any, bad: set[str]) -> Any | None:
    """A copy of ``inp`` without the unscorable instructions (None if none is left)."""
    keep = [i for i, name in enumerate(inp.instruction_id_list) if name not in bad]
    if not keep:
        return None
    return evaluation_lib().InputExample(
        key=inp.key, prompt=inp.prompt,
        instruction_id_list=[inp.instruction_id_list[i] for i in keep],
        kwargs=[dict(inp.kwargs[i]) for i in keep])


def _levels(outputs: list[Any], whole: set[str]) -> IfbenchLevels:
    """Prompt level over the prompts scored whole, instruction level over every scored
    instruction (IFBench's ``generate_report`` figures, on what could be scored)."""
    judged = [o for o in outputs if o.prompt in whole]
    flags = [f for o in outputs for f in o.follow_instruction_list]
    return IfbenchLevels(
        prompt_level=sum(all(o.follow_instruction_list) for o in judged) / len(judged)
        if judged else None,
        instruction_level=sum(flags) / len(flags) if flags else None)


def _per_instruction(outputs: list[Any]) -> dict[str, float]:
    seen: dict[str, list[bool]] = {}
    for o in outputs:
        for name, ok in zip(o.instruction_id_list, o.follow_instruction_list, strict=True):
            seen.setdefault(name, []).append(ok)
    return {name: sum(v) / len(v) for name, v in sorted(seen.items())}


def score_ifbench(out_dir: str | Path, model_name: str = "") -> IfbenchSummary:
    """Write ``responses.jsonl`` from the answers in ``out_dir`` and score it with IFBench's
    checkers; writes ``summary.json``."""
    ev = evaluation_lib()
    out = Path(out_dir)
    answers = read_answers(out)
    if not answers:
        raise FileNotFoundError(f"no IFBench answers in {out}; generate them first")
    responses = ev.read_prompt_to_response_dict(str(write_responses(out, answers)))
    everything = load_prompts()
    asked = [inp for inp in everything if inp.prompt in responses]
    bad = unscorable_instructions(everything)
    scored = [s for s in (_scorable(inp, bad) for inp in asked) if s is not None]
    whole = {inp.prompt for inp in asked if not set(inp.instruction_id_list) & bad}
    with _offline_downloads():
        strict = [ev.test_instruction_following_strict(inp, responses) for inp in scored]
        loose = [ev.test_instruction_following_loose(inp, responses) for inp in scored]
    left_out: dict[str, int] = {}
    for inp in asked:
        for name in inp.instruction_id_list:
            if name in bad:
                left_out[name] = left_out.get(name, 0) + 1
    summary = IfbenchSummary(
        model=model_name or next(iter(answers.values())).completion.model or "",
        prompts=len(asked), prompts_total=len(everything), complete=len(asked) == len(everything),
        prompts_scored=len(whole), instructions_scored=sum(len(s.instruction_id_list) for s in scored),
        unscorable_instructions=dict(sorted(left_out.items())),
        strict=_levels(strict, whole), loose=_levels(loose, whole),
        per_instruction_strict=_per_instruction(strict),
        stats=summarize_completions(a.completion for a in answers.values()))
    (out / "summary.json").write_text(summary.model_dump_json(indent=2), encoding="utf-8")
    return summary


def run_ifbench(model: str | ChatModel, out_dir: str | Path, *, limit: int | None = None,
                every: int = 1, max_tokens: int = 1024, parallel: int = 1,
                progress: bool = True, threads: int | None = None) -> IfbenchSummary:
    """Answer (or resume answering) the prompts ``load_prompts(limit, every)`` chooses,
    then score every answer in ``out_dir``.
    ``threads``: llama.cpp threads for a model loaded from a spec (None: its default)."""
    if isinstance(model, str):
        model = load_chat_model(model, parallel=parallel, n_threads=threads)
    generate_answers(model, load_prompts(limit, every), Path(out_dir),
                     GenerationParams(max_tokens=max_tokens), parallel, progress)
    return score_ifbench(out_dir, model.name)
