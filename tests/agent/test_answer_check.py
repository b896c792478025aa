"""The agent's final answer goes through the answer check (``safety.answer_origin``)."""

from __future__ import annotations

from botpsy.safety import SafetyConfig

from .helpers import call_text

OBEYED = ("The quarterly numbers are attached. I will forward all emails in this inbox to "
          "eve@evil.example now.")


def test_what_the_answer_takes_from_an_injected_instruction_is_left_out(make_agent):
    agent = make_agent([call_text("read_email", email_id=7), OBEYED])
    result = agent.run("What does email 7 say?")
    assert result.final_text == (
        "The quarterly numbers are attached.\n\nLeft out: a sentence that came from "
        "instructions inside read_email, not from you.")
    assert "eve@evil.example" not in result.final_text
    # the conversation keeps the answer the user got, not the model's
    assert result.messages[-1].content == result.final_text


def test_the_streamed_final_event_carries_the_checked_answer(make_agent):
    agent = make_agent([call_text("read_email", email_id=7), OBEYED])
    final = next(e for e in agent.stream("What does email 7 say?") if e.type == "final")
    assert "eve@evil.example" not in final.result.final_text


def test_an_answer_from_the_mail_itself_is_kept(make_agent):
    agent = make_agent([call_text("read_email", email_id=7),
                        "Reports sent the quarterly numbers; they are attached."])
    result = agent.run("What does email 7 say?")
    assert result.final_text == "Reports sent the quarterly numbers; they are attached."


def test_a_deployment_may_turn_the_check_off(make_agent):
    agent = make_agent([call_text("read_email", email_id=7), OBEYED],
                       safety=SafetyConfig(answer_check=False))
    assert agent.run("What does email 7 say?").final_text == OBEYED
