"""Mail tools: read, search, draft, send, reply and trash messages in the local store.

There is no SMTP here: ``send_email`` and ``reply_email`` record the message in
the ``sent`` folder, which is what the agent, the evals and the injection tests
need to observe. Connecting a real outgoing server is a separate, deliberate step.
Messages arrive through the importers in ``mail_import`` (Maildir, mbox, .eml)
or the demo seed.
"""

from __future__ import annotations

import json
import re
import sqlite3
from email.utils import make_msgid

from botpsy.assistant import inputs
from botpsy.assistant.errors import ToolInputError, not_found
from botpsy.assistant.records import Record
from botpsy.assistant.timeutil import show, to_db
from botpsy.assistant.toolbox import Toolbox, exposed
from botpsy.language import relation_forms
from botpsy.safety.provenance import write_origin
from botpsy.types import Origin

FOLDERS = ("inbox", "sent", "drafts", "trash")
MAX_SHOWN_BODY_CHARS = 3000
SNIPPET_CHARS = 90
_REPLY_PREFIX = re.compile(r"^\s*(re|aw|sv)\s*:\s*", re.IGNORECASE)


class EmailSummary(Record):
    """One line of a mail listing."""

    item_kind = "email"

    id: int
    folder: str
    sender: str
    subject: str
    date: str | None
    unread: bool
    snippet: str


class Email(Record):
    """A whole message; ``body`` is cut (with a marker) past a few thousand characters."""

    item_kind = "email"

    id: int
    folder: str
    sender: str
    to: list[str]
    cc: list[str]
    subject: str
    date: str | None
    unread: bool
    body: str
    in_reply_to: int | None = None


# The words that name an email as such ("my newest email"): held by many, telling none apart.
_KIND_WORDS = frozenset({"email", "mail", "emails", "mails", "message", "inbox", "newsletter"})


class MailToolbox(Toolbox):
    """The mailbox of the store's user."""

    domain = "mail"

    @exposed(writes=False, untrusted_output=True)
    def list_inbox(self, limit: int = 10, unread_only: bool = False) -> list[EmailSummary]:
        """List the newest emails in the inbox.

        Args:
            limit: How many emails to return (1-50).
            unread_only: Only unread emails.
        """
        limit = inputs.limit(limit)
        sql = "SELECT * FROM emails WHERE folder = 'inbox'"
        sql += " AND unread = 1" if unread_only else ""
        sql += " ORDER BY sent_at DESC, id DESC LIMIT ?"
        return [self._summary(row) for row in self.store.query(sql, (limit,))]

    @exposed(writes=False, untrusted_output=True)
    def search_mail(
        self, query: str, sender: str | None = None, limit: int = 10
    ) -> list[EmailSummary]:
        """Search emails (not trash) whose subject, body or sender contain all the words.

        Args:
            query: Words to look for.
            sender: Only emails whose sender name or address contains this.
            limit: How many emails to return (1-50).
        """
        limit = inputs.limit(limit)
        sender = inputs.optional_text(sender, "sender")
        words = inputs.search_words(query) if (query or "").strip() or sender is None else []
        found = self.holding(words, sender, limit)
        if found or not words:
            return found
        # a relation names a person ("my landlord"), whose address finds their mail
        people = [self._relation_address(word) or word for word in words]
        found = self.holding(people, sender, limit) if people != words else []
        # the words that can tell one email from another: not "my", not "email" itself
        telling = [w for w in people if len(w) >= 3 and w not in _KIND_WORDS]
        if found or len(people) < 2 or not telling:
            return found
        return inputs.most_words(lambda some: self.holding(some, sender, inputs.MAX_LIMIT),
                                 telling, key=lambda summary: summary.id)[:limit]

    def holding(self, words: list[str], sender: str | None = None, limit: int = 10
                ) -> list[EmailSummary]:
        """The newest emails (not trash) that hold every word (and are from ``sender``): the
        search without ``search_mail``'s fallbacks, for a search that has its own."""
        clauses, params = ["folder <> 'trash'"], []
        for word in words:
            clauses.append(inputs.unhyphenated("(subject || ' ' || body || ' ' || sender)")
                           + " LIKE ? ESCAPE '\\'")
            params.append(inputs.like_pattern(word))
        if sender is not None:
            clauses.append("sender LIKE ? ESCAPE '\\'")
            params.append(inputs.like_pattern(sender))
        sql = (
            f"SELECT * FROM emails WHERE {' AND '.join(clauses)} "
            "ORDER BY sent_at DESC, id DESC LIMIT ?"
        )
        return [self._summary(row) for row in self.store.query(sql, (*params, limit))]

    def _relation_address(self, word: str) -> str | None:
        """The address of the one contact whose notes name them by ``word`` ("landlord",
        "mum": the card says "Landlord.", "Mom."), when the word is in no email: the mail
        from one's landlord is from Tom Becker and never says "landlord"."""
        if self.holding([word], None, 1):
            return None
        forms = relation_forms(word)
        rows = self.store.query("SELECT email, notes FROM contacts WHERE email IS NOT NULL")
        named = [row["email"] for row in rows
                 if any(form in re.findall(r"\w+", row["notes"].lower()) for form in forms)]
        return named[0] if len(named) == 1 else None

    @exposed(writes=False, untrusted_output=True)  # marking it read is bookkeeping
    def read_email(self, email_id: int) -> Email:
        """Read one email in full and mark it as read.

        Args:
            email_id: The id from list_inbox or search_mail.
        """
        row = self._row(email_id)
        if row["unread"]:
            with self.store.write() as tx:
                tx.execute("UPDATE emails SET unread = 0 WHERE id = ?", (row["id"],))
            row = self._row(email_id)
        return self._email(row)

    @exposed(writes=True)
    def draft_email(self, to: str, subject: str, body: str) -> Email:
        """Save an email as a draft without sending it.

        Args:
            to: Recipient addresses, comma separated.
            subject: Subject line.
            body: Message text.
        """
        return self._record("drafts", to, subject, body)

    @exposed(writes=True, side_effect=True)
    def send_email(self, to: str, subject: str, body: str) -> Email:
        """Send an email.

        Args:
            to: Recipient addresses, comma separated.
            subject: Subject line.
            body: Message text.
        """
        return self._record("sent", to, subject, body)

    @exposed(writes=True, side_effect=True)
    def reply_email(self, email_id: int, body: str) -> Email:
        """Reply to an email's sender, quoting the original.

        Args:
            email_id: The email to answer.
            body: Your reply text.
        """
        original = self._email(self._row(email_id), full_body=True)
        to = ", ".join(original.to) if original.folder == "sent" else original.sender
        if not to:
            raise ToolInputError(f"email {email_id} has no sender address to reply to")
        subject = "Re: " + _REPLY_PREFIX.sub("", original.subject)
        body = inputs.text(body, "body", max_chars=inputs.MAX_BODY_CHARS)
        quoted = "\n".join("> " + line for line in original.body.splitlines()[:40])
        full = f"{body}\n\nOn {original.date}, {original.sender} wrote:\n{quoted}"
        return self._record("sent", to, subject, full, in_reply_to=original.id)

    @exposed(writes=True, side_effect=True)
    def trash_email(self, email_id: int) -> EmailSummary:
        """Move an email to the trash.

        Args:
            email_id: The email to trash.
        """
        row = self._row(email_id)
        with self.store.write() as tx:
            tx.execute("UPDATE emails SET folder = 'trash' WHERE id = ?", (row["id"],))
        return self._summary(self._row(email_id))

    # -- previews for confirmations ---------------------------------------------------
    def preview_reply_email(self, email_id: int, body: str = "") -> str:
        original = self._email(self._row(email_id), full_body=False)
        to = ", ".join(original.to) if original.folder == "sent" else original.sender
        return f"a reply to {to} about \u201c{original.subject}\u201d, quoting that email"

    def preview_trash_email(self, email_id: int) -> str:
        row = self._row(email_id)
        return f"the email \u201c{row['subject']}\u201d from {row['sender']}"

    # -- helpers --------------------------------------------------------------------
    def _record(
        self, folder: str, to: str, subject: str, body: str, in_reply_to: int | None = None
    ) -> Email:
        recipients = inputs.email_addresses(to, "to", finder="search_contacts")
        subject = inputs.text(subject, "subject", allow_empty=True, single_line=True)
        body = inputs.text(body, "body", max_chars=inputs.MAX_BODY_CHARS, allow_empty=True)
        profile = self.store.profile
        sender = (
            f"{profile.name} <{profile.email}>" if profile.name and profile.email else profile.email
        )
        now = to_db(self.store.now())
        domain = profile.email.rpartition("@")[2] or "botpsy.local"
        with self.store.write() as tx:
            new_id = insert_email(
                tx,
                folder=folder,
                sender=sender,
                recipients=recipients,
                subject=subject,
                body=body,
                sent_at=now,
                unread=False,
                message_id=make_msgid(domain=domain),
                in_reply_to=in_reply_to,
                created_at=now,
            )
        return self._email(self._row(new_id))

    def _row(self, email_id: int) -> sqlite3.Row:
        email_id = inputs.item_id(email_id, "email_id")
        row = self.store.query_one("SELECT * FROM emails WHERE id = ?", (email_id,))
        if row is None:
            raise not_found("email", email_id, "search_mail", "list_inbox")
        return row

    def _summary(self, row: sqlite3.Row) -> EmailSummary:
        snippet = " ".join(row["body"].split())
        if len(snippet) > SNIPPET_CHARS:
            snippet = snippet[:SNIPPET_CHARS].rstrip() + "…"
        return EmailSummary(
            id=row["id"],
            folder=row["folder"],
            sender=row["sender"],
            subject=row["subject"],
            date=show(row["sent_at"], self.store.tz),
            unread=bool(row["unread"]),
            snippet=snippet,
            origin=Origin(row["origin"]),
        )

    def _email(self, row: sqlite3.Row, full_body: bool = False) -> Email:
        body = row["body"]
        if not full_body and len(body) > MAX_SHOWN_BODY_CHARS:
            body = (
                body[:MAX_SHOWN_BODY_CHARS] + f"\n[... cut: {len(row['body'])} characters in all]"
            )
        return Email(
            id=row["id"],
            folder=row["folder"],
            sender=row["sender"],
            to=json.loads(row["recipients"]),
            cc=json.loads(row["cc"]),
            subject=row["subject"],
            date=show(row["sent_at"], self.store.tz),
            unread=bool(row["unread"]),
            body=body,
            in_reply_to=row["in_reply_to"],
            origin=Origin(row["origin"]),
        )


def insert_email(
    conn: sqlite3.Connection,
    *,
    folder: str,
    sender: str,
    recipients: list[str],
    subject: str,
    body: str,
    sent_at: str | None,
    unread: bool,
    message_id: str | None,
    created_at: str,
    cc: list[str] | None = None,
    in_reply_to: int | None = None,
    origin: Origin | None = None,
) -> int:
    """Insert one message inside the caller's transaction; returns its id.

    Used by the tools, the importers and the demo so that every way in writes
    the same columns the same way. ``origin`` None: ``mail_origin(folder)``.
    """
    if folder not in FOLDERS:
        raise ValueError(f"unknown mail folder {folder!r}")
    cursor = conn.execute(
        "INSERT INTO emails (folder, message_id, sender, recipients, cc, subject, body, "
        "sent_at, unread, in_reply_to, created_at, origin) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            folder,
            message_id,
            sender,
            json.dumps(recipients),
            json.dumps(cc or []),
            subject,
            body,
            sent_at,
            int(unread),
            in_reply_to,
            created_at,
            (origin or mail_origin(folder)).value,
        ),
    )
    return int(cursor.lastrowid)


def mail_origin(folder: str) -> Origin:
    """Whose words a message holds: what arrives (inbox, and what was trashed from it)
    is the sender's; what the user sends or drafts is theirs, unless it was written
    with a stranger's text in view (``write_origin``)."""
    return write_origin() if folder in ("sent", "drafts") else Origin.third_party
