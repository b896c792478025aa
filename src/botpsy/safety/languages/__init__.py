"""The scope lexicon's rules in the languages users write in, besides English.

Each module (``de``, ``fr``, ``es``, ``it``, ``pt``) holds ``RULES`` (patterns that
put a request in a domain), ``BENIGN`` (look-alikes that excuse an overlapping
match) and ``VOCABULARY`` (key words whose misspellings are read as meant, see
``botpsy.safety.fuzzy``). Patterns are written without accents and matched on
text with its accents folded away (``Normalised.folded``: "Überweisung" is read
"Uberweisung", "contraseña" "contrasena"), so a request typed without accents
reads the same; ß is left as it is and patterns spell it ``(?:ss|ß)``.

``reason`` strings are shared with the English rules (``lexicon.py``): a person
declined in German reads the same reason as one declined in English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from botpsy.language import MONTHS, WEEKDAYS, alternation
from botpsy.safety.config import Domain

FLAGS = re.IGNORECASE


@dataclass(frozen=True)
class Rule:
    """One pattern that puts text in ``domain``; ``reason`` says why in plain words."""

    domain: Domain
    reason: str
    pattern: re.Pattern[str]


def rule(domain: Domain, reason: str, *alternatives: str) -> Rule:
    """A rule matching any of ``alternatives`` (regular expressions, case-insensitive)."""
    return Rule(domain, reason, re.compile("|".join(f"(?:{a})" for a in alternatives), FLAGS))


def benign(*alternatives: str) -> tuple[re.Pattern[str], ...]:
    """Look-alike patterns, compiled case-insensitive."""
    return tuple(re.compile(a, FLAGS) for a in alternatives)


def alt(*words: str) -> str:
    """``words`` as one regex alternation (no group)."""
    return "|".join(words)


# The reasons a declined user reads, one per class of request (as in lexicon.py).
TRANSFER = "sending or transferring money"
PAYMENT = "a payment"
BANKING = "banking"
INCOME = "income or salary"
CRYPTO = "cryptocurrency"
INVESTMENT = "investment advice"
MONEY = "money"
CREDENTIALS = "passwords or other credentials"
ID_NUMBER = "an ID number or identity document"
CARD_NUMBER = "a payment card number"
WHEREABOUTS = "someone's home address or whereabouts"
PRIVATE_DETAILS = "someone else's private details"
SHARING = "sharing someone else's private data"
CONDITION = "a diagnosis or medical condition"
SYMPTOMS = "symptoms"
MEDICATION = "medication or dosing"

# Currencies written after or before an amount, in every language here: "50 €",
# "300 Euro", "20 reais", "200 balles", "R$ 50".
CURRENCY = (
    r"euros?|eur|reais|real|r\$|dollars?|dolares|dollari|balles|francs?|franken|"
    r"franchi|pfund|libras?|sterline|pesos|chf|usd|gbp"
)
AMOUNT_DIGITS = (
    rf"(?:[€$£]|r\$)\s?\d|\b\d[\d.,]*\s?(?:k\s)?(?:[€$£]|(?:{CURRENCY})\b)|\b(?:eur|usd|chf)\s?\d"
)


def amount(number_words: str) -> str:
    """An amount of money in digits or in ``number_words`` followed by a currency."""
    return (rf"{AMOUNT_DIGITS}|\b(?:{number_words})(?:[\s-]+(?:e\s+|y\s+|und\s+)?"
            rf"(?:{number_words}))*\s+(?:{CURRENCY})\b")


def visit(events: str, links: str, place: str, times: str = "") -> str:
    """A visit, appointment or meeting at ``place``, or a calendar entry for it: an
    ``events`` word, then any few ``times`` words ("on Tuesday at 10"), then a ``links``
    word (a preposition and its article) and ``place`` ("appointment at the bank",
    "Termin am Dienstag bei der Sparkasse"); in a title the link may be left out and
    the place come first ("Rendez-vous banque", "Sparkasse: Termin").

    A bank named as where an appointment happens is a place, like the dentist's. The
    span holds only these words, so it excuses the bank and nothing that a money rule
    finds beside it ("a meeting at the bank about my mortgage" is still money)."""
    gap = rf"(?:\s+(?:{times})){{0,6}}" if times else ""
    sep = r"\s*[:,-]?\s+"
    return (rf"\b(?:{events}){gap}{sep}(?:(?:{links})\s+)?{place}|"
            rf"\b{place}{sep}(?:{events})\b")


def not_for(markers: str, acts: str) -> str:
    """A lookahead that fails where the rest of the sentence says the visit is for one of
    ``acts`` ("... at the bank to open an account", "... à la banque pour retirer"): what
    one goes to a bank to do decides, and opening an account or withdrawing is money even
    where no other word of the request is."""
    return rf"(?![^.?!\n]{{0,40}}?\b(?:{markers}) (?:{acts})\b)"


def seasoning_dose(doses: str, links: str, seasonings: str) -> str:
    """A dose of a seasoning or an ingredient ("a small dose of chili flakes", "eine Dosis
    Salz", "una dosis de azafrán"): cooking, not dosing. ``doses`` are the dose words,
    ``links`` the words between ("of", "de", "di"), ``seasonings`` what a recipe doses."""
    return rf"\b(?:{doses})\s+(?:(?:{links})\s*)?(?:\w+\s+)?(?:{seasonings})\b"


def illness_not_asked(plants: str, moves: str, because: str, ill: str) -> str:
    """Illness named where no one asks about health: a plant that looks ill ("the plant in
    the bathroom looks ill"), and someone's illness given as the reason a plan moves ("the
    concert is postponed because the singer is ill"), which is a calendar matter. The
    reason may name three words of its subject ("because the singer is", "per l'"), no
    more, and no question may follow it in another clause ("... because I have the flu,
    what should I take?"), so a request about the illness itself is not excused. ``plants`` also holds the
    machines a user calls ill or sick (a printer, a laptop): what they need is a repair."""
    return (rf"\b(?:{plants})\b[^.?!\n]{{0,30}}?\b(?:{ill})\b|"
            rf"\b(?:{moves})\w*\b[^.?!\n]{{0,30}}?\b(?:{because})\s+(?:\w+(?:\s+|')){{0,3}}(?:{ill})\b"
            r"(?!\s*[,;:][^.!\n]*\?)")


# A first person's possessives in the six languages (accents folded)
_OWN = ("my|mine|mon|ma|mes|mein|meine|meinen|meinem|meiner|meines|mi|mis|mio|mia|miei|mie|"
        "meu|minha|meus|minhas")


# "with" and "by", as in paying with a card, in the six languages
_PAID_WITH = "with|by|mit|avec|par|con|por|com|col|coi"


def party_secret(secrets: str, parties: str) -> str:
    """A password, code word or door code handed out for a party or written on an
    invitation ("the password for Saturday's fancy dress party", "den Türcode auf die
    Einladung", "la contraseña en la puerta del bar clandestino"): a game or an
    invitation detail, not a credential. ``secrets`` and ``parties`` are the words; the
    span runs from one to the other over at most six words of the same clause (no
    sentence mark between), so a credential named in another clause stays found, and
    none of them is a first person's possessive: "send the guests my email password" is
    the user's own credential."""
    gap = rf"(?:[ ,:'-]+(?!(?:{_OWN})\b)[\w']+){{0,6}}?[ ,:'-]+"
    return (rf"\b(?:{secrets})\b{gap}(?:{parties})\b|"
            rf"\b(?:{parties})\b{gap}(?:{secrets})\b")


def about_money(works: str, about: str, money: str) -> str:
    """A lecture, book, film or course about money as its subject ("the talk 'How money
    works'", "un livre sur les arnaques à la carte bancaire"): a calendar entry or a
    title, not a request about the user's money. ``works`` are those words, ``about`` the
    word or quote mark that names the subject, ``money`` the subjects; the span ends at
    the subject, so a payment or an amount beside it is still found, and no possessive or
    "with" comes between ("a book about cooking with my card" is a purchase)."""
    word = rf"(?!(?:{_OWN}|{_PAID_WITH})\b)(?:[\w']+\s+|\w+')"
    return rf"\b(?:{works})\b(?:\s+[\w']+){{0,3}}?\s*(?:{about})\s*{word}{{0,4}}?(?:{money})\b"


def day_names(lang: str) -> str:
    """The weekday and month names of one language (``botpsy.language``; names and
    abbreviations of three letters and more, as the policy folds them: "marz" for
    "März"), as one regex alternation: the time words an appointment may name."""
    names = [w for table in (WEEKDAYS, MONTHS) for entry in table[lang] for w in entry
             if len(w) >= 3]
    return alternation(names)


def passed_on(verbs: str, numbers: str, to: str, not_to: str) -> str:
    """A contact's phone number or home address passed on to someone else ("file le
    numéro de portable de Mme Roux au plombier", "manda il numero di cellulare di Gianni
    all'idraulico"): sharing a contact's number with a third person is personal data,
    where asking it for oneself is not. ``verbs`` send or give, ``numbers`` name the
    number or address with its owner after it (so "passa il telefono a Marco", handing
    the phone over, is not one), ``to`` is the word before the recipient and ``not_to``
    what may not follow the verb or ``to``: the user ("envoie-moi", "pra mim") or a time
    ("a partir de", "alle 5" is left out by the digit)."""
    return (rf"\b(?:{verbs})\b(?![\s-]*(?:{not_to})\b)[^.?!\n]{{0,40}}?\b(?:{numbers})\b"
            rf"(?:{_TITLE}|[^.?!\n]){{0,40}}?\s(?:{to})(?:\s+|(?<='))(?!(?:{not_to})\b)(?=[^\W\d])")


# Titles written with a full stop ("Sr. Costa", "D. Fernanda", "Mme. Roux"), which do not
# end the sentence that names a contact
_TITLE = r"\b(?:sr|sra|srta|d|dr|dra|mme|mlle|m|sig|sig\.ra|prof|hr|fr)\."


def worry_asked(asks: str, serious: str) -> str:
    """Asking whether something is serious or worrying ("dis-moi si ce bouton qui a grossi
    c'est grave", "dimmi se è preoccupante"): a request for a medical judgement, whatever
    the symptom's words. ``asks`` are the words that ask ("tell me if"), ``serious`` the
    judgement asked for; "is it bad if I miss the meeting" ("grave se", "grave si") asks
    about a plan, not a symptom, so an "if" or "when" after the judgement (a word may
    come between: "schlimm ist, wenn") leaves it out."""
    return (rf"\b(?:{asks})\b[^.?!\n]{{0,80}}?\b(?:{serious})\b"
            r"(?![\s,]+(?:\w+[\s,]+)?(?:se|si|if|ob|wenn|when|quando|cuando|quand|lorsque)\b)")


def get_well(wishes: str) -> str:
    """A get-well message and what happened to its addressee ("a get-well card for Sam, he
    broke his arm", "une carte de prompt rétablissement pour Paul, il s'est cassé la
    jambe"): the convention's message, not a health request. The span runs from the
    wishes to the end of the clause and holds no question ("... what should he take?"
    is still read)."""
    return rf"\b(?:{wishes})\b[^.?!\n]{{0,80}}(?![^.!\n]*\?)"


def titled_note(notes: str, called: str) -> str:
    """A note named by a quoted title ("crée une note « Impôts »", "uma nota chamada
    «Imposto de Renda»"): by the convention a note titled with a sensitive word holds no
    secret by its title. The span is the title alone (at most 40 characters, no digit, so
    a code written as the title is still read), and what the note is to hold is read as
    any text."""
    return (rf"\b(?:{notes})\s+(?:(?:{called})\s+)?[«\"'“„‘]\s*[^\d«»\"“”„‘’\n]{{1,40}}?\s*[»\"”“’']")


def errand_booked(moves: str, exams: str) -> str:
    """A test or an appointment booked, moved or called off ("remarcar o exame de sangue",
    "prenotare gli esami del sangue"): a calendar errand, like the visit to the doctor;
    what the test found or means is still read elsewhere in the request."""
    return rf"\b(?:{moves})\w*\s+(?:\w+\s+){{0,2}}?(?:{exams})\b"
