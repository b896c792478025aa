"""Tool-call accuracy of a variant on a fixed small BFCL subset.

Quantization trades quality for speed, so the speed table needs a quality
column next to it. The subset is ``n`` cases of BFCL's ``simple_python``
category spread evenly over it (always the same cases for the same ``n``),
loaded through ``botpsy.evals.bfcl`` and graded by ``botpsy.rewards`` (the
same grader the evals and the RL reward use). Each case is one turn stopped at
the first complete call (every simple_python case expects exactly one). It is a
relative measure between variants of one model, not a BFCL score: run
``botpsy eval`` for that.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from botpsy.backends.base import ChatModel
from botpsy.bench.measure import TurnOutcome, first_call_turn
from botpsy.bench.schema import AccuracyCase, AccuracyResult
from botpsy.rewards import ReferenceCall, references_from_bfcl, score_calls
from botpsy.types import GenerationParams, Message, ToolSpec

CATEGORY = "simple_python"
SUITE = f"bfcl:{CATEGORY}"


@dataclass(frozen=True)
class AccuracyItem:
    """One graded request: messages, tools and the acceptable calls."""

    id: str
    messages: list[Message]
    tools: list[ToolSpec]
    references: list[ReferenceCall]


def spread_indices(total: int, n: int) -> list[int]:
    """``n`` indices spread evenly over ``range(total)`` (all of them when n >= total)."""
    if n <= 0 or total <= 0:
        return []
    n = min(n, total)
    return sorted({(i * total) // n for i in range(n)})


def available_cases() -> int:
    """How many cases the suite has: ``load_subset(n)`` never returns more, so a run asked
    for more is told, and its report and progress count the cases really run."""
    from botpsy.evals.bfcl.categories import category  # lazy: bfcl_eval
    from botpsy.evals.bfcl.dataset import dataset_size  # lazy: bfcl_eval

    return dataset_size(category(CATEGORY))


def load_subset(n: int) -> list[AccuracyItem]:
    """``n`` BFCL simple_python cases, evenly spread, with their reference calls."""
    from botpsy.evals.bfcl.categories import category  # lazy: bfcl_eval
    from botpsy.evals.bfcl.convert import to_messages, tool_specs  # lazy: bfcl_eval
    from botpsy.evals.bfcl.dataset import load_answers, load_cases  # lazy: bfcl_eval

    cat = category(CATEGORY)
    cases = load_cases(cat)
    answers = load_answers(cat)
    items = []
    for index in spread_indices(len(cases), n):
        case = cases[index]
        items.append(
            AccuracyItem(
                id=case.id,
                messages=to_messages(case.turns[0]),
                tools=tool_specs(case.functions),
                references=references_from_bfcl(answers[case.id], case.functions),
            )
        )
    return items


def grade(item: AccuracyItem, outcome: TurnOutcome) -> AccuracyCase:
    """Score one turn; unrecovered parse errors count as a format failure."""
    parse_ok = all(error.recovered for error in outcome.parse_errors)
    score = score_calls(outcome.calls, item.references, parse_ok=parse_ok)
    return AccuracyCase(
        id=item.id,
        exact=score.exact and parse_ok,
        reward=score.reward,
        error_type=score.error_type.value,
    )


def summarize(cases: list[AccuracyCase], suite: str = SUITE) -> AccuracyResult:
    """Exact-match rate, mean partial-credit reward and error counts."""
    n = len(cases)
    return AccuracyResult(
        suite=suite,
        n=n,
        accuracy=sum(c.exact for c in cases) / n if n else 0.0,
        mean_reward=sum(c.reward for c in cases) / n if n else 0.0,
        errors=dict(Counter(c.error_type for c in cases if not c.exact)),
        cases=cases,
    )


def run_accuracy(
    model: ChatModel,
    items: list[AccuracyItem],
    params: GenerationParams,
    on_case: Callable[[], None] | None = None,
    before_case: Callable[[], None] | None = None,
) -> AccuracyResult:
    """Ask every item once, stopping at the first complete call as the turn test does, and
    grade it. ``before_case`` runs first each time (the worker resets the model there)."""
    cases = []
    for item in items:
        if before_case:
            before_case()
        cases.append(grade(item, first_call_turn(model, item.messages, item.tools, params)))
        if on_case:
            on_case()
    return summarize(cases)
