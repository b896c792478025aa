"""Dynamic tool selection over the real assistant tools: recall and prompt share."""

from __future__ import annotations

import json

import pytest

from botpsy.agent.selection import Bm25ToolSelector, name_family
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.types import ToolSpec

QUERIES: list[tuple[str, list[str]]] = [
    ("What's on my calendar tomorrow?", ["list_events"]),
    ("Schedule lunch with Dana on Thursday at noon", ["create_event"]),
    ("Push the standup to 10am", ["list_events", "update_event"]),
    ("Cancel the dentist appointment", ["list_events", "delete_event"]),
    ("When am I free for an hour on Wednesday?", ["find_free_slots"]),
    ("Check my inbox", ["list_inbox"]),
    ("Did Dan write back?", ["search_mail"]),
    ("Reply to Sam's email saying I'll be there", ["search_mail", "reply_email"]),
    ("Write to hr@northwind.example asking about my vacation days", ["send_email"]),
    ("Throw away the spam from deals digest", ["search_mail", "trash_email"]),
    ("Draft an email to Dan about the budget review", ["search_contacts", "draft_email"]),
    ("Who is Dan Okafor?", ["search_contacts"]),
    ("Save Tom Becker, +49 170 1234567, as a new contact", ["add_contact"]),
    ("Take a note: buy paint for the fence", ["create_note"]),
    ("What did I write about the garden plans?", ["search_notes"]),
    ("Add eggs to the grocery list note", ["search_notes", "append_to_note"]),
    ("Remind me to call mom at 6pm", ["add_reminder"]),
    ("What do I still have to do this week?", ["list_reminders"]),
    ("I finished the tax forms, tick that off", ["list_reminders", "complete_reminder"]),
    ("What files do I have in the projects folder?", ["list_files"]),
    ("Open todo.md", ["read_file"]),
    ("Which document talks about the lease?", ["search_files"]),
    ("Set up a design review with Sam tomorrow at 2pm and invite him",
     ["search_contacts", "create_event"]),
    ("Book a call with Dan next Monday at 10 and email him the agenda",
     ["create_event", "send_email"]),
]


@pytest.fixture(scope="module")
def tools(tmp_path_factory) -> list[ToolSpec]:
    store = AssistantStore(tmp_path_factory.mktemp("store"))
    return [t.spec for t in assistant_tools(store)]


def _size(spec: ToolSpec) -> int:
    return len(json.dumps(spec.to_openai()))


def test_recall_and_prompt_share(tools: list[ToolSpec]) -> None:
    selector = Bm25ToolSelector()
    total = sum(_size(t) for t in tools)
    misses, shares = [], []
    for query, needed in QUERIES:
        chosen = {t.name for t in selector.select(query, tools)}
        misses += [(query, name) for name in needed if name not in chosen]
        shares.append(sum(_size(t) for t in tools if t.name in chosen) / total)
    assert misses == []
    assert sum(shares) / len(shares) <= 0.40


def test_families_follow_tool_names(tools: list[ToolSpec]) -> None:
    families = {t.name: name_family(t.name) for t in tools}
    assert {families[n] for n in ("list_inbox", "search_mail", "send_email")} == {"email"}
    assert families["find_free_slots"] == "event" and families["add_reminder"] == "remind"
    assert len(set(families.values())) == 6


def test_order_is_the_registry_order_and_used_tools_stay(tools: list[ToolSpec]) -> None:
    selector = Bm25ToolSelector()
    chosen = selector.select("Remind me to call mom", tools, always=["send_email"])
    names = [t.name for t in chosen]
    assert "send_email" in names and "add_reminder" in names
    order = [t.name for t in tools]
    assert names == sorted(names, key=order.index)


def test_unmatched_request_shows_every_tool(tools: list[ToolSpec]) -> None:
    selection = Bm25ToolSelector().choose("hi there", tools)
    assert selection.fallback and selection.tools == tools


def test_explicit_families_and_hints() -> None:
    specs = [ToolSpec(name="get_weather", description="Weather in a city"),
             ToolSpec(name="get_forecast", description="Forecast for the next days"),
             ToolSpec(name="convert_currency", description="Convert an amount")]
    selector = Bm25ToolSelector(families={"get_weather": "weather", "get_forecast": "weather"})
    assert [t.name for t in selector.select("weather in Oslo", specs)] == [
        "get_weather", "get_forecast"]
    assert "contact" in Bm25ToolSelector().query_terms("lunch with Sam")
    assert "contact" not in Bm25ToolSelector(hints=False).query_terms("lunch with Sam")
    assert "file" in Bm25ToolSelector().query_terms("open notes.txt")


def test_bad_parameters() -> None:
    with pytest.raises(ValueError):
        Bm25ToolSelector(k=0)
    with pytest.raises(ValueError):
        Bm25ToolSelector(ratio=0)
