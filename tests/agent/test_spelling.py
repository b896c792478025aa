"""A request's misspelt key words read as meant (``agent.spelling``)."""

from __future__ import annotations

import pytest

from botpsy.agent.spelling import read_request, speller


@pytest.mark.parametrize(("typed", "read"), [
    ("remnd me the evening before to pack my shoes", "remind me the evening before to pack my shoes"),
    ("a 30 min call with Marta tommorow 3pm", "a 30 min call with Marta tomorrow 3pm"),
    ("whats the dentists adress", "whats the dentists address"),
    ("cancle my apointment on thrusday", "cancel my appointment on thursday"),
    ("how much is the electricty bill", "how much is the electricity bill"),
    # short forms of the words the readers key on
    ("who's in the roadmap review tmrw?", "who's in the roadmap review tomorrow?"),
    ("draft him a msg about the appt", "draft him a message about the appointment"),
    ("add 'tmrw' to the notes", "add 'tmrw' to the notes"),
    ("put yoga on my calender", "put yoga on my calendar"),
    # names, quoted text and real words of their own stay as written
    ("Add Piranesi to my books to read", "Add Piranesi to my books to read"),
    ("add 'remnd' to the notes", "add 'remnd' to the notes"),
    ("Send Marta the agenda", "Send Marta the agenda"),
    ("email Dan the fewer numbers", "email Dan the fewer numbers"),
    # so do the words of a path, a file name or an address
    ("make a file personal/budget.txt", "make a file personal/budget.txt"),
    # a word two edits from a short vocabulary word is no slip of it ("person")
    ("a file called books.txt in personal", "a file called books.txt in personal"),
    ("email remnd@example.org tommorow", "email remnd@example.org tomorrow"),
])
def test_misspelt_key_words_are_read_as_meant_and_nothing_else(typed: str, read: str) -> None:
    assert read_request(typed) == read


def test_a_sentences_first_word_is_corrected_though_capitalised() -> None:
    assert read_request("Remnd me to call Anna").startswith("remind me")


def test_known_words_file_matches_the_vocabulary() -> None:
    """The shipped word list was built for the current vocabulary; if this fails, run
    `python -m botpsy.agent.spelling`."""
    assert speller().file_digest() == speller().digest()
