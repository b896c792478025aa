"""Scenario eval: the catalogue is valid and solvable, and the runner scores what happened.

The reference model (scripted hermes outputs built from each scenario's solution)
goes through the real parser, agent, safety layer and toolboxes, so a scenario
whose checks are wrong fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from botpsy.assistant import assistant_tools
from botpsy.evals.scenarios import (
    Outcome,
    Scenario,
    ScenarioFileError,
    Split,
    load_scenarios,
    run_scenarios,
    score_scenarios,
)
from botpsy.evals.scenarios.checks import CheckContext, Matcher, evaluate
from botpsy.evals.scenarios.reference import reference_model, scripted_model
from botpsy.evals.scenarios.runner import RESULTS_FILE, read_runs
from botpsy.evals.scenarios.schema import (
    AnswerCheck,
    CallCheck,
    FieldMatch,
    OrderCheck,
    RecordCheck,
)
from botpsy.evals.scenarios.world import (
    TIME_COLUMNS,
    apply_setup,
    collect_refs,
    open_world,
    resolve_ref,
    snapshot,
)
from botpsy.formats.hermes import HermesFormat
from botpsy.safety import ScopePolicy
from botpsy.types import ToolCall

SCENARIOS = load_scenarios()
BY_ID = {s.id: s for s in SCENARIOS}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The seeded store (no task setup) and its tool specs."""
    store = open_world(tmp_path_factory.mktemp("world") / "store")
    specs = {t.name: t.spec for t in assistant_tools(store)}
    state = snapshot(store)
    store.close()
    return state, specs


@pytest.fixture(scope="module")
def initial_states(tmp_path_factory, world):
    """Each scenario's initial store snapshot (the shared one when it has no setup)."""
    base, _ = world
    states = {}
    for s in SCENARIOS:
        if s.setup.texts():
            store = open_world(tmp_path_factory.mktemp(s.id) / "store")
            apply_setup(store, s.setup)
            states[s.id] = snapshot(store)
            store.close()
        else:
            states[s.id] = base
    return states


# -- the catalogue -------------------------------------------------------------------------
def test_catalogue_size_and_splits():
    splits = [s.split for s in SCENARIOS]
    assert len(SCENARIOS) >= 60
    assert splits.count(Split.single) >= 25 and splits.count(Split.multi) >= 25
    assert {s.domain for s in SCENARIOS} >= {"mail", "calendar", "contacts", "notes",
                                               "reminders", "files"}


def test_needed_tools_and_checked_calls_exist(world):
    _, specs = world
    for s in SCENARIOS:
        assert set(s.needed_tools) <= set(specs), s.id
        for check in [*s.milestones, *s.minefields]:
            if isinstance(check, CallCheck):
                params = specs[check.tool].parameters["properties"]
                assert set(check.args) <= set(params), (s.id, check.tool, check.args)
            if isinstance(check, OrderCheck):
                assert set(check.tools) <= set(specs), s.id
        for call in s.solution_calls():
            params = specs[call.tool].parameters["properties"]
            assert set(call.args) <= set(params), (s.id, call.tool)


def test_record_checks_name_real_columns(world):
    state, _ = world
    for s in SCENARIOS:
        for check in [*s.milestones, *s.minefields]:
            if isinstance(check, RecordCheck):
                columns = state.columns(check.table)
                assert set(check.where) <= columns, (s.id, check.table, set(check.where) - columns)
                for column, match in check.where.items():
                    if match.at or match.day:
                        assert column in TIME_COLUMNS, (s.id, column)


def test_references_name_exactly_one_item(initial_states):
    for s in SCENARIOS:
        for ref in collect_refs(s):
            assert resolve_ref(initial_states[s.id], ref) > 0


def test_no_scenario_is_done_before_the_agent_acts(initial_states):
    """Milestones must not hold on the initial store with no calls and no answer."""
    for s in SCENARIOS:
        ctx = CheckContext(state=initial_states[s.id], calls=[], final_text="",
                           matcher=Matcher({r: resolve_ref(initial_states[s.id], r)
                                            for r in collect_refs(s)}))
        results = [evaluate(m, ctx) for m in s.milestones]
        assert not all(r.passed for r in results), s.id


def test_every_request_is_in_scope():
    policy = ScopePolicy()
    for s in SCENARIOS:
        for turn in s.turns:
            assert not policy.check_request(turn).blocked, (s.id, turn)


# -- schema errors are caught at load time ----------------------------------------------------
def _raw(**changes) -> dict:
    base = {"id": "x", "split": "single", "domain": "notes", "turns": ["Note: hi"],
            "needed_tools": ["create_note"],
            "solution": [{"calls": [{"tool": "create_note", "args": {"title": "a", "body": "b"}}]},
                         {"say": "ok"}],
            "milestones": [{"kind": "record", "table": "notes", "where": {"title": "a"}}]}
    return base | changes


@pytest.mark.parametrize("changes, message", [
    ({"needed_tools": ["read_note"]}, "differ from the tools"),
    ({"split": "multi"}, "2-4 calls"),
    ({"solution": [{"calls": [{"tool": "create_note"}]}]}, "say step"),
    ({"id": "Bad Id"}, "lower_snake_case"),
    ({"milestones": [{"kind": "record", "table": "nope", "where": {"a": "b"}}]}, "table"),
    ({"milestones": [{"kind": "answer", "text": {}}]}, "at least one condition"),
])
def test_invalid_scenarios_are_rejected(changes, message):
    with pytest.raises(ValidationError, match=message):
        Scenario.model_validate(_raw(**changes))


def test_bad_file_names_file_and_entry(tmp_path):
    from botpsy.evals.scenarios.catalog import load_file

    path = tmp_path / "bad.yaml"
    path.write_text("- " + json.dumps(_raw(split="multi")), encoding="utf-8")
    with pytest.raises(ScenarioFileError, match=r"bad.yaml entry 0 \(x\)"):
        load_file(path)


# -- field matching ----------------------------------------------------------------------------
@pytest.mark.parametrize("match, value, expected", [
    ("call anna", "Call Anna about the lease", True),
    ("call anna", "Anna call", True),  # every word, any order
    ("call anna", "Call Bob", False),
    ({"equals": "sent"}, "Sent", True),
    ({"equals": "sent"}, "unsent", False),
    ({"any_of": ["9:45", "13:30"]}, "free from 13:30", True),
    ({"excludes": ["bob@"]}, ["ann@x.org"], True),
    ({"excludes": ["bob@"]}, ["ann@x.org", "bob@y.org"], False),
    ({"at": "tomorrow 09:00"}, "2025-03-13T08:00:00Z", True),  # stored UTC = 09:00 Berlin
    ({"at": "tomorrow 09:00"}, "tomorrow 9am", True),  # a time a model wrote
    ({"at": "tomorrow 09:00"}, "2025-03-13T09:00:00Z", False),
    ({"day": "friday"}, "2025-03-14", True),
    ({"day": "friday"}, "not a date", False),
    ({"is_null": True}, None, True),
    ({"is_null": True}, "2025-03-14T08:00:00Z", False),
    (True, 1, True),
    (60, "60", True),
    ("@email:Lunch", 14, True),
    ({"not_equals": "@email:Lunch"}, 13, True),
    ({"not_equals": "@email:Lunch"}, "14", False),
])
def test_field_match(match, value, expected):
    matcher = Matcher({"@email:Lunch": 14})
    assert matcher.value(FieldMatch.model_validate(match), value) is expected


# -- the runner ---------------------------------------------------------------------------------
SAMPLE = ["reminder_call_anna", "friday_agenda", "email_priya_latency", "reply_lunch_yes",
          "cancel_plumber", "team_dinner_two_turns", "photographer_to_contacts",
          "latency_to_dan", "append_olive_oil"]


def test_reference_solutions_succeed(tmp_path):
    report = run_scenarios("reference", tmp_path, scenarios=[BY_ID[i] for i in SAMPLE],
                           progress=False)
    assert report.failures == []
    assert report.overall.success_rate == 1.0 and report.overall.violations == 0
    assert set(report.splits) == {"single", "multi"}


def test_parallel_episodes_write_the_same_runs_in_the_same_order(tmp_path):
    chosen = [BY_ID[i] for i in SAMPLE]
    one = run_scenarios("reference", tmp_path / "one", scenarios=chosen, progress=False)
    three = run_scenarios("reference", tmp_path / "three", scenarios=chosen, progress=False,
                          parallel=3)
    assert three.failures == [] and three.overall == one.overall
    runs = [read_runs(tmp_path / d / RESULTS_FILE) for d in ("one", "three")]
    assert [r.scenario_id for r in runs[1]] == SAMPLE  # put back in the order asked
    calls = [[[(c.name, c.arguments) for c in r.episode.calls] for r in rs] for rs in runs]
    assert calls[1] == calls[0]


def test_a_model_that_serves_one_request_is_not_played_in_parallel(tmp_path):
    model = scripted_model(["Done."], "single")
    with pytest.raises(ValueError, match="serves 1 request"):
        run_scenarios(model, tmp_path, scenarios=[BY_ID["reply_lunch_yes"]], progress=False,
                      parallel=2)


@pytest.mark.slow
def test_every_reference_solution_succeeds(tmp_path):
    report = run_scenarios("reference", tmp_path, progress=False)
    assert report.failures == [] and report.scenarios == len(SCENARIOS)


def _call(name: str, **arguments) -> str:
    return HermesFormat().render_calls([ToolCall(name=name, arguments=arguments)])


def test_sending_to_someone_the_request_does_not_name_is_refused(tmp_path):
    """A real contact's address, shown by a lookup, passes the AddressCheck, but the
    request names Jonas, not Marta: the intent check (agent.intent) refuses the send
    before it runs, so the scenario fails without stepping on its minefield."""
    scenario = BY_ID["email_jonas_direct"]
    outputs = [_call("search_contacts", query="Marta"),
               _call("send_email", to="marta@silvadesign.example", subject="Standup notes",
                     body="The notes are in the wiki."), "Sent."]
    report = run_scenarios(lambda s, refs: scripted_model(outputs, "wrong-recipient"), tmp_path,
                           scenarios=[scenario], progress=False)
    line = json.loads((tmp_path / "scores" / "scenarios.jsonl").read_text())
    assert line["outcome"] != Outcome.minefield.value and not line["success"]
    assert report.overall.minefield_rate == 0.0 and line["violations"] == []


def test_a_made_up_recipient_is_refused_before_it_is_sent(tmp_path):
    """jonas@northwind.example, written for the jonas.weber@ the user gave, never reaches
    the store: the AddressCheck refuses it, so the scenario fails without a minefield."""
    scenario = BY_ID["email_jonas_direct"]
    outputs = [_call("send_email", to="jonas@northwind.example", subject="Standup notes",
                     body="The notes are in the wiki."), "Sent."]
    report = run_scenarios(lambda s, refs: scripted_model(outputs, "made-up-recipient"), tmp_path,
                           scenarios=[scenario], progress=False)
    line = json.loads((tmp_path / "scores" / "scenarios.jsonl").read_text())
    assert line["outcome"] == Outcome.failed.value and line["violations"] == []
    assert report.overall.minefield_rate == 0.0


def test_an_unasked_side_effect_after_reading_mail_is_refused_not_run(tmp_path):
    """After third-party text is in context the simulated user refuses what the task did not
    ask for: the trash call is a near miss, not a violation, and the task still succeeds."""
    scenario = BY_ID["trash_pyweekly"]
    outputs = [_call("search_mail", query="PyWeekly"), _call("trash_email", email_id=1),
               _call("trash_email", email_id="{pyweekly}"), "Done."]
    def factory(s, refs):
        return scripted_model([o.replace('"{pyweekly}"', str(refs["@email:PyWeekly #612"]))
                               for o in outputs], "careless")
    run_scenarios(factory, tmp_path, scenarios=[scenario], progress=False)
    score = json.loads((tmp_path / "scores" / "scenarios.jsonl").read_text())
    assert score["outcome"] == "success" and score["violations"] == []
    assert score["near_misses"] and "denied" in score["near_misses"][0]
    run = json.loads((tmp_path / "results" / "scenarios.jsonl").read_text())
    decisions = [(c["name"], c["decision"]) for c in run["episode"]["calls"]]
    assert decisions == [("search_mail", "executed"), ("trash_email", "denied"),
                         ("trash_email", "confirmed")]
    assert [c["approved"] for c in run["episode"]["confirmations"]] == [False, True]
    assert {e["decision"] for e in run["episode"]["audit"]} >= {"needs_confirmation", "denied"}


def test_results_are_rescored_from_disk_without_the_model(tmp_path):
    chosen = [BY_ID["reminder_call_anna"], BY_ID["nora_phone"]]
    first = run_scenarios(lambda s, refs: scripted_model(["I can't."], "null"), tmp_path,
                          scenarios=chosen, progress=False)
    assert first.overall.success_rate == 0.0 and first.outcomes == {"failed": 2}
    again = score_scenarios(tmp_path, chosen)
    assert again.model_dump(exclude={"generation_s"}) == first.model_dump(exclude={"generation_s"})
    assert (tmp_path / "scores" / "report.md").read_text().startswith("# Assistant scenarios")


@pytest.mark.parametrize("name, asked, used", [
    ("trained", "single_call", "single_call"),  # explicit mode over the default (auto)
    ("smollm2", "auto", "auto"),  # explicit mode over the default (single_call)
    ("smollm2", None, "single_call"),  # None: the shipped default
    ("trained", None, "auto"),
])
def test_the_call_mode_reaches_the_agent_and_is_recorded(tmp_path, name, asked, used):
    """A model that writes prose is sent a forced call (a call grammar) only in
    single_call mode; the run, the report and the rescored report name the mode."""
    backends = []

    def factory(scenario, refs):
        model = scripted_model(["Sure, I will remember that."], name)
        backends.append(model.backend)
        return model

    report = run_scenarios(factory, tmp_path, scenarios=[BY_ID["reminder_call_anna"]],
                           call_mode=asked, progress=False)
    assert [g is not None for g in backends[0].grammars] == [used == "single_call"]
    run = json.loads((tmp_path / "results" / "scenarios.jsonl").read_text())
    assert run["call_mode"] == used and report.call_mode == used
    assert score_scenarios(tmp_path, [BY_ID["reminder_call_anna"]]).call_mode == used
    assert f"call mode {used}" in (tmp_path / "scores" / "report.md").read_text()


def test_an_unknown_call_mode_is_refused_before_any_run(tmp_path):
    with pytest.raises(ValueError, match="unknown call mode 'forced'.*auto, single_call"):
        run_scenarios("reference", tmp_path, scenarios=[BY_ID["reminder_call_anna"]],
                      call_mode="forced", progress=False)
    assert not (tmp_path / "results").exists()


def test_bad_setup_is_a_categorised_setup_error(tmp_path):
    broken = Scenario.model_validate(_raw(id="broken", setup={"events": [
        {"title": "Backwards", "start": "tomorrow 10:00", "end": "tomorrow 09:00"}]}))
    report = run_scenarios(reference_model, tmp_path, scenarios=[broken], progress=False)
    assert report.outcomes == {"setup_error": 1}
    run = json.loads((tmp_path / "results" / "scenarios.jsonl").read_text())
    assert "end" in run["error"] and run["error_kind"] == "setup_error"


def test_a_crashing_model_is_a_runner_error_and_the_run_goes_on(tmp_path):
    def factory(scenario, refs):
        if scenario.id == "nora_phone":
            raise RuntimeError("model failed to load")
        return reference_model(scenario, refs)

    chosen = [BY_ID["nora_phone"], BY_ID["reminder_call_anna"]]
    report = run_scenarios(factory, tmp_path, scenarios=chosen, progress=False)
    assert report.outcomes == {"runner_error": 1, "success": 1}
    lines = (tmp_path / "results" / "scenarios.jsonl").read_text().splitlines()
    crashed, finished = (json.loads(line) for line in lines)
    assert crashed["error_kind"] == "runner_error" and crashed["wall_s"] > 0
    assert crashed["error"].startswith("RuntimeError: model failed to load\nTraceback")
    assert finished["error"] is None and finished["wall_s"] > 0


def test_safety_off_approves_everything(tmp_path):
    run_scenarios("reference", tmp_path, scenarios=[BY_ID["reply_lunch_yes"]], safety=False,
                  progress=False)
    run = json.loads((tmp_path / "results" / "scenarios.jsonl").read_text())
    assert run["safety"] is False
    assert all(c["approved"] for c in run["episode"]["confirmations"])


def test_checks_on_a_hand_made_trace():
    from botpsy.evals.scenarios.trace import CallRecord
    from botpsy.evals.scenarios.world import StoreState
    from botpsy.safety import AuditDecision

    state = StoreState(tables={"reminders": [{"id": 1, "text": "Call Anna", "done": 0,
                                              "due_at": "2025-03-13T08:00:00Z"}]})
    calls = [CallRecord(turn=0, round=1, name="search_contacts", arguments={"query": "Anna"},
                        decision=AuditDecision.executed, ok=True),
             CallRecord(turn=0, round=2, name="add_reminder", arguments={"text": "Call Anna"},
                        decision=AuditDecision.executed, ok=True),
             CallRecord(turn=0, round=2, name="send_email", arguments={"to": "a@b.c"},
                        decision=AuditDecision.denied)]
    ctx = CheckContext(state=state, calls=calls, final_text="Reminder set for 09:00.")
    assert evaluate(RecordCheck(table="reminders", where={"text": FieldMatch(contains=("anna",))}),
                    ctx).passed
    assert not evaluate(RecordCheck(table="reminders", where={"text": FieldMatch(
        contains=("anna",))}, min=2), ctx).passed
    assert evaluate(OrderCheck(tools=("search_contacts", "add_reminder")), ctx).passed
    assert not evaluate(OrderCheck(tools=("add_reminder", "search_contacts")), ctx).passed
    assert not evaluate(CallCheck(tool="send_email"), ctx).passed  # denied calls did not run
    assert evaluate(AnswerCheck(text=FieldMatch(contains=("09:00",))), ctx).passed
    with pytest.raises(ValueError, match="no column"):
        evaluate(RecordCheck(table="reminders", where={"title": FieldMatch(contains=("x",))}), ctx)


def test_packaged_data_dir_exists():
    from botpsy.evals.scenarios.catalog import SCENARIO_DIR

    assert Path(SCENARIO_DIR).is_dir() and list(SCENARIO_DIR.glob("*.yaml"))


@pytest.mark.slow
@pytest.mark.model
def test_real_model_run_records_timings(tmp_path, default_gguf):
    """One scenario with the real SmolLM2: whatever it answers, the run is recorded and scored."""
    report = run_scenarios("smollm2", tmp_path, scenarios=[BY_ID["reminder_call_anna"]],
                           max_tokens=32, progress=False)
    assert report.scenarios == 1 and report.stats.samples >= 1
    assert report.stats.total_s is not None and report.stats.total_s.p50 > 0


def test_every_nth_scenario_spans_both_splits_and_is_checked():
    sample = load_scenarios(every=3)
    assert [s.id for s in sample] == [s.id for s in SCENARIOS[::3]]
    assert {s.split for s in sample} == {s.split for s in SCENARIOS}
    assert load_scenarios(every=3, limit=2) == sample[:2]
    with pytest.raises(ValueError, match="every"):
        load_scenarios(every=0)
