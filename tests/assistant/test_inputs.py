"""How the stores read the words of a search (``assistant.inputs``)."""

from __future__ import annotations


def test_a_phrase_joined_by_hyphens_is_searched_as_its_words():
    from botpsy.assistant.inputs import search_words
    assert search_words("books-to-read") == ["book", "to", "read"]
    assert search_words("wi-fi password") == ["wifi", "password"]  # one hyphen joins one word
