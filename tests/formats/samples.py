"""Tools and values shared by the format tests."""

from __future__ import annotations

from botpsy.types import ToolSpec

TOOLS = [
    ToolSpec(
        name="get_weather",
        description="Current weather and forecast for a city.",
        parameters={
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "days": {"type": "integer", "description": "Forecast days"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
        },
    ),
    ToolSpec(
        name="send_email",
        description="Send an email.",
        parameters={
            "type": "object",
            "properties": {
                "to": {"type": "string"},
                "subject": {"type": "string"},
                "body": {"type": "string"},
                "urgent": {"type": "boolean"},
            },
            "required": ["to", "subject", "body"],
        },
        side_effect=True,
    ),
    ToolSpec(
        name="write_note",
        description="Save a note.",
        parameters={
            "type": "object",
            "properties": {"title": {"type": "string"}, "text": {"type": "string"}},
            "required": ["title", "text"],
        },
    ),
    ToolSpec(
        name="create_event",
        description="Create a calendar event.",
        parameters={
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "attendees": {"type": "array", "items": {"type": "string"}},
                "options": {"type": "object"},
                "duration_h": {"type": "number"},
                "location": {"type": ["string", "null"]},
            },
            "required": ["title"],
        },
    ),
    ToolSpec(
        name="set_alarm",
        description="Set an alarm.",
        parameters={
            "type": "object",
            "properties": {"time": {"type": "string"}, "repeat": {"type": "boolean"}},
            "required": ["time"],
        },
    ),
    ToolSpec(
        name="get_time",
        description="The current time.",
        parameters={"type": "object", "properties": {"tz": {"type": "string"}}, "required": []},
    ),
]
