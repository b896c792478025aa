"""Contact tools: search, read and add the people the user knows.

Each contact has one email and one phone (the primary ones); vCard import in
``vcard`` keeps the other addresses in the notes so nothing is lost.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from botpsy.assistant import inputs
from botpsy.assistant.errors import ErrorKind, ToolInputError, not_found
from botpsy.assistant.records import Record
from botpsy.assistant.timeutil import to_db
from botpsy.assistant.toolbox import Toolbox, exposed
from botpsy.language import relation_forms
from botpsy.safety.provenance import write_origin
from botpsy.types import Origin

_PHONE = re.compile(r"^\+?[0-9 ()./-]{3,30}$")
MAX_NOTES_CHARS = 2000


class Contact(Record):
    """A person in the address book."""

    id: int
    name: str
    email: str | None = None
    phone: str | None = None
    notes: str = ""


class ContactsToolbox(Toolbox):
    """The user's address book."""

    domain = "contacts"

    @exposed(writes=False)
    def search_contacts(self, query: str, limit: int = 10) -> list[Contact]:
        """Find contacts whose name, email, phone or notes contain all the words.

        Args:
            query: Words to look for, e.g. a first name.
            limit: How many contacts to return (1-50).
        """
        limit = inputs.limit(limit)
        words = inputs.search_words(query)
        haystack = inputs.unhyphenated(
            "(name || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || notes)")
        # each word in one of its forms: "mum" finds the card that says "Mom."
        forms = [relation_forms(w) for w in words]
        where = " AND ".join(
            "(" + " OR ".join(f"{haystack} LIKE ? ESCAPE '\\'" for _ in alternatives) + ")"
            for alternatives in forms)
        rows = self.store.query(
            f"SELECT * FROM contacts WHERE {where} ORDER BY name COLLATE NOCASE, id LIMIT ?",
            (*[inputs.like_pattern(f) for alternatives in forms for f in alternatives], limit),
        )
        return [_contact(row) for row in rows]

    @exposed(writes=False)
    def get_contact(self, contact_id: int) -> Contact:
        """Get one contact by id.

        Args:
            contact_id: The id from search_contacts.
        """
        return _contact(self._row(contact_id))

    @exposed(writes=True, side_effect=True)  # the mail tools and the address check trust contacts' addresses
    def add_contact(
        self,
        name: str,
        email: str | None = None,
        phone: str | None = None,
        notes: str | None = None,
    ) -> Contact:
        """Add a person to the address book.

        Args:
            name: Full name.
            email: Email address.
            phone: Phone number.
            notes: Anything worth remembering about them.
        """
        fields = check_contact(name, email, phone, notes)
        with self.store.write() as tx:
            if fields.email:
                same = tx.execute(
                    "SELECT id FROM contacts WHERE email = ? COLLATE NOCASE", (fields.email,)
                ).fetchone()
                if same:
                    raise ToolInputError(
                        f"contact {same['id']} already has the email {fields.email}",
                        ErrorKind.conflict,
                    )
            new_id = insert_contact(tx, fields, created_at=to_db(self.store.now()))
        return _contact(self._row(new_id))

    def _row(self, contact_id: int) -> sqlite3.Row:
        contact_id = inputs.item_id(contact_id, "contact_id")
        row = self.store.query_one("SELECT * FROM contacts WHERE id = ?", (contact_id,))
        if row is None:
            raise not_found("contact", contact_id, "search_contacts")
        return row


@dataclass(frozen=True)
class ContactFields:
    """Checked values for a new or updated contact."""

    name: str
    email: str | None
    phone: str | None
    notes: str


def check_contact(
    name: str, email: str | None, phone: str | None, notes: str | None
) -> ContactFields:
    """Validated contact fields; the email is kept as the bare address."""
    checked_email = None
    if email is not None and str(email).strip():
        checked_email = inputs.email_address(email, "email")
        checked_email = checked_email.rpartition("<")[2].rstrip(">") or checked_email
    checked_phone = inputs.optional_text(phone, "phone")
    if checked_phone is not None and not _PHONE.match(checked_phone):
        raise ToolInputError(
            f"phone {checked_phone!r} is not a phone number (digits, spaces, + ( ) - . / only)"
        )
    return ContactFields(
        name=inputs.text(name, "name", max_chars=200, single_line=True),
        email=checked_email,
        phone=checked_phone,
        notes=inputs.optional_text(notes, "notes", max_chars=MAX_NOTES_CHARS) or "",
    )


def insert_contact(
    conn: sqlite3.Connection, fields: ContactFields, *, created_at: str, uid: str | None = None,
    origin: Origin | None = None,
) -> int:
    """Insert one contact inside the caller's transaction; returns its id. ``origin``
    None: the current call's (``write_origin``)."""
    cursor = conn.execute(
        "INSERT INTO contacts (uid, name, email, phone, notes, created_at, origin) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (uid, fields.name, fields.email, fields.phone, fields.notes, created_at,
         (origin or write_origin()).value),
    )
    return int(cursor.lastrowid)


def _contact(row: sqlite3.Row) -> Contact:
    return Contact(
        id=row["id"], name=row["name"], email=row["email"], phone=row["phone"], notes=row["notes"],
        origin=Origin(row["origin"]),
    )
