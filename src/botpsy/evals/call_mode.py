"""The Agent's call modes as the assistant evals name them.

Its own light module (an enum, no imports of the agent or the evals) so the
CLI can offer ``--call-mode`` without loading the eval machinery to show help.
The Agent itself (``botpsy.agent.loop``) takes the plain string values.
"""

from __future__ import annotations

from enum import Enum


class CallMode(str, Enum):
    """The model decides between text and calls (``auto``), or one grammar-forced
    call when the request matches some tools and the agent reports the result
    (``single_call``)."""

    auto = "auto"
    single_call = "single_call"


def check_call_mode(call_mode: CallMode | str | None) -> CallMode | None:
    """``call_mode`` as a CallMode (None stays None: the model's shipped default).

    Checked once before a run so that a typo is one clear error, not a runner
    error in every episode."""
    if call_mode is None or isinstance(call_mode, CallMode):
        return call_mode
    try:
        return CallMode(call_mode)
    except ValueError:
        known = ", ".join(m.value for m in CallMode)
        raise ValueError(f"unknown call mode {call_mode!r}; choose one of: {known}") from None
