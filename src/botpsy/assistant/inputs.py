"""Checks shared by the tools: text fields, limits, email addresses, search words.

Each check raises ``ToolInputError`` with a message that tells the model what to
send instead, before anything touches the database.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from email import policy
from email.errors import InvalidHeaderDefect, NonPrintableDefect
from typing import TypeVar

from botpsy.assistant.errors import ToolInputError

T = TypeVar("T")

MAX_TITLE_CHARS = 300
MAX_BODY_CHARS = 100_000
MAX_LIMIT = 50
# a word, hyphens inside it kept ("wi-fi", "check-up"): searched without them
_WORD = re.compile(r"\w+(?:-\w+)*", re.UNICODE)
# a plural's "s" (not "ss", "us", "is": "address", "status", "analysis")
_PLURAL = re.compile(r"(?<=[^sui])s$")


def text(
    value: object,
    field: str,
    *,
    max_chars: int = MAX_TITLE_CHARS,
    allow_empty: bool = False,
    single_line: bool = False,
) -> str:
    """``value`` as a stripped string, checked for emptiness, length and control characters."""
    if not isinstance(value, str):
        raise ToolInputError(f"{field} must be text, got {type(value).__name__}")
    cleaned = value.strip()
    if not cleaned and not allow_empty:
        raise ToolInputError(f"{field} must not be empty")
    if len(cleaned) > max_chars:
        raise ToolInputError(
            f"{field} is too long ({len(cleaned)} characters, at most {max_chars})"
        )
    if "\x00" in cleaned or (single_line and ("\n" in cleaned or "\r" in cleaned)):
        raise ToolInputError(f"{field} must be a single line of plain text")
    return cleaned


def optional_text(value: object, field: str, *, max_chars: int = MAX_TITLE_CHARS) -> str | None:
    """Like ``text`` but None and blank mean 'not given'."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return text(value, field, max_chars=max_chars)


def limit(value: object, field: str = "limit", maximum: int = MAX_LIMIT) -> int:
    """A result count between 1 and ``maximum``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ToolInputError(f"{field} must be a whole number from 1 to {maximum}, got {value!r}")
    return value


_MAX_ID = 2**63 - 1  # SQLite's largest integer: a bigger one cannot name a row


def item_id(value: object, field: str) -> int:
    """A positive integer id."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _MAX_ID:
        raise ToolInputError(f"{field} must be a positive whole number, got {value!r}")
    return value


def email_address(value: str, field: str = "email") -> str:
    """One checked address, as ``Name <user@host>`` or ``user@host``."""
    addresses = email_addresses(value, field)
    if len(addresses) != 1:
        raise ToolInputError(f"{field} must be exactly one email address, got {value!r}")
    return addresses[0]


def email_addresses(value: object, field: str = "to", finder: str = "") -> list[str]:
    """Comma-separated addresses, each checked with the stdlib's RFC 5322 parser.

    ';' is accepted as a separator too, since models often write it. ``finder``
    names the tool that gives the addresses: a model that wrote a name ("Jonas")
    can look it up instead.
    """
    raw = text(value, field, max_chars=2000, single_line=True).replace(";", ",")
    header = policy.default.header_factory("To", raw)
    bad = [d for d in header.defects if isinstance(d, (InvalidHeaderDefect, NonPrintableDefect))]
    addresses = header.addresses
    if bad or not addresses:
        finders = (finder,) if finder else ()
        raise ToolInputError(
            f"{field}: could not read {raw!r} as email addresses "
            "(write them like 'ana@example.com, Bo <bo@example.org>')",
            finders=finders, listing="addresses")
    for address in addresses:
        if not address.username or "." not in address.domain.strip("."):
            raise ToolInputError(f"{field}: {address.addr_spec!r} is not a valid email address")
    return [str(address) for address in addresses]


def search_words(query: object, field: str = "query") -> list[str]:
    """The words of a search query (letters and digits), lower-cased, as the searches
    match them: without hyphens ("wi-fi" finds "WiFi" and "Wi-Fi", see ``unhyphenated``;
    a phrase joined by several, "books-to-read", is its words),
    a plural as its singular (matched anywhere, "dentist" also finds "dentists"), and
    without the letter a possessive leaves ("Hamburg's" is "hamburg")."""
    raw = text(query, field, max_chars=500)
    # a phrase joined by hyphens is its words ("books-to-read"); one hyphen joins one word
    found = [part for w in _WORD.findall(raw) for part in (w.split("-") if w.count("-") >= 2 else [w])]
    words = [_searched(w) for w in found if w]
    words = [w for w in words if len(w) > 1] or words
    if not words:
        raise ToolInputError(f"{field} must contain at least one word, got {raw!r}")
    return words[:10]


def _searched(word: str) -> str:
    word = word.lower().replace("-", "")
    return _PLURAL.sub("", word) if len(word) >= 5 and not word.isdigit() else word


def holds_words(text: str, words: list[str]) -> bool:
    """Whether ``text`` holds every one of ``search_words``, read as they are (case and
    hyphens aside): ``unhyphenated`` for text that is not in the database."""
    plain = text.lower().replace("-", "")
    return all(word in plain for word in words)


def unhyphenated(column_sql: str) -> str:
    """A SQL expression of ``column_sql`` without hyphens, to match ``search_words``
    against: people write "wifi" for a note titled "Guest Wi-Fi"."""
    return f"REPLACE({column_sql}, '-', '')"


def like_pattern(word: str) -> str:
    """A LIKE pattern matching ``word`` anywhere; use with ``ESCAPE '\\'``."""
    escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def most_words(search: Callable[[list[str]], list[T]], words: list[str],
               key: Callable[[T], object]) -> list[T]:
    """What a search finds when no item holds every one of ``words``: the items that hold
    the most of them, and among those the items of the word written first (people write
    train"), the rarer word's before the commoner's. ``search`` is the tool's own search
    for a list of words, all to be held.
    Why: a question's words include some no item holds ("leave", a slip like
    "electricty"), and a search that needs all of them found nothing where one word alone
    found the answer."""
    held: dict[object, tuple[T, list[int]]] = {}
    hits = []
    for position, word in enumerate(words):
        found = search([word])
        hits.append(len(found))
        for item in found:
            held.setdefault(key(item), (item, []))[1].append(position)
    ranked = sorted(held.values(), key=lambda found: (
        -len(found[1]), sum(hits[p] for p in found[1]), found[1][0]))
    return [item for item, _ in ranked]
