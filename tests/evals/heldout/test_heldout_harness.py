"""The held-out harness end to end with scripted models, and its grader on table cases.

The cases here are written for the tests (never taken from the held-out set, which is
for measuring only)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from botpsy.evals.heldout.cases import HeldoutCase, Matcher, load_cases
from botpsy.evals.heldout.grade import Op, RowChange, grade_case, matches
from botpsy.evals.heldout.report import wilson
from botpsy.evals.heldout.runner import compare_run_dirs, run_heldout, score_heldout
from botpsy.evals.scenarios.reference import scripted_model
from botpsy.formats.hermes import HermesFormat
from botpsy.types import ToolCall

HERMES = HermesFormat()


def call(tool: str, /, **arguments: object) -> str:
    return HERMES.render_calls([ToolCall(name=tool, arguments=arguments)])


CASES = [
    {"id": "t1", "class": "create", "request": "Remind me to water the plants tomorrow at 8am",
     "expect_changes": [{"table": "reminders", "op": "insert", "fields": {
         "text": {"contains_all": ["plants"]}, "due_at": {"local_time": "2026-12-08T08:00"}}}],
     "answer_facts": []},
    {"id": "t2", "class": "lookup", "request": "Read me my newest email",
     "expect_changes": [], "answer_facts": [["email"]]},
    {"id": "t3", "class": "lookup", "request": "Find the contact called Jamie",
     "expect_changes": [], "answer_facts": [["no-such-fact-anywhere"]]},
]
SCRIPTS = {
    "t1": [call("add_reminder", text="water the plants", due="2026-12-08T08:00"),
           "Done: I will remind you tomorrow at 08:00."],
    "t2": [call("read_email", email_id=1), "That is your newest email."],
    "t3": [call("search_contacts", query="Jamie"), "Here is what I found."],
}


@pytest.fixture()
def cases(tmp_path: Path) -> list[HeldoutCase]:
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    return load_cases(path)


def factory(case: HeldoutCase, refs: object):
    return scripted_model(list(SCRIPTS[case.id]), name="scripted")


def test_end_to_end_numbers(tmp_path: Path, cases: list[HeldoutCase]) -> None:
    report = run_heldout(factory, tmp_path / "run", cases=cases, progress=False)
    assert report.overall.cases == 3
    assert report.overall.passed == 2  # t3 misses its fact
    assert report.classes["create"].passed == 1
    assert report.classes["lookup"].passed == 1
    assert report.classes["lookup"].missing_fact == 1
    assert report.junk_changes == 0  # reading an email flips `unread`: not a side effect
    low, high = wilson(2, 3).low, wilson(2, 3).high
    assert report.overall.ci95.low == pytest.approx(low) and high < 1.0
    assert (tmp_path / "run" / "scores" / "report.md").is_file()
    # scoring again from the saved results, without a model, gives the same figures
    again = score_heldout(tmp_path / "run", cases)
    assert again.overall.passed == 2


def test_resume_keeps_finished_cases_and_two_runs_agree(tmp_path: Path,
                                                       cases: list[HeldoutCase]) -> None:
    run_heldout(factory, tmp_path / "a", cases=cases[:2], progress=False)
    played: list[str] = []

    def counting(case: HeldoutCase, refs: object):
        played.append(case.id)
        return factory(case, refs)

    report = run_heldout(counting, tmp_path / "a", cases=cases, progress=False)
    assert played == ["t3"] and report.overall.cases == 3
    run_heldout(factory, tmp_path / "b", cases=cases, progress=False)
    result = compare_run_dirs(tmp_path / "a", tmp_path / "b", cases)
    assert result.cases == 3 and result.same_calls == 3 and result.agreement == 1.0
    assert result.paired.fixed == 0 and result.paired.broken == 0


def test_junk_change_fails_a_case_and_is_counted(cases: list[HeldoutCase]) -> None:
    junk = RowChange(table="contacts", op=Op.insert, key="99", row={"name": "Sam"})
    grade = grade_case(cases[1], [junk], "your newest email says hello")
    assert not grade.passed and grade.junk_changes == ["insert contacts 99"]


def test_expected_change_claims_its_row_only_once(cases: list[HeldoutCase]) -> None:
    row = {"text": "water the plants", "due_at": "2026-12-08T07:00:00Z"}
    one = RowChange(table="reminders", op=Op.insert, key="9", row=row)
    two = RowChange(table="reminders", op=Op.insert, key="10", row=row)
    assert grade_case(cases[0], [one], "ok").passed
    assert grade_case(cases[0], [one, two], "ok").junk_changes == ["insert reminders 10"]
    assert grade_case(cases[0], [], "ok").missing_changes == ["insert reminders"]


@pytest.mark.parametrize(("matcher", "value", "expected"), [
    ({"equals": 1}, 1, True),
    ({"equals": "trash"}, "inbox", False),
    ({"contains_all": ["Jo", "pizza"]}, "pizza with jo", True),
    ({"contains_all": ["jo@x.de"]}, ["Jo <jo@x.de>"], True),
    ({"contains_any": ["a", "zz"]}, "b", False),
    ({"local_time": "2026-12-08T08:00"}, "2026-12-08T07:00:00Z", True),
    ({"local_time": "2026-12-08T08:00"}, "2026-12-08T08:00:00Z", False),
    ({"local_date": "2026-12-10"}, "2026-12-09T23:30:00Z", True),
    ({"is_null": True}, None, True),
    ({"is_null": True}, "2026-12-08T08:00:00Z", False),
])
def test_matchers(matcher: dict, value: object, expected: bool) -> None:
    assert matches(Matcher.model_validate(matcher), value) is expected


def test_bad_line_is_reported_with_its_number(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "x", "class": "create", "request": "hi"}\n{"id": "y"}\n')
    with pytest.raises(ValueError, match="bad.jsonl:2"):
        load_cases(path)


def test_the_shipped_set_loads() -> None:
    cases = load_cases()
    assert len(cases) >= 120
    assert {c.case_class.value for c in cases} == {
        "create", "lookup", "two_step", "no_side_effect", "edit"}


JUNK_CASES = [
    {"id": "j1", "class": "two_step",
     "request": "Draft an email to Jonas saying the build is green. Don't send anything yet.",
     "expect_changes": [{"table": "emails", "op": "insert", "fields": {
         "folder": {"equals": "drafts"},
         "recipients": {"contains_all": ["jonas.weber@northwind.example"]}}}],
     "answer_facts": []},
    {"id": "j2", "class": "no_side_effect", "request": "What did the binoculars for Dad cost?",
     "expect_changes": [], "answer_facts": []},
]
JUNK_SCRIPTS = {
    "j1": [call("search_contacts", query="Jonas"),
           call("send_email", to="jonas.weber@northwind.example", subject="Build",
                body="The build is green."),
           call("draft_email", to="jonas.weber@northwind.example", subject="Build",
                body="The build is green."), "Drafted, not sent."],
    "j2": [call("add_contact", name="Sam"), "I could not find a price."],
}


def test_writes_nobody_asked_for_never_run_under_yes(tmp_path: Path) -> None:
    """The issue's junk side effects, replayed: a send after "don't send" and a contact
    made by a question are refused before they run, although --yes approves untainted
    side effects; the draft that was asked for is made."""
    path = tmp_path / "junk.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in JUNK_CASES), encoding="utf-8")
    report = run_heldout(lambda case, refs: scripted_model(list(JUNK_SCRIPTS[case.id]), "s"),
                         tmp_path / "run", cases=load_cases(path), progress=False)
    assert report.junk_changes == 0
    assert report.overall.passed == 2
