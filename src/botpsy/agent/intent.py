"""Writes the request did not ask for do not run: the request's intent bounds the calls.

The confirmation gate asks whether a person approves a side effect; ``--yes`` approves
every untainted one in advance. That leaves writes nobody asked for: a question about a
gift's price that creates a contact, a "draft ... don't send anything yet" that sends, a
draft to the landlord addressed to someone else. These checks read what the user wrote
(never the tool results) and refuse such a call before it runs, in every call mode and
whatever the model: they judge the request's intent and the provenance of an argument,
not a model's habits, so a model that does what was asked never meets them.

``IntentCheck`` (an ``Agent`` call check) refuses a call of a tool that writes
(an act tool in ``selection.tool_role``'s sense):

- when the latest request says not to do that action ("don't send", "do not email",
  "without sending"): never, ``--yes`` or not;
- a send when the latest request asks for a draft and does not say "send";
- when the latest request is a question or a lookup ("What's ...?", "Show me ...") and
  names none of the tool's action words: a question creates nothing;
- a draft or send to an address that neither the user wrote nor belongs to an item a
  lookup showed that matches the request's words ("the landlord" -> the contact whose
  card says landlord, not the Tom the model picked);
- a new item or message of a kind the request never names, by its action or its kind's
  words, in a request that asks for another action ("remind me at 6 to call the bank"
  makes no event; ``other_kind``);
- a new item of the kind the request adds someone to ("add mum to the sunday dinner as a
  guest" changes that event, it makes none; ``selection.joined_kinds``), or of the kind
  whose item the request says is changed ("sunday dinner at mum's is at 7 now": the
  dinner moves, none is made; ``selection.CHANGED_NOW``);
- a new item or a message of another kind than where the request puts what it adds
  ("add '- [ ] book flights' to my todo file" makes no contact; ``destinations``): the
  retry calls the tools that add there;
- an append to a list the user keeps that leaves out what the request adds to it
  (``selection.listed_item``);
- a new item or a message made from things the request leaves to a lookup ("make a
  reminder for each thing not done yet", "whatever's on my list for saturday, block an
  hour for it") before any lookup of this request showed anything (``_unread_things``):
  the 135M model made one reminder titled "make a reminder for tomorrow 9am", and an
  event titled "whatever".
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import recipient_words, result_objects, user_text, words
from botpsy.agent.selection import (
    _QUESTION,
    ACTION_WORDS,
    CHANGE_NOTHING,
    CHANGED_NOW,
    DAY_WORDS,
    LABELLED,
    LOOK_VERBS,
    REMIND_ME_TELL,
    SOURCE,
    Bm25ToolSelector,
    ToolRole,
    added_item,
    commands,
    creates,
    joined_kinds,
    listed_item,
    name_family,
    stem_words,
    tool_role,
)
from botpsy.extract import EMAIL_ADDRESS
from botpsy.language import relation_forms
from botpsy.safety.taint import AGENT_SOURCE
from botpsy.types import Message, ToolCall

if TYPE_CHECKING:  # the rules' registry reads this module
    from botpsy.agent.rules import CallContext

# Verbs of tools that find rather than write, beyond the look verbs ("find_free_slots").
FINDING_VERBS = frozenset({"find", "check"})
# A request that opens like this asks to see something, as a question does.
_LOOKUP_OPENING = re.compile(
    r"^\W*(?:please\s+)?(?:(?:can|could|would) you\s+)?(?:show|list|find|look\s+up|check|"
    r"tell me|give me|read|search|get me|remind me(?:\s+again)?\s+(?:who|what|when|where|which|"
    r"how|whose|of)|what|when|where|who|how)\b",
    re.IGNORECASE)
# "don't send", "do not email him", "without sending", "never share", "hold off on
# sending"; "don't forget to email" is no negation.
_NEGATION = re.compile(
    r"\b(?:don['’]?t|do not|never|not|no need to|without|shouldn['’]?t|mustn['’]?t|"
    r"hold\s+off(?:\s+on)?)\s+"
    r"((?:[\w'’-]+\s*){1,3})", re.IGNORECASE)
_NOT_NEGATING = frozenset({"forget", "hesitate", "only"})
NEGATION_REACH = 3  # words after the negation that it covers
# "tell me" asks the assistant, not a third person: no cue of sending; "remind me who ...",
# "just remind me" asks to be told, not for a reminder.
_TELL_ME = re.compile(rf"\btell me\b|\blet me know\b|\bshow me\b|{REMIND_ME_TELL.pattern}",
                      re.IGNORECASE)
SEND_TOOLS = frozenset({"send_email", "reply_email"})
DRAFT_TOOL = "draft_email"
# The tools that write a message, sent or kept as a draft.
MESSAGE_TOOLS = SEND_TOOLS | {DRAFT_TOOL}
DRAFT_WORDS = frozenset({"draft", "prepar", "compos"})  # stems
RECIPIENT_ARGUMENTS = frozenset({"to", "cc", "bcc", "recipients"})
# What a message says: it must not be only its recipient's card.
CONTENT_ARGUMENTS = frozenset({"subject", "body", "text"})


def latest_request(messages: list[Message]) -> str:
    """The user's latest message of their own (not an agent note)."""
    for message in reversed(messages):
        if message.role == "user" and not (message.source or "").startswith(AGENT_SOURCE):
            return message.content or ""
    return ""


def writes(tool_name: str) -> ToolRole | None:
    """The role of a tool that changes the store, or None for one that only looks."""
    role = tool_role(tool_name, name_family(tool_name), ACTION_WORDS)
    verb = tool_name.split("_", 1)[0]
    if role.look or verb in LOOK_VERBS | FINDING_VERBS:
        return None
    return role


def asks_for(role: ToolRole, text: str) -> bool:
    """Whether ``text`` names the tool's action (its verb or a cue of it)."""
    plain = _TELL_ME.sub(" ", text)
    return role.named_in(plain, set(stem_words(plain)))


def forbidden(role: ToolRole, text: str) -> str | None:
    """The negated words when ``text`` says not to do the tool's action ("don't send")."""
    for match in _NEGATION.finditer(text):
        following = match.group(1).split()[:NEGATION_REACH]
        if following and following[0].lower() in _NOT_NEGATING:
            continue
        for index, word in enumerate(following):
            if set(stem_words(word)) & role.cues:
                head = text[match.start():match.start(1)].strip()
                return " ".join([head, *following[:index + 1]])
    return None


def _nothing_changes(text: str) -> str | None:
    """The words of a request that rule out every change ("no changes"), or None."""
    match = CHANGE_NOTHING.search(text)
    return match.group() if match else None


def _asks_to_write(role: ToolRole, said: str, latest: str) -> bool:
    """Whether a request asks for the call's action: its words name it, or a clause of the
    latest request that is no lookup asks for it (``ToolRole.asked_in``). Why: "whats Sam's
    email? tell him I'm in" asks a question and then for a message, and "tell" counts as a
    verb only where it opens a clause."""
    return asks_for(role, said) or any(
        role.asked_in(clause) for clause in commands(latest) if not is_lookup(clause))


def is_lookup(text: str) -> bool:
    """A question, or a request to be shown something."""
    return bool(_QUESTION.search(text) or _LOOKUP_OPENING.search(text))


class IntentCheck:
    """A call check (``Agent(call_checks=[...])``); see the module docstring. ``own`` gives
    the user's own addresses (a draft to oneself needs no lookup)."""

    def __init__(self, own: Callable[[], Iterable[str]] = tuple,
                 adders: Callable[[str, bool], Iterable[str]] = lambda family, new: ()):
        """``adders`` gives the tools that add to items of a family ("file":
        ``append_to_file``), or that make a new one (``new``): a call refused for making an
        item where the request puts it elsewhere is retried with those
        (``Refusal.instead``)."""
        self._own = own
        self._adders = adders

    def __call__(self, call: ToolCall, messages: list[Message]) -> str | Refusal | None:
        role = writes(call.name)
        if role is None:
            return None
        latest = latest_request(messages)
        said = user_text(messages)
        negated = forbidden(role, latest) or _nothing_changes(latest)
        stems = set(stem_words(latest))
        drafting = call.name in SEND_TOOLS and _draft_only(stems)
        # a draft asked for, with the send ruled out ("draft ... do not send it")
        wants_draft = call.name in SEND_TOOLS and bool(stems & DRAFT_WORDS) and (
            drafting or bool(negated))
        instead = (DRAFT_TOOL,) if wants_draft else ()
        if negated:
            return Refusal(f"the request says {negated!r}: {call.name} must not run; do what "
                           "it asks and say what was left undone", instead=instead)
        if drafting:
            return Refusal(f"the request asks for a draft, not to send: use {DRAFT_TOOL}, "
                           f"never {call.name}", instead=instead)
        if is_lookup(latest) and not _asks_to_write(role, said, latest):
            return (f"the request asks a question and does not ask to {role.name}: answer "
                    "it from what the lookups showed, and change nothing")
        return (_unasked_kind(call.name, role, latest) or self._elsewhere(call.name, role, latest)
                or _unread_things(call.name, messages)
                or self._recipients(call, messages, said) or _card_content(call, messages)
                or _list_item(call, latest))

    def _elsewhere(self, name: str, role: ToolRole, request: str) -> Refusal | None:
        """Why a new item or message goes against where the request says what it adds
        goes ("add '- [ ] book flights' to my todo file" made a contact; "copy the stuff
        from my groceries note into todo.md" made a note): of another kind than that
        place, and of a kind the rest of the request does not name. None where the
        request names no place. The retry calls a tool that adds to the place instead."""
        if not (creates(name) or name in MESSAGE_TOOLS):
            return None
        into, rest = destinations(request)
        if not into or role.family in into or role.family in named_kinds(rest):
            return None
        instead = tuple(tool for family in sorted(into)
                        for tool in self._adders(family, into[family]))
        return Refusal(f"the request puts what it adds into a {' or '.join(sorted(into))}, "
                       f"not a new {role.family}: {name} must not run; add it where the "
                       "request says", instead=instead)

    def _recipients(self, call: ToolCall, messages: list[Message], said: str) -> Refusal | None:
        written = [a.lower() for arg, value in call.arguments.items()
                   if arg in RECIPIENT_ARGUMENTS for a in EMAIL_ADDRESS.findall(str(value))]
        if not written:
            return None
        allowed = {a.lower() for a in self._own() if a} | {
            a.lower() for a in EMAIL_ADDRESS.findall(said)}
        fitting = self.fitting(messages, said)
        stray = [a for a in written if a not in allowed and a not in fitting]
        if not stray:
            return self._whole_group(call, messages, written, fitting - allowed)
        offered = sorted(fitting)
        hint = (f"; the addresses of what the request names: {', '.join(offered[:5])}"
                if offered else "; look up the person the request names first")
        narrow = {"to": {"enum": offered}} if offered and "to" in call.arguments else {}
        return Refusal(f"{stray[0]!r} is not the address of anyone the request names" + hint,
                       narrow)


    @staticmethod
    def _whole_group(call: ToolCall, messages: list[Message], written: list[str],
                     group: set[str]) -> Refusal | None:
        """Why a message to the people of one shown item leaves some of them out, or None.
        Only where the request names no one (``recipient_words``: "who's invited to the
        review? email them ...") and one item holds every fitting address (an event's
        attendees): "them" is all of them, and a 135M model wrote to the first alone."""
        if (len(group) < 2 or "to" not in call.arguments or group <= set(written)
                or recipient_words(latest_request(messages))):
            return None
        if not any(group <= _addresses_of(item) for _, item in
                   result_objects(messages, with_id=False)):
            return None
        everyone = ", ".join(sorted(group))
        left = sorted(group - set(written))
        return Refusal(f"the message leaves out {', '.join(left)}: the request writes to "
                       f"everyone the item it names holds; to is {everyone!r}",
                       {"to": {"enum": [everyone]}})

    @staticmethod
    def fitting(messages: list[Message], said: str) -> set[str]:
        """The addresses of what the request names as the one to write to (its
        ``recipient_words``: "let my landlord know" -> the card that says landlord), else
        of anything a lookup showed that shares a word with the request."""
        recipients = recipient_words(latest_request(messages))
        return fitting_addresses(messages, " ".join(recipients) if recipients else said)

    def expected(self, context: CallContext) -> dict[str, dict[str, list]]:
        """Before a draft or send: its recipient held to the addresses of the person the
        request names, once a lookup showed them, and its subject and body to the message
        the request dictates ("... that my laptop charger is broken": ``dictated``)
        (``agent.checks.Anticipating``)."""
        spec, messages = context.tool, context.messages
        if writes(spec.name) is None:
            return {}
        properties = (spec.parameters or {}).get("properties") or {}
        required = set((spec.parameters or {}).get("required") or [])
        request = latest_request(messages)
        held: dict[str, dict[str, list]] = {}
        meant = dictated(request)
        if meant is not None:
            # a body that must carry more than the words said is held by what looks that up
            held = {arg: {"enum": [getattr(meant, arg)]} for arg in ("subject", "body")
                    if arg in properties and not (arg == "body" and carries_more(request))}
        said = user_text(messages)
        fitting = self.fitting(messages, said) if recipient_words(request) else set()
        held |= {arg: {"enum": sorted(fitting)} for arg in properties
                 if fitting and arg in RECIPIENT_ARGUMENTS and arg in required}
        return held


# Tools that all send a message of one kind: asking for one is no other action than another.
_MESSAGE_VERBS = frozenset({"send", "reply", "draft"})


@cache
def _action_roles() -> tuple[ToolRole, ...]:
    """One role per action that writes (``ACTION_WORDS``' verbs, the finding ones aside)."""
    return tuple(tool_role(f"{verb}_item", "item", ACTION_WORDS) for verb in ACTION_WORDS
                 if verb not in LOOK_VERBS | FINDING_VERBS)


@cache
def _kind_reader() -> Bm25ToolSelector:
    return Bm25ToolSelector()


def named_kinds(text: str) -> set[str]:
    """The kinds of item (families) the words of ``text`` name, its days and times aside
    ("on Friday" is when, not what: no event)."""
    return set(_kind_reader().query_terms(DAY_WORDS.sub(" ", text), hints=False))


def other_kind(role: ToolRole, text: str) -> str | None:
    """The action ``text`` asks for instead, when a call of ``role`` makes a kind of item
    or message the request never names, by the tool's action words or its kind's words,
    and one of its clauses asks for another action by its verb ("remind me at 6 to call
    the bank": add, not create_event). None when the request names the tool's action or
    kind, when it is a labelled item ("todo: ..."), or when it asks for no action ("Dentist
    tomorrow at 3pm")."""
    verb = role.name.split("_", 1)[0]
    if asks_for(role, text) or role.family in named_kinds(text) or LABELLED.match(text):
        return None
    kin = _MESSAGE_VERBS if verb in _MESSAGE_VERBS else {verb}
    for clause in commands(text):
        for other in _action_roles():
            if other.name.split("_", 1)[0] not in kin and other.asked_in(clause):
                return clause
    return None


def _unasked_kind(name: str, role: ToolRole, request: str) -> str | None:
    """Why a call that makes an item or a message was not asked for (``other_kind``,
    ``selection.joined_kinds``), or None."""
    if not (creates(name) or name in MESSAGE_TOOLS):
        return None
    clauses = commands(request)
    joins = [c for c in clauses if role.family in joined_kinds(c)]
    # unless another clause asks for a new one ("remind me at 6 ..., and put his number in
    # the reminder")
    if creates(name) and joins and not any(role.asked_in(c) for c in clauses if c not in joins):
        return (f"the request adds to a {role.family} that exists: change that one, never "
                f"make a new one with {name}")
    changed = [c for c in clauses if CHANGED_NOW.search(c) and role.family in named_kinds(c)]
    if creates(name) and changed:
        return (f"the request says a {role.family} that exists changes ({changed[0]!r}): "
                f"change that one, never make a new one with {name}")
    asked = other_kind(role, request)
    if asked is None:
        return None
    return (f"the request asks to {asked!r} and names no {role.family}: {name} must not run; "
            "do what it asks")


# Where a request puts what it adds: "into todo.md", "to my todo file", "in a new note", "in
# my calendar"; each kind word to the family of the tools that hold it.
_GOES_INTO = re.compile(
    r"\b(?:into|to|onto|in)\s+(?:(?:a|an|the|my|our)\s+)?(?P<new>new\s+)?(?:[\w'-]+\s+){0,2}?"
    r"(?P<kind>notes?|file|calendar|event|reminders?|draft)\b"
    r"|\b(?:into|to|onto)\s+(?:(?:the|my|our)\s+)?(?P<file>[\w-]+\.[a-z][a-z0-9]{1,3})\b",
    re.IGNORECASE)
_KIND_FAMILIES = {"note": "note", "notes": "note", "file": "file", "calendar": "event",
                  "event": "event", "reminder": "remind", "reminders": "remind",
                  "draft": "email"}


def destinations(request: str) -> tuple[dict[str, bool], str]:
    """The families a request says what it adds goes into (``_GOES_INTO``), each with
    whether it goes into a new one ("into a new note"), and the request without those
    phrases and without where it takes things from (``SOURCE``): what is left names what
    it makes."""
    found: dict[str, bool] = {}
    for m in _GOES_INTO.finditer(request):
        family = "file" if m.group("file") else _KIND_FAMILIES[m.group("kind").lower()]
        found[family] = found.get(family, False) or bool(m.group("new"))
    rest = SOURCE.sub(" ", _GOES_INTO.sub(" ", request))
    return found, rest


# Things a request names only by where they are, for a lookup to show: "for each thing",
# "every item", "whatever's on", "those things", "all of them"
_FOUND_THINGS = re.compile(
    r"\bfor\s+(?:each|every|all)\b|\beach\s+(?:one|thing|item|task|entry)\b|"
    r"\bwhatever(?:['\u2019]s|\s+is|\s+was)?\s+(?:on|in)\b|\b(?:those|these)\s+(?:things|items|ones)\b",
    re.IGNORECASE)


def _unread_things(name: str, messages: list[Message]) -> str | None:
    """Why a new item or message made from things the latest request leaves to a lookup
    runs before any lookup of that request showed a result (see the module doc), or None."""
    if not (creates(name) or name in MESSAGE_TOOLS):
        return None
    found = _FOUND_THINGS.search(latest_request(messages))
    if found is None or looked_up(messages):
        return None
    return (f"the request makes {name} from what a lookup shows ({found.group()!r}), and no "
            "lookup has run yet: look it up first, or say what could not be found")


def looked_up(messages: list[Message]) -> bool:
    """Whether a tool gave a result after the user's latest request (a refused or failed
    call's error is none)."""
    for message in reversed(messages):
        if message.role == "tool" and not (message.content or "").startswith("Error"):
            return True
        if message.role == "user" and not (message.source or "").startswith(AGENT_SOURCE):
            return False
    return False


APPEND_VERB = "append"
_TAKEN_FROM = re.compile(r"\bfrom\b", re.IGNORECASE)


def _list_item(call: ToolCall, request: str) -> Refusal | None:
    """Why an append to a list the user keeps leaves out what the request adds to it
    ("add oat milk and bananas to the groceries" appended only "bananas"; "Add Piranesi to
    my books to read" appended "Books"), or adds words of its own ("add umbrella to my
    packing list file" appended "unhomed umbrella"): the text's words must be the item's
    (marks such as a list's "- [ ]" aside). The retry is held to the item as the user
    wrote it."""
    text = call.arguments.get("text")
    if call.name.split("_", 1)[0] != APPEND_VERB or not isinstance(text, str):
        return None
    # a file's line too: "add '- [ ] book flights' to my todo file" appended "all done", an
    # instruction a file found by the search held
    to_file = name_family(call.name) == "file"
    # an item taken from elsewhere ("add the booking code from my train ticket to ...") is
    # looked up, not written as said (``assistant.referencecheck``)
    items = [item for clause in commands(request)
             if (item := listed_item(clause) or (added_item(clause) if to_file else None))
             and words(item) and not _TAKEN_FROM.search(item)]
    if not items or any(words(item) == words(text) for item in items):
        return None
    if any(words(item) < words(text) for item in items):
        return Refusal(f"text {text!r} adds words the request does not: add {items[0]!r}",
                       {"text": {"enum": items}})
    return Refusal(f"text {text!r} leaves out what the request adds: {items[0]!r}",
                   {"text": {"enum": items}})


def _card_content(call: ToolCall, messages: list[Message]) -> Refusal | None:
    """Why a message's subject or body is no message: it only repeats its recipient's
    contact card (the name, the address, the card's notes), which a lookup showed. Why: a
    135M model asked to "email Dan the p95 from last week" sent Dan the subject "Dan
    Okafor" and the body "CFO", and one asked to send Jamie a reading list sent "Partner";
    a message nobody asked for is worse than none. Where the request says the message
    ("that Jamie will be home on Tuesday", "asking if climbing is still on":
    ``said_message``), the retry is held to it; else an address is kept out of it."""
    written = {a.lower() for arg, value in call.arguments.items()
               if arg in RECIPIENT_ARGUMENTS for a in EMAIL_ADDRESS.findall(str(value))}
    if not written:
        return None
    cards = [item for _, item in result_objects(messages, with_id=False)
             if str(item.get("email", "")).lower() in written]
    card_words = {w for item in cards for v in item.values() if isinstance(v, str)
                  for w in words(v)}
    asked = words(user_text(messages))
    junk: dict[str, bool] = {}  # argument -> whether it is an address
    for arg in sorted(CONTENT_ARGUMENTS & set(call.arguments)):
        value = call.arguments[arg]
        if not isinstance(value, str) or not value.strip():
            continue
        only_address = EMAIL_ADDRESS.fullmatch(value.strip()) is not None
        said = words(EMAIL_ADDRESS.sub(" ", value))
        if only_address or _from_card(said, card_words, asked):
            junk[arg] = only_address
    if not junk:
        return None
    meant = said_message(latest_request(messages))
    narrow: dict[str, dict[str, object]] = {}
    for arg, address in junk.items():
        if meant is not None and arg in ("subject", "body"):
            narrow[arg] = {"enum": [getattr(meant, arg)]}
        elif address:  # kept out of the retry's text by its grammar; a name cannot be
            narrow[arg] = {"pattern": '^[^@"\\\\]*$'}
    shown = ", ".join(f"{arg} {call.arguments[arg]!r}" for arg in junk)
    return Refusal(f"{shown}: the recipient's contact card, not a message: write what the "
                   "request asks to say or send", narrow)


def _from_card(said: frozenset[str], card: set[str], asked: frozenset[str]) -> bool:
    """Whether a message's words are its recipient's card rather than the request: all of
    them the card's, or mostly the card's with none the user wrote (a body that copied the
    card's notes with a word misspelt, "confirm thursday's lunch" sent as the recipient's
    job title and diet)."""
    if not said:
        return False
    if said <= card:
        return True
    return not (said & asked) and 2 * len(said & card) > len(said)


@dataclass(frozen=True)
class SaidMessage:
    """A message in the user's own words: its subject and body."""

    subject: str
    body: str


# What a request says a message says: "that ...", "saying ...", "asking if ...", a clause of
# its own ("answer the dentist's mail, say i'll be there monday"), the words right after
# "let ... know" or "tell her" ("let mia's school know jamie and I will both come", "find
# nora's email and tell her I'm running late": no "that" is needed).
_SAYS = re.compile(
    r"\b(?P<cue>that|saying|to say|telling (?:him|her|them)|asking (?:(?:him|her|them) )?"
    r"(?:if|whether|about|to)|asking if|about|confirming|to confirm|(?<=, )say|(?<=\band )say"
    r"|(?:let (?!me\b)(?:[\w']+ ){1,3}?know|tell (?:him|her|them))"
    r"(?! (?:that|about|if|whether|to|by|via|over|through)\b))\s+(?P<said>[^.!?;]+)",
    re.IGNORECASE)
# "email sam@x and tell him I'm in": the words after "tell him" are the message's
_TELL_ONE = re.compile(r"^tell (?:him|her|them)$")
_SECOND_PERSON = {"him": "you", "them": "you", "his": "your", "their": "your"}
_TRAILING = frozenset({"to", "the", "a", "an", "at", "on", "for", "of", "with", "and", "in", "my",
                       "your", "is"})


# "reply to the dentist reminder mail: monday 8:30 works, see you then", "reply to priya's
# mail about our 1:1 - wednesday 2pm is fine by me": the words after the colon or the
# spaced dash that follows whom or what a message answers
_AFTER_COLON = re.compile(
    r"^\W*(?:please\s+)?(?:reply|respond|answer|write back|e-?mail|text|message|tell|draft)\b"
    r"(?:[^:\u2013\u2014]|(?<=\d):(?=\d)){0,80}?(?:(?<!\d):(?!\d)|\s(?:-|\u2013|\u2014)+\s)"
    r"\s*(?P<said>\S.*)$",
    re.IGNORECASE)
# "nora asked about climbing - reply yes and she can pick me up at 9:30": an answer word
# right after the verb, and then a mark or "and", opens the reply's own words ("answer no
# to the survey" says what to answer, not the words)
_ANSWERED = re.compile(
    r"\b(?:reply|respond|answer|write\s+back|text\s+back)\s+(?:with\s+(?:a\s+)?)?"
    r"(?P<said>(?:yes|yeah|yep|no|nope|sure|ok|okay|sounds\s+good|definitely|absolutely|"
    r"of\s+course)(?=\s*(?:[,!]|and\b|but\b|$))[^.!?;]*)", re.IGNORECASE)
# The one a reply answers, named in the third person in the user's words, is "you" in the
# reply: "she can pick me up" -> "you can pick me up" (before a modal verb only, which
# needs no other word changed)
_THIRD_PERSON = re.compile(r"\b(?:she|he)(?=\s+(?:can|could|will|would|should|may|might|must)\b)"
                           r"|\b(?:she|he)['\u2019]s\b", re.IGNORECASE)
_DONT_SEND = re.compile(r",?\s*(?:(?:and|but)\s+)?(?:do not|don't|dont|without|"
                        r"hold\s+off(?:\s+on)?)\s+send.*$", re.IGNORECASE)
# What the message must carry besides its dictated words, said last ("..., with the address"):
# the user's to the assistant, which looks it up (``assistant.eventfacts``), not the message's
CARRIES_MORE = re.compile(r",?\s*\b(?:with|and|plus|incl\w*)\s+the\s+(?:address|location|venue|"
                          r"time|details)\s*$", re.IGNORECASE)
_MESSAGE_NOUNS = frozenset({"email", "e-mail", "mail", "message", "msg", "note", "line", "reply",
                            "quick", "short", "text"})
# A request that passes something on ("send jamie my reading list", "email Dan the p95 in
# latency_numbers.csv") says what the message carries, not its words.
_PASSES_ON_ITEM = re.compile(r"\b(?:from|in)\s+(?:my|the)\s+(?:notes?|files?|mail|inbox|calendar)\b"
                             r"|\b[\w-]+\.[a-z0-9]{2,4}\b", re.IGNORECASE)


def dictated(request: str) -> SaidMessage | None:
    """The message a request dictates word for word, to be written before any call: one
    that says what the message says with "that" or "saying" right after whom it goes to
    ("draft an email to helpdesk@... that my charger is broken", "text Jamie saying I'm
    late"), in a request that passes on no item. Other cues ("about", "asking if") name a
    topic the model may word; they hold only a refused call's retry (``said_message``)."""
    if _PASSES_ON_ITEM.search(request):
        return None
    colon = _AFTER_COLON.match(request)  # "reply to the dentist mail: monday works"
    if colon and (message := _as_written(colon.group("said"))) is not None:
        return message
    answer = _ANSWERED.search(request)  # "reply yes and she can pick me up at 9:30"
    if answer and (message := _as_written(_to_recipient(answer.group("said")))) is not None:
        return message
    match = _SAYS.search(request)
    cue = match.group("cue").lower() if match is not None else ""
    told = _TELL_ONE.match(cue) is not None
    if match is None or not (cue in ("that", "saying", "to say", "say") or told):
        return None
    before = request[:match.start()].lower().split()
    if cue != "say" and not told and any(w in ("the", "a", "an") and nxt not in _MESSAGE_NOUNS
           for w, nxt in itertools.pairwise(before)):
        return None  # "send Jamie the file that I saved": "that" tells which file
    return said_message(request)


def _as_written(said: str) -> SaidMessage | None:
    """A message of the user's words as written (a capital, a closing mark), its subject
    their first words; None for fewer than two words."""
    said = _without_send(said.strip())
    if len(said.split()) < 2:
        return None
    body = f"{said[0].upper()}{said[1:]}"
    body += "" if body[-1] in ".!?" else "."
    return SaidMessage(subject=" ".join(body.rstrip(".!?").split()[:6]), body=body)


def _to_recipient(said: str) -> str:
    """The user's words about the one a reply answers, turned to them ("she can pick me
    up" -> "you can pick me up", "he's right" -> "you're right")."""
    return _THIRD_PERSON.sub(lambda m: "you're" if m.group().lower().endswith("s") else "you", said)


def carries_more(request: str) -> bool:
    """Whether a message the request dictates must also carry what it names last ("draft
    jonas a msg that I'll meet him at the lunch place on thursday, with the address")."""
    match = _SAYS.search(request)
    return match is not None and bool(CARRIES_MORE.search(_DONT_SEND.sub("", match.group("said"))))


def _without_send(said: str) -> str:
    """A dictated message without the instruction about sending it ("..., don't send it
    yet") or about what else it carries ("..., with the address"), which are the user's to
    the assistant, not the message's."""
    return CARRIES_MORE.sub("", _DONT_SEND.sub("", said).strip(" ,")).strip(" ,")


def said_message(request: str) -> SaidMessage | None:
    """The message a request dictates, in its own words, or None: "let my landlord know
    that Jamie will be home on Tuesday" -> "Jamie will be home on Tuesday."; "asking if
    climbing is still on" -> "Hi, I wanted to ask if climbing is still on."; "asking him
    to call back" -> "Could you call back?"; "about the slides" -> "Hi, this is about the
    slides."; "confirming thursday's lunch" -> "Hi, just confirming thursday's lunch." The
    one it is sent to is "you" ("meet him at noon" -> "meet you at noon")."""
    match = _SAYS.search(request)
    if match is None:
        return None
    said = _without_send(" ".join(_SECOND_PERSON.get(w.lower(), w)
                                  for w in match.group("said").split()))
    if len(said.split()) < 2:
        return None
    cue = match.group("cue").lower()
    if cue.endswith(" to"):
        body = f"Could you {said}?"
    elif cue.endswith((" if", " whether")):
        body = f"Hi, I wanted to ask {cue.rsplit(' ', 1)[1]} {said}."
    elif cue.endswith("about"):
        body = f"Hi, this is about {said}."
    elif cue.endswith("confirm") or cue == "confirming":
        body = f"Hi, just confirming {said}."
    else:
        body = f"{said[0].upper()}{said[1:]}."
    head = said.split()[:6]
    while len(head) > 1 and head[-1].lower() in _TRAILING:  # "... the checkup to" -> "... the checkup"
        head.pop()
    subject = " ".join(head).rstrip(",")
    return SaidMessage(subject=f"{subject[0].upper()}{subject[1:]}", body=body)


def _draft_only(stems: set[str]) -> bool:
    """Whether the request's stems ask for a draft and never say "send"."""
    return bool(stems & DRAFT_WORDS) and "send" not in stems


def _strings_of(item: dict) -> list[str]:
    """An item's string fields and the strings in its list fields (an event's attendees)."""
    return [v for v in item.values() if isinstance(v, str)] + [
        x for v in item.values() if isinstance(v, list) for x in v if isinstance(x, str)]


def _addresses_of(item: dict) -> set[str]:
    """The addresses an item's strings hold, those in its list fields too (attendees)."""
    return {a.lower() for a in EMAIL_ADDRESS.findall(" ".join(_strings_of(item)))}


def fitting_addresses(messages: list[Message], said: str) -> set[str]:
    """Addresses held by the tool-result items that fit the request best: those sharing the
    most words with it (the address's own words aside: "email" is in every request that
    sends one), and of those, the ones with a field the request names whole. Why: "send my
    partner the grocery list" matched Jamie ("Partner") and Nora ("Climbing partner,
    Saturdays") by one word each; the card that says only "Partner" is the partner. The
    strings in a list field count too: "who's invited to the roadmap review? email them"
    writes to the addresses an event holds in its attendees."""
    said_words = re.findall(r"[a-z]+", said.lower())
    related = [f for w in said_words for f in relation_forms(w) if f != w]
    # a relation in any of its words: "let mum know" is the card that says "Mom."
    wanted = words(" ".join([said, *related])) - {"email", "mail", "address", "draft", "send"}
    scored: list[tuple[tuple[int, bool], set[str]]] = []
    for _, item in result_objects(messages, with_id=False):
        values = _strings_of(item)
        held = _addresses_of(item)
        shared = words(EMAIL_ADDRESS.sub(" ", " ".join(values))) & wanted
        if held and shared:
            whole = any(words(v) and words(v) <= wanted for v in values if "@" not in v)
            scored.append(((len(shared), whole), held))
    best = max((score for score, _ in scored), default=None)
    return {a for score, held in scored if score == best for a in held}


