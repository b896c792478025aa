"""The terminal chat (``botpsy chat``): answers in words, confirmations, raw calls on request.

By default a turn shows one dim line per tool call (what it is for: "look at your
calendar") and then the answer in words (``agent.reply``); with ``verbose`` it also
streams the model's tokens and shows each call, its decision and its raw result.
Confirmations are asked by the agent's confirmer (a rich prompt) in the middle
of the stream, so the person sees the call, why it needs a yes, and which
untrusted source preceded it, before anything runs. Every turn is saved to the
session store, so ``--session ID`` continues a conversation later.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from botpsy.agent.loop import Agent
from botpsy.agent.reply import ReplyWriter
from botpsy.agent.run_events import AgentEvent, AgentResult, describe_call
from botpsy.agent.session import SessionStore


class ChatHost(Protocol):
    """What the chat talks to: an agent and the store its sessions are saved in.

    ``botpsy.assistant.runtime.Assistant`` is one; the chat names only what it uses, so
    the agent layer does not import the assistant built on top of it."""

    @property
    def agent(self) -> Agent: ...

    @property
    def sessions(self) -> SessionStore: ...


HELP = "Commands: /new (new conversation), /history, /quit. Anything else is a request."


def render_progress(event: AgentEvent, console: Console, replies: ReplyWriter) -> None:
    """The quiet view of an event: a dim line saying what each proposed call is for."""
    if event.type == "call" and event.call is not None:
        console.print(Text(f"\u2026 {replies.action(event.call.name)}", style="dim"))


def render_event(event: AgentEvent, console: Console) -> None:
    """Print one agent event as it happens, raw (the verbose view)."""
    if event.type == "token":
        console.print(event.text, end="", markup=False, highlight=False)
    elif event.type == "call" and event.call is not None:
        console.print(f"\n[cyan]\u2192 {escape(describe_call(event.call))}[/]", highlight=False)
    elif event.type == "decision" and event.step is not None:
        decision = event.step.decision.value
        colour = "green" if decision in ("executed", "confirmed") else "yellow"
        console.print(f"  [{colour}]{decision}[/] {escape(event.step.reason)}", highlight=False)
    elif event.type == "result" and event.step is not None and event.step.result is not None:
        text = event.step.result.content
        shown = text if len(text) <= 300 else text[:300] + "\u2026"
        console.print(Text(f"  {shown}", style="dim"), highlight=False)


def run_turn(assistant: ChatHost, text: str, session_id: str, console: Console,
             verbose: bool = False) -> AgentResult:
    """One user turn, streamed; the turn's new messages are saved to the session."""
    history = assistant.sessions.load(session_id).messages
    result: AgentResult | None = None
    for event in assistant.agent.stream(text, history, session_id=session_id):
        if event.type == "final":
            result = event.result
        elif verbose:
            render_event(event, console)
        else:
            render_progress(event, console, assistant.agent.replies)
    assert result is not None  # the agent always ends with a final event
    if verbose:
        console.print()
    console.print(f"[bold]assistant:[/] {escape(result.final_text)}", highlight=False)
    assistant.sessions.append(session_id, result.messages[len(history):])
    return result


def run_chat(
    assistant: ChatHost,
    console: Console,
    *,
    session_id: str | None = None,
    read: Callable[[], str] | None = None,
    verbose: bool = False,
) -> str:
    """The read-eval-print loop; returns the session id. ``read`` replaces the
    terminal prompt in tests; ``verbose`` shows tokens, calls and raw results."""
    read = read or (lambda: console.input("[bold]you:[/] "))
    session_id = session_id or assistant.sessions.create(title="chat").id
    console.print(f"[dim]botpsy chat, session {session_id}. {HELP}[/]")
    while True:
        try:
            text = read().strip()
        except (EOFError, KeyboardInterrupt):
            break
        except RuntimeError:  # input() with stdin closed: "lost sys.stdin"
            break
        if text in ("/quit", "/exit"):
            break
        if text == "/new":
            session_id = assistant.sessions.create(title="chat").id
            console.print(f"[dim]new session {session_id}[/]")
        elif text == "/history":
            for message in assistant.sessions.load(session_id).messages:
                console.print(f"[dim]{message.role}:[/] {escape(message.content[:200])}", highlight=False)
        elif text:
            run_turn(assistant, text, session_id, console, verbose)
    return session_id
