"""A new item for each entry of a list the request names (``assistant.eachcheck``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from botpsy.agent import Agent
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.assistant.eachcheck import asks_each, entries, listed_family
from botpsy.assistant.runtime import assistant_call_checks
from botpsy.assistant.toolsets import assistant_selector
from botpsy.safety import ApproveAll, SafetyConfig
from botpsy.tools import ToolRegistry
from botpsy.types import ToolCall

from .helpers import call_text, scripted

MONDAY = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)  # 09:00 in Berlin
TODO = "- [ ] order the new tyres\n- [x] pay the rent\n- [ ] book the vet\n"


@pytest.mark.parametrize(("text", "open_only", "found"), [
    (TODO, True, ["order the new tyres", "book the vet"]),
    (TODO, False, ["order the new tyres", "pay the rent", "book the vet"]),
    ("Hamburg weekend:\n- charger\n* rain jacket\n1. tickets\n", False,
     ["charger", "rain jacket", "tickets"]),
    ("milk, eggs, spinach", False, ["milk", "eggs", "spinach"]),
    ("a line of prose\nand another", False, []),
])
def test_the_entries_of_a_list(text, open_only, found) -> None:
    assert entries(text, open_only) == found


def test_what_asks_for_an_item_per_entry() -> None:
    said = "go through my chores file and add a reminder for every item still open"
    assert asks_each(said) and listed_family(said) == "file"
    assert listed_family("a reminder for each thing on my groceries note") == "note"
    assert not asks_each("remind me to check each tyre")


def test_a_reminder_is_made_for_each_open_entry_of_the_file_read(tmp_path) -> None:
    """The file is searched, read in full without a model call, and a reminder made per
    open entry, each held to an entry not made yet; the ticked entry gets none."""
    store = AssistantStore(tmp_path, clock=lambda: MONDAY)
    store.set_profile(timezone="Europe/Berlin")
    (store.data_dir / "files").mkdir(exist_ok=True)
    registry = ToolRegistry(assistant_tools(store))
    registry.execute(ToolCall(name="write_file", arguments={"path": "home/chores.md",
                                                            "content": TODO}))
    due = "2026-12-11T08:00"
    agent = Agent(scripted([call_text("search_files", query="chores"),
                            call_text("add_reminder", text="add a reminder", due=due),
                            call_text("add_reminder", text="order the new tyres", due=due),
                            call_text("add_reminder", text="book the vet", due=due)]),
                  registry, safety=SafetyConfig(), confirmer=ApproveAll(),
                  tool_selector=assistant_selector(), call_mode="single_call",
                  call_checks=assistant_call_checks(store, registry))
    result = agent.run("go through my chores file and add a reminder for every item "
                       "not done yet, friday 8am")
    made = [s.call.arguments["text"] for s in result.steps
            if s.call.name == "add_reminder" and s.decision.value == "executed"]
    assert [s.call.name for s in result.steps][:2] == ["search_files", "read_file"]
    assert made == ["order the new tyres", "book the vet"]
    rows = store.query("SELECT text FROM reminders ORDER BY id")
    assert [r["text"] for r in rows][-2:] == ["order the new tyres", "book the vet"]


def test_an_item_per_entry_is_refused_before_the_list_was_found(tmp_path) -> None:
    """A search that found no list leaves nothing to make an item of: the request's own
    word is no entry, and the refusal sends the retry to the files' finders."""
    from botpsy.agent.rules import CallContext
    from botpsy.assistant.eachcheck import EachCheck
    from botpsy.types import Message

    store = AssistantStore(tmp_path, clock=lambda: MONDAY)
    registry = ToolRegistry(assistant_tools(store))
    check = EachCheck(lambda name: registry.get(name).spec,
                      lambda family: ["search_files", "list_files"])
    said = [Message(role="user", content="look at my chores file and make a reminder for "
                                         "each thing not ticked yet")]
    call = ToolCall(name="add_reminder", arguments={"text": "ticked"})
    refusal = check.judge(CallContext(call, said, registry.get("add_reminder").spec))
    assert refusal is not None and refusal.finders == ("search_files", "list_files")



@pytest.mark.parametrize(("request_text", "open_only"), [
    ("make a reminder for each thing not done yet in my todo file", True),
    ("a reminder for every item still open in the list", True),
    ("a reminder for each thing that's left in my todo file", True),
    ("open my todo file and make a reminder for each thing", False),
    ("a reminder for each thing in the file, I left it on my desktop", False),
])
def test_only_open_entries_where_the_request_says_so(request_text: str, open_only: bool) -> None:
    """A bare "open" (the verb) or "left" (a place) does not ask for the open entries only."""
    from botpsy.assistant.eachcheck import _OPEN_ONLY
    assert bool(_OPEN_ONLY.search(request_text)) is open_only
