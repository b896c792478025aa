"""Scope policy: keep money, personal data and health out of the assistant's hands.

The BotPsy-0.8B release leaves these domains out because its model cannot be
trusted with them; botpsy enforces the exclusion in code, whatever the model.
``classify`` is a transparent lexical classifier (rules in ``lexicon.py``, plus
identifier detectors validated with python-stdnum); ``ScopePolicy`` turns its
hits into a decision under a deployment's ``SafetyConfig``: allow, decline with
a clear message, or hand the matter back to the user. The same check runs on
the user's request and on the text of every proposed tool call, so an injected
email cannot make the model mail out a card number either.

Usage::

    policy = ScopePolicy(SafetyConfig.load("safety.toml"))
    decision = policy.check_request("wire $500 to my landlord")
    if decision.blocked:
        print(decision.message)
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field
from stdnum import iban, luhn
from stdnum.us import ssn

from botpsy.safety import fuzzy, lexicon
from botpsy.safety.config import Domain, SafetyConfig, ScopeAction, WeakMatch
from botpsy.types import ToolCall

if TYPE_CHECKING:
    from botpsy.safety.classifier_base import Cascade, Classifier, ClassifierVerdict

DOMAIN_LABELS: dict[Domain, str] = {
    Domain.money: "money matters (payments, transfers, banking, crypto, investments)",
    Domain.personal_data: "sensitive personal data (credentials, ID and card numbers, "
    "other people's private details)",
    Domain.health: "health questions (diagnosis, symptoms, medication and dosing)",
}
HANDOFF_ADVICE: dict[Domain, str] = {
    Domain.money: "Please use your bank's or provider's own app, or a financial adviser.",
    Domain.personal_data: "Please handle this data yourself; I will not store, read out or send it.",
    Domain.health: "Please ask a doctor or pharmacist; in an emergency call your local "
    "emergency number.",
}
# Major card networks start with 2-6 (Mastercard 2-series, Amex 3, Visa 4, MC 5, Discover 6).
_CARD_PREFIX = re.compile(r"^[2-6]")
_WS = re.compile(r"\s+")


class ScopeHit(BaseModel):
    """One piece of text that puts a request in a domain."""

    domain: Domain
    reason: str
    matched: str  # the text that matched, identifiers masked
    start: int
    end: int
    identifier: bool = False  # a validated card/SSN/IBAN number or a written-out secret
    misspelt: bool = False  # found only by reading a misspelt key word as meant (``fuzzy``)


class ScopeDecision(BaseModel):
    """What to do with a request or call: its domain (None when none matched), the
    action, why, the text that decided it, and the message to show the user."""

    domain: Domain | None = None
    action: ScopeAction = ScopeAction.allow
    reason: str = ""
    matched: str | None = None
    message: str = ""
    hits: list[ScopeHit] = Field(default_factory=list)

    @property
    def blocked(self) -> bool:
        return self.action is not ScopeAction.allow

    def summary(self) -> str:
        """One short line for logs: ``money/decline: a payment ("Pay")``."""
        if self.domain is None:
            return "in scope"
        return f"{self.domain.value}/{self.action.value}: {self.reason} (\u201c{self.matched}\u201d)"


# Letters of other scripts that look like Latin ones ("pаy" with a Cyrillic a): a
# request spelled with them reads the same to a person and must read the same here.
_LOOKALIKES = str.maketrans(
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u04bb\u0501"
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0406"
    "\u03bf\u03b1\u03b9\u03bd\u03c1\u039f\u0391\u0392\u0395\u0397\u0399\u039a"
    "\u039c\u039d\u03a1\u03a4\u03a7\u2019\u2018",
    "aeopcyxijshdABEKMHOPCTXIoaivpOABEHIKMNPTX''",
)
# Digits and symbols written for letters inside a word: "passw0rd", "B1tcoin", "ca$h".
# A 1 stands for an i or an l, so a word with a 1 is read both ways.
_DIGIT_LETTERS = "013457@$"
_AS_LETTERS = (str.maketrans(_DIGIT_LETTERS, "oieastas"),
               str.maketrans(_DIGIT_LETTERS, "oleastas"))
# A digit, @ or $ beside a letter: a text without one has no word to read with letters.
# (Starting with the digit keeps the search for it fast.)
_MIXED = re.compile(r"[\d@$](?:(?=[^\W\d_])|(?<=[^\W\d_][\d@$]))")
_WORD_OR_CODE = re.compile(r"(?:[^\W_]|[@$])+")
# A number with a unit or an ordinal ("10am", "4pm", "1st", "10kg") is not a spelling.
_NUMBER_WITH_UNIT = re.compile(r"\d+[^\W\d_]{1,2}")


@functools.cache
def _fold_char(char: str) -> str:
    """``char`` without its accents when that leaves one letter ("é" -> "e", "ñ" -> "n");
    otherwise ``char`` ("ß", "œ")."""
    base = unicodedata.normalize("NFD", char)
    if len(base) > 1 and all(unicodedata.combining(c) for c in base[1:]):
        return base[0]
    return char


def _spelled_with_digits(word: str) -> bool:
    """Whether ``word`` is a word with digits, @ or $ for some of its letters: mostly
    letters (at least two, no fewer than the other characters) and not a number with
    a unit."""
    letters = sum(char.isalpha() for char in word)
    return (letters >= 2 and 2 * letters >= len(word)
            and any(char in _DIGIT_LETTERS for char in word)
            and not _NUMBER_WITH_UNIT.fullmatch(word))


class Normalised:
    """``text`` as the patterns read it, and where each of its characters came from.

    Each character is NFKC-folded on its own (fullwidth "ｐａｙ" and "４１１１" are
    "pay" and "4111"), look-alike letters of other scripts become Latin, curly
    apostrophes straight, and invisible format characters (a zero-width space in
    "p\u200bay") are dropped. ``span`` maps a match back into the original text,
    so redaction and messages point at what the user wrote. ``digit_readings``
    gives the other ways to read words spelled with digits ("passw0rd")."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._origin: list[int] | None = None  # None: every character is its own origin
        if text.isascii():  # nothing to fold: the common case costs no per-character pass
            return
        chars: list[str] = []
        self._origin = []
        for index, char in enumerate(text):
            if unicodedata.category(char) == "Cf":
                continue
            for folded in unicodedata.normalize("NFKC", char).translate(_LOOKALIKES):
                chars.append(folded)
                self._origin.append(index)
        self._origin.append(len(text))
        self.text = "".join(chars)

    @property
    def folded(self) -> str:
        """``text`` without accents, as long as ``text`` (one character for one): the
        patterns of every language are written without them, so "Überweisung",
        "numéro" and "contraseña" read "Uberweisung", "numero" and "contrasena", and
        so do the same words typed without accents."""
        return self.folded_like(self.text)

    def digit_readings(self) -> list[tuple[str, list[tuple[int, int]]]]:
        """``text`` read with letters for the digits, @ and $ that stand for them in
        words ("passw0rd", "p4y", "B1tcoin", "ca$h"), once with 1 as i and once as l
        when a word has a 1; each with the spans of the words it changed. Empty when
        no word mixes letters with them, the common case, found by one regex search.

        Only a word that is mostly letters is read so: at least two letters and no
        fewer letters than other characters. A number alone is never changed
        ("555-0101", "14:00", "$50"), nor a code or a short mark ("C01X00T47", "55N",
        "3b", "v1"), nor a number with a unit ("4pm", "10am", "1st"). A reading is as
        long as ``text``, so its spans are ``text``'s and ``span`` maps them back to
        the original."""
        if not _MIXED.search(self.text):
            return []
        words = [m.span() for m in _WORD_OR_CODE.finditer(self.text)
                 if _spelled_with_digits(m.group())]
        if not words:
            return []
        ones = any("1" in self.text[start:end] for start, end in words)
        readings = []
        for table in _AS_LETTERS if ones else _AS_LETTERS[:1]:
            pieces, last = [], 0
            for start, end in words:
                pieces += [self.text[last:start], self.text[start:end].translate(table)]
                last = end
            pieces.append(self.text[last:])
            readings.append(("".join(pieces), words))
        return readings

    @staticmethod
    def folded_like(reading: str) -> str:
        """``reading`` (as long as ``text``) without accents, as ``folded`` reads ``text``."""
        return reading if reading.isascii() else "".join(map(_fold_char, reading))

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original text's span of ``text[start:end]``."""
        if self._origin is None:
            return start, end
        if end <= start:
            return self._origin[start], self._origin[start]
        return self._origin[start], self._origin[end - 1] + 1


def _in_original(hits: Iterable[ScopeHit], norm: Normalised) -> list[ScopeHit]:
    """``hits`` found in ``norm.text``, with their spans in the original text."""
    placed = []
    for hit in hits:
        start, end = norm.span(hit.start, hit.end)
        placed.append(hit.model_copy(update={"start": start, "end": end}))
    return placed


def _mask_digits(raw: str) -> str:
    digits = re.sub(r"\D", "", raw)
    return "•••• " + digits[-4:]


def _identifier_hits(text: str) -> Iterator[ScopeHit]:
    """Card numbers, SSNs, IBANs and written-out secrets, validated so that an
    order number or a phone number is not taken for one."""
    for m in lexicon.CARD_CANDIDATE.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 13 <= len(digits) <= 19 and _CARD_PREFIX.match(digits) and luhn.is_valid(digits):
            yield ScopeHit(domain=Domain.personal_data, reason="a payment card number",
                           matched=_mask_digits(m.group()), start=m.start(), end=m.end(),
                           identifier=True)
    yield from _ssn_hits(text)
    for m in lexicon.IBAN_CANDIDATE.finditer(text):
        if iban.is_valid(m.group()):
            yield ScopeHit(domain=Domain.money, reason="a bank account number (IBAN)",
                           matched=m.group()[:4] + " ••••", start=m.start(), end=m.end(),
                           identifier=True)
    for m in lexicon.SECRET_VALUE.finditer(text):
        yield _secret_hit(m)
    for m in lexicon.PRIVATE_KEY.finditer(text):
        yield ScopeHit(domain=Domain.personal_data, reason="a private key",
                       matched=m.group(), start=m.start(), end=m.end(), identifier=True)


def _ssn_hits(text: str) -> Iterator[ScopeHit]:
    """US SSNs: 3-2-4 digits with dashes or spaces, or nine digits in a row beside a
    cue ("SSN", "SS#", "social security"); valid ones only (no area 000, 666 or 9xx,
    no group 00 or serial 0000, not a number printed on sample cards)."""
    spans = [m.span() for m in lexicon.SSN_CANDIDATE.finditer(text)]
    bare = [m.span() for m in lexicon.SSN_BARE.finditer(text)]
    if bare:
        cues = [m.span() for m in lexicon.SSN_CUE.finditer(text)]
        spans += [(start, end) for start, end in bare if any(
            0 <= start - cue_end <= lexicon.SSN_CUE_BEFORE
            or 0 <= cue_start - end <= lexicon.SSN_CUE_AFTER for cue_start, cue_end in cues)]
    for start, end in spans:
        digits = re.sub(r"\D", "", text[start:end])
        if ssn.is_valid(digits):
            yield ScopeHit(domain=Domain.personal_data, reason="a social security number",
                           matched="•••-••-" + digits[-4:], start=start, end=end,
                           identifier=True)


def _secret_hit(m: re.Match[str], written: str | None = None) -> ScopeHit:
    """A written-out secret; its keyword as ``written`` has it (a reading with letters for
    digits is as long as the text, so the span is the same: "P1N", not "PiN")."""
    keyword = re.split(r"\s*(?:is|:|=)", m.group(), maxsplit=1, flags=re.IGNORECASE)[0]
    if written is not None:
        keyword = written[m.start() : m.start() + len(keyword)]
    return ScopeHit(domain=Domain.personal_data, reason="a password or secret written out",
                    matched=f"{keyword}: ••••", start=m.start(), end=m.end(), identifier=True)


def _rule_hits(text: str, shown: str | None = None) -> Iterator[ScopeHit]:
    """Every rule match in ``text``; ``matched`` is taken from ``shown`` (the text with
    its accents, as long as ``text``) when given."""
    for rule in lexicon.RULES:
        for m in rule.pattern.finditer(text):
            written = m.group() if shown is None else shown[m.start():m.end()]
            yield ScopeHit(domain=rule.domain, reason=rule.reason, matched=_WS.sub(" ", written),
                           start=m.start(), end=m.end())


def _fuzzy_hits(norm: Normalised, reading: fuzzy.FuzzyReading) -> Iterator[ScopeHit]:
    """Rule hits that only the reading with misspelt key words corrected finds, in the
    words it corrected, with their spans in ``norm.text`` and ``matched`` as written."""
    for hit in _rule_hits(reading.text):
        if _overlaps(hit.start, hit.end, reading.changed):
            start, end = reading.span(hit.start, hit.end)
            yield hit.model_copy(update={"start": start, "end": end, "misspelt": True,
                                         "matched": _WS.sub(" ", norm.text[start:end])})


def _overlaps(start: int, end: int, spans: Iterable[tuple[int, int]]) -> bool:
    return any(start < other_end and other_start < end for other_start, other_end in spans)


def _spelled_hits(norm: Normalised, readings: list[tuple[str, list[tuple[int, int]]]], *,
                  rules: bool = True) -> Iterator[ScopeHit]:
    """Hits that only a reading with letters for digits finds (``norm.digit_readings``), in
    the words it changed: lexicon terms ("passw0rd", "B1tcoin"; left out with
    ``rules=False``) and secrets after such a keyword ("p4ssword: s3cret", the value
    read as written). ``matched`` is what the user wrote; each hit is given once."""
    seen = set()
    for reading, words in readings:
        found: list[ScopeHit] = []
        if rules:
            found += [h.model_copy(update={"matched": _WS.sub(" ", norm.text[h.start:h.end])})
                      for h in _rule_hits(reading) if _overlaps(h.start, h.end, words)]
        for m in lexicon.SECRET_KEYWORD.finditer(reading):
            if not _overlaps(*m.span(), words):  # a keyword as written: found in the text
                continue
            spliced = reading[: m.end()] + norm.text[m.end() :]
            if secret := lexicon.SECRET_VALUE.match(spliced, m.start()):
                found.append(_secret_hit(secret, norm.text))
        for hit in found:
            if (key := (hit.reason, hit.start, hit.end)) not in seen:
                seen.add(key)
                yield hit


def classify(text: str) -> list[ScopeHit]:
    """Every domain hit in ``text`` that no benign look-alike excuses, in text order.

    A hit is excused when it overlaps a benign span: "river bank" excuses "bank",
    "server health check" excuses "health", "wifi password" excuses "password".
    Patterns read the text without accents (``Normalised.folded``); words spelled
    with digits are read with letters too ("passw0rd"), and misspelt key words as
    meant ("pasword", ``fuzzy``), for terms and for benign spans ("w1fi passw0rd");
    numbers are matched as written."""
    norm = Normalised(text)
    folded = norm.folded
    readings = [(norm.folded_like(reading), words) for reading, words in norm.digit_readings()]
    typo = fuzzy.fuzzy_reading(folded)
    benign = [m.span() for t in [folded, *(r for r, _ in readings)]
              for pattern in lexicon.BENIGN for m in pattern.finditer(t)]
    if typo is not None:
        benign += [typo.span(*m.span()) for pattern in lexicon.BENIGN
                   for m in pattern.finditer(typo.text)]
    plain = [*_rule_hits(folded, norm.text), *_identifier_hits(norm.text)]
    known = {(h.reason, h.start, h.end) for h in plain}
    extra = [*_spelled_hits(norm, readings), *(_fuzzy_hits(norm, typo) if typo else ())]
    spelled = [h for h in extra if (h.reason, h.start, h.end) not in known]
    hits = [
        hit
        for hit in [*plain, *spelled]
        if not _overlaps(hit.start, hit.end, benign)
    ]
    return sorted(_in_original(hits, norm), key=lambda h: (h.start, -h.end))


def weak_match(text: str, hits: list[ScopeHit], weak: WeakMatch) -> bool:
    """Whether every hit of ``hits`` (matches in ``text``) is a weak one under ``weak``:
    a misspelt key word, a match inside one word of the request, matches of one word
    each, or any match but an identifier. A request without hits has no weak match."""
    if not hits or weak is WeakMatch.none or any(h.identifier for h in hits):
        return False
    if weak is WeakMatch.misspelt:
        return all(h.misspelt for h in hits)
    if weak is WeakMatch.one_word:
        start, end = min(h.start for h in hits), max(h.end for h in hits)
        return not any(c.isspace() for c in text[start:end])
    if weak is WeakMatch.words:
        return not any(c.isspace() for h in hits for c in text[h.start:h.end])
    return True


def argument_text(arguments: Any) -> str:
    """All string (and number) values of a call's arguments, one per line; keys are
    the tool's vocabulary, not the content, so they are left out."""
    if isinstance(arguments, dict):
        return "\n".join(argument_text(v) for v in arguments.values())
    if isinstance(arguments, (list, tuple)):
        return "\n".join(argument_text(v) for v in arguments)
    if isinstance(arguments, (str, int, float)) and not isinstance(arguments, bool):
        return str(arguments)
    return ""


def redact(text: str) -> str:
    """``text`` with card numbers, SSNs, IBANs and written-out secrets masked, for
    logs: the audit trail must not become a copy of what it protects."""
    norm = Normalised(text)
    found = [*_identifier_hits(norm.text), *_spelled_hits(norm, norm.digit_readings(), rules=False)]
    # Overlapping hits are masked as one span: a hit inside another goes with it
    # ("password: 4111..."), one reaching further adds its mask ("pin = 4111 1111...").
    spans: list[list[Any]] = []  # [start, end, mask]
    for hit in sorted(_in_original(found, norm), key=lambda h: (h.start, -h.end)):
        if spans and hit.start < spans[-1][1]:
            if hit.end > spans[-1][1]:
                spans[-1][1:] = [hit.end, f"{spans[-1][2]} {hit.matched}"]
            continue
        spans.append([hit.start, hit.end, hit.matched])
    for start, end, mask in reversed(spans):
        text = text[:start] + mask + text[end:]
    return text


CLASSIFIER_REASONS: dict[Domain, str] = {
    Domain.money: "a money matter",
    Domain.personal_data: "sensitive personal data",
    Domain.health: "a health question",
}


class ScopePolicy:
    """A deployment's scope rules applied to requests and to proposed tool calls.

    With a ``classifier`` (``botpsy.safety.classifier_base.Classifier``), or when the
    config sets ``scope_classifier`` (off by default; the sentence encoder, the n-gram
    classifier with ``scope_classifier_model = "ngram"``, or the mean of both with
    ``"mean"``), a request that no rule puts in a
    domain is also put to the classifier, whose verdict is reported as its own ("judged
    by the scope classifier"); ``SafetyConfig`` refuses the sentence encoder where it is
    not installed (for "use" and "mean"), so a deployment learns it when its config is read.
    With a ``cascade`` (a config's classifier route loads its shipped one,
    ``classifier_base.Cascade``), a request whose every blocked match is weak is put to
    the classifier too, and allowed where it is sure enough that the request is benign;
    without one (or without a classifier) every rule match is final."""

    def __init__(self, config: SafetyConfig | None = None,
                 classifier: Classifier | None = None, cascade: Cascade | None = None):
        self.config = config or SafetyConfig()
        if classifier is None and self.config.scope_classifier:
            from botpsy.safety.classifier_base import (  # cycle: botpsy.safety.classifier_base
                Cascade,
                load_classifier,
            )

            classifier = load_classifier(self.config.scope_classifier_model)
            cascade = cascade or Cascade.shipped(self.config.scope_classifier_model)
        self.classifier = classifier
        self.cascade = cascade

    def check_request(self, text: str) -> ScopeDecision:
        """The decision for a user request: the rules', then the classifier's where no
        rule matched, or where every rule match is weak (``cascade``) and the classifier
        is surer than the cascade's threshold that the request is benign."""
        hits = classify(text)
        decision = self._decide(hits)
        if self.classifier is not None:
            if not decision.blocked:
                decision = self._decide(hits + self._classifier_hits(text))
            elif self._overruled(text, hits):
                decision = ScopeDecision(hits=hits)
        if decision.blocked and decision.domain is not None:
            decision.message = self._request_message(decision)
        return decision

    def _overruled(self, text: str, hits: list[ScopeHit]) -> bool:
        """Whether the classifier takes back the rules' block of ``text``: every blocked
        hit is weak under the cascade, and the classifier's probability that the request
        is sensitive stays below the cascade's threshold."""
        if self.cascade is None:
            return False
        blocked = [h for h in hits if self.config.action_for(h.domain) is not ScopeAction.allow]
        return (weak_match(text, blocked, self.cascade.weak)
                and self._verdict(text).sensitive < self.cascade.threshold)

    def _verdict(self, text: str) -> ClassifierVerdict:
        assert self.classifier is not None
        return self.classifier.verdict(text)

    def _classifier_hits(self, text: str) -> list[ScopeHit]:
        """The classifier's verdict on a whole request, as a hit over all of it."""
        verdict = self._verdict(text)
        if verdict.domain is None:
            return []
        shown = _WS.sub(" ", text.strip())
        return [ScopeHit(domain=verdict.domain, start=0, end=len(text),
                         reason=f"{CLASSIFIER_REASONS[verdict.domain]} (judged by the scope "
                         f"classifier, {verdict.sensitive:.0%} sure)",
                         matched=shown if len(shown) <= 60 else shown[:57] + "...")]

    def check_call(self, call: ToolCall, *, side_effect: bool = True) -> ScopeDecision:
        """The decision for a proposed call, from the text of its arguments: a
        ``send_email`` whose body carries a card number is blocked like a request.

        Calls without side effects (a search, a local note) are checked for
        identifiers only (card, SSN and IBAN numbers, written-out secrets): their
        text never leaves the device, and a note about a "health insurance" email
        should not be refused for its topic."""
        if not self.config.check_call_arguments:
            return ScopeDecision()
        hits = classify(argument_text(call.arguments))
        if not side_effect:
            hits = [h for h in hits if h.identifier]
        decision = self._decide(hits)
        if decision.blocked and decision.domain is not None:
            decision.message = self._call_message(call, decision)
        return decision

    def _decide(self, hits: list[ScopeHit]) -> ScopeDecision:
        """The longest blocked hit decides (the most specific phrase: "credit card
        number" over "credit card"); unblocked hits are kept for transparency."""
        blocked = [h for h in hits if self.config.action_for(h.domain) is not ScopeAction.allow]
        if not blocked:
            return ScopeDecision(hits=hits)
        top = max(blocked, key=lambda h: (h.end - h.start, -h.start))
        return ScopeDecision(
            domain=top.domain,
            action=self.config.action_for(top.domain),
            reason=top.reason,
            matched=top.matched,
            hits=hits,
        )

    def _request_message(self, d: ScopeDecision) -> str:
        assert d.domain is not None
        label = DOMAIN_LABELS[d.domain]
        if d.action is ScopeAction.handoff:
            return (f"This looks like {d.reason} (\u201c{d.matched}\u201d). I leave {label} to you "
                    f"rather than act on them. {HANDOFF_ADVICE[d.domain]}")
        return (f"I can't help with this: it looks like {d.reason} (\u201c{d.matched}\u201d), and "
                f"{label} are outside what this assistant is allowed to handle.")

    def _call_message(self, call: ToolCall, d: ScopeDecision) -> str:
        assert d.domain is not None
        base = (f"I did not run {call.name}: its arguments contain {d.reason} "
                f"(\u201c{d.matched}\u201d), and {DOMAIN_LABELS[d.domain]} are out of scope here.")
        if d.action is ScopeAction.handoff:
            return f"{base} If you want it done, please do it yourself. {HANDOFF_ADVICE[d.domain]}"
        return base
