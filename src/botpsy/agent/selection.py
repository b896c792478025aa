"""Dynamic tool selection: show the model only the tools a request needs.

Every tool schema in the prompt costs prefill time on a phone and distracts a
small model. ``Bm25ToolSelector`` picks tool *families* for what a request is
about, then the tools of each family for what it asks to do:

1. tools are grouped into families by the noun of their name (``send_email``,
   ``read_email``, ``list_inbox``, ``search_mail`` -> email; aliases in
   ``FAMILY_ALIASES``), or by an explicit ``families`` mapping;
2. the query is stemmed (Snowball) and expanded with a small synonym table for
   the assistant's domains ("meeting" -> event, "train ticket" -> email, where
   bookings arrive), plus three hints: an email address means email, a file name
   means file, a capitalised name mid-sentence ("with Sam") means contact;
3. a family is chosen when the expanded query names it, or when its BM25 score
   (rank-bm25, over the family's names, descriptions and parameter names) is
   within ``ratio`` of the best family's, at most ``k`` of those;
4. within a chosen family the *look* tools (``list_``, ``search_``, ``read_``,
   ``get_``: needed to find the item any action works on) are always kept, and
   the *act* tools only when the request names their action ("move" ->
   ``update_event``, "cancel" -> ``delete_event``; ``ACTION_WORDS``). A family
   whose act tools the request does not name keeps all of them, so a vague
   follow-up ("make it 19:30") still sees ``update_event``;
5. tools already used in the conversation are always kept (a follow-up like
   "and send it" must still see ``send_email``);
6. ``Selection.requested`` says what the request asks to be done, one group of
   act tools per clause ("look up Tom's number and *save it in a note*" ->
   ``create_note``); single_call mode forces those calls after a lookup.

The chosen tools keep the registry's order, so consecutive prompts share the
longest possible prefix and the llama.cpp KV cache is reused. When the request
matches nothing at all, every tool is shown: the model decides, as it would
without selection.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import snowballstemmer
from rank_bm25 import BM25Okapi

from botpsy.extract import EMAIL_ADDRESS, TICK_VERB, ticked_lines
from botpsy.language import (
    MONTHS,
    RELATION_GROUPS,
    RELATIVE_DAYS,
    ROLES,
    WEEKDAYS,
    alternation,
    full_names,
)
from botpsy.types import ToolSpec

# Snowball stemmers keep the word being stemmed in the object: one per thread, since
# the server and parallel evals select tools from several threads at once.
_STEMMERS = threading.local()
_NAME_PART = re.compile(r"[A-Za-z][a-z]*|[A-Z]+(?![a-z])|\d+")
_QUERY_TOKEN = re.compile(
    rf"(?P<address>{EMAIL_ADDRESS.pattern})"
    r"|(?P<filename>[\w/-]+\.(?:md|txt|csv|pdf|docx?|xlsx?|json|ics|vcf|png|jpe?g|html?|log)\b)"
    r"|(?P<time>\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b|\b\d{1,2}:\d\d\b)"
    r"|(?P<word>[A-Za-z][A-Za-z'-]*|\d+(?::\d+)?)"
)
# Text the user put in quotes: a title or content ("a note titled 'Parking'"), not a
# name to look up. An apostrophe inside a word ("Jonas's", "I'll") opens or closes none.
QUOTED = re.compile(r"(?<!\w)(['\"\u2018\u201c])(?=\S)(.+?)(?<=\S)(?:\1|[\u2019\u201d])(?!\w)")
# Text up to a sentence's first word, which is capitalised for that reason alone.
_BEFORE_SENTENCE = re.compile(r"[.?!]\s*$")
_NUMBER_NEXT = re.compile(r"\s+\d")
STOPWORDS = frozenset([
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "from", "by",
    "with", "about", "into", "is", "are", "be", "been", "was", "were", "it", "its", "this",
    "that", "these", "those", "my", "me", "i", "you", "your", "we", "our", "us", "he",
    "she", "him", "they", "them", "his", "her", "their", "what", "which", "who", "whom", "how",
    "when", "where", "why", "can", "could", "would", "should", "will", "do", "does", "did",
    "please", "pls", "hey", "hi", "just", "all", "any", "some", "up", "out", "if", "then",
    "than", "so", "as", "not", "no", "yes", "get", "give", "tell", "let", "have", "has",
    "had", "i'm", "i'll", "i've", "whats", "wheres", "whens", "whos", "hows"
])
# A noun that names the kind of the item before it, whatever the word before it names
# ("my todo file" is a file, "the dentist reminder mail" a mail, "the meeting notes" a
# note): the word before it describes the item and lends no kind of its own.
_HEAD_NOUN = re.compile(r"\s+(?:files?|folders?|docs?|documents?|csv|spreadsheets?|notes?|"
                        r"e-?mails?|mails?)\b", re.IGNORECASE)
# Verbs of tools that add a new item (``add_reminder``, ``create_event``): such a call
# needs no id, so no lookup has to come first.
CREATING_VERBS = frozenset({"add", "create"})
# The verb of a tool that keeps an unfinished item (``draft_email``): a clause whose verb
# asks for one wants it, whatever its object names ("draft a reply").
DRAFTING_VERB = "draft"


def creates(tool_name: str) -> bool:
    """Whether the tool adds a new item (its verb is one of ``CREATING_VERBS``)."""
    return tool_name.split("_", 1)[0] in CREATING_VERBS

NOT_NAMES = frozenset(["i", *full_names(WEEKDAYS), *full_names(MONTHS)])
# A request that names a day or a date: its lookups look at days, not words. (A time of
# day does not count: "the evening before at 8pm" is the new item's.)
DAY_WORDS = re.compile(
    r"\b(?:"
    + alternation({*RELATIVE_DAYS["en"], "weekend", *full_names(WEEKDAYS), *full_names(MONTHS)}
                  - {"may", "march"})
    + r")\b|\b(?:may|march)\s+\d|\b\d{4}-\d{2}-\d{2}\b",
    re.IGNORECASE)
FAMILY_ALIASES: dict[str, str] = {
    "mail": "email", "inbox": "email", "slot": "event", "calendar": "event", "todo": "remind",
}
# A question asks to look something up: "What's on Friday?", "Did Dan write back?"
_QUESTION = re.compile(
    r"^\W*(?:what|what's|whats|when|where|wheres|which|who|who's|whos|whose|how|is|are|am|do|"
    r"does|did|was|were|"
    r"any|have|has)\b|\?\s*$",
    re.IGNORECASE,
)
# "just tell me what the guest wifi is called": a question asked as a request to be told
_TELL_ME_WHAT = re.compile(
    r"^\W*(?:(?:just|please|so|and|then|ok|okay)\s+)*(?:(?:can|could|would)\s+you\s+)?"
    r"(?:tell|show)\s+me\s+(?:what|when|where|which|who|how|if|whether)\b", re.IGNORECASE)
_WHO = re.compile(r"\bwho(?:['’]?s|se| is| are)?\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# Clauses end at a sentence's punctuation, a dash between words ("jonas asked about lunch -
# draft him a yes") or a joining word.
_CLAUSE_SPLIT = re.compile(r"[.!?;:]+\s|\s[-–—]+\s|\b(?:and|then|but|also)\b", re.IGNORECASE)
_FILLER = re.compile(r"^(?:\W|please\b|pls\b|just\b|now\b|(?:can|could|would|will) (?:you|u)\b|"
                     r"(?:you|u) (?:can|could|may)\b)+",
                     re.IGNORECASE)
# A new item the user says they want, by its kind: "need a to-do to fix the bike light",
# "I want a reminder for the bins": the kind's tool that adds one, whatever the verb.
_WANTS_NEW = re.compile(r"^\W*(?:i\s+)?(?:need|want|(?:would|'d)\s+like)\s+(?:a|an|another|"
                        r"one\s+more)\s+(?:new\s+)?(?P<kind>[\w-]+)", re.IGNORECASE)
# A clause's verb and its object: "write them a draft", "make me a reply".
_OBJECT = re.compile(r"^\W*\w+\s+(?:(?:me|him|her|them|us|\w+)\s+)?(?:a|an|the|my)\s+"
                     r"(?P<noun>\w+)", re.IGNORECASE)
# An item's subject, then what happens to it: "is cancelled", "got moved", "moves to" (not
# a noun after its determiner: "my books to read").
_PREDICATE = re.compile(
    r"\b(?:is|are|was|were|got|gets|has been|have been)\s+(?:now\s+)?([a-z]+ed)\b"
    r"|(?<!\bmy )(?<!\bthe )(?<!\bour )(?<!\byour )(?<!\bof )\b([a-z]+s)\s+(?:to|from)\b",
    re.IGNORECASE)
# A change said as a replacement: "make it 9 instead", "an hour and a half instead of an hour",
# "the meeting is in room 3A now, not 2B", or as a comparison: "make the review longer".
_INSTEAD = re.compile(r"\binstead\b|\bnow,?\s+not\b|\b(?:longer|shorter)\b", re.IGNORECASE)
# An item said as it is now: "dinner is at 7 now", "my 1:1 is in room 4.10 now", "the meeting
# is now in room 3A", "lunch is at Udon House, Invalidenstrasse now" (a place and its street):
# a change of that item, unless the request asks ("what is on now?").
CHANGED_NOW = re.compile(
    r"\b(?:is|are)\s+(?:at|on|in|from)\b(?:[^,.;!?]|(?<=\d)\.(?=\d))*?"
    r"(?:,\s*[\w'’-]+(?:\s+[\w'’-]+){0,2}\s+)?\bnow\b|\b(?:is|are)\s+now\s+(?:at|on|in|from)\b",
    re.IGNORECASE)
# A request taken back at its end: "remind me to call mom tonight... actually never mind,
# don't", "add a note about X. scratch that". It must follow a break or a word that turns
# back ("actually", "no", "wait"), so "I always forget it" takes nothing back, and nothing
# may come after it but another "don't": "never mind the flowers, remind me ..." still asks.
_TURN_BACK = r"(?:actually|nah|no|wait|oh|hmm|ok|okay|so)"
_TAKE_BACK = (r"(?:never\s*mind|forget\s+(?:it|that|about\s+it)|scratch\s+that|cancel\s+that|"
              r"don['’]?t\s+bother)")
_DONT = r"(?:don['’]?t|dont|do not)(?:\s+(?:do\s+)?(?:it|that))?"
# what the user will do themselves instead may close it: "... forget it, I'll call him instead"
_MYSELF = r"(?:i['’]?ll|i\s+will|i['’]?m\s+going\s+to|i\s+can)\b[^.!?;]*"
RETRACTED = (rf"(?:(?:^|[.,;:!?…–—-])\s*(?:{_TURN_BACK}\b[\s,]*)*{_TAKE_BACK}"
             rf"|\b{_TURN_BACK}\b[\s,]*(?:{_TAKE_BACK}|{_DONT}))\b"
             rf"(?:[\s,.;:!…]+{_DONT})*(?:[\s,.;:!…–—-]+{_MYSELF})?[\s.!…]*$")
# A request that rules out every change, whatever the tool: "no changes", "don't touch
# anything", "just checking" ("who's nora again? no changes, just remind me": "remind me"
# asks to be told, and no reminder may be made), or one taken back (``RETRACTED``).
CHANGE_NOTHING = re.compile(
    r"\bno changes?\b|\bchange nothing\b|\b(?:don['’]?t|dont|do not)\s+(?:change|touch|modify|"
    r"edit|do)\s+any(?:thing)?\b|\bjust (?:checking|curious|wondering|asking)\b|\bread[- ]only\b"
    # what is written is only to be shown ("draft a reply ..., but only show it here"):
    # kept nowhere, so nothing is saved or sent
    r"|\b(?:only|just)\s+(?:show|display|print|paste)\s+(?:me\s+)?(?:it|that|this|them|the\s+"
    r"(?:text|message|msg|draft|wording))\s+(?:here|to me|in\s+(?:the\s+)?chat)\b"
    rf"|{RETRACTED}",
    re.IGNORECASE)


def asks_a_question(query: str) -> bool:
    """Whether a request asks a question, what rules out every change aside: "don't change
    anything, just tell me what the guest wifi is called" asks where the answer is, as "what
    is the guest wifi called?" does."""
    plain = CHANGE_NOTHING.sub(" ", query)
    return bool(_QUESTION.search(plain) or _TELL_ME_WHAT.search(plain))


# "remind me who Nora is", "remind me again", "just remind me": to be told, not a reminder.
REMIND_ME_TELL = re.compile(r"\bremind me(?=(?:\s+again)?(?:\s+(?:who|what|when|where|which|"
                            r"how|whose|of)\b|\W*$))", re.IGNORECASE)
# A clause that says what not to do: "don't tick anything off", "never send it".
_NEGATED = re.compile(r"^(?:don['’]?t|dont|do not|never|no need to)\b", re.IGNORECASE)
# An action ruled out, with its object: "don't book anything", "do not reply to it" ("don't
# forget to ..." rules nothing out).
_NOT_ASKED = re.compile(r"\b(?:don['’]?t|dont|do not|never)\s+(?!forget\b|hesitate\b)[\w-]+"
                        r"(?:\s+(?:anything|it|them|any\s+\w+|to\s+(?:it|them)))?(?:\s+(?:off|up|out))?",
                        re.IGNORECASE)
# A person added to an item that exists ("add mum to the sunday dinner as a guest", "invite
# Jonas to Thursday's lunch"): a change of that item, not a new one.
_JOINS = re.compile(
    r"^\W*(?:add|invite|put|include|bring)\s+(?!(?:a|an|some|new)\b)(?P<who>.+?)\s+(?:to|on|onto|into|in)\s+"
    r"(?P<target>(?:the|my|our|this|that|[\w-]+['’]s)\s+.+?)"
    r"(?:\s+as\s+(?:an?\s+)?(?:guest|attendee|invitee|participant)s?)?\W*$", re.IGNORECASE)
# What a person has, not a person: "put his number in the reminder" adds no one.
_FIELD_WORDS = re.compile(r"\b(?:number|phone|mobile|address|e-?mail|birthday|details)\b")
# The words that name where items are kept, not one item: "add lunch to my calendar", "add
# them to my contacts".
_CONTAINERS = frozenset({"calendar", "agenda", "diary", "schedule", "cal", "list", "inbox",
                         "contacts", "book", "notes", "reminders", "files", "folder", "todos",
                         "tasks", "events"})
# "todo: descale the coffee machine", "quick note: bike code 4471": a new item, labelled with
# its kind (and at most one word that describes it).
LABELLED = re.compile(r"^\W*(?:[a-z]+\s+)?(?P<kind>to-?dos?|notes?|memo|reminders?|calendar|events?)"
                      r"\s*:\s*\w",
                       re.IGNORECASE)
# "Add Piranesi to my books to read": a thing added to a list the user keeps by name.
# The place is "my/the/our ..." or a file's name ("to todo.md", "to notes/ideas.txt").
_ADD_TO = re.compile(r"^\W*(?:add|put|append|stick|include)\b(?P<item>.+?)\b(?:to|on|onto)\s+"
                     r"(?:(?:my|the|our)\s+|(?=[\w/-]+\.[a-z]\w*\W*$))"
                     r"(?P<target>[a-z][\w'./ -]*?)\W*$", re.IGNORECASE)
_POLITE = re.compile(r"^\W*(?:(?:can|could|would|will) you|please)\b", re.IGNORECASE)
# A clause that asks to look something up opens with one of these ("Look up Dan's
# address", "Check when ...", "Get Jamie's email", "Find my meeting with Priya", "look at
# my todo file").
LOOK_CLAUSE = re.compile(
    r"^\W*(?:look\s+up|look\s+for|look\s+(?:at|through)|go\s+through|find(?:\s+out)?|check|get|"
    r"search(?:\s+for)?|see|show|"
    r"read|pull\s+up|fetch|open|grab)\b", re.IGNORECASE)
# A person's address, number or birthday: a contact's field, though "email" is a word of
# the mail ("Get Jamie's email", "Dan's address").
# A relation or role that names one person the contacts know by it (a card's notes say
# "Mom.", "Landlord."): "mums email", "my landlords number" need no apostrophe.
RELATIONS = tuple(dict.fromkeys([*(w for group in RELATION_GROUPS["en"] for w in group),
                                 *ROLES["en"]]))
_FIELD = (r"(?:e-?mail(?:\s+address)?|address|(?:phone\s+|mobile\s+)?number|phone|mobile|"
          r"birthday|contact(?:\s+details)?)\b")
# After "what's", a word and an "s" before a field is a name's possessive with its
# apostrophe left out ("whats sams email?"): no plural stands there. The lookbehinds
# are one per spelling, as Python's need a fixed width.
_WHATS = r"(?:(?<=what's\s)|(?<=whats\s)|(?<=what\u2019s\s)|(?<=what\sis\s))"
_NOT_NAMES = r"(?!(?:this|his|its|hers|yours|theirs|ours|us)\s)"
# ... and the field first: "the address of my dentist" (a relation or role only: "the
# address of thursday's lunch" is an event's place)
CONTACT_FIELD = re.compile(
    r"\b(?P<owner>[A-Za-z]+(?=['\u2019]s\b)|(?:" + "|".join(RELATIONS) + r")(?=s?\s)|"
    + _WHATS + _NOT_NAMES + r"[A-Za-z]{2,}?(?=s\s+" + _FIELD + r"))"
    r"(?:['\u2019]s|s)?\s+" + _FIELD
    + r"|\b" + _FIELD + r"\s+of\s+(?:my|our|the)\s+(?P<owner_of>" + "|".join(RELATIONS) + r")\b",
    re.IGNORECASE)
# "who's my landlord?": a question about who a relation or role is, which the contacts
# answer, whatever else it asks of them ("... + his email").
_WHO_IS_RELATION = re.compile(
    r"\bwho(?:['\u2019]?s|\s+is|\s+was)\s+(?:my|our)\s+(?:" + "|".join(RELATIONS) + r")\b",
    re.IGNORECASE)
# Where a request says the thing it acts with comes from: "from my notes", "in
# latency_numbers.csv", "my e-ticket email", "Priya emailed ...", "that power bill email,
# remind me ...": that kind is looked up first. The kind's word as the selector reads it (a synonym or a family's name).
# "in my calendar", "into a new note" say where a thing goes, not where it comes from.
SOURCE = re.compile(
    r"\bfrom\s+(?:my|the|his|her|their|our|that|this)?\s*(?:[\w'-]+\s+){0,3}?"
    r"(?P<kind>notes?|files?|folder|e-?mails?|mail|inbox|calendar|contacts?|csv|spreadsheet|pdf|"
    r"doc(?:ument)?)\b"
    r"|\bin\s+(?:my|the|his|her|their|our|that|this)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?P<held>files?|folder|e-?mails?|mail|inbox)\b"
    r"|\b(?:from|in)\s+(?P<file>[\w-]+\.[a-z0-9]{2,4})\b"
    r"|\b(?:emailed|mailed|e-mailed)\b|\bwrote\s+(?:me|to me|us)\b|\bcheck\s+(?:his|her|their|my)\s+(?P<mailbox>mail|email|inbox)\b"
    # an item named first, on its own, then what to do with it: "that power bill email, ..."
    r"|^\W*(?:that|the|this|my)\s+(?:[\w'-]+\s+){0,3}?(?P<lead>e-?mails?|mail|notes?|files?)\s*,",
    re.IGNORECASE)
# A list the user keeps, named as the thing a request passes on ("send my partner the grocery
# list", "export my books to read list"), not where something goes ("on my to do list", "add
# X to my grocery list"); and the thing a request copies ("copy my gift ideas for dad into a
# new note"). Both name a note, unless their words name another kind.
_NAMED_LIST = re.compile(
    r"(?<!\bon )(?<!\bto )(?<!\bin )(?<!\binto )(?<!\bonto )\b(?:my|the|our)\s+"
    r"(?P<listed>(?:(?!(?:my|the|our)\b)[\w'-]+\s+){0,3}?)(?:list|note)\b(?!\s+to\b)"
    r"(?!\s+for\s+(?:today|tonight|tomorrow|the\s+week|this|next|mon(?:day)?|tues?(?:day)?"
    r"|wed(?:nesday)?|thu(?:rs)?(?:day)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\b)",
    re.IGNORECASE)
_COPIED = re.compile(
    r"\b(?:copy|export|duplicate|save)\s+(?:my|the|our)\s+(?P<copied>(?:[\w'-]+\s+){1,5}?)"
    r"(?:into|to|as|onto)\s+(?:a|an|the|my)?\s*(?:new\s+)?(?:note|file|doc)", re.IGNORECASE)
_FILE_KINDS = frozenset({"csv", "spreadsheet", "pdf", "doc", "document"})
_PASSES_ON = re.compile(r"\b(?:send|e-?mail|mail|forward|share|text|draft|copy|export|duplicate|"
                        r"save|paste)\b", re.IGNORECASE)
# Kinds that a list the user keeps as a note is not named after; a note may well be named
# after a person ("gift ideas for dad"), so a passed-on note may hold a contact's word.
_OTHER_KINDS = frozenset({"event", "reminder", "remind", "contact", "email", "file", "inbox",
                          "draft", "send"})
_NOT_A_NOTE = _OTHER_KINDS - {"contact"}
# Where a thing goes: "into a new note", "in my calendar", "to a file".
# ... or a file by its name: "add the titles from my books-to-read note to notes/todo.md"
_DESTINATION = re.compile(r"\b(?:into|in|to|as)\s+(?:a|an|the|my)?\s*(?:new\s+)?"
                          r"(?P<kind>note|file|calendar|event|reminder|draft)\b"
                          r"|\b(?:into|to)\s+(?:my\s+)?(?:[\w-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{1,3}\b",
                          re.IGNORECASE)
# Verbs of tools that find or show items: kept whenever their family is chosen,
# because every action first has to find the item it works on.
LOOK_VERBS = frozenset(["list", "search", "read", "get", "show", "view", "fetch", "lookup"])

# Domain words a request uses -> words the matching tools use (stemmed on load).
DEFAULT_SYNONYMS: dict[str, tuple[str, ...]] = {
    # mail, and what arrives by mail: bookings, tickets, orders, invoices
    "mail": ("email",), "e-mail": ("email",), "inbox": ("email", "inbox"),
    "message": ("email",), "messages": ("email",), "reply": ("reply", "email"),
    "respond": ("reply", "email"), "forward": ("email", "send"), "unread": ("inbox", "email"),
    "newsletter": ("email",), "sender": ("email",), "mailbox": ("email", "inbox"),
    "draft": ("email", "draft"), "write back": ("reply", "email"),
    "hear back": ("reply", "email"), "heard back": ("reply", "email"),
    "send": ("send", "email"), "sent": ("email",), "emailed": ("email",), "wrote me": ("email",),
    "train": ("email",), "flight": ("email",), "ticket": ("email",), "tickets": ("email",),
    "booking": ("email",), "reservation": ("email",), "hotel": ("email",),
    "itinerary": ("email",), "boarding pass": ("email",), "parcel": ("email",),
    "package": ("email",), "delivery": ("email",), "order": ("email",), "receipt": ("email",),
    "invoice": ("email",), "confirmation": ("email",), "spam": ("email",), "junk": ("email",),
    # calendar
    "meeting": ("event",), "appointment": ("event",), "schedule": ("event", "create"),
    "agenda": ("event",), "book": ("event", "create"), "busy": ("event",), "free": ("event",),
    "lunch": ("event",), "dinner": ("event",), "invite": ("event", "email"),
    "reschedule": ("update", "event"), "postpone": ("update", "event"),
    "push back": ("update", "event"), "bring forward": ("update", "event"),
    "check-up": ("event",), "checkup": ("event",),
    "cancel": ("delete", "event"), "today": ("event",), "tomorrow": ("event",),
    "tonight": ("event",), "week": ("event",), "weekend": ("event",), "plan": ("event",),
    **dict.fromkeys(full_names(WEEKDAYS), ("event",)),
    # a weekday's short names, but those that are words of their own ("sat", "sun", "wed")
    **dict.fromkeys((n for names in WEEKDAYS["en"] for n in names[1:]
                     if n not in ("sat", "sun", "wed")), ("event",)),
    "party": ("event",), "offsite": ("event",), "standup": ("event",), "interview": ("event",),
    "conference": ("event",), "1:1": ("event",), "class": ("event",), "lesson": ("event",),
    "session": ("event",), "attendee": ("event",), "all day": ("event",),
    "review": ("event",), "sync": ("event",), "workshop": ("event",), "kickoff": ("event",),
    "invitee": ("event",), "longer": ("update", "event"), "shorter": ("update", "event"),
    # reminders and to-dos
    "remind": ("reminder",), "todo": ("reminder",), "to-do": ("reminder",),
    "to-dos": ("reminder",), "todos": ("reminder",), "task": ("reminder",),
    "to do": ("reminder",), "tick off": ("complete", "reminder"),
    "tick": ("complete", "reminder"), "cross off": ("complete", "reminder"), "forget": ("reminder",),
    "deadline": ("reminder", "due"), "due": ("reminder", "due"), "done": ("complete", "reminder"),
    # people
    "phone": ("contact",), "number": ("contact",), "address": ("contact", "email"),
    "birthday": ("contact",), "person": ("contact",), "people": ("contact",),
    "who": ("contact",), "colleague": ("contact",), "friend": ("contact",),
    "brother": ("contact",), "sister": ("contact",), "mom": ("contact",), "dad": ("contact",),
    "boss": ("contact",),
    # notes, and the lists people keep in them
    "jot": ("note", "create"), "memo": ("note",), "write": ("note",),
    "wrote": ("note",), "idea": ("note",), "ideas": ("note",), "list": ("list",),
    "grocery": ("note",), "groceries": ("note",), "shopping list": ("note",),
    "reading list": ("note",), "packing list": ("note", "file"), "wish list": ("note",),
    "checklist": ("note",), "recipe": ("note",),
    # files
    "document": ("file",), "doc": ("file",), "docs": ("file",), "folder": ("file",),
    "directory": ("file",), "save": ("write", "file"), "open": ("read",), "show": ("list",),
    # verbs shared by every family
    "find": ("search",), "look": ("search",), "lookup": ("search",), "remove": ("delete",),
    "trash": ("delete",), "erase": ("delete",), "change": ("update",), "edit": ("update",),
    "rename": ("update",), "new": ("create",),
}

# Request verbs that mean "search" (their synonym): never an action by themselves.
SEARCHING_VERBS = frozenset(w for w, means in DEFAULT_SYNONYMS.items() if means == ("search",))

# A nudge to the user, not a message to someone: a reminder ("ping me 60 mins ahead of it").
_NUDGE_VERBS = ("ping", "nudge", "buzz", "poke", "alert", "notify")
_NUDGE_ME = (rf"\b(?:{'|'.join(_NUDGE_VERBS)})\s+me\b"
             r"|\bgive\s+me\s+an?\s+(?:heads[\s-]?up|nudge|ping|shout)\b")
_BLOCK_TIME = (r"\bblock(?:\s+(?:off|out))?\s+(?!(?:this|that|the|his|her|their|an?)\s+"
               r"(?:sender|address|number|contact|e-?mail|mail|spam|caller)\b)"
               r"(?:it|that|this|the|an?|some|my|\d|time|tomorrow|today|tonight|next|"
               r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)")
_NUDGE_PHRASES = (*(f"{verb} me" for verb in _NUDGE_VERBS), "heads up")

# Requests whose words alone say too little: "tell Sam" sends a message, "tell me" asks.
DEFAULT_PATTERNS: dict[str, tuple[str, ...]] = {
    (
        r"\b(?:tell|ask|remind|update|text|ping|message) (?!me\b|myself\b)(?:\w+(?:'s)? ){0,2}"
        r"(?:that|to|about|i'm|i am|i will|i'll|we|the)\b"
    ): ("send", "email"),
    r"\blet [\w']+(?: [\w']+)? know\b": ("send", "email"),
    # "ping me an hour before", "give me a heads-up on friday": a reminder to the user
    _NUDGE_ME: ("remind",),
    # time kept free in the calendar: "block it for tax paperwork", "block off friday
    # 2-4"; not a sender or a number blocked
    _BLOCK_TIME: ("event", "create"),
}
# A message given to someone as a clause's object: "drop Sam a line", "shoot Dan an email",
# "write him a quick note", "fire off a mail to Priya": the clause sends it. A particle
# after the verb is part of it, no one given the note ("jot down a note", "write up a note").
MESSAGE_OBJECT = re.compile(
    r"^\W*\w+(?:\s+(?:off|out))?\s+(?:(?!me\b|myself\b|it\b|them\b|this\b|that\b|a\b|an\b|"
    r"down\b|up\b|in\b|away\b)[\w']+\s+"
    r"(?:a|an)\s+(?:(?:quick|short|little)\s+)?(?:line|note|message|msg|text|e-?mail|mail)\b"
    r"|(?:a|an)\s+(?:(?:quick|short|little)\s+)?(?:e-?mail|mail|message|msg)\s+to\b)", re.IGNORECASE)
SENDING_VERB = "send"

# What a request says for the action of an act tool, by the verb of the tool's name
# (stemmed on load; multi-word entries match as phrases). The verb itself always counts.
_MAKING = ("create", "add", "new", "put", "make", "save", "store", "write", "jot", "note down",
           "record", "remember", "set up", "copy", "pop", "stick", "pencil", "start a", "start an")
ACTION_WORDS: dict[str, tuple[str, ...]] = {
    "create": (*_MAKING, "book", "schedule", "block", "plan", "arrange", "organize", "mark"),
    "add": (*_MAKING, "remind", "set", *_NUDGE_PHRASES),
    "write": (*_MAKING, "export", "dump"),
    "append": ("add", "put", "include", "extend", "tack on", "at the bottom", "to the bottom",
               "at the end", "to the end"),
    "update": ("change", "move", "reschedule", "push", "postpone", "shift", "rename", "edit",
               "extend", "shorten", "longer", "shorter", "instead", "earlier", "later", "make it",
               "bump", "knock back", "bring forward", "pull forward", "move up"),
    "delete": ("cancel", "remove", "drop", "clear", "scrap", "ditch", "erase", "get rid",
               "call off", "off my calendar", "off the calendar", "out of my calendar",
               "out of the calendar", "not coming", "isn't coming"),
    "send": ("email", "e-mail", "mail", "write to", "tell", "let", "ask", "invite", "forward",
             "share", "notify", "inform", "text", "ping", "message", "loop", "reach out"),
    "reply": ("respond", "answer", "write back", "get back", "tell", "confirm", "decline",
              "accept", "say yes", "say no"),
    "draft": ("prepare", "compose"),
    "trash": ("delete", "remove", "bin", "throw", "spam", "junk", "clean", "get rid"),
    "complete": ("done", "finish", "finished", "tick", "tick off", "check off", "cross off", "mark",
                 "did"),
    "find": ("free", "available", "availability", "find time", "time for", "gap", "fit"),
}


def _asks_free_time(groups: list[frozenset[str]], roles: Mapping[str, ToolRole]) -> bool:
    """Whether an earlier clause asks for free time in the calendar (``find_free_slots``)."""
    return any(roles[name].family == "event" and "find" in roles[name].cues
               for group in groups for name in group if name in roles)


def commands(query: str) -> list[str]:
    """The clauses of a request that ask for something to be done, each starting
    at its verb: "Find the babysitter's number and remind me to call her" gives
    ["Find the babysitter's number", "remind me to call her"]. Questions are left
    out ("When is my next meeting with Dan?" only looks something up), unless
    they are polite commands ("Can you email Dan?"); so are a "remind me who ..." that
    asks to be told and a clause that says not to do something ("don't tick anything off")."""
    found: list[str] = []
    for sentence in _SENTENCE_END.split(query.strip()):
        if _QUESTION.search(sentence) and not _POLITE.search(sentence):
            continue
        # "add oat milk and bananas to the groceries": one clause, whatever its "and"
        whole = _FILLER.sub("", sentence.strip(" .!?;:"))
        if (target := list_target(whole)) and not _CLAUSE_SPLIT.search(target):
            found.append(whole)
            continue
        for clause in _CLAUSE_SPLIT.split(sentence):
            clause = _FILLER.sub("", clause.strip(" .!?;:"))
            if clause and not REMIND_ME_TELL.match(clause) and not _NEGATED.match(clause):
                found.append(clause)
    return found


def source_families(query: str) -> list[str]:
    """The kinds of item a request says it takes something from (``SOURCE``), in order:
    "send jamie my reading list from my notes" -> ["note"]; "email Dan the p95 from last
    week in latency_numbers.csv" -> ["file"]; "Priya emailed asking to move our 1:1" ->
    ["email"]."""
    found: list[str] = []
    for m in SOURCE.finditer(query):
        if m.group("file"):
            family = "file"
        else:
            word = (m.group("kind") or m.group("held") or m.group("mailbox") or m.group("lead")
                    or "email").lower()
            stem = _stem(word.replace("-", ""))
            family = "file" if word in _FILE_KINDS else FAMILY_ALIASES.get(stem, stem)
        if family not in found:
            found.append(family)
    return found or _named_sources(query)


def _named_sources(query: str) -> list[str]:
    """A note the request names as the thing it passes on or copies, when it says no kind
    to take it from (``_NAMED_LIST``, ``_COPIED``): ["note"] in a request that sends, copies
    or exports; nothing where the words name another kind ("my to do list" is the
    reminders', "the calendar list" no note) or where nothing is passed on ("remind me to
    update the guest list")."""
    if not _PASSES_ON.search(query):
        return []
    for m in (*_NAMED_LIST.finditer(query), *_COPIED.finditer(query)):
        phrase = (m.groupdict().get("listed") or m.groupdict().get("copied") or "").lower()
        if not _word_kinds(phrase) & _NOT_A_NOTE and not re.search(r"\bto ?do\b", phrase):
            return ["note"]
    return []


def list_target(clause: str) -> str | None:
    """The list a clause adds something to, when it is one the user keeps as a note ("Add
    Piranesi to my books to read": "books to read"): no word of it names an item of
    another kind (a calendar, a meeting, reminders, contacts, mail, a file)."""
    m = _ADD_TO.match(clause)
    if m is None or "." in m.group("target"):
        return None
    target = m.group("target").lower()
    kinds = _word_kinds(target)
    kinds |= {k for phrase, means in DEFAULT_SYNONYMS.items()
              if " " in phrase and phrase in target for k in means}
    return None if kinds & _OTHER_KINDS else target


def listed_item(clause: str) -> str | None:
    """What a clause adds to a list the user keeps (``list_target``): "Add Piranesi to my
    books to read" -> "Piranesi"."""
    if list_target(clause) is None:
        return None
    m = _ADD_TO.match(clause)
    return m.group("item").strip() if m else None


def added_item(clause: str) -> str | None:
    """What a clause adds to a place it names, whatever kind the place is ("add '- [ ] book
    flights' to my todo file" -> "- [ ] book flights"), as written without its quotes."""
    m = _ADD_TO.match(clause)
    if m is None:
        return None
    item = m.group("item").strip()
    quoted = QUOTED.fullmatch(item)
    return (quoted.group(2) if quoted else item) or None


def _word_kinds(phrase: str) -> set[str]:
    """The kinds of item the words of a lower-case phrase name, one word at a time (its
    synonyms' kinds, or the family its stem is)."""
    return {k for w in re.findall(r"[a-z][a-z'-]*", phrase)
            for k in (*DEFAULT_SYNONYMS.get(w, ()), FAMILY_ALIASES.get(_stem(w), _stem(w)))}


def without_unasked(query: str) -> str:
    """``query`` without the words that ask for nothing: a "remind me" that asks to be told,
    "no changes", an action ruled out ("don't book anything")."""
    for unasked in (REMIND_ME_TELL, CHANGE_NOTHING, _NOT_ASKED):
        query = unasked.sub(" ", query)
    return query


def _clause_tools(clause: str, verb: str, families: list[tuple[str, ...]],
                  roles: dict[str, ToolRole]) -> frozenset[str]:
    """The act tools a clause asks for, from its families' tools best first: a verb that
    asks for a draft wants the draft ("draft a reply"); a message given to someone is sent
    ("drop Sam a line"); a new item the user wants is added ("need a to-do to ..."); the clause's object names a tool's verb ("write them a draft":
    draft_email), before one its looser verb asks for ("write": create_note); else the
    tools whose action its verb names."""
    tests = [lambda name: (name.split("_")[0] == DRAFTING_VERB
                           and roles[name].named_in(verb, {_stem(verb)}))]
    if MESSAGE_OBJECT.match(clause):
        tests.append(lambda name: name.split("_")[0] == SENDING_VERB)
    if wanted := _WANTS_NEW.match(clause):
        kinds = {FAMILY_ALIASES.get(_stem(k), _stem(k))
                 for k in _word_kinds(wanted.group("kind").lower())}
        tests.append(lambda name: creates(name) and roles[name].family in kinds)
    noun = _OBJECT.match(clause)
    named = _stem(noun.group("noun")) if noun else None
    tests += [lambda name: not roles[name].look and _stem(name.split("_")[0]) == named,
              lambda name: not roles[name].look and roles[name].asked_in(clause)]
    candidates = (frozenset(filter(test, tools)) for test in tests for tools in families)
    return next((group for group in candidates if group), frozenset())


def joined_kinds(clause: str) -> set[str]:
    """The kinds of the existing item a clause adds someone to ("add mum to the sunday
    dinner as a guest": event), or none: when it adds to where items are kept ("add lunch
    with Sara to my calendar"), adds a new thing ("put a haircut in ..."), an item of a kind
    ("put the reminder on the standup") or a person's field ("put his number in the
    reminder")."""
    m = _JOINS.match(clause)
    if m is None:
        return set()
    target = m.group("target").lower()
    who = m.group("who").lower()
    if (set(re.findall(r"[a-z]+", target)) & _CONTAINERS or _FIELD_WORDS.search(who)
            or _word_kinds(who) & (_NOT_A_NOTE | {"note"})):
        return set()
    return _word_kinds(target)


def _invites_attend(groups: list[frozenset[str]], invited: list[frozenset[str]],
                    tools: list[ToolSpec]) -> list[frozenset[str]]:
    """``groups`` without the message an "invite him" clause asked for when another clause
    makes or changes an item that has attendees ("put 30 min after standup and invite
    him"): the invitation is that item's attendee, not a mail."""
    attending = {spec.name for spec in tools
                 if "attendees" in ((spec.parameters or {}).get("properties") or {})}
    if not any(group & attending for group in groups):
        return groups
    return [group for group in groups if group & attending or group not in invited]


def clause_verbs(clause: str) -> list[str]:
    """The words that can be a clause's verb: its first, the first after each comma
    ("I've watered the plants, tick that reminder off"; "If it is, book it"), and the
    verb after a subject that says what happened to an item ("Lunch with Jonas moves to
    13:00", "the review is cancelled")."""
    starts = [_FILLER.sub("", part) for part in clause.split(",")]
    verbs = [m.group() for m in (_NAME_PART.search(part) for part in starts) if m]
    return verbs + [m.group(1) or m.group(2) for m in _PREDICATE.finditer(clause)]


def _stemmer():
    """This thread's English stemmer."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer


# Plural nouns whose singular is also a word of another meaning: "my books to read" books
# nothing, "the latency numbers" are no phone number. They keep their own form, so that
# the singular's synonyms and action words never read them.
PLURAL_NOUNS = frozenset({"books", "numbers"})


def _stem(word: str) -> str:
    word = word.lower()
    return word if word in PLURAL_NOUNS else _stemmer().stemWord(word)


def stem_words(text: str) -> list[str]:
    words = [w.lower() for w in _NAME_PART.findall(text)]
    return [_stem(w) for w in words if w not in STOPWORDS]


# A phrasal verb whose object may stand before its particle: "cross it off", "tick that
# reminder off", "note this down", "set it up", "write Dan back" (a particle that opens a compound,
# "off-site", is none).
_SPLIT_PARTICLES = frozenset({"off", "down", "up", "back", "forward"})
PARTICLE_GAP = 3  # words between a phrasal verb and its particle ("push the dentist check-up back")


def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A pattern for a multi-word phrase: its words in order, with up to ``PARTICLE_GAP``
    words before a closing particle of ``_SPLIT_PARTICLES``."""
    *head, last = phrase.split()
    gap = (rf"(?:\s+[\w'’-]+){{0,{PARTICLE_GAP}}}?" if len(head) == 1 and last in _SPLIT_PARTICLES
           else "")
    return re.compile(rf"\b{re.escape(' '.join(head))}{gap}\s+{re.escape(last)}\b(?!-)",
                      re.IGNORECASE)


def _name_words(tool_name: str) -> list[str]:
    return [w.lower() for w in _NAME_PART.findall(tool_name)]


def tool_document(spec: ToolSpec) -> list[str]:
    """The words BM25 indexes for a tool: its name (twice: names are the strongest
    signal), its description and its parameter names, split and stemmed."""
    params = " ".join((spec.parameters or {}).get("properties", {}))
    return stem_words(f"{spec.name} {spec.name} {spec.description} {params}")


def name_family(tool_name: str) -> str:
    """A tool's family from the last word of its name: ``send_email`` -> ``email``."""
    last = _stem(_NAME_PART.findall(tool_name)[-1]) if _NAME_PART.search(tool_name) else tool_name
    return FAMILY_ALIASES.get(last, last)


@dataclass(frozen=True)
class WordTable:
    """Request words -> stems: single words by their stem, multi-word keys as phrases."""

    words: dict[str, tuple[str, ...]]
    phrases: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]

    @classmethod
    def build(cls, table: Mapping[str, Iterable[str]]) -> WordTable:
        words = {_stem(key): tuple(stem_words(" ".join(values)))
                 for key, values in table.items() if " " not in key}
        phrases = tuple((phrase_pattern(key), tuple(stem_words(" ".join(values))))
                        for key, values in table.items() if " " in key)
        return cls(words, phrases)

    def phrase_stems(self, query: str) -> list[str]:
        return [t for pattern, stems in self.phrases if pattern.search(query) for t in stems]


@dataclass(frozen=True)
class ToolRole:
    """Whether a tool finds items (look) or acts on them, and the request stems that
    name its action: its verb, the verb's ``ACTION_WORDS`` and the other words of
    its name ("free", "slot" for ``find_free_slots``)."""

    name: str
    family: str
    look: bool
    cues: frozenset[str] = frozenset()
    phrases: tuple[re.Pattern[str], ...] = ()

    def named_in(self, query: str, stems: set[str]) -> bool:
        return bool(self.cues & stems) or any(p.search(query) for p in self.phrases)

    def asked_in(self, clause: str) -> bool:
        """Whether a clause (see ``commands``) asks for this action: a word that can
        be its verb is a cue ("email Dan", not "read the email"), or it holds a cue phrase
        ("take the visit off my calendar")."""
        return any(self._cued_by(verb, clause) for verb in clause_verbs(clause)) \
            or any(p.search(clause) for p in self.phrases)

    def _cued_by(self, verb: str, clause: str) -> bool:
        """Whether ``verb`` names this action; a verb that also means "search" ("find")
        only with another cue in the clause: "find my meeting with Priya" looks an event
        up, "find a free slot" asks for slots."""
        stem = _stem(verb)
        if stem not in self.cues:
            return False
        return verb.lower() not in SEARCHING_VERBS or bool((self.cues - {stem})
                                                           & set(stem_words(clause)))


def tool_role(tool_name: str, family: str, actions: Mapping[str, tuple[str, ...]]) -> ToolRole:
    """The role of a tool from its name. A verb that is neither a look verb nor in
    ``actions``, with no other name word to go by, makes a look tool: kept, never
    guessed away."""
    words = _name_words(tool_name)
    verb = words[0] if words else ""
    others = set(stem_words(" ".join(words[1:]))) - {family}
    if verb in LOOK_VERBS or (verb not in actions and not others):
        return ToolRole(tool_name, family, look=True)
    table = WordTable.build({w: (w,) for w in (verb, *actions[verb])} if verb in actions else {})
    return ToolRole(tool_name, family, look=False, cues=frozenset(table.words) | others,
                    phrases=tuple(pattern for pattern, _ in table.phrases))


class ToolSelector(Protocol):
    """Chooses the tools to show the model for one request.

    The agent calls ``choose``: the tools, whether the request matched any of them
    (``fallback``) and what it asks to be done (``requested``). A selector that only
    ranks tools implements ``select`` and, by subclassing ``ToolSelector``, inherits a
    ``choose`` that reports a match and no requested actions."""

    def select(self, query: str, tools: list[ToolSpec], *, always: Iterable[str] = ()
               ) -> list[ToolSpec]: ...

    def choose(self, query: str, tools: list[ToolSpec], *, always: Iterable[str] = ()
               ) -> Selection:
        return Selection(tools=self.select(query, tools, always=always))


@dataclass(frozen=True)
class FamilyScore:
    """A family's relevance to a query: BM25 score, and whether the query names it."""

    family: str
    score: float
    mentioned: bool
    tools: tuple[str, ...]


@dataclass
class Selection:
    """The tools chosen for a query and why (for benchmarks and debugging)."""

    tools: list[ToolSpec]
    families: list[FamilyScore] = field(default_factory=list)
    chosen: list[str] = field(default_factory=list)  # family names
    fallback: bool = False  # nothing matched: every tool is shown
    actions: list[str] = field(default_factory=list)  # act tools the request named
    # what the request asks to be done: per clause, the act tools that would do it
    requested: list[frozenset[str]] = field(default_factory=list)
    # what the request asks to be looked up first: per clause that opens with a look
    # verb and asks for no action ("Find my meeting with Priya"), the look tools of the
    # family it is about
    looked: list[frozenset[str]] = field(default_factory=list)
    # what a question is answered from when its words say where: a person's address or
    # number (the contacts), or a question that names no kind of item (the broad search)
    answer_from: list[frozenset[str]] = field(default_factory=list)
    # the tools that search everything at once, for a question whose search of one kind
    # of item found nothing ("my packing list for Hamburg" is a file, not a note)
    widen: frozenset[str] = frozenset()


class Bm25ToolSelector(ToolSelector):
    """Family-level BM25 tool selection, pruned to the actions a request names
    (see the module docstring)."""

    def __init__(
        self,
        *,
        k: int = 3,
        ratio: float = 0.3,
        synonyms: Mapping[str, tuple[str, ...]] | None = None,
        patterns: Mapping[str, tuple[str, ...]] | None = None,
        families: Mapping[str, str] | None = None,
        actions: Mapping[str, tuple[str, ...]] | None = None,
        hints: bool = True,
        prune_actions: bool = True,
        broad: Iterable[str] = (),
        on_demand: Iterable[str] = (),
    ):
        if k < 1 or not 0 < ratio <= 1:
            raise ValueError("k must be >= 1 and ratio in (0, 1]")
        self.k, self.ratio, self.hints, self.prune_actions = k, ratio, hints, prune_actions
        # look tools that search everything at once ("search_everything"): never ranked
        # (their description names every family), offered alone to a question that
        # matches no family, which would otherwise be answered without a lookup
        self.broad = frozenset(broad)
        # tools never shown by ranking, for the agent to offer when a request must find an
        # item first ("search_events": shown beside list_events, a 135M model searched
        # the calendar for "Friday" when asked what is on on Friday)
        self.on_demand = frozenset(on_demand)
        self.families = dict(families or {})
        self.actions = dict(ACTION_WORDS if actions is None else actions)
        self._synonyms = WordTable.build(DEFAULT_SYNONYMS if synonyms is None else synonyms)
        self._patterns = [(re.compile(pattern, re.IGNORECASE), tuple(stem_words(" ".join(v))))
                          for pattern, v in (DEFAULT_PATTERNS if patterns is None
                                             else patterns).items()]
        self._index: tuple[tuple, list[str], BM25Okapi, dict[str, ToolRole]] | None = None

    def family_of(self, tool_name: str) -> str:
        return self.families.get(tool_name) or name_family(tool_name)

    def query_terms(self, query: str, *, hints: bool | None = None, person_hint: bool = True
                    ) -> list[str]:
        """Stemmed query words with their synonyms and hints (stopwords dropped
        only after their synonyms are taken: "who" still means contact), the
        expansions of multi-word phrases ("write back" -> reply) and patterns
        ("tell Sam that" -> email), and the family a word names ("calendar"). A "remind me"
        that asks to be told ("remind me who Nora is") names no reminder, nor "no changes"
        an update, nor "don't book anything" an event."""
        query = without_unasked(query)
        terms = self._synonyms.phrase_stems(query)
        terms += [t for pattern, stems in self._patterns if pattern.search(query) for t in stems]
        if any(MESSAGE_OBJECT.match(clause) for clause in commands(query)):
            terms += ["send", "email"]
        quoted = [q.span() for q in QUOTED.finditer(query)]
        for m in _QUERY_TOKEN.finditer(query):
            if self.hints if hints is None else hints:
                # a sentence's first word, or one in quotes, is capitalised but no name; nor
                # is one a number follows ("in Room 2.01", "at Pier 7": a place)
                named = (person_hint and not _BEFORE_SENTENCE.search(query[:m.start()] or ".")
                         and not any(a <= m.start() < b for a, b in quoted)
                         and not _NUMBER_NEXT.match(query, m.end()))
                terms += self._hint(m, named)
            if not m.group("word"):
                continue
            word = m.group("word").lower().removesuffix("'s")
            stem = _stem(word)
            if _HEAD_NOUN.match(query, m.end()):
                continue  # it describes the item the next word names
            terms.extend(self._synonyms.words.get(stem, ()))
            if stem in FAMILY_ALIASES:
                terms.append(FAMILY_ALIASES[stem])
            if word not in STOPWORDS:
                terms.append(stem)
        return terms

    def _hint(self, m: re.Match[str], person: bool = True) -> list[str]:
        """What a token's shape says: an address is email, a file name a file, a
        clock time an event, a capitalised word a contact (``person``: where it may
        be a name)."""
        kind = next(name for name, value in m.groupdict().items() if value)
        if kind != "word":
            return [{"address": "email", "filename": "file", "time": "event"}[kind]]
        word = m.group()
        if person and word[:1].isupper() and word[1:].islower() \
                and word.lower() not in NOT_NAMES:
            return ["contact"]
        return []

    def rank(self, query: str, tools: list[ToolSpec], *, hints: bool | None = None,
             person_hint: bool = True, extra: tuple[str, ...] = ()) -> list[FamilyScore]:
        """Every family with its score, best first (``hints``: use the token-shape
        hints, by default as configured; ``person_hint``: among them, a capitalised
        name's; ``extra``: family names the request means without saying them)."""
        if not tools:
            return []
        names, bm25, roles = self._bm25(tools)
        terms = [*self.query_terms(query, hints=hints, person_hint=person_hint), *extra]
        scores = bm25.get_scores(terms)
        members: dict[str, list[str]] = {name: [] for name in names}
        for spec in tools:
            members[roles[spec.name].family].append(spec.name)
        ranked = [FamilyScore(name, float(score), name in terms, tuple(members[name]))
                  for name, score in zip(names, scores)]
        return sorted(ranked, key=lambda f: -f.score)

    def choose(self, query: str, tools: list[ToolSpec], *, always: Iterable[str] = ()
               ) -> Selection:
        # a list the user keeps is a note: its family joins, as if the request said "note"
        extra = ("note",) if any(list_target(c) for c in commands(query)) else ()
        # a person's address or number is the contacts', however much of the request
        # is about mail ("whats sams email? draft him ...")
        extra += ("contact",) if CONTACT_FIELD.search(query) else ()
        tools = [spec for spec in tools if spec.name not in self.on_demand]
        broad = [spec for spec in tools if spec.name in self.broad]
        all_tools, tools = tools, [spec for spec in tools if spec.name not in self.broad]
        ranked = self.rank(query, tools, extra=extra)
        chosen = self._chosen(ranked)
        asking = asks_a_question(query)
        question = bool(broad) and asking
        if not chosen:
            return (Selection(broad, ranked, [], answer_from=[frozenset(s.name for s in broad)])
                    if question else Selection(list(all_tools), ranked, [], fallback=True))
        roles = self._bm25(tools)[2]
        # Families that only a token's shape brought in ("with Sam" -> contact) are
        # there to look something up; so are all families once the request has named
        # an action elsewhere, or when it asks a question. A capitalised name never
        # names an action of its own: "Add lunch with Sara to my calendar" does not ask
        # for add_contact, though "add" is its verb.
        plain = (self._chosen(self.rank(query, tools, hints=False, extra=extra)) if self.hints
                 else chosen)
        unnamed = (self._chosen(self.rank(query, tools, person_hint=False, extra=extra))
                   if self.hints else chosen)
        acting = [f for f in ranked if f.family in chosen and f.family in unnamed]
        named = self._named_actions(query, acting, roles)
        looking = bool(named) or asking
        keep = set(always)
        for family in (f for f in ranked if f.family in chosen):
            acts = [name for name in family.tools if not roles[name].look]
            shown = [name for name in acts if name in named]
            if not self.prune_actions or not (shown or looking or family.family not in plain):
                shown = acts
            keep |= {name for name in family.tools if roles[name].look} | set(shown)
        asked = self._asked(query, tools, acting, roles)
        keep |= {name for group in asked for name in group}  # what it asks for is shown
        if question and not asked and not any(f.mentioned for f in ranked):
            # a question that names no kind of item and asks for nothing to be done ("When
            # does the plumber come?"): the words that scored a family are no sign of
            # where the answer is
            return Selection(broad, ranked, chosen,
                             answer_from=[frozenset(s.name for s in broad)])
        families = [f for f in ranked if f.family in chosen]
        return Selection([spec for spec in tools if spec.name in keep], ranked, chosen,
                         actions=sorted(named), requested=asked,
                         looked=self._looked(query, tools, families, roles),
                         answer_from=self._answer_from(query, families, roles),
                         widen=frozenset(spec.name for spec in broad))

    def _asked(self, query: str, tools: list[ToolSpec], families: list[FamilyScore],
               roles: dict[str, ToolRole]) -> list[frozenset[str]]:
        """What the request asks to be done, one group of act tools per clause: the
        tools of the clause's own family (the one it names by name, else the best
        scoring one its words point to) whose action its verb names. "Save it in a
        note" asks for ``create_note``, not ``write_file``; "add olive oil to my
        grocery list note" for ``append_to_note`` or ``create_note``, either of which
        does it."""
        if CHANGE_NOTHING.search(query):
            return []  # a request that rules out every change asks for none
        shown = {f.family: f for f in families}
        labelled = LABELLED.match(query)
        # the label is the kind, the rest is the item's text; "calendar: what's on friday?" asks
        if labelled and not _QUESTION.search(query):
            kind = _stem(labelled.group("kind").replace("-", ""))
            family = shown.get(FAMILY_ALIASES.get(kind, kind))
            made = frozenset(n for n in family.tools if creates(n)) if family else frozenset()
            return [made] if made else []
        groups: list[frozenset[str]] = []
        invited: list[frozenset[str]] = []  # the groups of clauses that invite someone
        for clause in commands(query):
            # a quoted name is no kind the clause names ("a note 'Designer contacts'")
            words = {FAMILY_ALIASES.get(w, w) for w in stem_words(QUOTED.sub(" ", clause))}
            extra = ("note",) if list_target(clause) else ()
            ranked = [f for f in self.rank(clause, tools, person_hint=False, extra=extra)
                      if f.family in shown and f.mentioned]
            if not ranked and _asks_free_time(groups, roles) and "event" in shown:
                # "find me a free half hour ... and pop 'call Tom' in there": the slot found
                # is where the new item goes, in the calendar
                ranked = [shown["event"]]
            if not ranked:
                continue
            # the family the clause names by name first, then by score; the next one
            # when its tools do not do what the verb says ("draft him a note" names a
            # note, but drafting is the mail's)
            into = _DESTINATION.search(clause)
            kind = (into.group("kind") or "file").lower() if into else None
            goal = FAMILY_ALIASES.get(kind, kind) if kind else None
            # a person's address or number is a contact's ("save Lena's number": add_contact),
            # unless the clause names the kind it goes into ("start a note 'Designer
            # contacts' with Marta's phone number in it")
            field = "contact" if CONTACT_FIELD.search(clause) else None
            ordered = sorted(ranked, key=lambda f: (f.family == goal, f.family in words,
                                                    f.family == field, f.score), reverse=True)
            verb = next(iter(clause_verbs(clause)), "")
            group = _clause_tools(clause, verb, [shown[f.family].tools for f in ordered], roles)
            group = self._changed(query, clause, group, ordered, shown, roles)
            if group and verb.lower().startswith("invit"):
                invited.append(group)
            if group and group not in groups:
                groups.append(group)
        return _invites_attend(groups, invited, tools)

    @staticmethod
    def _changed(query: str, clause: str, group: frozenset[str], ordered: list[FamilyScore],
                 shown: dict[str, FamilyScore], roles: dict[str, ToolRole]) -> frozenset[str]:
        """``group``, or the tools a clause asks for by how it is said rather than by its
        verb: a replacement ("make it 9 instead", "make lunch with Jonas an hour and a half
        instead of an hour") or an item said as it is now ("my 1:1 is in room 4.10 now":
        ``CHANGED_NOW``) changes an item, whatever "make" asks to add; a thing added to
        a list the user keeps (``list_target``) is appended to that note; a person added to
        an item (``joined_kinds``) changes the item."""
        replaced = _INSTEAD.search(query) or (CHANGED_NOW.search(query)
                                               and not _QUESTION.search(query))
        if replaced and (not group or any(creates(n) for n in group)):
            cue = _stem("instead")
        elif list_target(clause):
            cue, ordered = _stem("append"), [f for f in ordered if f.family == "note"]
        elif kinds := joined_kinds(clause):
            cue, ordered = _stem("update"), [f for f in ordered if f.family in kinds]
        elif "file" in shown and TICK_VERB.search(clause) and ticked_lines(query):
            # a line ticked off in a file the request names is the file written again
            # with that line changed, not a reminder completed
            cue, ordered = _stem("write"), [shown["file"]]
        else:
            return group
        for family in ordered:
            changed = frozenset(n for n in shown[family.family].tools
                                if not roles[n].look and cue in roles[n].cues)
            if changed:
                return changed
        return group

    def _looked(self, query: str, tools: list[ToolSpec], families: list[FamilyScore],
                roles: dict[str, ToolRole]) -> list[frozenset[str]]:
        """What the request asks to look up before it acts, one group of look tools per
        clause that opens with a look verb ("Look up Dan's address", "Check when the
        parent-teacher meeting is") and whose verb names no action: the look tools of
        the family the clause is about ("Dan's address" is a contact's field, whatever
        the word). Why: asked to "find my meeting with Priya and remind me an hour
        before it", a 135M model went straight to the reminder with a made-up day."""
        shown = {f.family: f for f in families}
        groups = [self._look_tools(family, shown, roles) for family in source_families(query)]
        groups = [g for g in groups if g]
        for clause in commands(query):
            # a look may open the clause or a part of it after a comma ("Sam said ..., check
            # his mail")
            clause = next((part for part in clause.split(",") if LOOK_CLAUSE.match(part)), "")
            if not clause:
                continue
            if any(not role.look and role.asked_in(clause) for role in roles.values()):
                continue
            family = "contact" if CONTACT_FIELD.search(clause) else None
            if family is None:
                words = {FAMILY_ALIASES.get(w, w) for w in stem_words(clause)}
                ranked = [f for f in self.rank(clause, tools, person_hint=False)
                          if f.family in shown and f.score > 0]
                if not ranked:
                    continue
                family = max(ranked, key=lambda f: (f.family in words, f.score)).family
            if family not in shown:
                continue
            group = frozenset(name for name in shown[family].tools if roles[name].look)
            if group and group not in groups:
                groups.append(group)
        return groups

    @staticmethod
    def _look_tools(family: str, shown: dict[str, FamilyScore], roles: dict[str, ToolRole]
                    ) -> frozenset[str]:
        """The look tools of a shown family (none when it is not shown)."""
        if family not in shown:
            return frozenset()
        return frozenset(name for name in shown[family].tools if roles[name].look)

    def _answer_from(self, query: str, families: list[FamilyScore], roles: dict[str, ToolRole]
                     ) -> list[frozenset[str]]:
        """Where a question's answer is, when its words say: a person's address or number
        ("What is Nora's email address?"), the contacts, whatever "email" suggests; else
        the kinds its words name, best first ("have I received Marta's invoice yet?": an
        invoice comes by mail), not those a capitalised name alone brought in ("Marta"
        is no sign the answer is in the contacts)."""
        if not _QUESTION.search(query):
            return []
        shown = {f.family: f for f in families}
        if "contact" in shown and (CONTACT_FIELD.search(query) or _WHO_IS_RELATION.search(query)):
            return [self._look_tools("contact", shown, roles)]
        # the words' own kinds (no token-shape hints), the one most words name first
        terms = self.query_terms(query, hints=False)
        # who is in something on a day named asks an event's attendees ("who's in the
        # roadmap review tomorrow?"), though "who" is a word of the contacts
        dated = "event" if DAY_WORDS.search(query) and _WHO.search(query) else None
        named = sorted((f for f in families if f.family in terms),
                       key=lambda f: (f.family == dated, terms.count(f.family), f.score),
                       reverse=True)
        return [g for g in (self._look_tools(f.family, shown, roles) for f in named) if g]

    def _chosen(self, ranked: list[FamilyScore]) -> list[str]:
        """The families named by the query, and the best-scoring ones (at most k)."""
        best = ranked[0].score if ranked else 0.0
        by_score = [f.family for f in ranked if f.score > 0 and f.score >= self.ratio * best]
        mentioned = [f.family for f in ranked if f.mentioned]
        return list(dict.fromkeys([*by_score[: self.k], *mentioned]))

    @staticmethod
    def _named_actions(query: str, families: list[FamilyScore], roles: dict[str, ToolRole]
                       ) -> set[str]:
        """The act tools of the chosen families whose action the query names."""
        query = without_unasked(query)
        stems = {_stem(m.group().lower().removesuffix("'s"))
                 for m in _QUERY_TOKEN.finditer(query) if m.group("word")}
        return {name for f in families for name in f.tools
                if not roles[name].look and roles[name].named_in(query, stems)}

    def select(self, query: str, tools: list[ToolSpec], *, always: Iterable[str] = ()
               ) -> list[ToolSpec]:
        return self.choose(query, tools, always=always).tools

    def _bm25(self, tools: list[ToolSpec]) -> tuple[list[str], BM25Okapi, dict[str, ToolRole]]:
        """Family names, the BM25 index over their documents and every tool's role,
        rebuilt only when the tool set changes."""
        key = tuple((t.name, t.description) for t in tools)
        if self._index is None or self._index[0] != key:
            docs: dict[str, list[str]] = {}
            roles = {}
            for spec in tools:
                family = self.family_of(spec.name)
                docs.setdefault(family, []).extend(tool_document(spec))
                roles[spec.name] = tool_role(spec.name, family, self.actions)
            self._index = (key, list(docs), BM25Okapi(list(docs.values())), roles)
        return self._index[1], self._index[2], self._index[3]
