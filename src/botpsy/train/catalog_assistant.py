"""Recipes for the on-device assistant's own tools that the personal catalog lacks.

The assistant (``botpsy.assistant``) registers its own tools and its evaluation
scenarios call them by name, so the model should train on exactly those schemas.
The ones here had no recipe; ``catalog_personal``'s recipes of the other assistant
tools read their specs the same way. Their ``spec`` is never written by hand:
``assistant_spec`` reads it from the live toolboxes (type hints and docstrings), so
a change to a tool changes its training data too. Ids are numbers here
(``record_id``), as the tools take them, and results have the shape of the tools'
records (``botpsy.assistant.*``) where the template language allows.

The template syntax is described in ``botpsy.train.catalog``.
"""

from __future__ import annotations

import tempfile
from functools import cache

from botpsy.assistant.toolsets import assistant_tools
from botpsy.assistant.user_data import AssistantStore
from botpsy.train.catalog import ToolRecipe
from botpsy.types import ToolSpec

# The address of the store's user in results: the sender of drafts and replies.
_ME = "me@example.com"


@cache
def assistant_specs() -> dict[str, ToolSpec]:
    """Every assistant tool's spec by name, read once per process from toolboxes bound to a
    throwaway store (a toolbox needs a store to exist; nothing is read from or kept in it)."""
    with (
        tempfile.TemporaryDirectory(prefix="botpsy-specs-") as tmp,
        AssistantStore(tmp) as store,
    ):
        return {tool.spec.name: tool.spec for tool in assistant_tools(store)}


def assistant_spec(name: str) -> ToolSpec:
    """A private copy of the live spec of the assistant tool ``name`` (recipes may be
    changed by their users without touching the cached one)."""
    return assistant_specs()[name].model_copy(deep=True)


def _mail_record(
    record_id: str,
    folder: str,
    sender: str,
    subject: str,
    *,
    unread: bool = False,
    to: list[str] | None = None,
    snippet: str | None = None,
    body: str | None = None,
    **extra: str,
) -> dict[str, object]:
    """A result in the shape of the assistant's mail records (``botpsy.assistant.mail``), in its
    key order: listings carry a ``snippet``, a full message its ``to`` and ``body``."""
    record: dict[str, object] = {"id": record_id, "folder": folder, "sender": sender}
    if to is not None:
        record["to"] = to
    record |= {"subject": subject, "date": "{@datetime}", "unread": unread}
    record |= {"snippet": snippet} if snippet is not None else {"body": body}
    return record | extra


# -- mail ----------------------------------------------------------------------------------


def _list_inbox() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("list_inbox"),
        domain="mail",
        sources={"limit": "count"},
        requests=[
            "What's in my inbox?",
            "Show me my latest emails.",
            "List the {limit} newest messages in my inbox.",
            "Any unread mail?{unread_only=true}",
            "Show my unread emails, just the last {limit}.{unread_only=true}",
            "Check whether I have new messages I haven't read.{unread_only=true}",
            "Give me the {limit} most recent emails I got.",
        ],
        result=[
            _mail_record(
                "{@record_id}", "inbox", "{@email}", "{@topic}", unread=True, snippet="{@message}"
            )
        ],
        answers=[
            'The newest email is from {@email} about {@topic}: "{@message}".',
            "You have a message from {@email}, subject {@topic}, sent {@datetime}.",
        ],
    )


def _search_mail() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("search_mail"),
        domain="mail",
        sources={"query": "topic", "sender": "person", "limit": "count"},
        requests=[
            "Search my mail for {query}.",
            "Find the emails that mention {query}.",
            "Did {sender} send me anything about {query}?",
            "Look through the messages from {sender} for {query}.",
            "Find the {limit} latest emails about {query}.",
            "Dig up what {sender} wrote about {query}, at most {limit} messages.",
            "Is there any mail on {query}?",
        ],
        result=[_mail_record("{@record_id}", "inbox", "{@email}", "{query}", snippet="{@message}")],
        answers=[
            'I found an email about {query} from {@email}: "{@message}".',
            "{@email} wrote about {query} on {@datetime}.",
        ],
    )


def _read_email() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("read_email"),
        domain="mail",
        sources={"email_id": "record_id"},
        requests=[
            "Read email {email_id}.",
            "Open message {email_id} for me.",
            "What does email {email_id} say?",
            "Show me the full text of email number {email_id}.",
            "Read me message {email_id}, please.",
        ],
        result=_mail_record(
            "{email_id}", "inbox", "{@email}", "{@topic}", to=[_ME], body="{@message}"
        ),
        answers=[
            'Email {email_id} is from {@email} about {@topic}. It says: "{@message}".',
            "{@email} wrote: {@message}.",
        ],
    )


def _draft_email() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("draft_email"),
        domain="mail",
        sources={"to": "email", "subject": "topic", "body": "message"},
        requests=[
            "Draft an email to {to} about {subject} saying {body}.",
            "Write a draft to {to}, subject {subject}: {body}. Don't send it yet.",
            "Prepare an email for {to} on {subject} that says {body}, but keep it in drafts.",
            "Save a draft for {to} with the subject {subject} and the text {body}.",
            "Start an email to {to} about {subject}: {body}. I'll send it myself later.",
        ],
        result=_mail_record("{@record_id}", "drafts", _ME, "{subject}", to=["{to}"], body="{body}"),
        answers=[
            "I saved a draft to {to} about {subject}.",
            "Your draft to {to} is in the drafts folder; it has not been sent.",
        ],
    )


def _reply_email() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("reply_email"),
        domain="mail",
        sources={"email_id": "record_id", "body": "message"},
        requests=[
            "Reply to email {email_id}: {body}.",
            "Answer message {email_id} saying {body}.",
            "Write back to email {email_id} and tell them {body}.",
            "Send a reply to email number {email_id}: {body}.",
            "Respond to message {email_id} with this: {body}.",
        ],
        result=_mail_record(
            "{@record_id}",
            "sent",
            _ME,
            "Re: {@topic}",
            to=["{@email}"],
            body="{body}",
            in_reply_to="{email_id}",
        ),
        answers=[
            'I replied to {@email}: "{body}".',
            "Your reply to email {email_id} is sent.",
        ],
    )


def _trash_email() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("trash_email"),
        domain="mail",
        sources={"email_id": "record_id"},
        requests=[
            "Trash email {email_id}.",
            "Delete message {email_id}.",
            "Move email {email_id} to the trash.",
            "Throw away email number {email_id}.",
            "Get rid of message {email_id}, please.",
        ],
        result=_mail_record("{email_id}", "trash", "{@email}", "{@topic}", snippet="{@message}"),
        answers=[
            "I moved the email from {@email} about {@topic} to the trash.",
            "Email {email_id} is in the trash now.",
        ],
    )


# -- calendar ------------------------------------------------------------------------------


def _update_event() -> ToolRecipe:
    # Every changed field is optional, so the result cannot show the new values: it names the
    # event that changed, like the other catalogs' status results.
    return ToolRecipe(
        spec=assistant_spec("update_event"),
        domain="calendar",
        sources={
            "event_id": "record_id",
            "title": "event_title",
            "start": "moment_phrase",
            "end": "moment_phrase",
            "location": "city",
            "attendees": "people",
        },
        requests=[
            "Move event {event_id} so it starts {start}.",
            "Rename event {event_id} to {title}.",
            "Change the location of event {event_id} to {location}.",
            "The people for event {event_id} are now {attendees}.",
            "Push event {event_id} so it starts {start}, and hold it in {location}.",
            "Update event {event_id}: call it {title} and start it {start}.",
            "Let event {event_id} end {end}.",
        ],
        result={"id": "{event_id}", "status": "updated"},
        answers=["Event {event_id} is updated.", "Done, I changed event {event_id}."],
    )


def _delete_event() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("delete_event"),
        domain="calendar",
        sources={"event_id": "record_id"},
        requests=[
            "Delete event {event_id}.",
            "Remove event {event_id} from my calendar.",
            "Cancel the event with id {event_id}.",
            "Take calendar entry number {event_id} off my schedule.",
            "Please get rid of event {event_id}.",
        ],
        result={"id": "{event_id}", "title": "{@event_title}", "start": "{@datetime}"},
        answers=[
            "I deleted {@event_title} ({@datetime}).",
            "Event {event_id}, {@event_title}, is off your calendar.",
        ],
    )


def _find_free_slots() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("find_free_slots"),
        domain="calendar",
        sources={
            "date": "day_phrase",
            "duration_minutes": "minutes",
            "day_start": "day_start",
            "day_end": "day_end",
        },
        requests=[
            "When am I free {date}?",
            "Find me a {duration_minutes}-minute gap {date}.",
            "Do I have {duration_minutes} free minutes {date}?",
            "Look for free time {date} between {day_start} and {day_end}.",
            "Where do {duration_minutes} minutes fit {date} between {day_start} and {day_end}?",
            "What's open in my calendar {date} if my day starts at {day_start}?",
            "Any free {duration_minutes} minutes {date} before {day_end}?",
        ],
        result=["{@free_slot}"],
        answers=[
            "You are free {date} {@free_slot}.",
            "Your first opening {date} is {@free_slot}.",
        ],
    )


def _search_events() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("search_events"),
        domain="calendar",
        sources={"query": "first_name", "start": "day_phrase"},
        requests=[
            "When is my next meeting with {query}?",
            "Find my appointment with {query}.",
            "Look up the meeting with {query} in my calendar.",
            "When am I seeing {query}?",
            "Find my meetings with {query} from {start} on.",
            "Is there anything with {query} in my calendar {start} or later?",
        ],
        result=[{"id": "{@record_id}", "title": "Meeting with {query}", "start": "{@datetime}"}],
        answers=[
            "Your meeting with {query} is on {@datetime}.",
            "You see {query} on {@datetime}.",
        ],
    )


def _search_everything() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("search_everything"),
        domain="notes",
        sources={"query": "topic"},
        requests=[
            "What do I have about {query}?",
            "Is there anything on {query} anywhere?",
            "Where did I put the {query} info?",
            "Find whatever I have on {query}.",
            "Search everything for {query}.",
        ],
        result={"notes": [{"id": "{@record_id}", "title": "{query}", "snippet": "{query}"}]},
        answers=[
            "I found a note about {query}.",
            "There is a note titled {query}.",
        ],
    )


# -- contacts ------------------------------------------------------------------------------


def _search_contacts() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("search_contacts"),
        domain="contacts",
        sources={"query": "first_name", "limit": "count"},
        requests=[
            "Search my contacts for {query}.",
            "Who in my address book is called {query}?",
            "Find the contacts named {query}.",
            "Look for {query} in my contacts and show at most {limit}.",
            "Show me up to {limit} contacts matching {query}.",
            "Do I have anyone called {query} saved?",
        ],
        result=[
            {"id": "{@record_id}", "name": "{query} {@last_name}", "phone": "{@phone}", "notes": ""}
        ],
        answers=[
            "I found {query} {@last_name}, phone {@phone}.",
            "{query} {@last_name} is in your contacts: {@phone}.",
        ],
    )


def _get_contact() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("get_contact"),
        domain="contacts",
        sources={"contact_id": "record_id"},
        requests=[
            "Show me contact {contact_id}.",
            "Pull up the details of contact number {contact_id}.",
            "Get contact {contact_id} for me.",
            "What's the phone number of contact {contact_id}?",
            "Open address book entry {contact_id}.",
        ],
        result={"id": "{contact_id}", "name": "{@person}", "phone": "{@phone}", "notes": ""},
        answers=[
            "Contact {contact_id} is {@person}, phone {@phone}.",
            "That's {@person}; you can reach them at {@phone}.",
        ],
    )


# -- notes ---------------------------------------------------------------------------------


def _read_note() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("read_note"),
        domain="notes",
        sources={"note_id": "record_id"},
        requests=[
            "Read note {note_id}.",
            "Open note number {note_id} for me.",
            "What does note {note_id} say?",
            "Show me the full text of note {note_id}.",
            "Read me what I wrote in note {note_id}.",
        ],
        result={
            "id": "{note_id}",
            "title": "{@note_title}",
            "body": "{@note_text}",
            "updated": "{@datetime}",
        },
        answers=[
            "Note {note_id}, {@note_title}: {@note_text}.",
            "Your note {@note_title} says: {@note_text}.",
        ],
    )


# -- reminders -----------------------------------------------------------------------------


def _add_reminder() -> ToolRecipe:
    # ``due`` is optional, so the result cannot repeat it: it shows the reminder as a to-do
    # would look (the record leaves out a missing due time).
    return ToolRecipe(
        spec=assistant_spec("add_reminder"),
        domain="reminders",
        sources={"text": "reminder_text", "due": "moment_phrase"},
        requests=[
            "Remind me to {text} {due}.",
            "Add a to-do: {text}.",
            "Put '{text}' on my to-do list.",
            "Set a reminder {due}: {text}.",
            "I have to {text} {due}; remind me.",
            "Add {text} to my reminders.",
            "Don't let me forget to {text} {due}.",
        ],
        result={"id": "{@record_id}", "text": "{text}", "done": False},
        answers=["I'll remind you to {text}.", "Added to your reminders: {text}."],
    )


# -- files ---------------------------------------------------------------------------------


def _write_file() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("write_file"),
        domain="files",
        sources={"path": "text_file_path", "content": "note_text"},
        requests=[
            "Write '{content}' to {path}.",
            "Save a file {path} containing: {content}.",
            "Create {path} with the text: {content}.",
            "Put '{content}' into {path}.",
            "Overwrite {path} with: {content}.",
            "Make a text file at {path} that says {content}.",
        ],
        result={"path": "{path}", "bytes_written": "{@length}", "created": True},
        answers=["I saved {path}.", "{path} now holds your text."],
    )


def _append_to_file() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("append_to_file"),
        domain="files",
        sources={"path": "text_file_path", "text": "note_text"},
        requests=[
            "Add '{text}' to the bottom of {path}.",
            "Append {text} to {path}.",
            "Put a line at the end of {path}: {text}.",
            "Add {text} to {path}, keep what is there.",
            "Tack {text} onto the end of {path}.",
        ],
        result={"path": "{path}", "bytes_written": "{@length}", "created": False},
        answers=["I added that to {path}.", "{path} has the new line at its end."],
    )


RECIPES = (
    _list_inbox,
    _search_mail,
    _read_email,
    _draft_email,
    _reply_email,
    _trash_email,
    _update_event,
    _delete_event,
    _find_free_slots,
    _search_events,
    _search_everything,
    _search_contacts,
    _get_contact,
    _read_note,
    _add_reminder,
    _write_file,
    _append_to_file,
)
