"""BFCL non-live AST and irrelevance as a recipe evaluator: HF model folder -> named scores.

The recipe scores the base model and every stage's output with a
``ModelEvaluator``; this one runs the Berkeley Function Calling Leaderboard the
way ``botpsy eval bfcl`` does (FC mode, free decoding, early stop, temperature
0), through llama.cpp, which is several times faster than transformers on a CPU:

1. the HF folder is converted to a GGUF F16 once, cached next to the model
   (``<stage>/bfcl/model-F16.gguf``) and rebuilt only when the weights are newer;
2. the first ``limit`` cases of each category are asked and written as BFCL
   result files under ``<stage>/bfcl/runs/<first-N|all>/`` (resumable: an
   interrupted run continues, a finished one is only scored again);
3. bfcl-eval's checker scores them (``botpsy.evals.bfcl.score``), and the
   returned scores are each category's accuracy, ``non_live_ast`` (BFCL's own
   aggregation, simple = mean of Python/Java/JavaScript) and ``irrelevance``.

    from botpsy.train.bfcl_eval import BfclEvaluator, BfclSettings
    scores = BfclEvaluator(BfclSettings(limit=20))("runs/smol/sft/model")

Post hoc for a whole run: ``botpsy train score-run --run runs/smol --limit 20``.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.model_files import is_hf_model_folder, load_text_backend
from botpsy.evals.bfcl import generate, score
from botpsy.evals.bfcl.overall import NON_LIVE, Group
from botpsy.evals.bfcl.score import BfclReport
from botpsy.formats import get_format
from botpsy.train.gguf_export import convert_hf_to_gguf
from botpsy.types import GenerationParams

GGUF_NAME = "model-F16.gguf"
HEADLINE = ("non_live_ast", "irrelevance")  # the two summary scores, first in every table
_WEIGHT_FILES = ("*.safetensors", "config.json", "tokenizer.json")


def _leaves(group: Group) -> list[str]:
    """The categories under a BFCL group, in its order (simple_python, ..., parallel_multiple)."""
    return [n for part in group.parts for n in ([part] if isinstance(part, str) else _leaves(part))]


NON_LIVE_AST = tuple(_leaves(NON_LIVE))
CATEGORIES = (*NON_LIVE_AST, "irrelevance")


@dataclass(frozen=True)
class BfclSettings:
    """How the evaluator asks: which cases, which format, which budget (threads change speed only)."""

    limit: int | None = None  # first N cases of each category; None: all of them
    format: str = "hermes"
    max_tokens: int = 512
    n_ctx: int = 4096
    threads: int | None = None  # llama.cpp threads (None: its default)
    parallel: int = 8  # cases decoded together (BatchedLlamaCppBackend); 1: one at a time

    def __post_init__(self) -> None:
        if self.limit is not None and self.limit < 1:
            raise ValueError(f"limit must be a positive number of cases or None, got {self.limit}")

    @property
    def run_name(self) -> str:
        return "all" if self.limit is None else f"first-{self.limit}"

    def stamp(self) -> dict[str, object]:
        """What decides the answers: results made with another stamp are not resumed."""
        fields = asdict(self)
        fields.pop("threads")
        fields.pop("parallel")
        return {**fields, "categories": list(CATEGORIES)}


def bfcl_dir(model_dir: str | Path) -> Path:
    """Where a model's GGUF and BFCL runs go: ``<stage>/bfcl`` for a stage's ``<stage>/model``,
    ``<name>.bfcl`` beside any other folder (so two sibling models never share one)."""
    model_dir = Path(model_dir)
    name = "bfcl" if model_dir.name == "model" else f"{model_dir.name}.bfcl"
    return model_dir.parent / name


def model_label(model_dir: str | Path) -> str:
    """A short name for reports and result folders: the stage for ``<stage>/model``."""
    model_dir = Path(model_dir).resolve()
    return model_dir.parent.name if model_dir.name == "model" else model_dir.name


def _check_model_dir(model_dir: Path) -> None:
    if not model_dir.is_dir():
        raise FileNotFoundError(f"model folder not found: {model_dir}")
    if not is_hf_model_folder(model_dir):
        raise FileNotFoundError(f"{model_dir} is not an HF model folder (no config.json)")
    if not list(model_dir.glob("*.safetensors")):
        raise FileNotFoundError(f"{model_dir} has no .safetensors weights")


def _weights_mtime(model_dir: Path) -> int:
    return max(p.stat().st_mtime_ns for pattern in _WEIGHT_FILES for p in model_dir.glob(pattern))


def cached_gguf(model_dir: str | Path) -> Path:
    """The model's F16 GGUF, converted unless a copy newer than its weights exists.

    A rebuilt GGUF means new weights, so every cached BFCL run of the old one is removed.
    """
    model_dir = Path(model_dir)
    _check_model_dir(model_dir)
    work = bfcl_dir(model_dir)
    gguf = work / GGUF_NAME
    if gguf.is_file() and gguf.stat().st_mtime_ns >= _weights_mtime(model_dir):
        return gguf
    shutil.rmtree(work / "runs", ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    partial = gguf.with_suffix(".part")
    convert_hf_to_gguf(model_dir, partial, name=model_label(model_dir))
    partial.replace(gguf)  # never leave a half-written file that looks finished
    return gguf


def scores_of(report: BfclReport) -> dict[str, float]:
    """Headline scores then per-category accuracies, from a scored BFCL report."""
    accuracy = {name: s.accuracy for name, s in report.categories.items()}
    missing = [name for name in CATEGORIES if name not in accuracy]
    if missing:
        raise ValueError(f"BFCL report of {report.result_dir} lacks {', '.join(missing)}")
    return {
        "non_live_ast": report.overall.groups[NON_LIVE.name].accuracy,
        "irrelevance": accuracy["irrelevance"],
        **{name: accuracy[name] for name in NON_LIVE_AST},
    }


def describe(settings: BfclSettings) -> str:
    """One line for the recipe report's notes: what the external scores measured."""
    cases = "every case" if settings.limit is None else f"the first {settings.limit} cases"
    return (
        f"External scores: BFCL v4 non-live AST ({', '.join(NON_LIVE_AST)}) and irrelevance, "
        f"{cases} of each category; FC mode, {settings.format} format, free decoding with "
        f"early stop, greedy, {settings.max_tokens} tokens at most, llama.cpp on the F16 GGUF"
    )


class BfclEvaluator:
    """A ``ModelEvaluator``: model folder -> BFCL non-live AST and irrelevance scores."""

    def __init__(self, settings: BfclSettings | None = None) -> None:
        self.settings = settings or BfclSettings()

    def run_dir(self, model_dir: str | Path) -> Path:
        return bfcl_dir(model_dir) / "runs" / self.settings.run_name

    def report(self, model_dir: str | Path) -> BfclReport:
        """Generate (or resume) and score; the full report, per-case files on disk."""
        s = self.settings
        gguf = cached_gguf(model_dir)
        run_dir = self.run_dir(model_dir)
        stamp_file = run_dir / "evaluator.json"
        resume = stamp_file.is_file() and json.loads(stamp_file.read_text()) == s.stamp()
        run_dir.mkdir(parents=True, exist_ok=True)
        stamp_file.write_text(json.dumps(s.stamp(), indent=2), encoding="utf-8")
        backend = load_text_backend(
            str(gguf), n_ctx=s.n_ctx, n_threads=s.threads, parallel=s.parallel
        )
        chat = FormattedChatModel(backend, get_format(s.format), name=model_label(model_dir))
        try:
            summary = generate(
                chat,
                list(CATEGORIES),
                run_dir,
                "fc",
                s.limit,
                resume,
                params=GenerationParams(max_tokens=s.max_tokens, temperature=0.0),
                tool_choice="auto",
                early_stop=True,
                progress=False,
                parallel=s.parallel,
            )
        finally:
            backend.close()
        return score(summary.model_dir, run_dir, categories=list(CATEGORIES), progress=False)

    def __call__(self, model_dir: str) -> dict[str, float]:
        return scores_of(self.report(model_dir))
