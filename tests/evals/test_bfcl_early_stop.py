"""Early stop: probe budgets, the rules that keep a cut answer, and the full budget otherwise."""

from __future__ import annotations

import json

import pytest

from botpsy.backends.chat import FormattedChatModel
from botpsy.evals.bfcl import generate, score
from botpsy.evals.bfcl.early_stop import EarlyStop, StopReason, ask, stop_reason
from botpsy.evals.bfcl.results import find_result_files, read_results
from botpsy.formats import get_format
from botpsy.types import Completion, GenerationParams, Message, ParseError, ToolCall, ToolSpec

from .chat_models import BudgetBackend

TOOLS = [
    ToolSpec(name="f", parameters={"type": "object", "properties": {"a": {"type": "integer"}}})
]
ASK = [Message(role="user", content="Do it.")]


def _call(a: int, pad: int = 0) -> str:
    """A hermes call of 9 + 2 * ``pad`` tokens (as BudgetBackend counts them)."""
    args = {"a": a, **{f"k{i}": i for i in range(pad)}}
    return f"<tool_call>\n{json.dumps({'name': 'f', 'arguments': args})}\n</tool_call>\n"


def _model(answer: str) -> tuple[FormattedChatModel, BudgetBackend]:
    backend = BudgetBackend(answer)
    return FormattedChatModel(backend, get_format("hermes")), backend


PROSE = " ".join(["word"] * 300)


@pytest.mark.parametrize(
    "answer, budgets, stopped, calls",
    [
        (PROSE, [64], StopReason.text, 0),  # prose: cut at the first probe
        (_call(1), [64], None, 1),  # a short call ends before the probe budget
        (_call(1) * 30, [64], StopReason.repeated_call, 7),  # a loop of one call
        (_call(1, 20) * 12, [64, 192], StopReason.repeated_call, 3),  # longer calls: 2nd probe
        ("".join(_call(i, 20) for i in range(8)), [64, 192, 512], None, 8),  # long and right
        ("Let me call it. " + "x " * 59 + _call(1), [64, 192], None, 1),  # "<" at the cut
        ("<think>\n" + PROSE, [64, 192, 512], None, 0),  # reasoning is never cut short
    ],
)
def test_probes_keep_decided_answers_and_give_the_rest_the_full_budget(
    answer, budgets, stopped, calls
):
    model, backend = _model(answer)
    got = ask(model, ASK, TOOLS, GenerationParams(max_tokens=512), EarlyStop())
    assert backend.budgets == budgets and got.passes == len(budgets)
    assert got.stopped == stopped and len(got.completion.tool_calls) == calls


def test_in_irrelevance_the_first_call_decides():
    model, _ = _model(_call(1, 20) * 2 + PROSE)
    policy = EarlyStop(any_call_decides=True)
    got = ask(model, ASK, TOOLS, GenerationParams(max_tokens=512), policy)
    assert got.stopped is StopReason.call_in_irrelevance and got.passes == 1


def test_no_probes_when_sampling_is_not_reproducible_or_the_budget_is_small():
    model, backend = _model(PROSE)
    got = ask(model, ASK, TOOLS, GenerationParams(max_tokens=512, temperature=0.7), EarlyStop())
    assert backend.budgets == [512] and got.stopped is None
    seeded = GenerationParams(max_tokens=512, temperature=0.7, seed=3)
    assert ask(model, ASK, TOOLS, seeded, EarlyStop()).stopped is StopReason.text
    backend.budgets.clear()
    ask(model, ASK, TOOLS, GenerationParams(max_tokens=512), None)
    assert backend.budgets == [512]
    model, backend = _model("".join(_call(i, 20) for i in range(8)))
    ask(model, ASK, TOOLS, GenerationParams(max_tokens=100), EarlyStop())
    assert backend.budgets == [64, 100]  # probes only below max_tokens


def test_a_parse_error_means_a_call_may_still_come():
    truncated = Completion(
        content="{",
        raw='{"name": "f", "argu',
        parse_errors=[ParseError(kind="truncated", message="output ended inside a tool call")],
    )
    assert stop_reason(truncated, EarlyStop()) is None
    assert stop_reason(truncated, EarlyStop(), "<tool_call>") is None  # bare JSON from the start
    twice = Completion(tool_calls=[ToolCall(name="f", arguments={"a": 1})] * 2)
    assert stop_reason(twice, EarlyStop()) is None  # BFCL accepts some calls twice
    assert stop_reason(twice, EarlyStop(repeats=2)) is StopReason.repeated_call
    assert stop_reason(twice, EarlyStop(max_calls=1)) is StopReason.too_many_calls


def test_prose_explaining_json_is_prose_but_a_cut_call_in_the_format_is_not():
    blocks = 'Here is a JSON function:\n```\n{"type": "function", "parameters": {"name": "'
    errors = [ParseError(kind="truncated", message="output ended inside a tool call")]
    explained = Completion(content=blocks, raw=blocks, parse_errors=errors)
    assert stop_reason(explained, EarlyStop(), "<tool_call>") is StopReason.text
    opened = "Sure. <tool_call>\n" + '{"name": "f", "argu'
    cut = Completion(content="Sure.", raw=opened, parse_errors=errors)
    assert stop_reason(cut, EarlyStop(), "<tool_call>") is None
    assert stop_reason(explained, EarlyStop(), "") is None  # no opener known: wait


@pytest.mark.parametrize("probes, repeats", [((192, 64), 3), ((0, 64), 3), ((64,), 1)])
def test_bad_policies_are_refused(probes, repeats):
    with pytest.raises(ValueError):
        EarlyStop(probes=probes, repeats=repeats)


def test_generate_records_early_stops_and_the_report_counts_them(tmp_path):
    model, backend = _model(PROSE)
    summary = generate(model, ["irrelevance"], tmp_path, limit=2, progress=False)
    records = read_results(find_result_files(summary.model_dir)["irrelevance"])
    assert [(r.stopped, r.passes) for r in records.values()] == [("text", 1)] * 2
    assert backend.budgets == [64, 64]
    report = score(summary.model_dir, tmp_path, progress=False)
    assert report.categories["irrelevance"].stopped_early == {"text": 2}
    assert report.early_stop == {
        "probes": [64, 192],
        "repeats": 3,
        "max_calls": None,
        "any_call_decides": False,
    }
    assert report.generated == 2 and report.generation_s is not None
    markdown = (tmp_path / "scores" / "budget" / "report.md").read_text()
    assert "early stop (probes 64/192 tokens)" in markdown and "| irrelevance |" in markdown


def test_where_answers_are_one_call_a_second_call_decides(tmp_path):
    varying = "".join(_call(i, 20) for i in range(8))  # a loop the repeat rule cannot see
    model, backend = _model(varying)
    summary = generate(model, ["simple_python"], tmp_path, limit=1, progress=False)
    record = read_results(find_result_files(summary.model_dir)["simple_python"])["simple_python_0"]
    assert (record.stopped, record.passes, backend.budgets) == ("too_many_calls", 2, [64, 192])
    model, backend = _model(varying)
    generate(model, ["parallel"], tmp_path, limit=1, progress=False)
    assert backend.budgets == [64, 192, 512]  # parallel answers may hold many calls
