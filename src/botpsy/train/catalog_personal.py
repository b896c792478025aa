"""Built-in tools of the personal domains: mail, calendar, contacts, notes, reminders, files.

Each function declares one tool: its schema, the value source of each
argument, request paraphrases, a tool-output template and final answers (the
template syntax is described in ``botpsy.train.catalog``). A recipe named like one of
the on-device assistant's tools carries that tool's live schema (``assistant_spec``):
two schemas under one name would teach the model arguments the assistant rejects.
"""

from __future__ import annotations

from botpsy.train.catalog import (
    ToolRecipe,
    array,
    boolean,
    enum,
    integer,
    string,
    tool,
)
from botpsy.train.catalog_assistant import assistant_spec


def _send_email() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("send_email"),
        domain="mail",
        sources={"to": "email", "subject": "topic", "body": "message"},
        requests=[
            "Send an email to {to} about {subject} saying {body}.",
            "Email {to} with the subject {subject}: {body}.",
            "Write to {to}, subject {subject}, and tell them {body}.",
            "Please mail {to} regarding {subject}; the message is: {body}.",
            "Send {to} a quick note about {subject}: {body}.",
        ],
        result={"status": "sent", "message_id": "{@email_id}"},
        answers=[
            "I sent the email to {to}.",
            "Your message about {subject} is on its way to {to}.",
        ],
    )


def _search_emails() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "search_emails",
            "Search the mailbox for messages.",
            {
                "query": string("Words to look for"),
                "sender": string("Only messages from this address"),
                "unread_only": boolean("Only unread messages"),
                "limit": integer("Maximum results", minimum=1),
            },
            ["query"],
        ),
        domain="mail",
        sources={"query": "topic", "sender": "email", "limit": "count"},
        requests=[
            "Find emails about {query}.",
            "Search my inbox for {query}.",
            "Look for unread emails about {query}.{unread_only=true}",
            "Find messages from {sender} about {query}.",
            "Show me the last {limit} emails mentioning {query}.",
            "Did anyone write to me about {query}?",
        ],
        result={"matches": [{"id": "{@email_id}", "from": "{@email}", "subject": "{query}"}]},
        answers=[
            "I found a message about {query} from {@email}.",
            "There is one email on {query}, sent by {@email}.",
        ],
    )


def _reply_to_email() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "reply_to_email",
            "Reply to a message in the mailbox.",
            {
                "email_id": string("Id of the message to answer"),
                "body": string("Reply text"),
                "reply_all": boolean("Answer every recipient"),
            },
            ["email_id", "body"],
            side_effect=True,
        ),
        domain="mail",
        sources={"email_id": "email_id", "body": "message"},
        requests=[
            "Reply to message {email_id} saying {body}.",
            "Answer email {email_id}: {body}.",
            "Reply all to {email_id} and say {body}.{reply_all=true}",
        ],
        result={"status": "sent"},
        answers=["I replied to {email_id}.", "Your reply to {email_id} has been sent."],
    )


def _archive_email() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "archive_email",
            "Move a message to the archive.",
            {"email_id": string("Id of the message")},
            ["email_id"],
            side_effect=True,
        ),
        domain="mail",
        sources={"email_id": "email_id"},
        requests=[
            "Archive email {email_id}.",
            "Move message {email_id} to the archive.",
            "Please file away {email_id}.",
        ],
        result={"status": "archived"},
        answers=["Message {email_id} is archived.", "Done, {email_id} is in the archive."],
    )


def _create_event() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("create_event"),
        domain="calendar",
        sources={
            "title": "event_title",
            "start+end": "event_span",
            "location": "city",
            "attendees": "people",
        },
        requests=[
            "Schedule {title} {start+end}.",
            "Add {title} to my calendar {start+end}.",
            "Put {title} in my calendar {start+end} and invite {attendees}.",
            "Book {title} in {location} {start+end}.",
            "Create an event called {title} {start+end} with {attendees}.",
        ],
        result={"id": "{@record_id}", "title": "{title}", "status": "created"},
        answers=["{title} is on your calendar.", "I added {title} to your calendar."],
    )


def _add_calendar_event() -> ToolRecipe:
    # A generic calendar API beside the assistant's ``create_event`` (start and end
    # datetimes): a day, a start time and a length, under a name of its own.
    return ToolRecipe(
        spec=tool(
            "add_calendar_event",
            "Add an event to the calendar.",
            {
                "title": string("Event title"),
                "date": string("Day, YYYY-MM-DD"),
                "start_time": string("Start, HH:MM"),
                "duration_minutes": integer("Length in minutes", minimum=1),
                "attendees": array("People invited", string("Person name")),
                "location": string("Where it happens"),
            },
            ["title", "date", "start_time"],
            side_effect=True,
        ),
        domain="calendar",
        sources={
            "title": "event_title",
            "date": "date",
            "start_time": "time",
            "duration_minutes": "minutes",
            "attendees": "people",
            "location": "city",
        },
        requests=[
            "Schedule {title} on {date} at {start_time}.",
            "Add {title} to my calendar for {date} at {start_time}.",
            "Put {title} on {date}, starting {start_time}, for {duration_minutes} minutes.",
            "Create an event called {title} on {date} at {start_time} with {attendees}.",
            "Book {title} in {location} on {date} at {start_time}.",
            "Set up {title} at {start_time} on {date} and invite {attendees}.",
        ],
        result={"status": "created", "event_id": "{@email_id}"},
        answers=[
            "{title} is on your calendar for {date} at {start_time}.",
            "I added {title} on {date}.",
        ],
    )


def _list_events() -> ToolRecipe:
    # One drawn day only: two independent draws could put the end before the start.
    return ToolRecipe(
        spec=assistant_spec("list_events"),
        domain="calendar",
        sources={"start": "day_phrase"},
        requests=[
            "What's on my calendar {start}?",
            "List my events for the week starting {start}.",
            "What do I have this week?",
            "Do I have anything planned {start} or later?",
            "Show me my upcoming events.",
            "What do I have {start}?",
        ],
        result=[{"id": "{@record_id}", "title": "{@event_title}", "start": "{@datetime}"}],
        answers=[
            "You have {@event_title} on {@datetime}.",
            "One event: {@event_title}, {@datetime}.",
        ],
    )


def _reschedule_event() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "reschedule_event",
            "Move an existing event to a new day and time.",
            {
                "title": string("Title of the event"),
                "new_date": string("New day, YYYY-MM-DD"),
                "new_start_time": string("New start, HH:MM"),
            },
            ["title", "new_date"],
            side_effect=True,
        ),
        domain="calendar",
        sources={"title": "event_title", "new_date": "date", "new_start_time": "time"},
        requests=[
            "Move {title} to {new_date}.",
            "Reschedule {title} to {new_date} at {new_start_time}.",
            "Push {title} to {new_date}, same time.",
            "Can you shift {title} to {new_start_time} on {new_date}?",
        ],
        result={"status": "moved"},
        answers=["{title} now takes place on {new_date}.", "I moved {title} to {new_date}."],
    )


def _cancel_event() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "cancel_event",
            "Remove an event from the calendar.",
            {"title": string("Title of the event"), "date": string("Day, YYYY-MM-DD")},
            ["title", "date"],
            side_effect=True,
        ),
        domain="calendar",
        sources={"title": "event_title", "date": "date"},
        requests=[
            "Cancel {title} on {date}.",
            "Remove {title} from my calendar on {date}.",
            "Delete the {title} event on {date}.",
        ],
        result={"status": "cancelled"},
        answers=["{title} on {date} is cancelled.", "I removed {title} from {date}."],
    )


def _find_free_slot() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "find_free_slot",
            "Find a free time slot of a given length on a day.",
            {
                "date": string("Day, YYYY-MM-DD"),
                "duration_minutes": integer("Length in minutes", minimum=1),
            },
            ["date", "duration_minutes"],
        ),
        domain="calendar",
        sources={"date": "date", "duration_minutes": "minutes"},
        requests=[
            "Find me a free {duration_minutes} minute slot on {date}.",
            "When am I free for {duration_minutes} minutes on {date}?",
            "Is there a {duration_minutes}-minute gap in my day on {date}?",
        ],
        result={"slot": "{@time}"},
        answers=["You are free at {@time} on {date}.", "The first free slot is at {@time}."],
    )


def _find_contact() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "find_contact", "Look up a contact by name.", {"name": string("Contact name")}, ["name"]
        ),
        domain="contacts",
        sources={"name": "person"},
        requests=[
            "What's {name}'s number?",
            "Look up {name} in my contacts.",
            "Find the contact details for {name}.",
            "Do I have {name} saved?",
        ],
        result={"name": "{name}", "phone": "{@phone}"},
        answers=["{name}'s number is {@phone}.", "I found {name}: {@phone}."],
    )


def _add_contact() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("add_contact"),
        domain="contacts",
        sources={"name": "person", "phone": "phone", "email": "email", "notes": "topic"},
        requests=[
            "Add {name} to my contacts with the number {phone}.",
            "Save {name}, email {email}.",
            "Create a contact for {name}.",
            "New contact: {name}, phone {phone}, email {email}.",
            "Save {name} as a contact and note that we work on {notes} together.",
        ],
        result={"id": "{@record_id}", "name": "{name}"},
        answers=["{name} is saved in your contacts.", "I added {name}."],
    )


def _update_contact_phone() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "update_contact_phone",
            "Change the phone number of a contact.",
            {"name": string("Contact name"), "phone": string("New phone number")},
            ["name", "phone"],
            side_effect=True,
        ),
        domain="contacts",
        sources={"name": "person", "phone": "phone"},
        requests=[
            "Change {name}'s number to {phone}.",
            "Update the phone for {name}: {phone}.",
            "{name} has a new number, {phone}.",
        ],
        result={"status": "updated"},
        answers=["{name}'s number is now {phone}.", "Updated {name}."],
    )


def _call_contact() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "call_contact",
            "Start a phone call with a contact.",
            {"name": string("Contact name"), "speaker": boolean("Use the speakerphone")},
            ["name"],
            side_effect=True,
        ),
        domain="contacts",
        sources={"name": "person"},
        requests=[
            "Call {name}.",
            "Phone {name} please.",
            "Ring {name} on speaker.{speaker=true}",
        ],
        result={"status": "calling"},
        answers=["Calling {name} now.", "I'm dialing {name}."],
    )


def _create_note() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("create_note"),
        domain="notes",
        sources={"title": "note_title", "body": "note_text"},
        requests=[
            "Make a note called {title}: {body}.",
            "Write down under {title}: {body}.",
            "Create a note titled {title} saying {body}.",
            "Jot this in a new note named {title}: {body}.",
        ],
        result={"id": "{@record_id}", "title": "{title}", "body": "{body}"},
        answers=["Your note {title} is saved.", "I created the note {title}."],
    )


def _search_notes() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("search_notes"),
        domain="notes",
        sources={"query": "note_text", "limit": "count"},
        requests=[
            "Find my note that mentions {query}.",
            "Search my notes for {query}.",
            "Which note says {query}?",
            "Show me up to {limit} notes about {query}.",
        ],
        result=[{"id": "{@record_id}", "title": "{@note_title}"}],
        answers=["That is in your note {@note_title}.", "I found it in {@note_title}."],
    )


def _append_to_note() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("append_to_note"),
        domain="notes",
        sources={"note_id": "record_id", "text": "note_text"},
        requests=[
            "Add {text} to note {note_id}.",
            "Append to note {note_id}: {text}.",
            "Put {text} at the end of note number {note_id}.",
        ],
        result={"id": "{note_id}", "status": "updated"},
        answers=["I added that to note {note_id}.", "Note {note_id} is updated."],
    )


def _delete_note() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "delete_note",
            "Delete a note.",
            {"title": string("Note title")},
            ["title"],
            side_effect=True,
        ),
        domain="notes",
        sources={"title": "note_title"},
        requests=[
            "Delete the note {title}.",
            "Remove my {title} note.",
            "Throw away the {title} note.",
        ],
        result={"status": "deleted"},
        answers=["The note {title} is deleted.", "I removed {title}."],
    )


def _create_reminder() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "create_reminder",
            "Set a reminder.",
            {
                "text": string("What to remember"),
                "date": string("Day, YYYY-MM-DD"),
                "time": string("Time, HH:MM"),
                "repeat": enum("How often it repeats", ["never", "daily", "weekly", "monthly"]),
            },
            ["text", "date"],
            side_effect=True,
        ),
        domain="reminders",
        sources={"text": "reminder_text", "date": "date", "time": "time", "repeat": "enum"},
        requests=[
            "Remind me to {text} on {date}.",
            "Set a reminder to {text} on {date} at {time}.",
            "Don't let me forget to {text} on {date}.",
            'Remind me every week to {text}, starting {date}.{repeat="weekly"}',
            "Create a {repeat} reminder to {text} from {date} at {time}.",
        ],
        result={"status": "scheduled"},
        answers=["I'll remind you to {text} on {date}.", "Reminder set: {text}."],
    )


def _list_reminders() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("list_reminders"),
        domain="reminders",
        requests=[
            "What are my reminders?",
            "Show my open reminders.",
            "List all my reminders, including finished ones.{include_done=true}",
            "What have I already ticked off?{include_done=true}",
        ],
        result=[{"id": "{@record_id}", "text": "{@reminder_text}", "due": "{@datetime}"}],
        answers=["You have one reminder: {@reminder_text}.", "Only this: {@reminder_text}."],
    )


def _complete_reminder() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("complete_reminder"),
        domain="reminders",
        sources={"reminder_id": "record_id"},
        requests=[
            "Mark reminder {reminder_id} as done.",
            "I did reminder {reminder_id}. Tick it off.",
            "Complete reminder number {reminder_id}.",
        ],
        result={"id": "{reminder_id}", "text": "{@reminder_text}", "done": True},
        answers=[
            "Marked {@reminder_text} as done.",
            "Nice, reminder {reminder_id} is checked off.",
        ],
    )


def _set_timer() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "set_timer",
            "Start a countdown timer.",
            {
                "minutes": integer("Length in minutes", minimum=1),
                "label": string("Name of the timer"),
            },
            ["minutes"],
            side_effect=True,
        ),
        domain="reminders",
        sources={"minutes": "minutes", "label": "dish"},
        requests=[
            "Set a timer for {minutes} minutes.",
            "Start a {minutes} minute timer for the {label}.",
            "Count down {minutes} minutes.",
        ],
        result={"status": "running"},
        answers=[
            "Timer running for {minutes} minutes.",
            "Your {minutes}-minute timer has started.",
        ],
    )


def _list_files() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("list_files"),
        domain="files",
        sources={"path": "folder"},
        requests=[
            "What's in my {path} folder?",
            "List the files in {path}.",
            "Which files do I have?",
        ],
        result=["{@file_name}"],
        answers=["The folder holds {@file_name}.", "There is one file: {@file_name}."],
    )


def _read_file() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("read_file"),
        domain="files",
        sources={"path": "file_path"},
        requests=["Open {path}.", "Read {path} to me.", "What does {path} say?"],
        result={"path": "{path}", "text": "{@note_text}"},
        answers=["{path} says: {@note_text}.", "The file reads: {@note_text}."],
    )


def _move_file() -> ToolRecipe:
    return ToolRecipe(
        spec=tool(
            "move_file",
            "Move a file into another folder.",
            {"path": string("File path"), "destination": string("Target folder")},
            ["path", "destination"],
            side_effect=True,
        ),
        domain="files",
        sources={"path": "file_path", "destination": "folder"},
        requests=[
            "Move {path} to {destination}.",
            "Put {path} into the {destination} folder.",
            "File {path} under {destination}.",
        ],
        result={"status": "moved"},
        answers=["{path} is now in {destination}.", "Moved it to {destination}."],
    )


def _search_files() -> ToolRecipe:
    return ToolRecipe(
        spec=assistant_spec("search_files"),
        domain="files",
        sources={"query": "query", "limit": "count"},
        requests=[
            "Find files about {query}.",
            "Search my files for {query}, at most {limit} matches.",
            "Which of my files mention {query}?",
        ],
        result=[{"path": "{@file_path}"}],
        answers=["{@file_path} mentions {query}.", "I found {@file_path}."],
    )


RECIPES = (
    _send_email,
    _search_emails,
    _reply_to_email,
    _archive_email,
    _create_event,
    _add_calendar_event,
    _list_events,
    _reschedule_event,
    _cancel_event,
    _find_free_slot,
    _find_contact,
    _add_contact,
    _update_contact_phone,
    _call_contact,
    _create_note,
    _search_notes,
    _append_to_note,
    _delete_note,
    _create_reminder,
    _list_reminders,
    _complete_reminder,
    _set_timer,
    _list_files,
    _read_file,
    _move_file,
    _search_files,
)
