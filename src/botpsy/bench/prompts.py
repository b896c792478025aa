"""The fixed inputs of the bench: filler text for prefill and the tool-call turns.

Fixed so that two reports (two machines, two models) measure the same work.
The turns are the kind of request an on-device assistant serves: one user
message, a handful of personal-data tools, one call expected.
"""

from __future__ import annotations

from dataclasses import dataclass

from botpsy.types import Message, ToolSpec

# Plain prose, tokenized and repeated to any prompt length. Its content does not
# matter for speed; it only has to tokenize like ordinary text.
FILLER_TEXT = (
    "The assistant keeps a calendar, a mailbox, a list of contacts and a folder of notes "
    "for its owner. Each morning it reads the new messages, moves the meetings that clash, "
    "and writes a short summary of the day: who is coming, what must be answered, which "
    "files changed. It never sends a message or deletes a file without asking first, and "
    "it treats the text of an email as data, not as orders. When a request is unclear it "
    "asks one short question instead of guessing. "
)


def _tool(
    name: str, description: str, properties: dict, required: list[str], side_effect: bool = False
) -> ToolSpec:
    return ToolSpec(
        name=name,
        description=description,
        parameters={"type": "object", "properties": properties, "required": required},
        side_effect=side_effect,
    )


ASSISTANT_TOOLS: list[ToolSpec] = [
    _tool(
        "calendar_create_event",
        "Add an event to the user's calendar.",
        {
            "title": {"type": "string", "description": "Short title of the event"},
            "start": {"type": "string", "description": "Start time, ISO 8601"},
            "duration_minutes": {"type": "integer", "description": "Length in minutes"},
        },
        ["title", "start"],
        side_effect=True,
    ),
    _tool(
        "mail_search",
        "Search the user's mailbox and return matching messages.",
        {
            "query": {"type": "string", "description": "Words to look for"},
            "sender": {"type": "string", "description": "Only messages from this address or name"},
            "limit": {"type": "integer", "description": "At most this many results"},
        },
        ["query"],
    ),
    _tool(
        "reminder_add",
        "Set a reminder that notifies the user at a given time.",
        {
            "text": {"type": "string", "description": "What to remind the user of"},
            "when": {"type": "string", "description": "When to notify, ISO 8601"},
        },
        ["text", "when"],
        side_effect=True,
    ),
    _tool(
        "weather_forecast",
        "Get the weather forecast for a city.",
        {
            "city": {"type": "string", "description": "City name"},
            "days": {"type": "integer", "description": "Number of days, 1 to 7"},
        },
        ["city"],
    ),
]


@dataclass(frozen=True)
class TurnPrompt:
    """One tool-call turn of the latency test."""

    id: str
    user: str

    def messages(self) -> list[Message]:
        return [
            Message(
                role="system",
                content="You are a helpful on-device assistant. Use the tools when they help.",
            ),
            Message(role="user", content=self.user),
        ]


TURN_PROMPTS: list[TurnPrompt] = [
    TurnPrompt("weather", "What will the weather be like in Lisbon over the next 3 days?"),
    TurnPrompt("reminder", "Remind me to call the dentist tomorrow at 9:00 (2025-05-14T09:00)."),
    TurnPrompt("mail", "Find the emails from Priya about the budget review."),
]
