"""Tool descriptions and parameter descriptions from docstrings."""

from __future__ import annotations

import pytest

from botpsy.tools import Tool, tool
from botpsy.tools.docstrings import DocInfo, parse_docstring


def test_google_style_first_paragraph_and_args() -> None:
    doc = """Add a reminder
    to the user's list.

    Longer notes that stay out of the prompt.

    Args:
        text: What to be reminded of.
        due (str, optional): ISO 8601
            date-time.

    Returns:
        The stored reminder.
    """
    assert parse_docstring(doc) == DocInfo(
        description="Add a reminder to the user's list.",
        params={"text": "What to be reminded of.", "due": "ISO 8601 date-time."},
    )


def test_rest_style_params() -> None:
    doc = """Send an email.

    :param to: Recipient address.
    :param subject: Subject line.
    :returns: the message id.
    """
    assert parse_docstring(doc) == DocInfo(
        description="Send an email.",
        params={"to": "Recipient address.", "subject": "Subject line."},
    )


def test_numpy_style_params() -> None:
    doc = """Search notes.

    Parameters
    ----------
    query : str
        Words to look for.
    """
    assert parse_docstring(doc) == DocInfo(description="Search notes.",
                                           params={"query": "Words to look for."})


def test_google_attributes_are_not_parameters() -> None:
    doc = """Thing.

    Args:
        a: A.

    Attributes:
        b: B.
    """
    assert parse_docstring(doc).params == {"a": "A."}


@pytest.mark.parametrize("doc", [None, "", "   \n  "])
def test_missing_docstring_gives_empty_info(doc: str | None) -> None:
    assert parse_docstring(doc) == DocInfo()


def test_decorated_function_uses_docstring_for_spec() -> None:
    @tool
    def search_notes(query: str, limit: int = 5) -> list[str]:
        """Search the user's notes.

        Args:
            query: Words to look for.
            limit: Most notes to return.
        """
        return [query] * limit

    assert search_notes.description == "Search the user's notes."
    assert search_notes.parameters["properties"] == {
        "query": {"type": "string", "description": "Words to look for."},
        "limit": {"type": "integer", "description": "Most notes to return.", "default": 5},
    }


def test_explicit_description_wins_over_docstring() -> None:
    def ping() -> str:
        """Docstring summary."""
        return "pong"

    assert Tool.from_function(ping, description="Check the server.").description == (
        "Check the server."
    )
