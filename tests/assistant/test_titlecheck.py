"""TitleCheck: a title must say what, not only when."""

from __future__ import annotations

import re

import pytest

from botpsy.assistant.titlecheck import TitleCheck, request_words, title_pattern
from botpsy.types import Message, ToolCall

BANK = "Schedule a call with the bank on Monday from 9:00 to 9:30."


def _check(name: str, arguments: dict, request: str = BANK):
    return TitleCheck()(ToolCall(name=name, arguments=arguments),
                        [Message(role="user", content=request)])


@pytest.mark.parametrize("title", ["Monday", "Monday 9:00", "9:00-9:30", "next Monday morning"])
def test_a_title_of_days_and_times_is_refused_and_narrowed(title: str) -> None:
    why = _check("create_event", {"title": title, "start": "Monday 9:00"})
    assert why is not None and "says only when" in why.reason
    pattern = re.compile(why.narrow["title"]["pattern"])
    assert pattern.search("Call with the bank") and pattern.search("bank call")
    assert not pattern.search(title) and not pattern.search('call "bank')


@pytest.mark.parametrize(
    ("name", "arguments", "request_text"),
    [
        ("create_event", {"title": "call with the bank"}, BANK),
        ("create_event", {"title": "Shopping list"}, "Note down milk and eggs for Friday"),
        ("add_reminder", {"text": "Anna"}, "Remind me to call Anna tomorrow at 9am"),
        ("list_events", {"title": "Monday"}, BANK),  # a lookup: not checked
        ("create_event", {"title": "Monday"}, "Monday from 9 to 10, please"),  # nothing better
    ],
)
def test_titles_that_say_what_pass(name: str, arguments: dict, request_text: str) -> None:
    assert _check(name, arguments, request_text) is None


def test_request_words_keep_the_users_spelling_without_days_and_stopwords() -> None:
    assert request_words(BANK) == ["schedule", "call", "bank"]
    assert request_words("Remind me to call Anna tomorrow at 9am") == ["remind", "call", "anna"]
    assert title_pattern(["bank"]) == '^[^"\\\\]*(Bank|bank)[^"\\\\]*$'
