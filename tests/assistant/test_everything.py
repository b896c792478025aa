"""One search over everything the assistant holds (``search_everything``)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pytest

from botpsy.agent.reply import ToolOutcome
from botpsy.assistant.demo import seed_demo
from botpsy.assistant.describe import WORDS
from botpsy.assistant.everything import EverythingToolbox
from botpsy.assistant.files import FilesToolbox
from botpsy.assistant.toolbox import provenance_of
from botpsy.assistant.user_data import AssistantStore

MONDAY = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)


@pytest.fixture
def box(tmp_path) -> EverythingToolbox:
    store = AssistantStore(tmp_path, clock=lambda: MONDAY)
    seed_demo(store, date(2026, 12, 7))
    return EverythingToolbox(store)


def test_a_question_that_names_no_kind_finds_every_kind_that_answers(box) -> None:
    found = box.search_everything("electricity bill")
    assert [e.subject for e in found.emails] == ["Your electricity bill is ready"]
    assert [r.text for r in found.reminders] == ["Pay the electricity bill"]
    assert found.events == [] and found.contacts == []
    # the stranger's email keeps its origin: the safety layer judges it as search_mail's
    assert not provenance_of(found).trusted
    said = WORDS["search_everything"].describe(ToolOutcome(
        "search_everything", {"query": "electricity bill"},
        json.loads(found.model_dump_json()), MONDAY))
    assert "64.20" in said and "Pay the electricity bill" in said


def test_with_no_kind_holding_every_word_the_items_holding_most_are_found(box) -> None:
    found = box.search_everything("guest wifi network called")
    assert [n.title for n in found.notes][:1] == ["Guest Wi-Fi"]
    # the events search needs every word: the review held by most of them comes first
    found = box.search_everything("roadmap review leaves")
    assert found.events[0].title == "Q3 roadmap review"
    # the misspelt word is in nothing, the other one finds the bill
    found = box.search_everything("electricty bill")
    assert "Your electricity bill is ready" in [e.subject for e in found.emails]
    assert [r.text for r in found.reminders] == ["Pay the electricity bill"]
    assert provenance_of(box.search_everything("zzzz nothing")).trusted  # nothing found
    said = WORDS["search_everything"].describe(ToolOutcome(
        "search_everything", {"query": "zzzz"}, {}, MONDAY))
    assert said.startswith("Nothing in your mail, calendar")


def test_searches_read_words_as_people_write_them(box) -> None:
    """Hyphens aside ("wifi" finds "Guest Wi-Fi"), a plural as its singular ("dentists"
    finds the dentist's check-up), a possessive's "s" dropped."""
    assert [n.title for n in box.search_everything("wifi").notes] == ["Guest Wi-Fi"]
    assert [e.title for e in box.search_everything("dentists").events] == ["Dentist check-up"]
    assert box.search_everything("dentist's").events == box.search_everything("dentist").events


def test_a_file_whose_name_and_text_hold_the_words_between_them_is_found(box) -> None:
    files = FilesToolbox(box.store)
    assert [h.path for h in files.search_files("hamburg packing list")] == [
        "personal/packing_list.txt"]
