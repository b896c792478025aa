"""Everyday requests on a fresh store, at several pinned times of day: what lands there.

    .venv/bin/python benchmarks/everyday_requests.py [--model botpsy-smol] [REQUEST ...]

The scenarios (``botpsy eval scenarios``) score the assistant on a seeded store at one
fixed moment. This asks what a new user would: plain one-step requests (the README's first
command among them) on an empty store, with the clock pinned to four times of one day,
because the system prompt carries the time to the minute and a 135M model's greedy output
changes with it. Each line printed is one run as JSON: the calls the agent ran and the
reminders and events in the store afterwards. Judge the rows against the request; nothing
here is scored automatically, since "Tuesday 18:00" must be read against the pinned day.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from datetime import UTC, datetime
from typing import Any

import botpsy.assistant.store as store_module
from botpsy.assistant.runtime import open_assistant
from botpsy.backends.store import load_chat_model
from botpsy.defaults import ASSISTANT_MODEL
from botpsy.types import GenerationParams

REQUESTS = [
    "Remind me to call Anna tomorrow at 9am",
    "Put a dentist appointment in my calendar on Friday from 10:00 to 11:00.",
    "Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30.",
    "Add my piano lesson on Thursday from 17:00 to 17:45 to the calendar.",
    "Put yoga on my calendar on Tuesday from 18:00 to 19:00.",
    "Schedule a call with the bank on Monday from 9:00 to 9:30.",
    "Save Lena Hoffmann as a contact, her email is lena@hoffmann.example.",
]
DAY = (2026, 12, 3)  # a Thursday
TIMES = [(8, 20), (12, 5), (17, 45), (21, 10)]


def pin_clock(hour: int, minute: int) -> None:
    """Make the store's clock (and so the system prompt's "Now:") read DAY at hour:minute."""

    class Pinned(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(*DAY, hour, minute, tzinfo=UTC).astimezone(tz)

    store_module.datetime = Pinned


def run_once(model: Any, request: str) -> dict[str, Any]:
    """One turn on a fresh store: the calls run and the rows they left."""
    with tempfile.TemporaryDirectory() as data:
        assistant = open_assistant(model, data_dir=data, params=GenerationParams(max_tokens=256))
        try:
            result = assistant.agent.run(request)
            store = assistant.store
            reminders = store.query("select text, due_at from reminders")
            events = store.query("select title, starts_at, ends_at from events")
            contacts = store.query("select name, email from contacts")
        finally:
            assistant.close()
    return {
        "calls": [f"{s.call.name}({json.dumps(s.call.arguments)})" for s in result.steps],
        "reminders": [dict(r) for r in reminders],
        "events": [dict(r) for r in events],
        "contacts": [dict(r) for r in contacts],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("requests", nargs="*", default=REQUESTS)
    parser.add_argument("--model", default=ASSISTANT_MODEL)
    args = parser.parse_args()
    model = load_chat_model(args.model, n_ctx=4096)
    for request in args.requests:
        for hour, minute in TIMES:
            pin_clock(hour, minute)
            row = {"model": args.model, "request": request, "time": f"{hour:02d}:{minute:02d}"}
            print(json.dumps({**row, **run_once(model, request)}), flush=True)


if __name__ == "__main__":
    main()
