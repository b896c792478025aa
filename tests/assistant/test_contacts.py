"""Contact tools and vCard import."""

from __future__ import annotations

from pathlib import Path

import pytest

from botpsy.assistant.contacts import ContactsToolbox
from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.assistant.importing import IssueKind
from botpsy.assistant.user_data import AssistantStore
from botpsy.assistant.vcard import import_vcards

from .helpers import count


@pytest.fixture
def book(store: AssistantStore) -> ContactsToolbox:
    box = ContactsToolbox(store)
    box.add_contact("Priya Shah", "priya@work.example", "+49 30 555 1201", "Team lead")
    box.add_contact("Jonas Weber", "Jonas <jonas@work.example>", None, "vegetarian")
    box.add_contact("Linda Morgan", None, "040 555 33", "Mom")
    return box


def test_search_contacts(book: ContactsToolbox) -> None:
    assert [c.name for c in book.search_contacts("priya")] == ["Priya Shah"]
    assert [c.name for c in book.search_contacts("work.example")] == ["Jonas Weber", "Priya Shah"]
    assert [c.name for c in book.search_contacts("mom")] == ["Linda Morgan"]
    # a relation in any of its words: "mums email" is the card that says "Mom"
    for said in ("mum", "mums", "mother", "Mummy"):
        assert [c.name for c in book.search_contacts(said)] == ["Linda Morgan"]
    assert [c.name for c in book.search_contacts("555 33")] == ["Linda Morgan"]
    assert book.search_contacts("priya jonas") == []
    assert len(book.search_contacts("a", limit=1)) == 1


def test_get_and_add_contact(book: ContactsToolbox) -> None:
    jonas = book.search_contacts("jonas")[0]
    assert jonas.email == "jonas@work.example"  # display name dropped, bare address kept
    assert book.get_contact(jonas.id) == jonas
    with pytest.raises(ToolInputError) as caught:
        book.get_contact(404)
    assert caught.value.kind is ErrorKind.not_found
    assert str(caught.value) == "no contact with id 404; search_contacts gives the ids"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("", None, None), "name must not be empty"),
        (("Bad Mail", "not-an-email", None), "email"),
        (("Bad Phone", None, "call me maybe"), "not a phone number"),
        (("Two Lines\nName", None, None), "single line"),
        (("Dup", "PRIYA@work.example", None), "already has the email"),
    ],
)
def test_add_contact_bad_input_writes_nothing(
    book: ContactsToolbox, store: AssistantStore, args: tuple, message: str
) -> None:
    with pytest.raises(ToolInputError, match=message):
        book.add_contact(*args)
    assert count(store, "contacts") == 3


VCF = """BEGIN:VCARD
VERSION:3.0
FN:Ana López
N:López;Ana;;;
ORG:Silva Design
EMAIL;TYPE=work:ana@silva.example
EMAIL;TYPE=home:ana@home.example
TEL;TYPE=cell:+351 21 555 0147
TEL;TYPE=home:+351 21 555 0100
NOTE:Met at the design conference
UID:ana-1
END:VCARD
BEGIN:VCARD
VERSION:4.0
N:Bauer;Ben;;;
TEL:030 555 77
END:VCARD
BEGIN:VCARD
VERSION:3.0
FN:Broken Mail
EMAIL:not an email
END:VCARD
BEGIN:VCARD
VERSION:3.0
N:;;;;
TEL:123
END:VCARD
"""


def test_import_vcards(store: AssistantStore, tmp_path: Path) -> None:
    path = tmp_path / "people.vcf"
    path.write_text(VCF.replace("\n", "\r\n"), encoding="utf-8")
    report = import_vcards(store, path)
    assert report.imported == 3
    assert [(i.source, i.kind) for i in report.issues] == [
        ("card 3", IssueKind.bad_value),
        ("card 4", IssueKind.missing_field),
    ]
    book = ContactsToolbox(store)
    ana = book.search_contacts("ana")[0]
    assert (ana.name, ana.email, ana.phone) == (
        "Ana López",
        "ana@silva.example",
        "+351 21 555 0147",
    )
    for kept in (
        "Organisation: Silva Design",
        "Other email: ana@home.example",
        "Other phone: +351 21 555 0100",
        "Met at the design conference",
    ):
        assert kept in ana.notes
    assert book.search_contacts("bauer")[0].name == "Ben Bauer"
    broken = book.search_contacts("broken")[0]
    assert broken.email is None and "Email: not an email" in broken.notes
    # the same file again updates by UID / email instead of duplicating
    again = import_vcards(store, path)
    assert again.imported == 2 and again.updated == 1  # cards without UID or email are new


def test_search_contacts_bad_input(book: ContactsToolbox) -> None:
    with pytest.raises(ToolInputError, match="empty"):
        book.search_contacts("")
    with pytest.raises(ToolInputError, match="limit"):
        book.search_contacts("priya", limit=500)
