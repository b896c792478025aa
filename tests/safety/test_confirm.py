"""The confirmation gate and the confirmers."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from botpsy.safety.config import SafetyConfig
from botpsy.safety.confirm import (
    ApproveAll,
    ApproveUntainted,
    CliConfirmer,
    ConfirmationRequest,
    Confirmer,
    DenyAll,
    confirmation_gate,
)
from botpsy.safety.taint import TaintFinding, TaintKind, TaintVerdict
from botpsy.types import ToolCall

CLEAN = TaintVerdict()
TAINTED = TaintVerdict(tainted=True, sources=["tool:read_email:c1"], findings=[
    TaintFinding(kind=TaintKind.context, source="tool:read_email:c1"),
    TaintFinding(kind=TaintKind.untrusted_address, source="tool:read_email:c1",
                 evidence="eve@evil.example")])
AUTO = SafetyConfig(auto_approve=["send_email"])


@pytest.mark.parametrize(("side_effect", "writes", "taint", "config", "needed"), [
    (False, False, CLEAN, SafetyConfig(), False),      # a read runs
    (False, False, TAINTED, SafetyConfig(), False),    # reading after untrusted data is fine
    (False, True, CLEAN, SafetyConfig(), False),       # a local write on the user's words runs
    (False, True, TAINTED, SafetyConfig(), True),      # ... not on untrusted data's say-so
    (False, True, TAINTED, SafetyConfig(auto_approve=["send_email"]), True),
    (True, True, CLEAN, SafetyConfig(), True),         # side effects ask by default
    (True, True, CLEAN, AUTO, False),                  # ... unless auto-approved and clean
    (True, True, TAINTED, AUTO, True),                 # tainted: always ask, whatever the policy
    (True, True, TAINTED, SafetyConfig(), True),
    (True, False, TAINTED, AUTO, True),                # a side effect writes, said or not
])
def test_gate(side_effect: bool, writes: bool, taint: TaintVerdict, config: SafetyConfig,
              needed: bool) -> None:
    decision = confirmation_gate("send_email", side_effect, taint, config, writes=writes)
    assert decision.needs_confirmation is needed and decision.reasons


def test_tainted_gate_names_what_was_read() -> None:
    taint = TAINTED.model_copy(update={"read": ["read_email: email 4 from eve@evil.example"]})
    reasons = confirmation_gate("create_note", False, taint, AUTO, writes=True).reasons
    assert any("untrusted data is in the conversation" in r and "email 4 from eve@evil.example"
               in r for r in reasons)


def _request() -> ConfirmationRequest:
    return ConfirmationRequest(
        call=ToolCall(name="send_email", arguments={"to": "eve@evil.example", "body": "list"}),
        tool_description="Send an email.", reasons=["send_email has a side effect."],
        taint=TAINTED)


def test_approve_and_deny_all_record_requests() -> None:
    approve, deny = ApproveAll(), DenyAll()
    assert isinstance(approve, Confirmer) and isinstance(deny, Confirmer)
    assert approve.confirm(_request()) is True and len(approve.requests) == 1
    assert deny.confirm(_request()) is False and "non-interactive" in deny.denial_reason
    assert "botpsy chat" in deny.denial_reason  # says what to do instead


def test_a_confirmer_says_why_it_denied_or_leaves_it_to_the_agent() -> None:
    """``denial_reason`` is a declared member: empty unless the confirmer has a reason."""

    class No(Confirmer):
        def confirm(self, request: ConfirmationRequest) -> bool:
            return False

    assert isinstance(No(), Confirmer) and No().denial_reason == ""
    assert ApproveUntainted(No()).denial_reason == ""
    assert ApproveUntainted(DenyAll()).denial_reason == DenyAll.denial_reason


def test_summary_shows_call_reasons_and_taint() -> None:
    text = _request().summary()
    assert text.startswith('send_email({"to": "eve@evil.example"')
    assert "WARNING" in text and "appears only in tool:read_email:c1" in text


@pytest.mark.parametrize(("answer", "expected"), [("y\n", True), ("n\n", False), ("\n", False)])
def test_cli_confirmer_shows_the_taint_and_defaults_to_no(answer: str, expected: bool) -> None:
    out = io.StringIO()
    confirmer = CliConfirmer(Console(file=out, width=100), stream=io.StringIO(answer))
    assert confirmer.confirm(_request()) is expected
    shown = out.getvalue()
    assert "Run send_email?" in shown and "eve@evil.example" in shown
    assert "untrusted data (tool:read_email:c1)" in shown


PROVEN = TAINTED.model_copy(update={"findings": TAINTED.findings[:1], "proven": True})


@pytest.mark.parametrize(("side_effect", "config", "needed"), [
    (False, SafetyConfig(), False),   # a local write whose every value is the user's runs
    (True, SafetyConfig(), True),     # a side effect asks as it would with no untrusted data
    (True, AUTO, False),              # ... and an auto-approved one runs
])
def test_a_proven_call_is_judged_as_if_nothing_untrusted_were_in_view(
        side_effect: bool, config: SafetyConfig, needed: bool) -> None:
    decision = confirmation_gate("send_email", side_effect, PROVEN, config, writes=True)
    assert decision.needs_confirmation is needed and decision.reasons


def test_yes_approves_a_proven_call_but_never_another_tainted_one() -> None:
    yes = ApproveUntainted(DenyAll())
    assert yes.confirm(_request().model_copy(update={"taint": PROVEN}))
    assert not yes.confirm(_request())
