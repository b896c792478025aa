"""Importing Maildir, mbox and .eml: bodies, multipart, encoded headers, dates, duplicates."""

from __future__ import annotations

import mailbox
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest

from botpsy.assistant.importing import IssueKind
from botpsy.assistant.mail import MailToolbox
from botpsy.assistant.mail_import import (
    import_eml,
    import_mail,
    import_maildir,
    import_mbox,
    parse_message,
)
from botpsy.assistant.user_data import AssistantStore

from .helpers import count

TOKYO = timezone(timedelta(hours=9))


def plain(
    subject: str,
    body: str,
    msg_id: str,
    *,
    sender: str = "Ana <ana@example.org>",
    date: datetime | None = datetime(2025, 3, 4, 18, 30, tzinfo=TOKYO),
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "Alex <alex@example.com>, Bo <bo@example.com>"
    msg["Subject"] = subject
    msg["Message-ID"] = msg_id
    if date is not None:
        msg["Date"] = format_datetime(date)
    msg.set_content(body)
    return msg


def alternative(msg_id: str) -> EmailMessage:
    msg = plain("Newsletter", "Plain version: big sale", msg_id)
    msg.add_alternative("<html><body><p>HTML version</p></body></html>", subtype="html")
    msg.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="invoice.pdf")
    return msg


ENCODED = (
    b"From: =?utf-8?q?J=C3=B6rg_M=C3=BCller?= <joerg@example.de>\r\n"
    b"To: alex@example.com\r\n"
    b"Subject: =?iso-8859-1?q?Gr=FC=DFe_aus_K=F6ln?=\r\n"
    b"Date: Tue, 04 Mar 2025 10:00:00 +0100\r\n"
    b"Message-ID: <encoded@example.de>\r\n"
    b"MIME-Version: 1.0\r\n"
    b"Content-Type: text/plain; charset=iso-8859-1\r\n"
    b"Content-Transfer-Encoding: quoted-printable\r\n\r\n"
    b"Sch=F6ne Gr=FC=DFe!\r\n"
)

HTML_ONLY = (
    b"From: shop@example.com\r\nSubject: Receipt\r\nMessage-ID: <html@example.com>\r\n"
    b"Date: Tue, 04 Mar 2025 10:00:00 -0000\r\nMIME-Version: 1.0\r\n"
    b"Content-Type: text/html; charset=utf-8\r\n\r\n"
    b"<html><head><style>p{color:red}</style></head><body><h1>Thanks</h1>"
    b"<p>Total: &euro;12</p><script>alert(1)</script></body></html>\r\n"
)

BAD_CHARSET = (
    b"From: x@example.com\r\nSubject: odd\r\nMessage-ID: <odd@example.com>\r\n"
    b"Content-Type: text/plain; charset=x-no-such-charset\r\n\r\nhello there\r\n"
)


def test_parse_plain_message_dates_and_addresses() -> None:
    parsed = parse_message(bytes(plain("Hi", "Body text\n", "<1@example.org>")))
    assert parsed.sender == "Ana <ana@example.org>"
    assert parsed.recipients == ["Alex <alex@example.com>", "Bo <bo@example.com>"]
    assert parsed.body == "Body text"
    assert parsed.sent_at.isoformat() == "2025-03-04T18:30:00+09:00"


def test_parse_prefers_plain_text_and_names_attachments() -> None:
    parsed = parse_message(bytes(alternative("<2@example.org>")))
    assert parsed.body.startswith("Plain version: big sale")
    assert parsed.body.endswith("[attachments: invoice.pdf]")


def test_parse_decodes_encoded_headers_and_latin1_bodies() -> None:
    parsed = parse_message(ENCODED)
    assert parsed.sender == "Jörg Müller <joerg@example.de>"
    assert parsed.subject == "Grüße aus Köln"
    assert parsed.body == "Schöne Grüße!"


def test_parse_html_only_message_to_text() -> None:
    parsed = parse_message(HTML_ONLY)
    assert parsed.body == "Thanks\nTotal: €12"
    assert parsed.sent_at.utcoffset() == timedelta(0)  # "-0000": zone unknown, read as UTC


def test_parse_unknown_charset_keeps_the_text() -> None:
    parsed = parse_message(BAD_CHARSET)
    assert parsed.body == "hello there"
    assert parsed.sent_at is None


def test_parse_message_without_id_gets_a_stable_one() -> None:
    data = b"From: a@example.com\r\nSubject: no id\r\n\r\nhi\r\n"
    assert parse_message(data).message_id == parse_message(data).message_id
    assert parse_message(data).message_id.startswith("<sha256-")


def test_import_maildir_keeps_seen_flags(store: AssistantStore, tmp_path: Path) -> None:
    box = mailbox.Maildir(tmp_path / "Mail", create=True)
    seen = mailbox.MaildirMessage(bytes(plain("Read one", "old news", "<r@example.org>")))
    seen.set_subdir("cur")
    seen.add_flag("S")
    box.add(seen)
    box.add(mailbox.MaildirMessage(bytes(plain("New one", "fresh", "<n@example.org>"))))
    report = import_maildir(store, tmp_path / "Mail")
    assert (report.imported, report.duplicates, report.issues) == (2, 0, [])
    listed = {m.subject: m for m in MailToolbox(store).list_inbox()}
    assert not listed["Read one"].unread and listed["New one"].unread
    assert listed["New one"].date == "2025-03-04T10:30+01:00"  # 18:30 Tokyo in Berlin


def test_import_mbox_and_reimport_adds_nothing(store: AssistantStore, tmp_path: Path) -> None:
    path = tmp_path / "archive.mbox"
    box = mailbox.mbox(path, create=True)
    for number in range(3):
        box.add(plain(f"Message {number}", f"body {number}", f"<m{number}@example.org>"))
    box.add(ENCODED)
    read = mailbox.mboxMessage(bytes(plain("Was read", "x", "<read@example.org>")))
    read.set_flags("RO")
    box.add(read)
    box.flush()
    box.close()
    first = import_mbox(store, path)
    assert first.imported == 5
    again = import_mail(store, path)  # detected as mbox
    assert (again.imported, again.duplicates) == (0, 5)
    assert count(store, "emails") == 5
    hits = MailToolbox(store).search_mail("Köln")
    assert [h.subject for h in hits] == ["Grüße aus Köln"]
    assert not MailToolbox(store).search_mail("was read")[0].unread


def test_import_eml_files_and_folder(store: AssistantStore, tmp_path: Path) -> None:
    folder = tmp_path / "eml"
    folder.mkdir()
    (folder / "a.eml").write_bytes(bytes(alternative("<a@example.org>")))
    (folder / "b.eml").write_bytes(HTML_ONLY)
    (folder / "notes.txt").write_text("not mail")
    report = import_mail(store, folder)
    assert report.imported == 2
    single = tmp_path / "c.eml"
    single.write_bytes(bytes(plain("No date", "x", "<c@example.org>", date=None)))
    report = import_eml(store, single)
    assert report.imported == 1
    assert [i.kind for i in report.issues] == [IssueKind.missing_field]
    mail = MailToolbox(store)
    undated = mail.search_mail("no date")[0]
    assert undated.date is None


def test_import_into_an_unknown_folder_is_refused(store: AssistantStore, tmp_path: Path) -> None:
    (tmp_path / "a.eml").write_bytes(HTML_ONLY)
    with pytest.raises(ValueError, match="unknown mail folder"):
        import_eml(store, tmp_path / "a.eml", folder="spam")
    assert count(store, "emails") == 0


def test_import_mail_missing_path(store: AssistantStore, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        import_mail(store, tmp_path / "nothing-here")
