"""The safety layer: botpsy is safe with any model, by construction.

- ``policy``: scope policy (money, personal data, health: decline or hand off),
  a transparent lexical classifier for requests and tool-call arguments;
- ``taint``: tool output is untrusted; side effects proposed after it need a person;
- ``instructions``: the spans of untrusted text that address the assistant;
- ``answer_origin``: the final answer without what it takes from those spans;
- ``confirm``: the confirmation gate and the confirmers (CLI, DenyAll, ApproveAll);
- ``audit``: an append-only SQLite log of every proposed call and its decision;
- ``config``: the per-deployment ``SafetyConfig`` (TOML or JSON);
- ``cli``: ``botpsy audit``.
"""

from botpsy.safety.audit import AuditDecision, AuditEntry, AuditLog
from botpsy.safety.config import Domain, SafetyConfig, SafetyConfigError, ScopeAction
from botpsy.safety.confirm import (
    ApproveAll,
    CliConfirmer,
    ConfirmationRequest,
    Confirmer,
    DenyAll,
    GateDecision,
    confirmation_gate,
)
from botpsy.safety.policy import ScopeDecision, ScopeHit, ScopePolicy, classify, redact
from botpsy.safety.taint import TaintFinding, TaintKind, TaintTracker, TaintVerdict

__all__ = [
    "ApproveAll",
    "AuditDecision",
    "AuditEntry",
    "AuditLog",
    "CliConfirmer",
    "ConfirmationRequest",
    "Confirmer",
    "DenyAll",
    "Domain",
    "GateDecision",
    "SafetyConfig",
    "SafetyConfigError",
    "ScopeAction",
    "ScopeDecision",
    "ScopeHit",
    "ScopePolicy",
    "TaintFinding",
    "TaintKind",
    "TaintTracker",
    "TaintVerdict",
    "classify",
    "confirmation_gate",
    "redact",
]
