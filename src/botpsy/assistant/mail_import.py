"""Bring existing mail into the store: Maildir folders, mbox files and .eml files.

Parsing uses the standard library (``mailbox`` to walk the containers, ``email``
with the modern ``policy.default`` to decode RFC 2047 headers, transfer
encodings and charsets). The text body is the ``text/plain`` part, else the
``text/html`` part turned into text; attachment names are listed at the end.
Messages are keyed by Message-ID (a hash of the bytes when absent), so importing
the same mailbox twice adds nothing.
"""

from __future__ import annotations

import email
import hashlib
import mailbox
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import cast

from botpsy.assistant.importing import ImportReport, IssueKind
from botpsy.assistant.mail import FOLDERS, insert_email
from botpsy.assistant.timeutil import to_db
from botpsy.assistant.user_data import AssistantStore

BATCH = 200


@dataclass
class ParsedEmail:
    """The fields the store keeps from one RFC 5322 message."""

    message_id: str
    sender: str
    recipients: list[str]
    cc: list[str]
    subject: str
    body: str
    sent_at: datetime | None


@dataclass
class RawMessage:
    """Bytes of one message plus what its container says about it."""

    source: str
    data: bytes
    seen: bool


def parse_message(data: bytes) -> ParsedEmail:
    """Decode one message (headers, body, date) from its bytes."""
    # policy.default makes the parser return an EmailMessage (get_body, decoded headers).
    msg = cast(EmailMessage, email.message_from_bytes(data, policy=policy.default))
    message_id = str(msg.get("message-id", "") or "").strip()
    if not message_id:
        message_id = f"<sha256-{hashlib.sha256(data).hexdigest()[:32]}@import.botpsy>"
    return ParsedEmail(
        message_id=message_id,
        sender=_header(msg, "from"),
        recipients=_addresses(msg, "to"),
        cc=_addresses(msg, "cc"),
        subject=" ".join(_header(msg, "subject").split()),
        body=extract_body(msg),
        sent_at=_date(msg),
    )


def extract_body(msg: EmailMessage) -> str:
    """The readable text of a message: plain text preferred, HTML converted, attachments named."""
    part = msg.get_body(preferencelist=("plain", "html"))
    text = ""
    if part is not None:
        text = _part_text(part)
        if part.get_content_subtype() == "html":
            text = html_to_text(text)
    names = [p.get_filename() for p in msg.iter_attachments() if p.get_filename()]
    if names:
        text = text.rstrip() + "\n\n[attachments: " + ", ".join(names) + "]"
    return text.strip()


def _part_text(part: EmailMessage) -> str:
    try:
        content = part.get_content()
    except (LookupError, UnicodeError):  # unknown or lying charset: keep what decodes
        payload = part.get_payload(decode=True) or b""
        return payload.decode("utf-8", errors="replace")
    return content if isinstance(content, str) else content.decode("utf-8", errors="replace")


def _header(msg: EmailMessage, name: str) -> str:
    try:
        value = msg.get(name)
    except (ValueError, IndexError, TypeError):  # a header the parser chokes on
        raw = msg.get_all(name, failobj=[""])
        return str(raw[0]) if raw else ""
    return "" if value is None else str(value)


def _addresses(msg: EmailMessage, name: str) -> list[str]:
    try:
        header = msg.get(name)
        addresses = getattr(header, "addresses", None)
    except (ValueError, IndexError, TypeError):
        addresses = None
    if addresses is None:
        raw = _header(msg, name)
        return [raw] if raw else []
    return [str(address) for address in addresses]


def _date(msg: EmailMessage) -> datetime | None:
    raw = _header(msg, "date")
    if not raw:
        return None
    try:
        parsed = parsedate_to_datetime(raw)
    except (ValueError, TypeError, IndexError):
        return None
    # RFC 5322 "-0000" means "zone unknown": parsedate_to_datetime returns naive; take UTC.
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


class _TextExtractor(HTMLParser):
    _SKIP = frozenset({"script", "style", "head"})
    _BREAK = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "table"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BREAK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """Visible text of an HTML body (scripts, styles and tags dropped)."""
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    lines = (" ".join(line.split()) for line in "".join(extractor.parts).splitlines())
    return "\n".join(line for line in lines if line)


# -- containers ------------------------------------------------------------------------
def _maildir_messages(path: Path) -> Iterator[RawMessage]:
    box = mailbox.Maildir(path, factory=None, create=False)
    for key in box.iterkeys():
        message = box.get_message(key)
        yield RawMessage(f"{path.name}/{key}", box.get_bytes(key), "S" in message.get_flags())


def _mbox_messages(path: Path) -> Iterator[RawMessage]:
    box = mailbox.mbox(path, factory=None, create=False)
    try:
        for index, key in enumerate(box.iterkeys()):
            message = box.get_message(key)
            yield RawMessage(
                f"{path.name}#{index + 1}", box.get_bytes(key), "R" in message.get_flags()
            )
    finally:
        box.close()


def _eml_messages(paths: Iterable[Path]) -> Iterator[RawMessage]:
    for path in paths:
        yield RawMessage(path.name, path.read_bytes(), False)


def import_maildir(store: AssistantStore, path: str | Path, folder: str = "inbox") -> ImportReport:
    """Import a Maildir (a folder with cur/, new/, tmp/); the S flag marks read mail."""
    return _import(store, _maildir_messages(Path(path)), folder)


def import_mbox(store: AssistantStore, path: str | Path, folder: str = "inbox") -> ImportReport:
    """Import an mbox file; a Status header with R marks read mail."""
    return _import(store, _mbox_messages(Path(path)), folder)


def import_eml(
    store: AssistantStore, paths: str | Path | Iterable[str | Path], folder: str = "inbox"
) -> ImportReport:
    """Import .eml files: one file, a folder of them, or a list of files."""
    if isinstance(paths, (str, Path)):
        root = Path(paths)
        files = sorted(root.glob("*.eml")) if root.is_dir() else [root]
    else:
        files = [Path(p) for p in paths]
    return _import(store, _eml_messages(files), folder)


def import_mail(store: AssistantStore, path: str | Path, folder: str = "inbox") -> ImportReport:
    """Import whatever mail ``path`` holds: a Maildir, a folder of .eml, an .eml or an mbox."""
    path = Path(path)
    if path.is_dir():
        if all((path / sub).is_dir() for sub in ("cur", "new", "tmp")):
            return import_maildir(store, path, folder)
        return import_eml(store, path, folder)
    if not path.is_file():
        raise FileNotFoundError(f"no mail at {path}")
    if path.suffix.lower() == ".eml":
        return import_eml(store, path, folder)
    return import_mbox(store, path, folder)


def _import(store: AssistantStore, messages: Iterable[RawMessage], folder: str) -> ImportReport:
    if folder not in FOLDERS:
        raise ValueError(f"unknown mail folder {folder!r}; use one of {', '.join(FOLDERS)}")
    report = ImportReport()
    batch: list[tuple[RawMessage, ParsedEmail]] = []
    for raw in messages:
        try:
            batch.append((raw, parse_message(raw.data)))
        except Exception as exc:  # noqa: BLE001 - one broken message must not stop the rest
            report.add_issue(raw.source, IssueKind.unreadable, f"{type(exc).__name__}: {exc}")
        if len(batch) >= BATCH:
            _store_batch(store, batch, folder, report)
            batch = []
    _store_batch(store, batch, folder, report)
    return report


def _store_batch(
    store: AssistantStore,
    batch: list[tuple[RawMessage, ParsedEmail]],
    folder: str,
    report: ImportReport,
) -> None:
    now = to_db(store.now())
    with store.write() as tx:
        for raw, parsed in batch:
            known = tx.execute(
                "SELECT 1 FROM emails WHERE message_id = ?", (parsed.message_id,)
            ).fetchone()
            if known:
                report.duplicates += 1
                continue
            if parsed.sent_at is None:
                report.add_issue(
                    raw.source,
                    IssueKind.missing_field,
                    "no readable Date header; imported without a date",
                )
            insert_email(
                tx,
                folder=folder,
                sender=parsed.sender,
                recipients=parsed.recipients,
                cc=parsed.cc,
                subject=parsed.subject,
                body=parsed.body,
                sent_at=to_db(parsed.sent_at) if parsed.sent_at else None,
                unread=not raw.seen,
                message_id=parsed.message_id,
                created_at=now,
            )
            report.imported += 1
