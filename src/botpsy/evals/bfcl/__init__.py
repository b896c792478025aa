"""BFCL v4 (Berkeley Function Calling Leaderboard) on botpsy models.

Two steps with files between them, as in BFCL itself:

- ``generate(model, categories, out_dir, mode="fc"|"prompt", limit=None, resume=True)``
  asks a ChatModel every case (multi-turn cases are executed against bfcl-eval's
  simulated APIs) and writes BFCL result files under ``out_dir/results/<model>/``;
- ``score(result_dir, out_dir)`` judges them with bfcl-eval's own checkers and
  botpsy's grader side by side, writes ``out_dir/scores/<model>/`` (per-category
  score files, report.json, report.md, accuracy.png) and returns a ``BfclReport``
  with BFCL's official overall weighting.

The data comes from the installed bfcl-eval package; see ``upstream`` for how it
is imported without its model-provider SDKs.
"""

from botpsy.evals.bfcl.categories import NOT_RUN, Category, CategoryKind, category, resolve
from botpsy.evals.bfcl.generate import CategoryRun, GenerationSummary, generate
from botpsy.evals.bfcl.score import BfclReport, CategoryScore, SampleScore, score

__all__ = [
    "NOT_RUN",
    "BfclReport",
    "Category",
    "CategoryKind",
    "CategoryRun",
    "CategoryScore",
    "GenerationSummary",
    "SampleScore",
    "category",
    "generate",
    "resolve",
    "score",
]
