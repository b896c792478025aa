"""vCard (.vcf) import into the contacts, with the ``vobject`` library.

The first email and phone become the contact's own; further addresses and
numbers, the organisation and the card's NOTE go into the notes, so nothing on
the card is dropped. A card whose UID (else email) is already known updates that
contact instead of adding a second one.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict
from pathlib import Path

import vobject
from vobject.base import Component, ParseError

from botpsy.assistant.contacts import ContactFields, check_contact, insert_contact
from botpsy.assistant.errors import ToolInputError
from botpsy.assistant.importing import ImportReport, IssueKind
from botpsy.assistant.timeutil import to_db
from botpsy.assistant.user_data import AssistantStore
from botpsy.safety.provenance import merged, write_origin
from botpsy.types import Origin


def import_vcards(store: AssistantStore, path: str | Path,
                  origin: Origin | None = None) -> ImportReport:
    """Import every card of a .vcf file. ``origin`` None: ``write_origin()``, the user's
    own address book outside a call; a card someone sent is ``Origin.third_party``
    (``botpsy assistant import --from-others``)."""
    origin = origin or write_origin()
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    report = ImportReport()
    cards: list[Component] = []
    try:
        cards.extend(vobject.readComponents(text, ignoreUnreadable=True))
    except (ParseError, ValueError) as exc:  # cards before the broken one still come in
        report.add_issue(Path(path).name, IssueKind.unreadable, f"stopped reading: {exc}")
    now = to_db(store.now())
    with store.write() as tx:
        for index, card in enumerate(cards, start=1):
            if card.name.upper() != "VCARD":
                continue
            fields = _card_fields(card, f"card {index}", report)
            if fields is not None:
                _upsert(tx, fields, _value(card, "uid") or None, now, report, origin)
    return report


def _card_fields(card: Component, source: str, report: ImportReport) -> ContactFields | None:
    name = _value(card, "fn") or " ".join(str(_value(card, "n")).split())
    emails = _values(card, "email")
    phones = _values(card, "tel")
    extra = [f"Other email: {e}" for e in emails[1:]] + [f"Other phone: {p}" for p in phones[1:]]
    if org := _value(card, "org"):
        extra.insert(0, f"Organisation: {org}")
    if note := _value(card, "note"):
        extra.append(note)
    try:
        return check_contact(
            name, emails[0] if emails else None, phones[0] if phones else None, "\n".join(extra)
        )
    except ToolInputError as exc:
        if not name.strip():
            report.add_issue(source, IssueKind.missing_field, "card without a name; skipped")
            return None
        report.add_issue(source, IssueKind.bad_value, f"{exc}; kept in notes")
        raw = "\n".join(
            [*(f"Email: {e}" for e in emails[:1]), *(f"Phone: {p}" for p in phones[:1]), *extra]
        )
        return check_contact(name, None, None, raw[:2000])


def _upsert(
    tx: sqlite3.Connection, fields: ContactFields, uid: str | None, now: str, report: ImportReport,
    origin: Origin,
) -> None:
    known = None
    if uid:
        known = tx.execute("SELECT id, origin FROM contacts WHERE uid = ?", (uid,)).fetchone()
    if known is None and fields.email:
        known = tx.execute(
            "SELECT id, origin FROM contacts WHERE email = ? COLLATE NOCASE", (fields.email,)
        ).fetchone()
    if known is None:
        insert_contact(tx, fields, created_at=now, uid=uid, origin=origin)
        report.imported += 1
        return
    tx.execute(
        "UPDATE contacts SET name = :name, email = coalesce(:email, email), "
        "phone = coalesce(:phone, phone), notes = :notes, origin = :origin WHERE id = :id",
        asdict(fields) | {"id": known["id"], "origin": merged(known["origin"], origin).value},
    )
    report.updated += 1


def _value(card: Component, key: str) -> str:
    lines = card.contents.get(key)
    if not lines:
        return ""
    value = lines[0].value
    if isinstance(value, list):  # ORG is a list of units
        value = ", ".join(str(v) for v in value if v)
    return str(value).strip()


def _values(card: Component, key: str) -> list[str]:
    return [
        str(line.value).strip() for line in card.contents.get(key, []) if str(line.value).strip()
    ]
