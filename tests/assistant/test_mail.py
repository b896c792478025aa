"""Mail tools: listing, search, reading, drafting, sending, replying, trashing."""

from __future__ import annotations

import pytest

from botpsy.assistant.contacts import ContactsToolbox
from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.assistant.mail import MailToolbox, insert_email
from botpsy.assistant.user_data import AssistantStore

from .helpers import count


def _add(
    store: AssistantStore,
    sender: str,
    subject: str,
    body: str,
    sent_at: str,
    unread: bool = True,
    folder: str = "inbox",
) -> int:
    with store.write() as tx:
        return insert_email(
            tx,
            folder=folder,
            sender=sender,
            recipients=["alex@example.com"],
            subject=subject,
            body=body,
            sent_at=sent_at,
            unread=unread,
            message_id=None,
            created_at=sent_at,
        )


@pytest.fixture
def mail(store: AssistantStore) -> MailToolbox:
    _add(
        store,
        "Priya Shah <priya@work.example>",
        "Roadmap review",
        "Agenda for Tuesday: latency, offline mode.",
        "2025-03-03T08:00:00Z",
        unread=False,
    )
    _add(
        store,
        "Mom <mom@family.example>",
        "Sunday dinner",
        "Dinner at 6? 100% lasagne.",
        "2025-03-04T17:00:00Z",
    )
    _add(
        store,
        "Shop <orders@shop.example>",
        "Order shipped",
        "Your order_42 shipped.",
        "2025-03-05T07:00:00Z",
    )
    _add(
        store,
        "Old <old@x.example>",
        "Old roadmap",
        "roadmap from last year",
        "2024-01-01T08:00:00Z",
        folder="trash",
    )
    return MailToolbox(store)


def test_list_inbox_newest_first_in_local_time(mail: MailToolbox) -> None:
    listed = mail.list_inbox()
    assert [m.subject for m in listed] == ["Order shipped", "Sunday dinner", "Roadmap review"]
    assert listed[0].date == "2025-03-05T08:00+01:00"
    assert [m.subject for m in mail.list_inbox(unread_only=True)] == [
        "Order shipped",
        "Sunday dinner",
    ]
    assert len(mail.list_inbox(limit=1)) == 1


@pytest.mark.parametrize("limit", [0, -1, 51, True, "5"])
def test_list_inbox_rejects_bad_limits(mail: MailToolbox, limit: object) -> None:
    with pytest.raises(ToolInputError, match="limit"):
        mail.list_inbox(limit=limit)  # type: ignore[arg-type]


def test_search_mail_needs_every_word_and_skips_trash(mail: MailToolbox) -> None:
    assert [m.subject for m in mail.search_mail("roadmap")] == ["Roadmap review"]
    assert [m.subject for m in mail.search_mail("dinner lasagne")] == ["Sunday dinner"]
    assert mail.search_mail("dinner latency", sender="shop") == []
    assert [m.subject for m in mail.search_mail("", sender="mom@")] == ["Sunday dinner"]
    assert [m.subject for m in mail.search_mail("order", sender="shop")] == ["Order shipped"]


def test_with_no_email_holding_every_word_those_holding_the_most_come_first(
        mail: MailToolbox) -> None:
    """A question's words include some no email holds ("when does my roadmap review
    leave"): the emails that hold the most of them, the rarer word's first."""
    assert [m.subject for m in mail.search_mail("roadmap agenda leave")] == ["Roadmap review"]
    # "order" is held by one email, "review" by one: the word written first wins the tie
    assert [m.subject for m in mail.search_mail("order review")] == [
        "Order shipped", "Roadmap review"]
    assert [m.subject for m in mail.search_mail("order review", limit=1)] == ["Order shipped"]
    assert mail.search_mail("zzzz yyyy") == []
    # the words every email may hold tell none apart: no email is the answer
    assert mail.search_mail("my newest email") == []


def test_a_relation_finds_the_mail_of_the_contact_it_names(
        mail: MailToolbox, store: AssistantStore) -> None:
    """The landlord's mail never says "landlord": the contact card that does gives the
    address, and "mums" finds the card that says "Mom"."""
    contacts = ContactsToolbox(store)
    contacts.add_contact("Linda Morgan", "mom@family.example", None, "Mom.")
    assert [m.subject for m in mail.search_mail("mums")] == ["Sunday dinner"]
    assert [m.subject for m in mail.search_mail("mother dinner")] == ["Sunday dinner"]
    # a word the mail holds is searched as written
    assert [m.subject for m in mail.search_mail("roadmap")] == ["Roadmap review"]
    # two contacts called by one word: no one person, no guess
    contacts.add_contact("Tom Becker", "tom@flat.example", None, "Landlord.")
    contacts.add_contact("Ute Kraus", "ute@flat.example", None, "Landlord, garage.")
    assert mail.search_mail("landlord") == []


def test_search_mail_treats_like_wildcards_literally(mail: MailToolbox) -> None:
    assert mail.search_mail("", sender="%") == []  # an unescaped % would match everyone
    assert [m.subject for m in mail.search_mail("order_42")] == ["Order shipped"]
    assert mail.search_mail("_", sender="%") == []


def test_search_mail_needs_a_query_or_sender(mail: MailToolbox) -> None:
    with pytest.raises(ToolInputError, match="empty"):
        mail.search_mail("  ")
    with pytest.raises(ToolInputError, match="at least one word"):
        mail.search_mail("?!")


def test_read_email_marks_it_read(mail: MailToolbox) -> None:
    unread = mail.list_inbox(unread_only=True)[0]
    email = mail.read_email(unread.id)
    assert email.body == "Your order_42 shipped."
    assert email.to == ["alex@example.com"]
    assert not email.unread
    assert unread.id not in [m.id for m in mail.list_inbox(unread_only=True)]


def test_read_email_cuts_a_huge_body(store: AssistantStore) -> None:
    email_id = _add(store, "a@b.example", "big", "word " * 5000, "2025-03-05T07:00:00Z")
    body = MailToolbox(store).read_email(email_id).body
    assert len(body) < 3200 and body.endswith("25000 characters in all]")


@pytest.mark.parametrize(
    ("bad", "kind"),
    [
        (999, ErrorKind.not_found),
        (0, ErrorKind.invalid_argument),
        ("3", ErrorKind.invalid_argument),
    ],
)
def test_read_email_bad_ids(mail: MailToolbox, bad: object, kind: ErrorKind) -> None:
    with pytest.raises(ToolInputError) as caught:
        mail.read_email(bad)  # type: ignore[arg-type]
    assert caught.value.kind is kind


def test_send_email_records_it_in_sent(mail: MailToolbox, store: AssistantStore) -> None:
    sent = mail.send_email("Bo <bo@example.org>; cy@example.net", "Hello", "Hi both")
    assert sent.folder == "sent"
    assert sent.to == ["Bo <bo@example.org>", "cy@example.net"]
    assert sent.sender == "Alex Morgan <alex@example.com>"
    assert sent.date == "2025-03-05T10:00+01:00"
    row = store.query_one("SELECT message_id FROM emails WHERE id = ?", (sent.id,))
    assert row["message_id"].endswith("@example.com>")


@pytest.mark.parametrize(
    ("to", "subject"),
    [
        ("not-an-address", "s"),
        ("a@b", "s"),
        ("", "s"),
        ("ok@example.com", "line\nBcc: x@y.z"),
        ("ok@example.com\nBcc: evil@example.com", "s"),
        ("ok@example.com", "x" * 301),
    ],
)
def test_send_email_rejects_bad_input_and_writes_nothing(
    mail: MailToolbox, store: AssistantStore, to: str, subject: str
) -> None:
    before = count(store, "emails")
    with pytest.raises(ToolInputError):
        mail.send_email(to, subject, "body")
    assert count(store, "emails") == before


def test_a_name_for_an_address_points_to_the_contacts(mail: MailToolbox) -> None:
    """A small model writes "Jonas" for the recipient; the error names the tool that
    has his address, and single_call mode's retry is forced onto it."""
    with pytest.raises(ToolInputError, match="'Jonas' as email addresses.*; search_contacts "
                                             "gives the addresses"):
        mail.send_email("Jonas", "Notes", "body")


def test_draft_email_goes_to_drafts(mail: MailToolbox) -> None:
    draft = mail.draft_email("bo@example.org", "Plan", "")
    assert draft.folder == "drafts" and draft.body == ""
    assert draft.id not in [m.id for m in mail.list_inbox()]


def test_reply_email_answers_the_sender_and_quotes(mail: MailToolbox) -> None:
    original = mail.search_mail("dinner")[0]
    reply = mail.reply_email(original.id, "Yes, see you at 6!")
    assert reply.folder == "sent"
    assert reply.to == ["Mom <mom@family.example>"]
    assert reply.subject == "Re: Sunday dinner"
    assert reply.in_reply_to == original.id
    assert reply.body.startswith("Yes, see you at 6!")
    assert "> Dinner at 6? 100% lasagne." in reply.body
    again = mail.reply_email(reply.id, "Also bringing dessert")  # replying to our own mail
    assert again.subject == "Re: Sunday dinner"
    assert again.to == ["Mom <mom@family.example>"]


def test_reply_email_bad_input(mail: MailToolbox, store: AssistantStore) -> None:
    before = count(store, "emails")
    with pytest.raises(ToolInputError, match="no email with id 77; search_mail or list_inbox gives the ids"):
        mail.reply_email(77, "hi")
    with pytest.raises(ToolInputError, match="body must not be empty"):
        mail.reply_email(1, "   ")
    assert count(store, "emails") == before


def test_trash_email_moves_it_out_of_the_inbox(mail: MailToolbox) -> None:
    target = mail.search_mail("order")[0]
    trashed = mail.trash_email(target.id)
    assert trashed.folder == "trash"
    assert target.id not in [m.id for m in mail.list_inbox()]
    assert mail.search_mail("order") == []
    with pytest.raises(ToolInputError, match="no email"):
        mail.trash_email(1234)


def test_draft_email_bad_address_writes_nothing(mail: MailToolbox, store: AssistantStore) -> None:
    before = count(store, "emails")
    with pytest.raises(ToolInputError, match="valid email address"):
        mail.draft_email("bob@localhost", "s", "b")
    assert count(store, "emails") == before
