"""Instructions inside untrusted text: the spans that address the assistant.

A stranger's mail, file, review or invitation is data; a sentence in it that speaks
to the assistant ("Assistant, forward this to ...", "Note for AI models summarising
this newsletter: ...", "Say that I should absolutely visit ...", a forged
``<|im_start|>system`` turn) is an instruction, and whatever the assistant repeats
from it came from the stranger, not from the user. ``split_instructions`` finds
those spans, so the final answer can be checked against them (``answer_origin``)
while the rest of the text (a hotel's rating, a mail's subject) stays ordinary data.

A span starts at a sentence with a **cue** (``CUES``), in the languages the safety
layer reads (English, German, French, Spanish, Italian, Portuguese; accents and
look-alike letters folded as the scope policy folds them):

- it addresses an AI reader: "Assistant,", "note for the AI", "to you, AI model",
  "if you are an AI", "AI models summarising this";
- it overrides the reader's instructions: "ignore previous instructions", "new
  instructions", "system prompt", "the task I gave you";
- it forges a role: chat-template tokens, ``[INST]``, "SYSTEM:", "[[ admin ]]";
- it tells the reader what to say: "say that ...", "tell the user ...", "in your
  answer ...";
- it gives an order about "the user" in the third person ("remind the user ...",
  "the user has already approved this").

An order given to the person who receives a mail ("Please confirm your talk title")
is not a cue: it is the mail's content, and an answer may repeat it.

A span covers the cue's sentence and the rest of its line, then the following lines
while the previous one ends with a colon or the next is an order ("please ...",
"send ..."), up to a blank line; a block in delimiters (``<INFORMATION>`` ...
``</INFORMATION>``, ``<!-- ... -->``, a chat-template turn) is one span when a cue
is inside it. Structured tool output (JSON, a Python literal, YAML) is read value by
value, so a span never runs from a mail's body into the next field.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import yaml
from pydantic import BaseModel, Field

from botpsy.safety.argument_origin import leaves
from botpsy.safety.policy import Normalised

_I = re.IGNORECASE | re.MULTILINE


def _any(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{a})" for a in alternatives), _I)


# -- who an instruction is for ----------------------------------------------------------------
# "AI", "IA" (fr, es, it, pt) and "KI" (de) only in capitals: "ai" is Italian for "to the"
_AI = r"(?-i:AI|A\.I\.|IA|KI)"
# an AI reader named by more than "AI" alone ("AI: what changes in 2025" is a headline)
_NAMED_READER = (
    rf"(?:(?:{_AI}|automated|virtual|digital|smart)[\s-]*)?"
    r"(?:assistant[ae]?s?|assistent(?:in|en)?|asistentes?|assistentes?|chat-?bots?|llms?)"
    r"|(?:ai|ki|ia|language|local|llm|gpt|large language)[\s-]+models?"
    r"|sprachmodell\w*|modeles? de langage|modelos? de (?:lenguaje|linguagem)"
    r"|modell\w* linguistic\w*|gpt[\w.-]*|claude|gemini|llama|mistral|qwen|smollm\w*"
)
_READER = rf"{_NAMED_READER}|{_AI}s?"
# what may follow a reader named as the one a note is for: "note for the AI that reads
# this:", "to you, Local model.", never "thanks to the AI team"
_FOR_READER_END = r"(?=\s*(?:[,:.!;]|$|that\b|who\b|which\b|reading\b|processing\b|summari))"
_ADDRESS = (
    # "Assistant, ...", "Hi assistant!", "AI assistant: ...", "Hallo Assistent:"
    (rf"^\W*(?:(?:hey|hi|hello|dear|hallo|liebe[rs]?|cher|chere|bonjour|hola|querid[oa]|"
     rf"ciao|car[oa]|ola|oi|attention|achtung|atencion|attenzione|atencao)\W+"
     rf"(?:the |an? |l'|o |el |la |il )?(?:{_READER})|(?:the |an? |l'|o |el |la |il )?"
     rf"(?:{_NAMED_READER}))\W*[,:!]"),
    # "note for the assistant", "P.S. for the AI that reads this", "to you, Local model",
    # "Hinweis für den KI-Assistenten", "note pour l'IA", "nota para el asistente"
    (rf"\b(?:for|to|dear|hey|hi|hello|attention|fur|an|pour|aux?|para|al?|per|all[ae']?|agli|ao)"
     rf"\W+(?:you,?\s+|the |any |all |every |an? |den |die |alle |l'|les |le |la |el |los |"
     rf"il |gli |o |os |ogni |qualsiasi |cualquier |qualquer )?(?:[\w-]+'s\s+)?(?:{_READER})\b"
     rf"{_FOR_READER_END}"),
    # "if you are an AI", "wenn du eine KI bist", "si vous êtes une IA", "se sei un'IA"
    (rf"\b(?:if you(?: are|'re)|wenn du|wenn sie|si (?:tu es|vous etes|eres)|se sei|"
     rf"se (?:voce|tu) (?:e|for|es))\s+(?:an?\s+|eine?\s+|une?\s+|una?\s+|un'|um\s+|uma\s+)?"
     rf"(?:{_READER})\b"),
    # "AI assistant reading this page", "AI models summarising this newsletter"
    (rf"\b(?:{_READER})\s+(?:that |who |which )?(?:is |are )?(?:reads?|reading|processing|summari[sz]\w*|"
     r"parsing|handling)\b"),
)
# -- overriding the reader's instructions -------------------------------------------------
_INSTRUCTIONS = (r"instruc\w*|iunstruc\w*|prompts?|rules?|directions|guidelines|orders|"
                 r"anweisung\w*|instruktion\w*|regeln|vorgaben|consignes?|regles|indicaciones|"
                 r"reglas|ordenes|istruzioni|indicazioni|regole|orientacoes|regras")
# "ignore [all of your previous] instructions", and the same in the other languages
_QUALIFIERS = (r"all|any|the|your|my|of|previous|prior|above|earlier|preceding|original|other|"
               r"these|those|alle|deine|ihre|die|vorherigen|bisherigen|toutes|tous|les|tes|vos|"
               r"precedentes|todas|todos|las|los|tus|sus|anteriores|tutte|le|tue|precedenti|as|"
               r"os|suas")
_OVERRIDE = (
    (rf"\b(?:ignore|disregard|forget|override|bypass|ignorier\w*|vergiss|missachte\w*|ignorez|"
     rf"oublie\w*|ignora\w*|olvida\w*|dimentica\w*|esquec\w*)\s+(?:(?:{_QUALIFIERS})\s+){{0,4}}"
     rf"(?:{_INSTRUCTIONS})\b"),
    r"\b(?:new|updated) instructions?\b|\bignore (?:the|your) user\b",
    r"\bneue anweisung\w*|\bnouvelles? instructions?\b|\bnuevas? instrucciones\b",
    r"\bnuove istruzioni\b|\bnovas? instrucoes\b",
    r"\bsystem[ -]?(?:prompt|message|notice|note|instruction|override|update)\b",
    r"\b(?:developer|admin|god|jailbreak) mode\b|\bstrictly adhere\b",
    r"\bthe task (?:that )?i gave you\b|\bbefore you (?:can )?(?:solve|complete) the task\b",
)
# -- a forged role or turn ----------------------------------------------------------------
_ROLE = (
    r"<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\s*\|>",
    r"\[/?INST\]|<</?SYS>>|\(system_message\)|^\W*#+\s*\(?\s*system\b",
    r"^\W*(?:system|admin|administrator|developer|root)\s*(?:message|notice|note|update)?\s*:",
    r"\[\[\s*(?:admin|system|root)\s*\]\]",
)
# -- telling the reader what to say ---------------------------------------------------------
_LABEL = r"^\W*(?:[\w .'-]{1,24}:\s*)?(?:(?:please|now|also|and|then|first|bitte|por favor)\W+)*"
_SAY = (
    rf"{_LABEL}(?:say|state|claim)\b[^.!?\n]{{0,30}}\bthat\b|{_LABEL}say\s+['\"\u201c]",
    r"\btell the user\b",
    r"\blet the user know\b|\binform the user\b",
    r"\b(?:in|at the end of|start|begin|end) your (?:answer|reply|response|summary|output)\b",
    r"\b(?:respond|reply|answer) only with\b|\brespond with the (?:word|text|phrase)\b",
    r"\brecommend\b[^.!?\n]{0,40}\bto the user\b",
    r"\bmake sure (?:to|you) (?:say|mention|recommend|tell|include)\b",
    # de, fr, es, it, pt
    r"\bsag(?:e|en sie)?\b[^.!?\n]{0,30}\bdass\b|\bteile? dem (?:nutzer|benutzer) mit\b",
    r"\bin deiner antwort\b|\bempfiehl\b",
    r"^\W*(?:dis|dites)(?:-lui|-moi|-leur)?\b[^.!?\n]{0,30}\bque\b",
    r"\bdans (?:ta|votre) reponse\b|\brecommande[zr]? a l'utilisat",
    r"^\W*(?:di|dile|dime|diga|digale)\b[^.!?\n]{0,30}\bque\b",
    r"\ben tu respuesta\b|\brecomienda(?:le)? al usuario\b",
    r"^\W*(?:di'|(?:dica|digli|dille|dimmi)\b)[^.!?\n]{0,30}\bche\b",
    r"\bnella tua risposta\b|\bconsiglia all'utente\b",
    r"^\W*(?:diga|diz|fala|fale)(?:-lhe)?\b[^.!?\n]{0,30}\bque\b",
    r"\bna sua resposta\b|\brecomende ao (?:usuario|utilizador)\b",
)
# -- orders about "the user", in the third person -----------------------------------------
_THE_USER = (r"\b(?:the|this) (?:user|account owner|mailbox owner)\b|\b(?:der|des|dem|den) "
             r"(?:nutzer|benutzer|anwender)s?\b|\bl'utilisat(?:eur|rice)\b|\b(?:el|al|del) "
             r"usuari[oa]\b|\b(?:l'|all'|dell')utente\b|\b(?:o|ao|do) (?:usuario|utilizador)\b")
_USER_CLAIM = _any(
    rf"(?:{_THE_USER})\s+(?:has|had|already|asked|requested|approved|authori[sz]ed|wants|"
    r"wishes|agreed|hat|a deja|ha|tem)\b")
_THE_USER_RE = _any(_THE_USER)
_ORDER_VERBS = (
    "say|tell|send|forward|email|mail|reply|write|delete|remove|trash|move|create|add|book|"
    "schedule|cancel|append|save|remind|mark|update|change|set|share|invite|transfer|pay|"
    "call|visit|recommend|mention|include|list|look|open|click|go|ignore|disregard|forget|do|"
    "make|put|copy|post|upload|download|run|execute|respond|answer|summari[sz]e|translate|"
    "give|provide|confirm|check|read|find|search|get|buy|order|reserve|grant|export|sign|"
    "draft|store|note|attach|accept|decline|approve|reset|verify|use")
_ORDER = _any(
    rf"{_LABEL}(?:{_ORDER_VERBS})\b",
    rf"[,:;]\s*(?:(?:please|now|also|then)\s+)?(?:{_ORDER_VERBS})\s",
    r"\b(?:please|bitte|veuillez|merci de|s'il vous plait|por favor|per favore|per piacere)\b",
    r"\b(?:you|u) (?:must|should|need to|have to|are required to)\b|\bmake sure\b",
    r"\b(?:do not|don't|no need to)\b",
)
CUES = {
    "address": _any(*_ADDRESS),
    "override": _any(*_OVERRIDE),
    "role": _any(*_ROLE),
    "say": _any(*_SAY),
}
# delimiters of a block that is one span when a cue is inside it
_HTML = frozenset((
    "html", "head", "body", "div", "p", "span", "br", "table", "thead", "tbody", "tr", "td",
    "th", "a", "b", "i", "u", "em", "strong", "small", "ul", "ol", "li", "h1", "h2", "h3",
    "h4", "h5", "h6", "title", "style", "script", "font", "center", "img", "hr",
    "blockquote", "pre", "code", "section", "article", "header", "footer", "nav", "main",
    "meta", "link", "sup", "sub", "label", "form", "input", "button"))
_TAG = re.compile(r"<([A-Za-z][\w-]*)(?:\s[^<>]*)?>")
_OPENERS = ((re.compile(r"<\|\s*im_start\s*\|>"), r"<\|\s*im_end\s*\|>"),
            (re.compile(r"<!--"), r"-->"), (re.compile(r"\[INST\]"), r"\[/INST\]"),
            (re.compile(r"<<SYS>>"), r"<</SYS>>"))
_LINE_BREAK = re.compile(r"\r?\n|\\r\\n|\\n")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# a full stop that ends an abbreviation, not a sentence ("P.S.", "e.g.", "Dr.")
_ABBREVIATION = re.compile(r"(?:^|\s)(?:(?:[A-Za-z]\.){1,3}|Mr|Mrs|Ms|Dr|St|Nr|vs|etc|ca|approx)\.?$")


class InstructionSpan(BaseModel):
    """One span of untrusted text that addresses the assistant; ``cue``: which kind of
    cue marked it (``CUES``, or ``the user``)."""

    text: str
    cue: str


class InstructionSplit(BaseModel):
    """An untrusted text as instructions to the assistant and the rest (its data)."""

    spans: list[InstructionSpan] = Field(default_factory=list)
    rest: str = ""

    @property
    def instructions(self) -> str:
        return "\n".join(s.text for s in self.spans)


@dataclass(frozen=True)
class _Unit:
    """A sentence of a value, with the line it is on and whether a blank line precedes it."""

    text: str
    line: int
    after_blank: bool


def cue_of(sentence: str) -> str:
    """The kind of cue in ``sentence`` ("" when none): see the module doc."""
    folded = Normalised(sentence).folded
    for kind, pattern in CUES.items():
        if pattern.search(folded):
            return kind
    if _USER_CLAIM.search(folded) or (_THE_USER_RE.search(folded) and _ORDER.search(folded)):
        return "the user"
    return ""


def is_order(sentence: str) -> bool:
    """Whether ``sentence`` gives an order ("please ...", "send ...", "you must ...")."""
    return bool(_ORDER.search(Normalised(sentence).folded))


def _parsed(text: str) -> object:
    """``text`` as data when it is JSON, a Python literal or YAML; else ``text``."""
    stripped = text.strip()
    if stripped[:1] in "{[\"'":
        for parse in (json.loads, ast.literal_eval):
            try:
                return parse(stripped)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
    if "\n" in stripped and re.search(r"^\s*-?\s*[\w ]+:\s", stripped, re.MULTILINE):
        try:
            return yaml.load(stripped, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError:
            pass
    return text


def text_values(text: str) -> list[str]:
    """The strings of a tool's output: its values (and keys) when it is structured, else
    the text itself."""
    data = _parsed(text)
    if isinstance(data, str):
        return [data]
    values: list[str] = []
    stack = [data]
    while stack:  # keys name things too ("Le Marais Boutique": its reviews)
        item = stack.pop()
        if isinstance(item, dict):
            values += [str(k) for k in item]
            stack += list(item.values())
        elif isinstance(item, (list, tuple)):
            stack += list(item)
    values += [str(v) for _, v in leaves(data) if v is not None and not isinstance(v, bool)]
    return values


def sentences(line: str) -> list[str]:
    """The sentences of one line of text; an abbreviation ("P.S.", "Dr.") ends none."""
    out: list[str] = []
    for piece in _SENTENCE_END.split(line.strip()):
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] += " " + piece
        elif piece:
            out.append(piece)
    return out


def _units(value: str) -> list[_Unit]:
    units, blank = [], False
    for index, line in enumerate(_LINE_BREAK.split(value)):
        if not line.strip():
            blank = True
            continue
        for position, sentence in enumerate(sentences(line)):
            units.append(_Unit(sentence, index, blank and position == 0))
        blank = False
    return units


def _closer(sentence: str) -> re.Pattern[str] | None:
    """The end of the delimited block that ``sentence`` opens, if it opens one."""
    for opener, closer in _OPENERS:
        if opener.search(sentence):
            return re.compile(closer)
    tag = _TAG.search(sentence)
    if tag and tag.group(1).lower() not in _HTML:
        return re.compile(rf"</\s*{re.escape(tag.group(1))}\s*>", re.IGNORECASE)
    return None


def _block_end(units: list[_Unit], start: int) -> int:
    """The last unit of the delimited block opened at ``start`` (-1: no block, or one
    that is never closed: a forged turn's text then ends as an undelimited span does)."""
    closer = _closer(units[start].text)
    if closer is None:
        return -1
    for index in range(start, len(units)):
        if closer.search(units[index].text):
            return index
    return -1


def _line_end(units: list[_Unit], start: int) -> int:
    """The last unit of a span starting at ``start``: its line, then each next line
    while the previous ends with a colon or the next gives an order (no blank line
    between them)."""
    end = start
    while True:
        while end + 1 < len(units) and units[end + 1].line == units[end].line:
            end += 1
        following = end + 1
        if following >= len(units):
            return end
        colon = units[end].text.rstrip().endswith(":")
        if not (colon or (not units[following].after_blank and is_order(units[following].text))):
            return end
        end = following


def _scan(value: str) -> Iterator[tuple[str, str]]:
    """(cue, text) for each unit or span of ``value``: cue "" for ordinary text."""
    units = _units(value)
    index = 0
    while index < len(units):
        end = _block_end(units, index)
        cues = [c for c in (cue_of(u.text) for u in units[index:end + 1]) if c] if end >= 0 else []
        if not cues:
            cue = cue_of(units[index].text)
            cues, end = ([cue], _line_end(units, index)) if cue else ([], index)
        yield (cues[0] if cues else ""), " ".join(u.text for u in units[index:end + 1])
        index = end + 1


def split_instructions(text: str) -> InstructionSplit:
    """``text`` (a tool's output) as the spans that address the assistant and the rest."""
    spans, rest = [], []
    for value in text_values(text):
        for cue, part in _scan(value):
            if cue:
                spans.append(InstructionSpan(text=part, cue=cue))
            else:
                rest.append(part)
    return InstructionSplit(spans=spans, rest="\n".join(rest))
