"""The command line: ask (assistant and plain modes), models, errors without tracebacks."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from typer.testing import CliRunner

from botpsy.assistant import AssistantStore
from botpsy.cli import app

runner = CliRunner()


def _script(tmp_path, *outputs: str) -> str:
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in outputs))
    return f"scripted:{path}"


def _call(name: str, **arguments) -> str:
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}) + "\n</tool_call>"


def test_ask_runs_the_assistant_over_the_store(tmp_path):
    spec = _script(
        tmp_path, _call("add_reminder", text="call Anna", due="2030-01-02T09:00"), "Reminder set."
    )
    result = runner.invoke(
        app, ["ask", "Remind me to call Anna on 2 Jan 2030 at 9am", "--model", spec,
              "--data-dir", str(tmp_path / "d")]
    )
    assert result.exit_code == 0, result.output
    # "Reminder set." says nothing the result says: the answer is the result in words
    assert result.stdout == "Added a reminder: call Anna, Wed 2 Jan 2030 at 09:00.\n"
    assert result.stderr == ""  # the raw call only with --verbose
    with AssistantStore(tmp_path / "d") as store:
        rows = store.query("select text from reminders")
    assert [r["text"] for r in rows] == ["call Anna"]


def test_ask_verbose_adds_the_raw_calls_and_results(tmp_path):
    spec = _script(tmp_path, _call("add_reminder", text="call Anna", due="2030-01-02T09:00"),
                   "I will remind you to call Anna on 2 Jan 2030 at 9:00.")
    result = runner.invoke(app, ["ask", "Remind me to call Anna on 2 Jan 2030 at 9am", "--model",
                                 spec, "--data-dir", str(tmp_path / "d"), "--verbose"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "I will remind you to call Anna on 2 Jan 2030 at 9:00.\n"  # grounded
    assert 'executed add_reminder({"text": "call Anna"' in result.stderr
    assert '"due":"2030-01-02T09:00' in result.stderr  # the raw result


def test_ask_denies_side_effects_when_nobody_can_confirm(tmp_path):
    spec = _script(
        tmp_path, _call("send_email", to="bob@example.com", subject="Hi", body="late"), "ok"
    )
    result = runner.invoke(
        app, ["ask", "Email bob@example.com", "--model", spec, "--data-dir", str(tmp_path / "d"),
              "--json"]
    )
    payload = json.loads(result.output)
    assert [s["decision"] for s in payload["steps"]] == ["denied"]
    assert "non-interactive" in payload["final_text"]


def test_ask_yes_preconfirms_untainted_side_effects(tmp_path):
    spec = _script(
        tmp_path, _call("send_email", to="bob@example.com", subject="Hi", body="late"), "Sent."
    )
    result = runner.invoke(
        app,
        [
            "ask",
            "Email bob@example.com that I am late",
            "--model",
            spec,
            "--data-dir",
            str(tmp_path / "d"),
            "--yes",
            "--json",
        ],
    )
    payload = json.loads(result.output)
    assert [s["decision"] for s in payload["steps"]] == ["confirmed"]


def test_plain_mode_prints_calls_without_running_them(tmp_path):
    tools = tmp_path / "tools.json"
    tools.write_text(
        json.dumps(
            [
                {
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "description": "Weather",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                    },
                }
            ]
        )
    )
    spec = _script(tmp_path, _call("get_weather", city="Paris"))
    result = runner.invoke(
        app, ["ask", "Weather in Paris?", "--model", spec, "--tools", str(tools), "--json"]
    )
    payload = json.loads(result.output)
    assert payload["tool_calls"][0]["name"] == "get_weather"
    assert payload["tool_calls"][0]["arguments"] == {"city": "Paris"}


@pytest.mark.parametrize(
    "args, message",
    [
        (["ask", "hi", "--model", "no-such-model", "--no-tools"], "unknown model"),
        (["ask", "hi", "--model", "smollm2", "--tools", "/nonexistent.json"], "nonexistent.json"),
    ],
)
def test_bad_input_is_a_clear_error(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.model
def test_ask_plain_mode_on_the_real_model(default_gguf):
    result = runner.invoke(app, ["ask", "Say hello.", "--no-tools", "--max-tokens", "8", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["usage"]["completion_tokens"] > 0 and payload["timings"]["ttft_s"] > 0


def _pin_clock(monkeypatch) -> None:
    """The system prompt carries the time to the minute, and a 135M model's greedy output
    changes with it (at some minutes it writes no call, or a looping argument)."""
    import botpsy.assistant.user_data as store_module

    class PinnedClock(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2026, 12, 3, 8, 20, tzinfo=UTC).astimezone(tz)

    monkeypatch.setattr(store_module, "datetime", PinnedClock)


@pytest.mark.model
def test_ask_with_smollm2_creates_a_reminder(default_gguf, tmp_path, monkeypatch):
    """Plain SmolLM2 calls no tool unaided: single_call mode forces one grammar-constrained
    call, and it lands in the store."""
    _pin_clock(monkeypatch)
    data = tmp_path / "d"
    args = [
        "ask",
        "Remind me to call Anna tomorrow at 9am",
        "--model",
        "smollm2",
        "--data-dir",
        str(data),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    with AssistantStore(data) as store:
        rows = store.query("select text from reminders")
    # What a 135M model writes into the reminder varies; that it makes exactly one
    # schema-valid add_reminder call that lands in the store does not.
    assert len(rows) == 1 and rows[0]["text"].strip(), result.output
    assert "Added a reminder" in result.output  # the result in words, not JSON


@pytest.mark.model
def test_the_readme_main_job_runs_the_shipped_adapter(default_gguf, tmp_path, monkeypatch):
    """The README's first command, end to end on the default model (SmolLM2 + the shipped
    adapter, single_call mode): the reminder is added, due tomorrow at 9:00. At some minutes
    of the day the model first lists the reminders; the request asked to add one, so the
    agent then forces ``add_reminder`` (the follow-through). On some CPUs that call writes
    ``due="today"``: the DayCheck refuses it and the retry's grammar allows only Friday at
    9:00. Every path ends with one executed ``add_reminder`` and one reminder stored."""
    from botpsy.defaults import ASSISTANT_MODEL

    assert ASSISTANT_MODEL == "botpsy-smol"
    _pin_clock(monkeypatch)
    args = ["ask", "Remind me to call Anna tomorrow at 9am", "--data-dir", str(tmp_path / "d")]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    steps = json.loads(result.output)["steps"]
    last = steps[-1]
    assert last["call"]["name"] == "add_reminder" and last["decision"] == "executed", steps
    assert last["result"]["ok"], steps
    assert {s["decision"] for s in steps} <= {"executed", "invalid"}, steps  # never a loop
    with AssistantStore(tmp_path / "d") as store:
        rows = store.query("select due_at from reminders")
    assert [r["due_at"][:16] for r in rows] == ["2026-12-04T09:00"], steps


def test_ask_refuses_an_address_nobody_gave(tmp_path):
    """"Email Bob" answered with bob@example.com: the AddressCheck refuses the made-up
    address before it reaches a confirmation."""
    spec = _script(
        tmp_path, _call("send_email", to="bob@example.com", subject="Hi", body="late"), "ok"
    )
    result = runner.invoke(
        app, ["ask", "Email Bob", "--model", spec, "--data-dir", str(tmp_path / "d"), "--json"]
    )
    steps = json.loads(result.output)["steps"]
    assert [s["decision"] for s in steps] == ["invalid"]
    assert "not an address the user wrote" in steps[0]["reason"]


def test_unusable_data_folders_and_sessions_are_clear_errors(tmp_path):
    spec = _script(tmp_path, "hello")
    (tmp_path / "afile").write_text("x")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "assistant.db").write_text("not a database")
    for folder, message in ((tmp_path / "afile", "cannot open the assistant's data"),
                            (broken, "file is not a database")):
        result = runner.invoke(app, ["ask", "hi", "--model", spec, "--data-dir", str(folder)])
        assert result.exit_code == 2 and message in " ".join(result.output.split())
    result = runner.invoke(app, ["chat", "--model", spec, "--data-dir", str(tmp_path / "d"),
                                 "--session", "nosuch"], input="hi\n")
    assert result.exit_code == 2 and "no session 'nosuch'" in " ".join(result.output.split())


def test_a_failed_turn_exits_non_zero(tmp_path):
    # the model's call stays unreadable: the answer says so and scripts see a failure
    spec = _script(tmp_path, *['<tool_call>{"name": "add_reminder", "arguments": {"text": "x"'] * 12)
    result = runner.invoke(app, ["ask", "remind me to call Anna", "--model", spec,
                                 "--data-dir", str(tmp_path / "d")])
    assert result.exit_code == 1 and "could not read the tool call" in result.output
    down = runner.invoke(app, ["ask", "hi", "--no-tools", "--model", "openai:http://127.0.0.1:1/v1#x"])
    assert down.exit_code == 1 and "the model failed" in " ".join(down.output.split())


def test_the_safety_config_file_is_safety_config_and_the_old_name_still_works(tmp_path):
    spec = _script(tmp_path, "hello")
    config = tmp_path / "safety.toml"
    config.write_text("max_rounds = 3\n")
    base = ["ask", "hi", "--model", spec, "--data-dir", str(tmp_path / "d")]
    assert runner.invoke(app, [*base, "--safety-config", str(config)]).stdout == "hello\n"
    old = runner.invoke(app, [*base, "--safety", str(config)])
    assert old.stdout == "hello\n" and "--safety is deprecated" in old.stderr
    missing = runner.invoke(app, [*base, "--safety-config", str(tmp_path / "none.toml")])
    assert missing.exit_code == 2 and "--safety-config" in " ".join(missing.output.split())
