"""Dynamic tool selection: show the model only the tools a request needs.

Every tool schema in the prompt costs prefill time on a phone and distracts a
small model. ``Bm25ToolSelector`` picks tool *families* rather than single
tools, because a request about mail needs the mail finders as well as the one
that acts ("reply to Sam's email" = ``search_mail`` + ``reply_email``):

1. tools are grouped into families by the noun of their name (``send_email``,
   ``read_email``, ``list_inbox``, ``search_mail`` -> email; aliases in
   ``FAMILY_ALIASES``), or by an explicit ``families`` mapping;
2. the query is stemmed (Snowball) and expanded with a small synonym table for
   the assistant's domains ("meeting" -> event, "todo" -> reminder), plus three
   hints: an email address means email, a file name means file, a capitalised
   name mid-sentence ("with Sam") means contact;
3. a family is chosen when the expanded query names it, or when its BM25 score
   (rank-bm25, over the family's names, descriptions and parameter names) is
   within ``ratio`` of the best family's, at most ``k`` of those;
4. tools already used in the conversation are always kept (a follow-up like
   "and send it" must still see ``send_email``).

The chosen tools keep the registry's order, so consecutive prompts share the
longest possible prefix and the llama.cpp KV cache is reused. When the request
matches nothing at all, every tool is shown: the model decides, as it would
without selection.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import snowballstemmer
from rank_bm25 import BM25Okapi

from botpsy.types import ToolSpec

_STEMMER = snowballstemmer.stemmer("english")
_NAME_PART = re.compile(r"[A-Za-z][a-z]*|[A-Z]+(?![a-z])|\d+")
_QUERY_TOKEN = re.compile(
    r"(?P<address>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
    r"|(?P<filename>[\w-]+\.(?:md|txt|csv|pdf|docx?|xlsx?|json|ics|vcf|png|jpe?g|html?|log)\b)"
    r"|(?P<word>[A-Za-z][A-Za-z'-]*|\d+(?::\d+)?)"
)
STOPWORDS = frozenset(
    ["a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "from", "by", "with", "about", "into", "is", "are", "be", "been", "was", "were", "it", "its", "this", "that", "these", "those", "my", "me", "i", "you", "your", "we", "our", "us", "he", "she", "they", "them", "his", "her", "their", "what", "which", "who", "whom", "how", "when", "where", "why", "can", "could", "would", "should", "will", "do", "does", "did", "please", "pls", "hey", "hi", "just", "all", "any", "some", "up", "out", "if", "then", "than", "so", "as", "not", "no", "yes", "get", "give", "tell", "let", "have", "has", "had", "i'm", "i'll", "i've"]
)
NOT_NAMES = frozenset(
    ["i", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
)
FAMILY_ALIASES: dict[str, str] = {"mail": "email", "inbox": "email", "slot": "event",
                                  "calendar": "event", "todo": "remind"}

# Domain words a request uses -> words the matching tools use (stemmed on load).
DEFAULT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "mail": ("email",), "e-mail": ("email",), "inbox": ("email", "inbox"),
    "message": ("email",), "messages": ("email",), "reply": ("reply", "email"),
    "respond": ("reply", "email"), "forward": ("email", "send"), "unread": ("inbox", "email"),
    "newsletter": ("email",), "sender": ("email",), "mailbox": ("email", "inbox"),
    "draft": ("email", "draft"), "write back": ("reply", "email"),
    "hear back": ("reply", "email"), "heard back": ("reply", "email"),
    "meeting": ("event",), "appointment": ("event",), "schedule": ("event", "create"),
    "agenda": ("event",), "book": ("event", "create"), "busy": ("event",), "free": ("event",),
    "lunch": ("event",), "dinner": ("event",), "call": ("event",), "invite": ("event", "email"),
    "reschedule": ("update", "event"), "postpone": ("update", "event"),
    "cancel": ("delete", "event"), "today": ("event",), "tomorrow": ("event",),
    "tonight": ("event",), "week": ("event",), "weekend": ("event",), "plan": ("event",),
    "monday": ("event",), "tuesday": ("event",), "wednesday": ("event",),
    "thursday": ("event",), "friday": ("event",), "saturday": ("event",), "sunday": ("event",),
    "party": ("event",), "offsite": ("event",), "standup": ("event",), "interview": ("event",),
    "conference": ("event",), "1:1": ("event",),
    "remind": ("reminder",), "todo": ("reminder",), "to-do": ("reminder",),
    "to-dos": ("reminder",), "todos": ("reminder",), "task": ("reminder",),
    "to do": ("reminder",), "tick off": ("complete", "reminder"), "forget": ("reminder",),
    "deadline": ("reminder", "due"), "done": ("complete", "reminder"),
    "phone": ("contact",), "number": ("contact",), "address": ("contact", "email"),
    "birthday": ("contact",), "person": ("contact",), "people": ("contact",),
    "who": ("contact",), "colleague": ("contact",), "friend": ("contact",),
    "brother": ("contact",), "sister": ("contact",), "mom": ("contact",), "dad": ("contact",),
    "boss": ("contact",), "jot": ("note", "create"), "memo": ("note",), "write": ("note",),
    "wrote": ("note",), "idea": ("note",), "ideas": ("note",), "list": ("list",),
    "document": ("file",), "doc": ("file",), "docs": ("file",), "folder": ("file",),
    "directory": ("file",), "save": ("write", "file"), "open": ("read",), "show": ("list",),
    "find": ("search",), "look": ("search",), "lookup": ("search",), "remove": ("delete",),
    "trash": ("delete",), "erase": ("delete",), "change": ("update",), "edit": ("update",),
    "rename": ("update",), "new": ("create",),
}


def _stem(word: str) -> str:
    return _STEMMER.stemWord(word.lower())


def _stem_words(text: str) -> list[str]:
    words = [w.lower() for w in _NAME_PART.findall(text)]
    return _STEMMER.stemWords([w for w in words if w not in STOPWORDS])


def tool_document(spec: ToolSpec) -> list[str]:
    """The words BM25 indexes for a tool: its name (twice: names are the strongest
    signal), its description and its parameter names, split and stemmed."""
    params = " ".join((spec.parameters or {}).get("properties", {}))
    return _stem_words(f"{spec.name} {spec.name} {spec.description} {params}")


def name_family(tool_name: str) -> str:
    """A tool's family from the last word of its name: ``send_email`` -> ``email``."""
    last = _stem(_NAME_PART.findall(tool_name)[-1]) if _NAME_PART.search(tool_name) else tool_name
    return FAMILY_ALIASES.get(last, last)


class ToolSelector(Protocol):
    """Chooses the tools to show the model for one request."""

    def select(self, query: str, tools: list[ToolSpec], *, always: Iterable[str] = ()
               ) -> list[ToolSpec]: ...


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


class Bm25ToolSelector:
    """Family-level BM25 tool selection (see the module docstring)."""

    def __init__(
        self,
        *,
        k: int = 2,
        ratio: float = 0.5,
        synonyms: Mapping[str, tuple[str, ...]] | None = None,
        families: Mapping[str, str] | None = None,
        hints: bool = True,
    ):
        if k < 1 or not 0 < ratio <= 1:
            raise ValueError("k must be >= 1 and ratio in (0, 1]")
        self.k, self.ratio, self.hints = k, ratio, hints
        self.families = dict(families or {})
        synonyms = DEFAULT_SYNONYMS if synonyms is None else synonyms
        self._synonyms = {_stem(key): tuple(_stem_words(" ".join(values)))
                          for key, values in synonyms.items() if " " not in key}
        self._phrases = [(re.compile(rf"\b{re.escape(key)}\b", re.IGNORECASE),
                          tuple(_stem_words(" ".join(values))))
                         for key, values in synonyms.items() if " " in key]
        self._index: tuple[tuple, list[str], BM25Okapi] | None = None

    def family_of(self, tool_name: str) -> str:
        return self.families.get(tool_name) or name_family(tool_name)

    def query_terms(self, query: str) -> list[str]:
        """Stemmed query words with their synonyms and hints (stopwords dropped
        only after their synonyms are taken: "who" still means contact), and the
        expansions of multi-word phrases ("write back" -> reply)."""
        terms = [t for pattern, stems in self._phrases if pattern.search(query) for t in stems]
        for position, m in enumerate(_QUERY_TOKEN.finditer(query)):
            if m.group("address"):
                terms += ["email"] if self.hints else []
                continue
            if m.group("filename"):
                terms += ["file"] if self.hints else []
                continue
            word = m.group("word")
            if self.hints and position and word[:1].isupper() and word[1:].islower() \
                    and word.lower() not in NOT_NAMES:
                terms.append("contact")
            word = word.lower().removesuffix("'s")
            stem = _stem(word)
            terms.extend(self._synonyms.get(stem, ()))
            if word not in STOPWORDS:
                terms.append(stem)
        return terms

    def rank(self, query: str, tools: list[ToolSpec]) -> list[FamilyScore]:
        """Every family with its score, best first."""
        if not tools:
            return []
        names, bm25 = self._bm25(tools)
        terms = self.query_terms(query)
        scores = bm25.get_scores(terms)
        members: dict[str, list[str]] = {name: [] for name in names}
        for spec in tools:
            members[self.family_of(spec.name)].append(spec.name)
        ranked = [FamilyScore(name, float(score), name in terms, tuple(members[name]))
                  for name, score in zip(names, scores)]
        return sorted(ranked, key=lambda f: -f.score)

    def choose(self, query: str, tools: list[ToolSpec], *, always: Iterable[str] = ()
               ) -> Selection:
        ranked = self.rank(query, tools)
        best = ranked[0].score if ranked else 0.0
        by_score = [f.family for f in ranked if f.score > 0 and f.score >= self.ratio * best]
        chosen = list(dict.fromkeys([*by_score[: self.k],
                                     *(f.family for f in ranked if f.mentioned)]))
        if not chosen:
            return Selection(list(tools), ranked, [], fallback=True)
        keep = {name for f in ranked if f.family in chosen for name in f.tools} | set(always)
        return Selection([spec for spec in tools if spec.name in keep], ranked, chosen)

    def select(self, query: str, tools: list[ToolSpec], *, always: Iterable[str] = ()
               ) -> list[ToolSpec]:
        return self.choose(query, tools, always=always).tools

    def _bm25(self, tools: list[ToolSpec]) -> tuple[list[str], BM25Okapi]:
        """Family names and the BM25 index over their documents, rebuilt only when
        the tool set changes."""
        key = tuple((t.name, t.description) for t in tools)
        if self._index is None or self._index[0] != key:
            docs: dict[str, list[str]] = {}
            for spec in tools:
                docs.setdefault(self.family_of(spec.name), []).extend(tool_document(spec))
            self._index = (key, list(docs), BM25Okapi(list(docs.values())))
        return self._index[1], self._index[2]
