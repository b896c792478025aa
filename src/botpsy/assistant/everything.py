"""One search over everything the assistant holds: mail, calendar, contacts, notes,
reminders and files.

"How much is the electricity bill?" or "what's the guest wifi network called?" name no
kind of item: the answer may sit in an email, a note or a reminder. A person would
search everything; so does ``search_everything``, through each toolbox's own search (the
same matching, the same limits, the same errors), and returns what each found, by kind.
Each item keeps its own origin, so the safety layer judges a stranger's email found this
way as it judges one found by ``search_mail``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import Field

from botpsy.assistant import inputs
from botpsy.assistant.calendar import CalendarToolbox, Event
from botpsy.assistant.contacts import Contact, ContactsToolbox
from botpsy.assistant.files import FileHit, FilesToolbox
from botpsy.assistant.mail import EmailSummary, MailToolbox
from botpsy.assistant.notes import NoteHit, NotesToolbox
from botpsy.assistant.records import Record
from botpsy.assistant.reminders import Reminder, RemindersToolbox
from botpsy.assistant.toolbox import Toolbox, exposed
from botpsy.types import Origin

PER_KIND = 3  # items of each kind: enough to answer, short enough for a small model


class Found(Record):
    """What a search of everything found, by kind. The container has no text of its own
    (its origin is the user's); every item in it keeps its own."""

    origin: Origin = Field(default=Origin.user, exclude=True)
    emails: list[EmailSummary] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    contacts: list[Contact] = Field(default_factory=list)
    notes: list[NoteHit] = Field(default_factory=list)
    reminders: list[Reminder] = Field(default_factory=list)
    files: list[FileHit] = Field(default_factory=list)

    def count(self) -> int:
        return sum(len(getattr(self, kind)) for kind in KINDS)


KINDS = ("emails", "events", "contacts", "notes", "reminders", "files")


class EverythingToolbox(Toolbox):
    """A search across the other toolboxes, on the same store."""

    domain = "search"

    @exposed(writes=False, untrusted_output=True)
    def search_everything(self, query: str) -> Found:
        """Search mail, calendar, contacts, notes, reminders and files at once.

        Args:
            query: Words to look for, e.g. 'electricity bill' or 'wifi'.
        """
        words = inputs.search_words(query)
        found = self._found(" ".join(words))
        if found.count() or len(words) < 2:
            return found
        # no kind holds every word: in each, the items that hold the most of them
        return Found(**{kind: inputs.most_words(lambda some, search=search: list(
            search(" ".join(some))), words, key=_identity)[:PER_KIND]
            for kind, search in self._searches().items()})

    def _found(self, query: str) -> Found:
        searches = self._searches()
        return Found(**{kind: list(search(query))[:PER_KIND] for kind, search in searches.items()})

    def _searches(self) -> dict[str, Callable[[str], Any]]:
        store = self.store
        reminders = RemindersToolbox(store)
        return {
            # every word, as the other kinds' searches (this search falls back on its own)
            "emails": lambda q: MailToolbox(store).holding(inputs.search_words(q), limit=PER_KIND),
            "events": lambda q: CalendarToolbox(store).search_events(q),
            "contacts": lambda q: ContactsToolbox(store).search_contacts(q, limit=PER_KIND),
            "notes": lambda q: NotesToolbox(store).search_notes(q, limit=PER_KIND),
            "reminders": lambda q: _matching_reminders(reminders.list_reminders(), q),
            "files": lambda q: FilesToolbox(store).search_files(q, limit=PER_KIND),
        }


def _matching_reminders(reminders: list[Reminder], query: str) -> list[Reminder]:
    """The open reminders whose text holds every word of ``query``."""
    words = [w.lower() for w in query.split()]
    return [r for r in reminders if all(w in r.text.lower() for w in words)]


def _identity(item: Record) -> object:
    """What tells one found item from another: its id, else (a file) its path."""
    return getattr(item, "id", None) or getattr(item, "path", None) or item.model_dump_json()
