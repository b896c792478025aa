"""The confirmation gate: who says yes to a call that changes things, and when.

Rules (not configurable past the auto-approve list):

1. a read (neither ``writes`` nor ``side_effect``) runs;
2. once untrusted data is in the conversation, every call that changes state
   (a write: a new note, a reminder, a draft, an appended line, an event, a contact,
   a file, mail) needs a person's yes, whatever the configuration, because that data
   may be an attacker's instructions; the question names the untrusted items read.
   The one exception, where the agent runs the call (``SafetyConfig.proven_writes``,
   on by default): a call whose every value is, whole, the user's words or a value
   of the user's own items (``TaintVerdict.proven``: an id of their note, their
   contact's address, their note's text) and that the request asked for (the agent's
   intent check) is judged as if no untrusted data were in view. Nothing a stranger
   wrote can have chosen its values; MCP clients' calls never get it (no request to
   check them against);
3. with no untrusted data in view, a side effect (it leaves the device or destroys
   data) needs a person's yes unless the deployment auto-approves that tool; a local
   write made on the user's own words alone runs.

Untrusted means what the taint tracker says: a tool result counts unless every item
in it is the user's own (``types.Origin``), so listing one's own reminders does not
taint a turn, while a mail from someone else or an imported invitation does.

Confirmers:
- ``CliConfirmer``: asks on the terminal with rich, showing the call and its taint;
- ``DenyAll``: for non-interactive runs (scripts, CI, ``botpsy ask``): says no and
  says why and what to do instead, for the final answer;
- ``ApproveUntainted``: ``--yes``: approves untainted (or proven) calls, hands tainted
  ones on;
- ``ApproveAll``: for tests and trusted batch jobs only.
The web server does not confirm synchronously: the agent returns the call as
pending and resumes once the user has decided.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TextIO, runtime_checkable

from pydantic import BaseModel, Field

from botpsy.safety.config import SafetyConfig
from botpsy.safety.taint import TaintVerdict
from botpsy.types import ToolCall

if TYPE_CHECKING:
    from rich.console import Console


class ConfirmationRequest(BaseModel):
    """What a person is asked to approve: the call, what the tool does, why they are
    asked, and the untrusted sources the call came after."""

    call: ToolCall
    tool_description: str = ""
    target: str = ""  # what the call acts on, in words (the email a reply goes to)
    reasons: list[str] = Field(default_factory=list)
    taint: TaintVerdict = Field(default_factory=TaintVerdict)

    def arguments_json(self) -> str:
        return json.dumps(self.call.arguments, indent=2, ensure_ascii=False)

    def summary(self) -> str:
        """A plain-text rendering, for logs, non-rich UIs and the pending list."""
        lines = [f"{self.call.name}({json.dumps(self.call.arguments, ensure_ascii=False)})"]
        if self.target:
            lines.append(f"- acts on: {self.target}")
        lines += [f"- {reason}" for reason in self.reasons]
        if self.taint.tainted:
            lines.append(f"- WARNING: {self.taint.explain()}")
        return "\n".join(lines)


@runtime_checkable
class Confirmer(Protocol):
    """Decides on one confirmation request; True runs the call.

    ``denial_reason`` is the sentence the agent puts in its answer when this confirmer
    says no ("" lets the agent say the person did not confirm it). A class that
    subclasses ``Confirmer`` inherits the empty default; the agent reads no other member."""

    denial_reason: str = ""

    def confirm(self, request: ConfirmationRequest) -> bool: ...


@dataclass
class GateDecision:
    """Whether a call needs a person, and why."""

    needs_confirmation: bool
    reasons: list[str] = field(default_factory=list)


def confirmation_gate(
    tool_name: str, side_effect: bool, taint: TaintVerdict, config: SafetyConfig,
    *, writes: bool = False,
) -> GateDecision:
    """Apply the rules in the module docstring to one call (``writes``: the tool changes
    stored state; every side effect does)."""
    if not (writes or side_effect):
        return GateDecision(False, ["a read: nothing to confirm"])
    if taint.tainted and not taint.proven:
        why = (f"{tool_name} changes your data, and untrusted data is in the conversation "
               f"({taint.read_summary()}): nothing changes on such data's say-so without your "
               "confirmation.")
        return GateDecision(True, [why])
    if not side_effect:
        why = (f"{tool_name} is a local write on your own request, and no untrusted data is "
               "in the conversation." if not taint.tainted else
               f"{tool_name} is a local write on your own request, and every value of it is "
               "your own words or your own items', though untrusted data was read "
               f"({taint.read_summary()}).")
        return GateDecision(False, [why])
    if tool_name in config.auto_approve:
        return GateDecision(False, [f"{tool_name} is auto-approved and the call is untainted."])
    return GateDecision(True, [f"{tool_name} changes things outside this conversation "
                               + "(a side effect)."])


class ApproveAll(Confirmer):
    """Says yes to everything; records what it saw. For tests and trusted batch jobs."""

    def __init__(self) -> None:
        self.requests: list[ConfirmationRequest] = []

    def confirm(self, request: ConfirmationRequest) -> bool:
        self.requests.append(request)
        return True


class DenyAll(Confirmer):
    """Says no to everything, for runs with nobody to ask; ``denial_reason`` is the
    sentence the agent puts in its answer so the user knows what happened."""

    denial_reason = (
        "this run is non-interactive, so nobody could confirm it; to run it, ask again in "
        "`botpsy chat` (or the web page) and confirm it there, or do it yourself"
    )

    def __init__(self) -> None:
        self.requests: list[ConfirmationRequest] = []

    def confirm(self, request: ConfirmationRequest) -> bool:
        self.requests.append(request)
        return False


class CliConfirmer(Confirmer):
    """Asks on the terminal: shows the call, the reasons and any taint in a panel,
    then a yes/no prompt that defaults to no."""

    def __init__(self, console: Console | None = None, stream: TextIO | None = None) -> None:
        from rich.console import Console

        self.console = console or Console()
        self.stream = stream  # where answers are read from (stdin when None)

    def confirm(self, request: ConfirmationRequest) -> bool:
        from rich.console import Group
        from rich.panel import Panel
        from rich.prompt import Confirm
        from rich.syntax import Syntax
        from rich.text import Text

        parts: list = [Text(request.tool_description or request.call.name, style="bold")]
        parts.append(Syntax(request.arguments_json(), "json", word_wrap=True))
        if request.target:
            parts.append(Text(f"Acts on: {request.target}", style="bold"))
        parts += [Text(f"\u2022 {reason}") for reason in request.reasons]
        if request.taint.tainted:
            parts.append(Text(f"\u26a0 {request.taint.explain()}", style="bold red"))
        border = "red" if request.taint.tainted else "yellow"
        title = Text(f"Run {request.call.name}?")
        self.console.print(Panel(Group(*parts), title=title, border_style=border))
        return Confirm.ask("Run this call?", default=False, console=self.console,
                           stream=self.stream)


class ApproveUntainted(Confirmer):
    """``--yes``: approves side effects proposed with no untrusted data in the
    conversation, or whose every value is the user's own (``TaintVerdict.proven``),
    and hands every other tainted one to ``fallback`` (a person, or ``DenyAll`` when
    nobody is there): pre-confirmation never covers what untrusted data may have chosen."""

    def __init__(self, fallback: Confirmer) -> None:
        self.fallback = fallback
        self.denial_reason = fallback.denial_reason

    def confirm(self, request: ConfirmationRequest) -> bool:
        if not request.taint.tainted or request.taint.proven:
            return True
        return self.fallback.confirm(request)
