"""Where each argument value of a proposed call came from.

A call is only as trustworthy as its arguments. The taint tracker knows which
texts entered the conversation: what the user (and the system prompt) said, the
user's own items returned by trusted tools, and untrusted tool output (a
stranger's mail, a shared file, a review). ``trace`` follows every leaf value of
the arguments back to the first of these that holds it:

- ``user``: the user's words (or the system prompt) contain it, or name it: every
  word of ``External_0`` is in "the channel starting with External";
- ``trusted``: a result made only of the user's own items contains it;
- ``untrusted``: only untrusted output contains it (the IBAN in a bill, the hotel
  an injected review names, a file id an email asks to delete);
- ``unseen``: nowhere; the model wrote it (a subject line, a summary, a date it
  worked out).

An untrusted value is what a person must hear about before a write runs: "the
recipient US13... appears only in read_file". Long free text (an email body) is
not one value: ``distinctive_tokens`` picks the typed values inside it (IBANs,
long numbers), and copied runs of words are the taint tracker's ``copied_text``.

Matching is deliberately literal (after the scope policy's folding of look-alike
and invisible characters): a value is found where its words stand whole, and a
bare number only where it stands alone in running text, never inside a date, a
time or another number, nor as the id field of a listed item (an item's id is
the store's, not its author's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from enum import Enum
from typing import Any

from pydantic import BaseModel, Field

from botpsy.extract import ID_CUE, ISO_DATE_OR_TIME, is_day_of_month
from botpsy.safety.policy import Normalised


class ValueOrigin(str, Enum):
    """The first kind of text that holds an argument value (best first)."""

    user = "user"
    trusted = "trusted"
    untrusted = "untrusted"
    unseen = "unseen"


class ArgumentTrace(BaseModel):
    """One argument value and where it was found. ``path``: the argument's name, with
    list positions (``participants[1]``); ``sources``: the untrusted sources that hold
    it (only for ``untrusted``)."""

    path: str
    value: str
    origin: ValueOrigin
    sources: list[str] = Field(default_factory=list)


class SourceText(BaseModel):
    """A text that may hold argument values, and its name (``tool:read_file:c1``)."""

    source: str
    text: str


# fields a service fills in about an item, not words its author chose: the item's id,
# who sent it and to whom, where it was posted. A value found only there says which
# item or person a call is about ("the sender of that mail"), not what a stranger
# asked for; an instruction lives in the content (a body, a subject, a review).
_METADATA_FIELD = re.compile(
    r"""(?im)(?<![\w-])["']?(?:id_?|\w+_id|sender|recipients?|author|user|channel|owner)["']?"""
    r"""\s*[:=]\s*(?:"[^"\n]*"|'[^'\n]*'|[^,\n}]*)""")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b")
_LONG_NUMBER = re.compile(r"(?<![\w.])\d[\d ]{4,}\d(?![\w.])")
_SPACES = re.compile(r"\s+")
_TOKEN = re.compile(r"[^\W_]+")
_SYMBOL = re.compile(r"[^\w\s'\u2019.,!?-]|_")
# a value of up to this many words is traced whole (a name, a title, a password);
# longer text is a message, whose copied runs of words the taint tracker finds
_WHOLE_WORDS = 4


def _fold(text: str) -> str:
    """Text as values are compared: look-alikes and invisible characters folded (as the
    scope policy reads it), case and runs of spaces ignored."""
    return _SPACES.sub(" ", Normalised(text).folded).casefold()


def leaves(arguments: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every scalar value of ``arguments`` with its path (``to``, ``participants[1]``,
    ``event.title``)."""
    if isinstance(arguments, dict):
        for key, value in arguments.items():
            yield from leaves(value, f"{path}.{key}" if path else str(key))
    elif isinstance(arguments, (list, tuple)):
        for index, value in enumerate(arguments):
            yield from leaves(value, f"{path}[{index}]")
    else:
        yield path, arguments


def _is_number(value: str) -> bool:
    return value.isdigit()


def distinctive(value: Any) -> str | None:
    """``value`` as text when it can say where it came from, else None.

    Booleans, amounts (floats), dates and clock times, short codes and ordinary
    words and phrases ("general", "Feedback scores") are left out: they occur
    everywhere, so finding them in a stranger's text proves nothing. Kept: ids and
    other whole numbers, names (every word capitalised: "Riverside View Hotel"),
    and anything with digits or symbols in it (an IBAN, ``new_password``,
    ``External_0``). Longer text keeps only its typed values (``trace``)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    text = str(value).strip()
    if len(text) < 2 or not any(c.isalnum() for c in text) or ISO_DATE_OR_TIME.match(text):
        return None
    if _is_number(text):
        return text
    if len(text) < 3:
        return None
    if any(c.isdigit() or _SYMBOL.match(c) for c in text):
        return text
    words = text.split()
    return text if all(w[0].isupper() for w in words) else None


def content_of(text: str) -> str:
    """An untrusted text without its metadata fields (``_METADATA_FIELD``)."""
    return _METADATA_FIELD.sub(" ", text)


def matcher(value: str, *, cued: bool = False) -> Callable[[str], bool]:
    """Whether ``value`` stands whole in a text passed through ``_fold``; the value is
    folded and its pattern compiled once, for every text it is looked for in.

    A number counts only where it stands alone ("2024-05-13", "13:00", "1.13" and
    "130" do not hold 13, nor does "June 13", a day); with ``cued`` (a stranger's
    content, where numbers are dates, prices and list items) only where it names an
    item: "ID 13", "#13"."""
    if _is_number(value):
        cue = ID_CUE if cued else ""
        number = re.compile(rf"{cue}(?<![\w.,:/-]){re.escape(value)}(?![\w:/-]|[.,]\d)")
        return lambda folded: any(not is_day_of_month(folded, m.start(), m.end())
                                  for m in number.finditer(folded))
    words = re.compile(rf"(?<!\w){re.escape(_fold(value))}(?!\w)")
    return lambda folded: words.search(folded) is not None


def _contains(folded: str, value: str) -> bool:
    """Whether the folded ``value`` stands in ``folded`` with no word character glued to
    either end ("Books to read" in a note's title, not "read" inside "ready")."""
    start = folded.find(value)
    while start >= 0:
        end = start + len(value)
        if ((start == 0 or not folded[start - 1].isalnum() or not value[0].isalnum())
                and (end == len(folded) or not folded[end].isalnum() or not value[-1].isalnum())):
            return True
        start = folded.find(value, start + 1)
    return False


def found_in(value: str, folded: str, *, cued: bool = False) -> bool:
    """Whether ``value`` stands whole in ``folded`` (see ``matcher``)."""
    return matcher(value, cued=cued)(folded)


def distinctive_tokens(text: str) -> list[str]:
    """The typed values inside free text that can name a target on their own: IBANs and
    long numbers (accounts, phones)."""
    norm = Normalised(text).text
    found = [m.group() for m in _IBAN.finditer(norm)]
    found += [m.group() for m in _LONG_NUMBER.finditer(norm) if not _IBAN.search(m.group())]
    return list(dict.fromkeys(found))


class OriginTracer:
    """The texts of one conversation, folded once, that argument values are traced to."""

    def __init__(self, user: Sequence[str], trusted: Sequence[str],
                 untrusted: Sequence[SourceText]):
        self._user = [_fold(t) for t in user]
        self._user_words = {w for t in self._user for w in _TOKEN.findall(t)}
        self._trusted = [_fold(t) for t in trusted]
        self._untrusted = [(u.source, _fold(content_of(u.text))) for u in untrusted]

    def origin(self, value: str) -> tuple[ValueOrigin, list[str]]:
        """Where ``value`` was found first (user, trusted, untrusted, unseen), with the
        untrusted sources holding it."""
        held = matcher(value)
        if any(held(t) for t in self._user) or self._described(value):
            return ValueOrigin.user, []
        if any(held(t) for t in self._trusted):
            return ValueOrigin.trusted, []
        cued = matcher(value, cued=True)
        sources = list(dict.fromkeys(s for s, t in self._untrusted if cued(t)))
        return (ValueOrigin.untrusted, sources) if sources else (ValueOrigin.unseen, [])

    def _described(self, value: str) -> bool:
        """Whether the user named ``value`` in their own words, give or take an index:
        "the channel starting with External" names ``External_0``. Every word of the
        value must be one the user wrote; at most two digits may be added."""
        tokens = _TOKEN.findall(_fold(value))
        words = [t for t in tokens if not t.isdigit()]
        digits = sum(len(t) for t in tokens if t.isdigit())
        return bool(words) and digits <= 2 and all(w in self._user_words for w in words)

    def proven(self, arguments: dict[str, Any], vouched: Collection[int] = ()) -> bool:
        """Whether every value of ``arguments`` is, whole, the user's words or a value of
        the user's own items (an id among their fields): nothing a stranger wrote can have
        chosen it. Stricter than ``trace``: ordinary words, dates and the model's own
        phrasing count too, and a value the model worked out (a date from "tomorrow", a
        summary) proves nothing, so it is not proven. Why: a call after untrusted data
        whose every value is the user's own ("send jamie my reading list from my notes",
        after a note search that also showed a web page copied into a note) may run on
        the user's say-so alone (``TaintVerdict.proven``). ``vouched``: item ids the
        caller found the user's words to name; an id is the store's, never its author's."""
        return all((isinstance(raw, int) and raw in vouched) or self._held_whole(raw)
                   for _, raw in leaves(arguments)
                   if raw is not None and not isinstance(raw, bool) and str(raw).strip())

    def _held_whole(self, raw: Any) -> bool:
        if isinstance(raw, int):
            own_id = re.compile(rf'"(?:id|\w+_id)"\s*:\s*{raw}(?!\d)')
            return (any(own_id.search(t) for t in self._trusted)
                    or any(matcher(str(raw))(t) for t in self._user))
        text = str(raw).strip()
        # a full stop closing the user's own words chooses nothing ("Monday 8:30 works, see
        # you then." from "...: monday 8:30 works, see you then"), a stranger's words neither
        bare = text.rstrip(".!").rstrip() or text
        forms = {_fold(text), _fold(json.dumps(text)[1:-1]), _fold(bare)}
        return any(_contains(t, form) for form in forms for t in (*self._user, *self._trusted))

    def trace(self, arguments: dict[str, Any]) -> list[ArgumentTrace]:
        """The origin of every distinctive value of ``arguments``: whole values, and the
        IBANs and long numbers inside longer text."""
        traces: list[ArgumentTrace] = []
        for path, raw in leaves(arguments):
            value = distinctive(raw)
            if value is None:
                continue
            candidates = [value] if len(value.split()) <= _WHOLE_WORDS else []
            if isinstance(raw, str):  # typed values inside text ("IBAN: UK12... please")
                candidates += [t for t in distinctive_tokens(value) if t != value]
            for candidate in candidates:
                origin, sources = self.origin(candidate)
                traces.append(ArgumentTrace(path=path, value=candidate, origin=origin,
                                            sources=sources))
        return traces
