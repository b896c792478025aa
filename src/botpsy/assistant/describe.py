"""Each assistant tool's result in words, for the person (not the model).

``WORDS`` maps every tool the assistant exposes to its ``ToolWords``: a describer
that turns the tool's return value (as JSON data) into a short answer, and the
action it performs, for error sentences. ``reply_writer(store)`` is the
``ReplyWriter`` the assistant's agent uses; it reads the clock and time zone from
the store, so every time is said in the user's zone:

    list_events(start="tomorrow")  ->  "Tomorrow: Dentist check-up, 08:30-09:00, Kastanienallee 12."
    add_reminder(...)              ->  "Added a reminder: call Anna, Mon 7 Dec at 09:00."
    list_reminders() (none)        ->  "You have no reminders."

Listings say when they cover ("tomorrow", "from today to Tue 11 Mar"); what was
added, changed or sent says its absolute day ("Mon 7 Dec"), so the person can check
what the model understood. A test keeps ``WORDS`` in step with ``assistant_tools``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime, timedelta
from email.utils import parseaddr
from typing import TYPE_CHECKING, Any

from botpsy.agent.reply import (
    ReplyWriter,
    ToolOutcome,
    ToolWords,
    at,
    day_name,
    listing,
    local,
    plural,
    sentence,
)
from botpsy.assistant.errors import ToolInputError
from botpsy.assistant.mail import MailToolbox
from botpsy.assistant.timeutil import parse_end, parse_when, range_stop

if TYPE_CHECKING:
    from botpsy.assistant.user_data import AssistantStore

WORDS: dict[str, ToolWords] = {}
MAX_TEXT_CHARS = 1200  # of an email, a note or a file, shown in the answer
MAX_TITLE_CHARS = 80


def describes(name: str, action: str) -> Callable[[Callable[[ToolOutcome], str]], Any]:
    """Register the describer of tool ``name``; ``action`` completes "I could not ..."."""

    def register(fn: Callable[[ToolOutcome], str]) -> Callable[[ToolOutcome], str]:
        WORDS[name] = ToolWords(fn, action)
        return fn

    return register


def reply_writer(store: AssistantStore) -> ReplyWriter:
    """The assistant's ``ReplyWriter``: its tools' words, times in the store's zone."""
    return ReplyWriter(WORDS, clock=lambda: store.now().astimezone(store.tz))


# -- times and text for people ----------------------------------------------------------------
def on_day(day: date, now: datetime) -> str:
    """"today", "tomorrow" or "on Mon 7 Dec": after a verb."""
    name = day_name(day, now)
    return name if name in ("today", "tomorrow", "yesterday") else f"on {name}"


def span(item: dict[str, Any], now: datetime, with_day: bool, relative: bool = True) -> str:
    """An event's time: "08:30-09:00", with its day "Mon 7 Dec 08:30-09:00", or "all day"."""
    start, end = local(item.get("start"), now), local(item.get("end"), now)
    if start is None:
        return ""
    day = day_name(start.date(), now, relative)
    if item.get("all_day"):
        last = (end - timedelta(days=1)).date() if end else start.date()
        if last > start.date():
            return f"{day} to {day_name(last, now, relative)}, all day"
        return f"{day}, all day" if with_day else "all day"
    if end is None:
        return f"{day} {start:%H:%M}" if with_day else f"{start:%H:%M}"
    if end.date() != start.date() and end - start >= timedelta(days=1):
        return f"{day} {start:%H:%M} to {day_name(end.date(), now, relative)} {end:%H:%M}"
    times = f"{start:%H:%M}-{end:%H:%M}"
    return f"{day} {times}" if with_day else times


def quote(text: Any, limit: int = MAX_TITLE_CHARS) -> str:
    return f"\u201c{clip(str(text or ''), limit)}\u201d"


def clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def body(text: str | None) -> str:
    """A long text (an email, a note, a file) cut for the answer, saying how long it is."""
    text = (text or "").strip()
    if len(text) <= MAX_TEXT_CHARS:
        return text
    return text[:MAX_TEXT_CHARS].rstrip() + f"\u2026 (cut: {len(text)} characters in all)"


def name_of(address: str | None) -> str:
    """"Priya Shah" of "Priya Shah <priya@example.com>" (the address when there is no name)."""
    name, email = parseaddr(address or "")
    return name or email or (address or "")


def size(count: int | None) -> str:
    if count is None:
        return ""
    if count < 1000:
        return plural(count, "byte")
    return f"{count / 1000:.1f} kB" if count < 1_000_000 else f"{count / 1_000_000:.1f} MB"


def minutes(count: int) -> str:
    hours, rest = divmod(int(count), 60)
    return " ".join(part for part in (f"{hours} h" if hours else "",
                                      f"{rest} min" if rest else "") if part) or "0 min"


def joined(*parts: Any) -> str:
    return ", ".join(str(p) for p in parts if p not in (None, "", []))


# -- calendar ---------------------------------------------------------------------------------
def _listed_days(o: ToolOutcome) -> tuple[date, date] | None:
    """The first and last day a ``list_events`` call covered, as the tool reads them."""
    tz, now = o.now.tzinfo, o.now
    try:
        begin = parse_when(str(o.arguments.get("start") or "today"), tz=tz, now=now)
        end = o.arguments.get("end")
        if end is None:
            stop = begin.value + timedelta(days=7)
        else:
            stop = range_stop(begin, parse_end(str(end), start=begin.value, tz=tz, now=now))
    except ToolInputError:
        return None
    return begin.value.date(), (stop - timedelta(microseconds=1)).date()


def event_line(event: dict[str, Any], now: datetime, with_day: bool, relative: bool = True) -> str:
    """"Dentist check-up, 08:30-09:00, Kastanienallee 12"."""
    return joined(clip(event.get("title", ""), MAX_TITLE_CHARS),
                  span(event, now, with_day, relative), event.get("location"))


@describes("list_events", "look at your calendar")
def _list_events(o: ToolOutcome) -> str:
    days = _listed_days(o)
    single = days is not None and days[0] == days[1]
    if days is None:
        when = ""
    elif single:
        when = day_name(days[0], o.now)
    else:
        when = f"from {day_name(days[0], o.now)} to {day_name(days[1], o.now)}"
    events = o.data or []
    if not events:
        return sentence(f"You have nothing on your calendar {on_day(days[0], o.now) if single else when}"
                        if days else "You have nothing on your calendar then")
    header = (when[:1].upper() + when[1:]) if when else "Your calendar"
    return listing(header, [event_line(e, o.now, not single) for e in events], o.max_lines)


@describes("search_events", "search your calendar")
def _search_events(o: ToolOutcome) -> str:
    events = o.data or []
    query = quote(o.arguments.get("query"))
    if not events:
        return f"No upcoming events match {query}."
    return listing(f"Events matching {query}", [event_line(e, o.now, True) for e in events],
                   o.max_lines)


def _event_said(event: dict[str, Any], now: datetime) -> str:
    line = event_line(event, now, with_day=True, relative=False)
    people = event.get("attendees") or []
    return line + (f", with {', '.join(people)}" if people else "")


@describes("create_event", "add the event")
def _create_event(o: ToolOutcome) -> str:
    return sentence(f"Added to your calendar: {_event_said(o.data, o.now)}")


@describes("update_event", "change the event")
def _update_event(o: ToolOutcome) -> str:
    return sentence(f"Changed in your calendar: {_event_said(o.data, o.now)}")


@describes("delete_event", "delete the event")
def _delete_event(o: ToolOutcome) -> str:
    return sentence(f"Deleted from your calendar: {event_line(o.data, o.now, True, False)}")


@describes("find_free_slots", "look for free time")
def _find_free_slots(o: ToolOutcome) -> str:
    try:
        day = parse_when(str(o.arguments.get("date")), tz=o.now.tzinfo, now=o.now).value.date()
        when = on_day(day, o.now)
    except ToolInputError:
        when = "that day"
    slots = o.data or []
    if not slots:
        least = int(o.arguments.get("duration_minutes") or 30)
        window = f"{o.arguments.get('day_start') or '09:00'} and {o.arguments.get('day_end') or '17:00'}"
        return f"You have no free time of {minutes(least)} or more {when} between {window}."
    lines = [f"{span(s, o.now, False)} ({minutes(s.get('minutes', 0))})" for s in slots]
    return listing(f"Free {when}", lines, o.max_lines)


# -- reminders ----------------------------------------------------------------------------------
@describes("add_reminder", "add the reminder")
def _add_reminder(o: ToolOutcome) -> str:
    due = at(o.data.get("due"), o.now)
    text = clip(o.data.get("text", ""), 200)
    return sentence(f"Added a reminder: {text}, {due}" if due else f"Added a to-do: {text}")


def _reminder_line(item: dict[str, Any], now: datetime) -> str:
    line = joined(clip(item.get("text", ""), 120), at(item.get("due"), now, relative=True))
    return line + (" (done)" if item.get("done") else "")


@describes("list_reminders", "list your reminders")
def _list_reminders(o: ToolOutcome) -> str:
    items = o.data or []
    if not items:
        return ("You have no reminders, open or done." if o.arguments.get("include_done")
                else "You have no reminders.")
    return listing(f"You have {plural(len(items), 'reminder')}",
                   [_reminder_line(r, o.now) for r in items], o.max_lines)


@describes("complete_reminder", "mark the reminder as done")
def _complete_reminder(o: ToolOutcome) -> str:
    return sentence(f"Marked as done: {clip(o.data.get('text', ''), 200)}")


# -- mail -----------------------------------------------------------------------------------------
def _mail_line(item: dict[str, Any], now: datetime, snippet: bool) -> str:
    moment = local(item.get("date"), now)
    when = f"{day_name(moment.date(), now)} {moment:%H:%M}" if moment else ""
    line = f"{name_of(item.get('sender'))}: " + joined(quote(item.get("subject")), when,
                                                       "unread" if item.get("unread") else "")
    return line + (f" \u2014 {clip(item['snippet'], 90)}" if snippet and item.get("snippet") else "")


# list_inbox's own default, where a call leaves the limit out
_INBOX_LIMIT = inspect.signature(MailToolbox.list_inbox).parameters["limit"].default


@describes("list_inbox", "look at your inbox")
def _list_inbox(o: ToolOutcome) -> str:
    items = o.data or []
    unread = bool(o.arguments.get("unread_only"))
    if not items:
        return "You have no unread emails." if unread else "Your inbox is empty."
    # as many as the limit asked for: there may be more, so the count is no total
    full = len(items) >= int(o.arguments.get("limit") or _INBOX_LIMIT)
    if unread:
        header = (f"The {plural(len(items), 'newest unread email')} (there may be more)" if full
                  else plural(len(items), "unread email"))
    else:
        header = "Your inbox, newest first"
    return listing(header, [_mail_line(m, o.now, False) for m in items], o.max_lines)


@describes("search_mail", "search your mail")
def _search_mail(o: ToolOutcome) -> str:
    items = o.data or []
    query = str(o.arguments.get("query") or "").strip()
    sender = o.arguments.get("sender")
    what = joined(quote(query) if query else "", f"from {sender}" if sender else "")
    if not items:
        return sentence(f"No emails match {what}" if what else "No emails found")
    found = plural(len(items), "email")
    header = f"{found} {'matches' if len(items) == 1 else 'match'} {what}" if what else found
    return listing(header, [_mail_line(m, o.now, True) for m in items], o.max_lines)


@describes("read_email", "read the email")
def _read_email(o: ToolOutcome) -> str:
    mail = o.data
    moment = local(mail.get("date"), o.now)
    when = f", {day_name(moment.date(), o.now)} at {moment:%H:%M}" if moment else ""
    return f"From {mail.get('sender', '')}{when}: {quote(mail.get('subject'))}\n\n{body(mail.get('body'))}"


def _recipients(mail: dict[str, Any]) -> str:
    return ", ".join(mail.get("to") or []) or "nobody"


@describes("draft_email", "save the draft")
def _draft_email(o: ToolOutcome) -> str:
    return f"Saved a draft to {_recipients(o.data)}: {quote(o.data.get('subject'))}."


@describes("send_email", "send the email")
def _send_email(o: ToolOutcome) -> str:
    return f"Sent an email to {_recipients(o.data)}: {quote(o.data.get('subject'))}."


@describes("reply_email", "send the reply")
def _reply_email(o: ToolOutcome) -> str:
    return f"Sent your reply to {_recipients(o.data)}: {quote(o.data.get('subject'))}."


@describes("trash_email", "move the email to the trash")
def _trash_email(o: ToolOutcome) -> str:
    return (f"Moved to the trash: {quote(o.data.get('subject'))} "
            f"from {name_of(o.data.get('sender'))}.")


# -- contacts -------------------------------------------------------------------------------------
def _contact_line(person: dict[str, Any]) -> str:
    return joined(person.get("name"), person.get("email"), person.get("phone"))


@describes("search_contacts", "search your contacts")
def _search_contacts(o: ToolOutcome) -> str:
    people = o.data or []
    query = quote(o.arguments.get("query"))
    if not people:
        return f"No contacts match {query}."
    # a short note says who the person is ("Dentist", "Landlord"): what "who is" asks
    lines = [joined(_contact_line(p), clip(p.get("notes") or "", 60)) for p in people]
    return listing(f"Contacts matching {query}", lines, o.max_lines)


@describes("get_contact", "look up the contact")
def _get_contact(o: ToolOutcome) -> str:
    notes = clip(o.data.get("notes") or "", 300)
    return sentence(_contact_line(o.data)) + (f" Notes: {sentence(notes)}" if notes else "")


@describes("add_contact", "add the contact")
def _add_contact(o: ToolOutcome) -> str:
    return sentence(f"Added to your contacts: {_contact_line(o.data)}")


# -- notes ----------------------------------------------------------------------------------------
@describes("create_note", "save the note")
def _create_note(o: ToolOutcome) -> str:
    return f"Saved a note: {quote(o.data.get('title'))}."


@describes("search_notes", "search your notes")
def _search_notes(o: ToolOutcome) -> str:
    hits = o.data or []
    query = quote(o.arguments.get("query"))
    if not hits:
        return f"No notes match {query}."
    lines = [joined(quote(h.get("title")), clip(h.get("snippet") or "", 100)).replace(", ", ": ", 1)
             for h in hits]
    return listing(f"Notes matching {query}", lines, o.max_lines)


@describes("read_note", "read the note")
def _read_note(o: ToolOutcome) -> str:
    changed = at(o.data.get("updated"), o.now, relative=True)
    head = quote(o.data.get("title")) + (f" (last changed {changed})" if changed else "")
    return f"{head}:\n\n{body(o.data.get('body'))}"


@describes("append_to_note", "add to the note")
def _append_to_note(o: ToolOutcome) -> str:
    return f"Added to the note {quote(o.data.get('title'))}."


# -- files ----------------------------------------------------------------------------------------
def _folder(path: str | None) -> str:
    return "your files folder" if path in (None, "", ".") else f"the folder {path}"


@describes("list_files", "list the folder")
def _list_files(o: ToolOutcome) -> str:
    entries = o.data.get("entries") or []
    folder = _folder(o.data.get("path"))
    if not entries:
        return sentence(f"{folder[:1].upper()}{folder[1:]} is empty")
    lines = [e["path"] + "/" if e.get("kind") == "dir" else joined(e["path"], size(e.get("size")))
             for e in entries]
    return listing(f"In {folder}", lines, o.max_lines, left_out=int(o.data.get("more") or 0))


@describes("read_file", "read the file")
def _read_file(o: ToolOutcome) -> str:
    return f"{o.data.get('path')} ({size(o.data.get('size'))}):\n\n{body(o.data.get('content'))}"


# a file written over whose new text the reply shows in full
_SHORT_FILE_CHARS = 600


@describes("write_file", "write the file")
def _write_file(o: ToolOutcome) -> str:
    done = "Created" if o.data.get("created") else "Replaced"
    said = f"{done} {o.data.get('path')} ({size(o.data.get('bytes_written'))})."
    content = o.arguments.get("content")
    if o.data.get("created") or not isinstance(content, str) or not content.strip() \
            or content.count("\n") >= o.max_lines or len(content) > _SHORT_FILE_CHARS:
        return said
    # a short file written over is shown as it now reads: what changed is the user's to see
    return f"{said[:-1]}; it now reads:\n\n{body(content)}"


@describes("append_to_file", "add to the file")
def _append_to_file(o: ToolOutcome) -> str:
    return f"Added a line to {o.data.get('path')}."


@describes("search_files", "search your files")
def _search_files(o: ToolOutcome) -> str:
    hits = o.data or []
    query = quote(o.arguments.get("query"))
    if not hits:
        return f"No files match {query}."
    return listing(f"Files matching {query}", [_file_hit(h) for h in hits], o.max_lines)


# a Markdown task line: "- [x] car service", "* [ ] renew passport"
_TASK_LINE = re.compile(r"^\s*[-*+]\s+\[(?P<mark>[ xX])\]\s+(?P<task>.+)$")


def _task_line(text: str) -> str:
    """A to-do file's task line said in words: "car service (ticked off: done)". The box
    alone ("- [x]") left a person, or a grader, to know Markdown to learn whether it was
    done."""
    task = _TASK_LINE.match(text)
    if task is None:
        return text
    state = "not done yet" if task["mark"] == " " else "ticked off: done"
    return f"{task['task'].strip()} ({state})"


def _file_hit(hit: dict) -> str:
    """One file hit: its line, or its name. A table's header row comes with the rows under
    it, one per line: the header names the column, the rows hold the value asked for ("the
    p95 for week 4"); the header alone answered nothing."""
    if not hit.get("line"):
        return f"{hit['path']} (its name)"
    said = f"{hit['path']}, line {hit['line']}: {clip(_task_line(hit.get('text', '')), 100)}"
    rows = hit.get("rows") if isinstance(hit.get("rows"), list) else []
    return said + "".join(f"\n  {clip(str(row), 100)}" for row in rows)


# -- everything ---------------------------------------------------------------------------------
# search_everything's kinds -> the describer of the search that found them
_EVERYTHING = {"emails": "search_mail", "events": "search_events", "contacts": "search_contacts",
               "notes": "search_notes", "reminders": "list_reminders", "files": "search_files"}


@describes("search_everything", "search everything")
def _search_everything(o: ToolOutcome) -> str:
    data = o.data if isinstance(o.data, dict) else {}
    parts = [WORDS[tool].describe(replace(o, name=tool, data=data[kind]))
             for kind, tool in _EVERYTHING.items() if data.get(kind)]
    if not parts:
        query = quote(o.arguments.get("query"))
        return (f"Nothing in your mail, calendar, contacts, notes, reminders or files matches "
                f"{query}.")
    return "\n\n".join(parts)
