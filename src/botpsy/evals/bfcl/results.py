"""Result files: what the generation step writes and the scoring step reads.

Layout and line format follow bfcl-eval, so its tools can read our files:
``results/<model>/<group>/BFCL_v4_<category>_result.json``, one JSON object per
line with ``id`` and ``result`` (single turn: ``[{"func": {"arg": value}}]`` in
FC mode or the raw text in prompt mode; multi turn: one list per turn of one
entry per model step), plus BFCL's ``input_token_count``, ``output_token_count``
and ``latency``. Our extras ride along: the raw model text, the mode, parse
errors and any inference error. A ``run.json`` beside them records how the run
was made.
"""

from __future__ import annotations

import json
import logging
import re
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from botpsy.evals.bfcl import upstream
from botpsy.evals.bfcl.categories import Category

log = logging.getLogger(__name__)

Mode = Literal["fc", "prompt"]
_RESULT_NAME = re.compile(rf"^{upstream.VERSION_PREFIX}_(\w+?)_result\.json$")


class ResultRecord(BaseModel):
    """One line of a result file."""

    model_config = ConfigDict(extra="allow")

    id: str
    result: Any
    mode: Mode = "fc"
    input_token_count: Any = 0
    output_token_count: Any = 0
    latency: Any = 0.0
    raw: Any = ""
    parse_errors: list[Any] = Field(default_factory=list)
    inference_error: str | None = None  # set when the model call itself failed
    stopped: str | None = None  # why a probe's cut answer was kept (early_stop.StopReason)
    passes: int = 1  # how many times the model was asked (probe budgets, then the full one)
    case_print: str | None = None  # toolcalls: a hash of the question it answers

    @model_validator(mode="before")
    @classmethod
    def _mode_of_a_bfcl_line(cls, data: Any) -> Any:
        """A line without ``mode`` comes from bfcl-eval itself, whose prompting handlers
        write the answer as text and FC handlers as a list of calls (single turn) or of
        turns (multi turn); read as FC, a prompting run's answers all failed to decode."""
        if isinstance(data, dict) and "mode" not in data:
            return {**data, "mode": "prompt" if isinstance(data.get("result"), str) else "fc"}
        return data


class RunManifest(BaseModel):
    """How a result directory was produced (``run.json``)."""

    model: str
    mode: Mode
    tool_choice: str = "auto"  # "auto": free decoding; "required": calls forced by grammar
    model_source: str | None = None  # what the name loaded (backends.model_files.model_source)
    chat_format: str | None = None  # the format the model was asked in (hermes, qwen35...)
    botpsy_version: str
    bfcl_eval_version: str
    params: dict[str, Any] = Field(default_factory=dict)
    early_stop: dict[str, Any] | None = None  # probe budgets and rules; None: full budget at once
    categories: list[str] = Field(default_factory=list)
    not_run: dict[str, str] = Field(default_factory=dict)
    limit: int | None = None
    started: str = ""
    finished: str = ""
    generated: int = 0  # cases asked by the generation sessions that wrote this folder
    generation_s: float = 0.0  # their wall time, seconds (model loading excluded)


def model_dir_name(model_name: str) -> str:
    """A folder name for a model: BFCL replaces slashes; we also drop ``:``, ``#`` and the like,
    which spec strings (``openai:URL#model``) carry and file systems dislike."""
    return re.sub(r"[^\w.\-]+", "_", model_name).strip("._") or "model"


def result_path(model_dir: Path, category: Category) -> Path:
    """Where bfcl-eval expects the results of ``category`` for the model in ``model_dir``."""
    return model_dir / category.group / f"{upstream.VERSION_PREFIX}_{category.name}_result.json"


def category_of_result_file(path: Path) -> str | None:
    match = _RESULT_NAME.match(path.name)
    return match.group(1) if match else None


def find_result_files(model_dir: Path) -> dict[str, Path]:
    """Category name -> result file, for every BFCL result file under ``model_dir``."""
    found = {}
    for path in sorted(model_dir.rglob(f"{upstream.VERSION_PREFIX}_*_result.json")):
        name = category_of_result_file(path)
        if name:
            found[name] = path
    return found


class ResultFileError(ValueError):
    """A result file that cannot be read (not JSON lines, or lines without id/result)."""


def read_results(path: Path, *, salvage: bool = False) -> dict[str, ResultRecord]:
    """Records by id. Bad lines raise ResultFileError, or with ``salvage`` are skipped
    and the file is kept aside as ``<name>.bad-<time>`` so nothing is lost."""
    records: dict[str, ResultRecord] = {}
    bad: list[int] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = ResultRecord.model_validate_json(line)
        except ValidationError as exc:
            if not salvage:
                raise ResultFileError(
                    f"{path}:{number}: not a result line ({exc.errors()[0]['msg']})"
                ) from exc
            bad.append(number)
            continue
        records[record.id] = record
    if bad:
        kept = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
        kept.write_bytes(path.read_bytes())
        log.warning(
            "%s: lines %s unreadable (interrupted write?); original kept as %s", path, bad, kept
        )
        write_results(path, records.values())
    return records


def _sort_key(record_id: str) -> tuple[str, int]:
    base = record_id.split(":")[0]
    category, _, index = base.rpartition("_")
    number = index.split("-")[0]
    return (category, int(number) if number.isdigit() else -1)


def write_results(path: Path, records: Any) -> None:
    """Rewrite a result file with ``records`` sorted as BFCL sorts them."""
    path.parent.mkdir(parents=True, exist_ok=True)
    ordered = sorted(records, key=lambda r: _sort_key(r.id))
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(r.model_dump_json() + "\n" for r in ordered), encoding="utf-8")
    tmp.replace(path)


def append_result(path: Path, record: ResultRecord) -> None:
    """Add one line now, so an interrupted run keeps everything generated so far."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(record.model_dump_json() + "\n")
        handle.flush()


def write_manifest(model_dir: Path, manifest: RunManifest, name: str = "run.json") -> None:
    model_dir.mkdir(parents=True, exist_ok=True)
    (model_dir / name).write_text(manifest.model_dump_json(indent=2), encoding="utf-8")


def read_manifest(model_dir: Path, name: str = "run.json") -> RunManifest | None:
    """A run's manifest (``name``: another run kind's, e.g. toolcalls', in the same folder)."""
    path = model_dir / name
    if not path.exists():
        return None
    return RunManifest.model_validate(json.loads(path.read_text(encoding="utf-8")))
