"""A message's subject, where the request gives it.

"draft (dont send!) a mail to marta@silvadesign.example, subject 'Settings flow', saying
scope hasn't changed so she can go ahead": the 135M default model wrote the subject
"Scope hasn't changed so she can", cut from the body. The user gave the subject word for
word. ``SubjectCheck`` reads it (``given_subject``: "subject 'X'", "subject: X", "with the
subject line X", up to the next comma or sentence) and holds a message tool's ``subject``
to it, before the call (``agent.checks.Anticipating``) and as a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.rules import CallContext, ContextCheck

SUBJECT_ARGUMENT = "subject"
# "subject 'Settings flow'", "subject: Q3 numbers", "with the subject line "Hi"", "subj -
# rent": the words after, in quotes or up to a comma, a "saying" or the end of a sentence
_SUBJECT = re.compile(
    r"\bsubj(?:ect)?(?:\s+line)?(?:\s*[:=-]\s*|\s+)"
    r"(?P<q>['\"\u2018\u201c])(?P<quoted>[^'\"\u2019\u201d]{1,120})['\"\u2019\u201d]"
    # unquoted, only after a mark ("subject: Q3 numbers"): "the subject of the last mail"
    # and "the subject teacher" give none
    r"|\bsubj(?:ect)?(?:\s+line)?\s*[:=-]\s*"
    r"(?P<bare>[^\s,;.!?'\"][^,;.!?\n]{0,80}?)(?=\s*(?:$|[,;.!?\n]|\s(?:saying|says|that|and|"
    r"with|to|asking|telling)\b))", re.IGNORECASE)


def given_subject(request: str) -> str | None:
    """The subject a request gives its message word for word, or None (none, or several)."""
    found = {(m["quoted"] or m["bare"]).strip() for m in _SUBJECT.finditer(request)}
    found.discard("")
    return found.pop() if len(found) == 1 else None


class SubjectCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring."""

    def expected(self, context: CallContext) -> Mapping[str, Mapping[str, Any]]:
        properties = (context.tool.parameters or {}).get("properties") or {}
        subject = given_subject(context.request)
        if SUBJECT_ARGUMENT not in properties or subject is None:
            return {}
        return {SUBJECT_ARGUMENT: {"enum": [subject]}}

    def judge(self, context: CallContext) -> Refusal | None:
        written = context.call.arguments.get(SUBJECT_ARGUMENT)
        subject = given_subject(context.request)
        if subject is None or not isinstance(written, str):
            return None
        if _folded(written) == _folded(subject):
            return None
        return Refusal(f"subject {written!r} is not the one the user gave: {subject!r}",
                       {SUBJECT_ARGUMENT: {"enum": [subject]}})


def _folded(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))
