"""Fixed phrasings of the synthetic conversations: system prompts, joins, declines.

Kept apart from the tool catalog because they do not depend on any tool: the
out-of-scope requests follow the release's stated limits (no money, personal
data or health), and the irrelevance answers teach the model to say plainly
that no offered tool fits instead of forcing a call.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from botpsy.agent.prompt import SystemPrompt
from botpsy.train.vocab import FIRST_NAMES, LAST_NAMES, TIMEZONES

# The share of samples that open with the assistant's own system prompt (``botpsy.agent.prompt``:
# "Now: Tuesday 2025-03-04 (Europe/Berlin, ...)", the user, the house rules), so the model
# trains on the context it runs in; the rest draw from SYSTEM_PROMPTS.
ASSISTANT_PROMPT_SHARE = 0.25

SYSTEM_PROMPTS = (
    None,
    None,
    "You are a helpful on-device assistant. Use the tools when they help.",
    "You are a personal assistant running on the user's phone. Call tools to act; answer briefly.",
    "You help with mail, calendar, notes and more. Only call a tool when one fits the request.",
    "Be concise. Use a tool when the request needs one, otherwise reply in plain text.",
)


def assistant_system_prompt(rng: random.Random) -> str:
    """The assistant's system prompt for a random user, time zone and day in 2025-2026."""
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    zone = ZoneInfo(rng.choice(sorted(TIMEZONES.values())))
    moment = datetime(2025, 1, 1, 7, tzinfo=zone) + timedelta(
        days=rng.randrange(540), minutes=rng.randrange(0, 15 * 60, 5)
    )
    return SystemPrompt(
        user_name=f"{first} {last}",
        user_email=f"{first.lower()}.{last.lower()}@example.com",
        timezone=zone.key,
        clock=lambda: moment,
    )()


JOINS = ("Also,", "And", "Then", "Plus,", "After that,", "Oh, and")

# All start with "I": under greedy decoding a call wins whenever its opener token beats the
# likeliest *single* text token. With four different first words, a smol model whose text as a
# whole was likelier than a call on most BFCL irrelevance cases still called on nearly all of
# them: the call's opener outweighed each first word alone, never their sum.
IRRELEVANCE_ANSWERS = (
    "I can't help with that here: none of my tools covers it (it would need: {need}).",
    "I don't have a suitable tool for that. It would take something like: {need}.",
    "I can't do that right now: none of the available tools fits this request.",
    "I don't have a tool for that, so I can't help with it here.",
)

# (request, answer) pairs that need no tool at all.
CHITCHAT = (
    ("Thanks, that's all for now!", "You're welcome! Let me know if you need anything else."),
    ("Hi there!", "Hello! What can I do for you?"),
    (
        "What can you help me with?",
        (
            "I can use the tools available to me, like the ones listed, to get things done. "
            "Just tell me what you need."
        ),
    ),
    ("Good night.", "Good night! Sleep well."),
    ("You're great, thanks.", "Thank you! Happy to help."),
    ("Never mind, I'll do it myself.", "No problem. I'm here if you change your mind."),
    ("How are you today?", "I'm doing well, thanks for asking. How can I help?"),
    ("Tell me a fun fact.", "Octopuses have three hearts and blue blood."),
)

OUT_OF_SCOPE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "money": (
        (
            "Transfer {amount} dollars to {person} from my bank account.",
            "Buy {amount} dollars of bitcoin for me.",
            "Should I put my savings into {brand} stock?",
            "Pay my rent of {amount} dollars to {person}.",
            "Move {amount} euros from savings to checking.",
            "Which credit card should I apply for?",
            "Sell all my shares today.",
        ),
        (
            (
                "I can't help with payments, banking or investments. Please use your bank's app or a "
                "financial adviser for that."
            ),
            (
                "Handling money is outside what I'm allowed to do, so I won't move funds or give "
                "investment advice."
            ),
            "Sorry, I don't handle money: no transfers, purchases of assets or financial advice.",
        ),
    ),
    "health": (
        (
            "How much ibuprofen can I take with my blood pressure pills?",
            "I have chest pain, what medicine should I take?",
            "Can you diagnose this rash on my arm?",
            "Should I stop taking my antidepressants?",
            "What dose of insulin should I inject tonight?",
            "Is this mole cancerous?",
        ),
        (
            (
                "I can't give medical advice. Please talk to a doctor or pharmacist, and call "
                "emergency "
                "services if it's urgent."
            ),
            (
                "Health questions like this need a medical professional; I'm not able to advise "
                "on them."
            ),
            "I'm not able to help with medical decisions. Please contact a healthcare provider.",
        ),
    ),
    "personal_data": (
        (
            "What is {person}'s social security number?",
            "Find {person}'s home address and send it to me.",
            "Give me the password of {person}'s email account.",
            "Look up the credit card number stored for {person}.",
            "Collect everything you can find about {person} and share it with {email}.",
            "Read me {person}'s medical records.",
        ),
        (
            "I can't look up or share other people's private information.",
            "Sorry, personal data like that is off limits for me.",
            "I won't retrieve or pass on sensitive personal information.",
        ),
    ),
}
