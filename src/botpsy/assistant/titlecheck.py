"""Titles that say only when, not what.

Asked to "schedule a call with the bank on Monday from 9:00 to 9:30", the 135M
default model stores an event titled "Monday", on the right day and hours. Told so
in words, or held to a loose pattern, it writes worse (an earlier check let the
grammar admit any title sharing a request word: the model wrote ``<tool_call>``,
which contains "call", or copied the error text). ``TitleCheck`` refuses only a
``title`` or ``text`` made of day, time and filler words, and narrows it to what
each clause of the request asks for once its verb, its days and times and its
"in my calendar" are taken off ("call with the bank"): an enum the retry's grammar
lets the model pick from, never free text. A request whose clauses leave nothing
gets the refusal without a narrowing. A new item (``add_reminder``) whose title copies
an item of its own family that a lookup showed, and shares no word with the request, is
refused and narrowed the same way (``copies_a_shown_item``), and so is a title that repeats
a day or time of the request while the call's own time argument holds it, or the tool
takes one (``repeats_the_when``): asked to "remind me to call Anna tomorrow at 9am", the model wrote
the text "Anna tomorrow at 9am" with due "tomorrow 9:00", so the list read the time twice
and the reminder lost what to do. That refusal needs a narrowing: without an asked title
a title that also says when is kept.

What a new note says, where the request labels it ("quick note: mia is shoe size 31 now
and jacket size 128", "new note 'xmas cards' -> aunt rosa, the webers, mrs klein"), is its
body, whole: the model split the first between title and body and kept one name of three
in the second. The first call is held to it, and a body that leaves out a word of it is narrowed to it
(``extract.given_text`` reads it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import Item, acts_on_items, words
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import (
    ACTION_WORDS,
    LOOK_CLAUSE,
    QUOTED,
    STOPWORDS,
    _stem,
    clause_verbs,
    commands,
    creates,
    list_target,
    name_family,
)
from botpsy.assistant.daycheck import named_times
from botpsy.extract import WHEN, WHEN_NAME, WHEN_WORDS, given_text, is_quoted, titles, when_tail
from botpsy.language import WEEKDAYS
from botpsy.types import ToolCall

TITLE_ARGUMENTS = ("title", "text")
# "before it", "after that", a bare "before" that ends the clause: when the new item is,
# counted from another ("set me a reminder an hour before it", "set a reminder half an hour
# before" name no text of their own)
_BEFORE_IT = re.compile(r"\b(?:before|after|ahead of|prior to)\s+(?:it|that|this|then)\b"
                        r"|\b(?:before|after|beforehand|ahead)\W*$",
                        re.IGNORECASE)


def named_title(request: str) -> str | None:
    """The title a request gives in quotes to the item it makes (the first of
    ``extract.titles``), or None."""
    found = titles(request)
    return found[0].value if found else None


TIME_ARGUMENTS = ("due", "start", "end")  # where the item tools take its time
_WORD = re.compile(r"[^\W\d_]+")
_ISO_T = re.compile(r"(?<=\d)T(?=\d)")  # "2026-12-07T09:00": the clock after the T
_SHORT_DAYS = frozenset(name for names in WEEKDAYS["en"] for name in names[1:])  # "Mon", "Tue"
_PLACE = re.compile(
    r"\b(?:in|on|to|into|onto)\s+(?:my|the)\s+(?:calendar|reminders|list)\b", re.IGNORECASE
)
# The words a request asks with ("remind", "book", "add", "schedule", "jot down"): what the
# request does, never what the new item is about.
ASKING_STEMS = frozenset(_stem(w) for verb in ("create", "add") for w in (verb, *ACTION_WORDS[verb])
                         if " " not in w) | {_stem(w) for w in ("remind", "put", "set")}
# Words that name a kind of item: "reminder", "event", "appointment", "note", "entry".
KIND_STEMS = frozenset(_stem(w) for w in ("reminder", "event", "appointment", "meeting", "note",
                                          "entry", "todo", "task", "item", "calendar"))
_PARTICLES = frozenset({"in", "up", "down", "on", "off", "out", "new"})
# Words a clause may hold that ask for nothing: "oh and remind me ...", "ok, also ..."
_FILLERS = frozenset({"oh", "ok", "okay", "also", "plus", "hey", "hi", "um", "uh", "btw", "pls",
                      "please", "thanks", "and", "then", "so", "yeah"})
_LEAD = re.compile(r"^(?:me|to|about|for|down|up|a|an|the|my)\s+", re.IGNORECASE)
# "Add Piranesi to my books to read": the list it goes to is no part of what is added
_TO_LIST = re.compile(r"\s+(?:to|on|onto)\s+(?:my|the|our)\s+[^,.;]*$", re.IGNORECASE)
# "remind me the evening before bouldering to pack my shoes": when, then the task
_TIMED_TASK = re.compile(r"\b(?:before|after|once|when)\b.*?\bto\s+(?P<task>\w.*)$",
                         re.IGNORECASE)


def says_only_when(value: str) -> bool:
    """Whether a title holds no word beyond days, times and fillers ("Monday", "9:00"), as
    a person writes them or as a timestamp ("2026-12-07T09:00", "Mon 7 Dec 09:00": a
    forced call's filler when the model had nothing to write)."""
    words = [w.lower() for w in _WORD.findall(_ISO_T.sub(" ", value))]
    return all(w in STOPWORDS or w in WHEN_WORDS or w in _SHORT_DAYS or WHEN_NAME.match(w)
               for w in words)


def asked_titles(request: str) -> list[str]:
    """What each clause of the request asks for, with its verb, days, times and place
    taken off: "Schedule a call with the bank on Monday from 9:00 to 9:30" -> "call
    with the bank"."""
    titles = []
    listed = any(list_target(clause) for clause in commands(request))
    for clause in commands(request):
        if LOOK_CLAUSE.match(clause):
            continue  # "Find the babysitter's number": what to look up, not to add
        verbs = clause_verbs(clause)
        # the request's verb goes ("Remind me to call Anna"), the task's stays ("call the
        # insurance company", after "Put a reminder in for Thursday 7pm:")
        asking = verbs and _stem(verbs[0]) in ASKING_STEMS
        rest = clause.split(verbs[0], 1)[1] if asking else clause
        rest = _PLACE.sub(" ", WHEN.sub(" ", rest))
        if listed:
            rest = _TO_LIST.sub("", rest)
        rest = " ".join(rest.split()).strip(" ,.")
        while (lead := _LEAD.sub("", rest)) != rest:
            rest = lead
        if asking and (task := _TIMED_TASK.search(rest)):
            rest = task.group("task").strip(" ,.")
        if (rest and not says_only_when(rest) and not _only_fillers(rest)
                and not names_the_kind(_BEFORE_IT.sub(" ", rest))):
            titles.append(rest)
    return list(dict.fromkeys(titles))


def _only_fillers(value: str) -> bool:
    return all(w.lower() in _FILLERS for w in _WORD.findall(value))


def names_the_kind(value: str) -> bool:
    """Whether a title only names the kind of item or the act of making it ("reminder
    in", "book", "an appointment"): no word of what it is about."""
    words = [w.lower() for w in _WORD.findall(value)]
    return all(w in STOPWORDS or w in _PARTICLES or _stem(w) in KIND_STEMS | ASKING_STEMS
               for w in words)


class TitleCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring."""

    def __init__(self, takes: Callable[[str], Collection[str]] | None = None):
        """``takes`` gives a tool's parameter names; with it, a title that repeats the
        request's time is refused even when the call left the time argument out, so the
        day check's "the call gives no due" and this refusal narrow the one retry together
        (the retry keeps what no check refused, and a kept "stretch today at 15:00" would
        be refused again with no retry left)."""
        self._takes = takes

    def expected(self, context: CallContext) -> dict[str, dict[str, list[str]]]:
        """A new item's title, where the request names it in quotes ("a new note called
        'for sam - dad bday'"): the first call writes it (``agent.checks.Anticipating``).
        After one of several items the request asks for was made, the next is one of those
        not made yet: asked for "todo: new batteries for the smoke alarm. oh and remind me
        wed 7am to take the bins out", the 135M model made the first reminder twice."""
        spec = context.tool
        properties = (spec.parameters or {}).get("properties") or {}
        if not creates(spec.name):
            return {}
        title = named_title(context.request)
        # the text the request gives a new note after its name or label ("new note 'xmas
        # cards' -> aunt rosa, the webers next door"): the 135M model kept one of its three names
        given = (given_text(context.request)
                 if "body" in properties and name_family(spec.name) == "note" else None)
        body = {"body": {"enum": [given]}} if given else {}
        if title is not None and "title" in properties:
            return {"title": {"enum": [title]}, **body}
        if body:
            return body
        arg = next((a for a in TITLE_ARGUMENTS if a in properties), None)
        titles = asked_titles(context.request)
        left = _not_made_yet(context, titles)
        if arg is not None and not left and len(titles) == 1:
            left = [named] if (named := _it_named(titles[0], context)) else []
        return {arg: {"enum": left}} if arg is not None and left else {}

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        if not acts_on_items(call.name):
            return None
        title = named_title(context.request)
        written = call.arguments.get("title")
        if (title is not None and creates(call.name) and isinstance(written, str)
                and written.strip().casefold() != title.casefold()):
            return Refusal(f"title {written!r} is not the name the request gives it ({title!r})",
                           {"title": {"enum": [title]}})
        if (left_out := _body_leaves_out(call, context.request)) is not None:
            return left_out
        cut = {arg: quote for arg in TITLE_ARGUMENTS if creates(call.name)
               and (quote := cut_quote(call.arguments.get(arg), context.request))}
        if cut:
            return Refusal("; ".join(f"{arg} {call.arguments[arg]!r} leaves out part of what the "
                                     f"request quotes: {quote!r}" for arg, quote in cut.items()),
                           {arg: {"enum": [quote]} for arg, quote in cut.items()})
        said = context.said
        given = {
            arg: value
            for arg in TITLE_ARGUMENTS
            if isinstance(value := call.arguments.get(arg), str)
            and value.strip()
            and not is_quoted(value, said)
        }
        when = [arg for arg, value in given.items()
                if says_only_when(value) or (creates(call.name) and names_the_kind(value))]
        titles = asked_titles(said)
        # a copy of a shown item's title is junk only where the request names a text of
        # its own: "set me a reminder an hour before it" (the parent-teacher meeting) has
        # none, and the event's title is the reminder's best text
        copied = [
            arg
            for arg, value in given.items()
            if arg not in when and ((titles and copies_a_shown_item(call.name, value, context.shown,
                                                                    said))
                                    or copies_a_label(call, value, context.shown, titles))
        ]
        twice = [
            arg
            for arg, value in given.items()
            if titles
            and arg not in when
            and arg not in copied
            and repeats_the_when(value, call, said, self._timed(call.name))
        ]
        if not when and not copied and not twice:
            return None
        problems = [
            (when, "says when, not what"),
            (copied, "copies an item a lookup showed, not one the request names"),
            (twice, "repeats the request's day or time, which the call's time holds"),
        ]
        reason = "; ".join(
            f"{' and '.join(f'{a} {given[a]!r}' for a in args)} {problem}"
            for args, problem in problems
            if args
        )
        reason += "; write what the user asked for"
        if not titles:
            return Refusal(reason)
        return Refusal(
            f"{reason} ({', '.join(repr(t) for t in titles)})",
            {arg: {"enum": titles} for arg in [*when, *copied, *twice]},
        )

    def _timed(self, tool: str) -> bool:
        """Whether ``tool`` takes a time argument (unknown without ``takes``)."""
        return self._takes is not None and any(a in self._takes(tool) for a in TIME_ARGUMENTS)


def _body_leaves_out(call: ToolCall, request: str) -> Refusal | None:
    """Why a new note's body leaves out a word of what the request says it holds."""
    body = call.arguments.get("body")
    if not creates(call.name) or name_family(call.name) != "note" or not isinstance(body, str):
        return None
    said = given_text(request)
    if said is None or not _content(said) - _content(body):
        return None
    return Refusal(f"body {body!r} leaves out what the request says the note holds: {said!r}",
                   {"body": {"enum": [said]}})


def _content(text: str) -> set[str]:
    """A text's words and its numbers (``words`` leaves the numbers out)."""
    return set(words(text)) | set(re.findall(r"\d+", text))


def cut_quote(value: object, request: str) -> str | None:
    """The phrase the request quotes ("put 'call the insurance about the bike' on my to do
    list") that ``value`` holds only part of ("about the bike"), or None. Why: the quote is
    the user's own wording of the item, kept whole; a part of it is another item, which
    the 135M model wrote as the reminder's text."""
    if not isinstance(value, str) or not (written := words(value)):
        return None
    for match in QUOTED.finditer(request):
        quote = match.group(2).strip()
        if written < words(quote):
            return quote
    return None


# a short task done to "it": "cancel it", "reply to it" (not "a note ... with X in it")
_IT = re.compile(r"^[\w'-]+(?:\s+[\w'-]+)?\s+(?:it|them)$", re.IGNORECASE)
_IT_WORD = re.compile(r"\b(?:it|them)$", re.IGNORECASE)


def _it_named(title: str, context: CallContext) -> str | None:
    """A title that ends in "it" with what "it" is: the words the turn's search looked
    for, where the request holds them all ("how much did cloudbox charge me? remind me on
    the 28th at 6pm to cancel it" -> "cancel cloudbox"), or None. Why: the 135M model wrote
    the text "payments", a word of the mail it found, not what the user asked."""
    if not _IT.search(title):
        return None
    said = words(context.request)
    for message in reversed(context.messages):
        for call in message.tool_calls:
            query = call.arguments.get("query")
            if isinstance(query, str) and (found := words(query)) and found <= said:
                return _IT_WORD.sub(query.strip(), title)
    return None


def _not_made_yet(context: CallContext, titles: list[str]) -> list[str]:
    """Of several titles a request asks for, those no item of the call's family shown in
    this conversation has yet; empty where there is only one, or none was made yet."""
    if len(titles) < 2:
        return []
    family = name_family(context.tool.name)
    made = [words(item.label) for item in context.shown if item.family == family and item.label]
    left = [t for t in titles if not any(m and (words(t) <= m or m <= words(t)) for m in made)]
    return left if len(left) < len(titles) else []


def repeats_the_when(value: str, call: ToolCall, said: str, timed: bool = False) -> bool:
    """Whether ``value`` (a title) ends in a day or time phrase of the request while one of
    the call's time arguments is set and names the same clock time, if the phrase has one:
    the time is then said twice, and the title is usually the request's tail ("Anna
    tomorrow at 9am") rather than what it asks for. ``timed``: the tool takes a time
    argument, so the phrase belongs there even when the call left it out. A time inside
    the title ("10am meeting") or one the call's time does not hold ("the meeting at
    10am" for a reminder due at 9:00) is part of what."""
    times = [
        v for arg in TIME_ARGUMENTS if isinstance(v := call.arguments.get(arg), str) and v.strip()
    ]
    tail = when_tail(value)
    if not (times or timed) or not tail or not value[: tail.span[0]].strip(" ,.-"):
        return False
    phrase = " ".join(tail.text.strip(" ,.").casefold().split())
    if phrase not in " ".join(said.casefold().split()):
        return False
    clock = named_times(phrase)
    held = set().union(*(named_times(_ISO_T.sub(" ", t)) for t in times))
    return not clock or not held or bool(clock & held)


def copies_a_shown_item(tool_name: str, value: str, shown: Iterable[Item], said: str) -> bool:
    """Whether a call that adds an item (``add_reminder``) gives it the title of an item of
    its own family that a lookup showed, sharing no word with the request: asked to
    "remind me on Friday to send the conference talk abstract", the model listed the
    reminders and added "Order Dad's binoculars with Sam" again. A file's or an email's
    lines are another family's, so "add a reminder for each item in todo.md" may copy them."""
    if not creates(tool_name):
        return False
    family, title = name_family(tool_name), value.strip().casefold()
    return not words(value) & words(said) and any(
        item.family == family and item.label.strip().casefold() == title
        for item in shown
    )


def copies_a_label(call: ToolCall, value: str, shown: Iterable[Item], titles: list[str]) -> bool:
    """Whether a text is the title of an item a lookup showed where the request asks for
    another: the title of the note an append goes to ("add Piranesi to my books to read"
    appended "Books to read"), or an event's or a note's title for a new item of another
    kind ("remind me the evening before bouldering to pack my shoes" made the reminder
    "Bouldering with Nora"). Lines of files and mail stay sources of new items."""
    title = value.strip().casefold()
    if not titles or title in {t.casefold() for t in titles}:
        return False
    targets = {v for arg, v in call.arguments.items() if arg.endswith("_id")}
    own = name_family(call.name)
    for item in shown:
        if item.label.strip().casefold() != title:
            continue
        if call.name.startswith("append") and item.id in targets and item.family == own:
            return True
        if creates(call.name) and item.family in ("event", "note") and item.family != own:
            return True
    return False
