"""Scoring your own tool schemas: file checks, shapes, report, resume."""

from __future__ import annotations

import json

import pytest

from botpsy.evals.bfcl.generate import RunMismatchError
from botpsy.evals.toolcalls import ToolcallsDataError, load_toolcall_cases, run_toolcalls
from botpsy.types import Completion, ToolCall

from .chat_models import ScriptedChatModel

WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city.",
    "parameters": {
        "type": "dict",
        "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
        "required": ["city"],
    },
}
MAIL = {
    "name": "send_mail",
    "description": "Send an email.",
    "parameters": {
        "type": "dict",
        "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
        "required": ["to", "body"],
    },
}
TESTS = [
    {"id": "w1", "question": "Weather in Paris?", "function": [WEATHER]},
    {
        "id": "w2",
        "question": [{"role": "user", "content": "Paris and Rome weather"}],
        "function": [WEATHER],
    },
    {
        "id": "m1",
        "question": [[{"role": "user", "content": "Mail bob: hi"}]],
        "function": [WEATHER, MAIL],
    },
    {"id": "n1", "question": "Tell me a joke", "function": [WEATHER]},
]
ANSWERS = [
    {"id": "w1", "ground_truth": [{"get_weather": {"city": ["Paris"], "unit": ["", "c"]}}]},
    {
        "id": "w2",
        "ground_truth": [{"get_weather": {"city": ["Paris"]}}, {"get_weather": {"city": ["Rome"]}}],
    },
    {"id": "m1", "ground_truth": [{"send_mail": {"to": ["bob"], "body": ["hi"]}}]},
    {"id": "n1", "ground_truth": []},
]


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture()
def files(tmp_path):
    return _write(tmp_path / "tests.jsonl", TESTS), _write(tmp_path / "answers.jsonl", ANSWERS)


def _call(name, **arguments):
    return Completion(tool_calls=[ToolCall(name=name, arguments=arguments)])


def test_cases_are_read_with_their_checker_shape(files):
    cases = load_toolcall_cases(*files)
    assert [(c.case_id, c.shape) for c in cases] == [
        ("w1", "simple"),
        ("w2", "parallel"),
        ("m1", "multiple"),
        ("n1", "irrelevance"),
    ]
    assert cases[0].turns == [[{"role": "user", "content": "Weather in Paris?"}]]


def test_run_scores_each_shape_and_writes_the_report(files, tmp_path):
    model = ScriptedChatModel(
        [
            _call("get_weather", city="paris"),
            Completion(
                tool_calls=[
                    ToolCall(name="get_weather", arguments={"city": "Rome"}),
                    ToolCall(name="get_weather", arguments={"city": "Paris"}),
                ]
            ),
            _call("send_mail", to="bob", body="hello"),
            Completion(content="Why did the chicken..."),
        ]
    )
    report = run_toolcalls(model, *files, tmp_path / "out", progress=False)
    assert report.overall.correct == 3 and report.overall.total == 4
    assert report.by_shape["multiple"].error_types == {"value_error:string": 1}
    assert report.by_shape["parallel"].accuracy == 1.0  # order does not matter
    assert report.overall.reward_mean == pytest.approx((1 + 1 + 5 / 6 + 1) / 4)
    assert report.overall.disagreements == []
    scores = tmp_path / "out" / "scores" / "scripted"
    assert {p.name for p in scores.iterdir()} == {
        "toolcalls_score.json",
        "toolcalls_report.json",
        "toolcalls_report.md",
        "toolcalls_accuracy.png",
    }
    # resumed: nothing is asked again
    again = run_toolcalls(ScriptedChatModel([]), *files, tmp_path / "out", progress=False)
    assert again.overall.correct == 3


@pytest.mark.parametrize(
    "tests, answers, message",
    [
        ([{"id": "a", "question": "q", "function": [WEATHER]}], [], "no answer for id 'a'"),
        ([], [{"id": "a", "ground_truth": []}], "answers without a test"),
        (
            [{"id": "a", "question": "q", "function": []}],
            [{"id": "a", "ground_truth": []}],
            "non-empty list",
        ),
        (
            [{"id": "a", "question": "q", "function": [{"name": "has space"}]}],
            [{"id": "a", "ground_truth": []}],
            "bad function doc",
        ),
        (
            [{"id": "a", "question": 7, "function": [WEATHER]}],
            [{"id": "a", "ground_truth": []}],
            "one turn",
        ),
        ([], [{"id": "a", "ground_truth": [{"f": 1}]}], "bad ground_truth"),
        ([], [{"id": "a", "ground_truth": []}, {"id": "a", "ground_truth": []}], "duplicate id"),
        ([], [{"id": "a", "ground_truth": {"f": {}}}], "must be a list of calls"),
        (
            [{"id": "a", "question": "q", "function": [WEATHER]},
             {"id": "a", "question": "q", "function": [WEATHER]}],
            [{"id": "a", "ground_truth": []}],
            "t.jsonl:2: duplicate id",
        ),
        (
            [{"id": "a", "question": "q", "function": [WEATHER]}],
            [{"id": "a", "ground_truth": [{"get_weathr": {"city": ["x"]}}]}],
            "calls 'get_weathr', which the case does not offer",
        ),
    ],
)
def test_bad_files_are_refused_with_the_line(tmp_path, tests, answers, message):
    data = _write(tmp_path / "t.jsonl", tests)
    truth = _write(tmp_path / "a.jsonl", answers)
    with pytest.raises(ToolcallsDataError, match=message):
        load_toolcall_cases(data, truth)


def test_non_json_lines_name_the_file_and_line(tmp_path):
    data = tmp_path / "t.jsonl"
    data.write_text('{"id": "a"}\nnot json\n')
    with pytest.raises(ToolcallsDataError, match="t.jsonl:2"):
        load_toolcall_cases(data, _write(tmp_path / "a.jsonl", []))


def test_a_resume_asks_a_changed_case_again_and_refuses_another_model(files, tmp_path):
    """Ids repeat across data files and model names repeat across models: before, a new
    question under an old id got the old answer, and another model resumed this one's."""
    tests, answers = files
    out = tmp_path / "out"
    first = ScriptedChatModel([_call("get_weather", city="Paris")])
    first.source = "gguf hermes a.gguf:1:aaaa"
    run_toolcalls(first, tests, answers, out, limit=1, progress=False)
    rome = {**TESTS[0], "question": "Weather in Rome?"}
    _write(tests, [rome, *TESTS[1:]])
    _write(answers, [{"id": "w1", "ground_truth": [{"get_weather": {"city": ["Rome"]}}]},
                     *ANSWERS[1:]])
    again = ScriptedChatModel([_call("get_weather", city="Rome")])
    again.source = first.source
    report = run_toolcalls(again, tests, answers, out, limit=1, progress=False)
    assert report.overall.correct == 1 and len(again.seen) == 1  # asked again, not reused
    other = ScriptedChatModel([])
    other.source = "gguf hermes b.gguf:1:bbbb"
    with pytest.raises(RunMismatchError, match="made with model 'gguf hermes a.gguf"):
        run_toolcalls(other, tests, answers, out, limit=1, progress=False)


def test_json_schema_types_and_no_required_list_are_scored_not_crashed(tmp_path):
    """Everyday JSON-schema docs ("number", "object", no "required"): BFCL's checker knows
    none of these and crashed, scoring right answers 0."""
    doc = {"name": "set_thermostat", "description": "Set a room's temperature.",
           "parameters": {"type": "object", "properties": {
               "celsius": {"type": "number"}, "room": {"type": "string"},
               "schedule": {"type": "object"}, "days": {"type": "array",
                                                       "items": {"type": "int"}}}}}
    tests = _write(tmp_path / "t.jsonl", [{"id": "a", "question": "21.5 in the study",
                                           "function": [doc]}])
    answers = _write(tmp_path / "a.jsonl", [{"id": "a", "ground_truth": [{"set_thermostat": {
        "celsius": [21.5], "room": ["study"], "schedule": ["", {}], "days": ["", [1]]}}]}])
    model = ScriptedChatModel([_call("set_thermostat", celsius=21.5, room="study", days=[1])])
    report = run_toolcalls(model, tests, answers, tmp_path / "out", progress=False)
    assert report.overall.correct == 1, report.overall.error_types
