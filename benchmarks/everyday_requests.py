"""Everyday requests on a fresh store, at several pinned times of day: what lands there.

    .venv/bin/python benchmarks/everyday_requests.py [--model botpsy-smol] [--call-mode M]
        [--set dev|held-out] [REQUEST ...]

The scenarios (``botpsy eval scenarios``) score the assistant on a seeded store at one
fixed moment. This asks what a new user would: plain one-step requests (the README's first
command among them) on an empty store, with the clock pinned to four times of one day,
because the system prompt carries the time to the minute and a 135M model's greedy output
changes with it. Each line printed is one run as JSON: the calls the agent ran, the
reminders, events and contacts in the store afterwards, and whether that is what the request
asked for (``right``, with the ``wrong`` reasons). A request's expectation names the row it
must leave; its times are read by the store's own parser at the pinned moment ("Friday
10:00" on Thursday 3 December is the 4th), so a bare weekday means what the tools say it
means. The last line sums up: right runs per request and in all (requests given on the command
line without an expectation are shown but not judged).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import botpsy.assistant.user_data as store_module
from botpsy.assistant.runtime import open_assistant
from botpsy.assistant.timeutil import from_db, parse_when
from botpsy.backends.model_files import load_chat_model
from botpsy.defaults import ASSISTANT_MODEL
from botpsy.types import GenerationParams


@dataclass(frozen=True)
class Expected:
    """The one row a request must leave: its table, words its text must hold (any case),
    exact field values, and fields that must be the moment a phrase names."""

    table: str
    words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    moments: dict[str, str] = field(default_factory=dict)


EXPECTED = {
    "Remind me to call Anna tomorrow at 9am": Expected(
        "reminders", {"text": ("call", "anna")}, moments={"due_at": "tomorrow 09:00"}
    ),
    "Put a dentist appointment in my calendar on Friday from 10:00 to 11:00.": Expected(
        "events",
        {"title": ("dentist",)},
        moments={"starts_at": "Friday 10:00", "ends_at": "Friday 11:00"},
    ),
    "Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30.": Expected(
        "events",
        {"title": ("sara",)},
        moments={"starts_at": "tomorrow 12:30", "ends_at": "tomorrow 13:30"},
    ),
    "Add my piano lesson on Thursday from 17:00 to 17:45 to the calendar.": Expected(
        "events",
        {"title": ("piano",)},
        moments={"starts_at": "Thursday 17:00", "ends_at": "Thursday 17:45"},
    ),
    "Put yoga on my calendar on Tuesday from 18:00 to 19:00.": Expected(
        "events",
        {"title": ("yoga",)},
        moments={"starts_at": "Tuesday 18:00", "ends_at": "Tuesday 19:00"},
    ),
    "Schedule a call with the bank on Monday from 9:00 to 9:30.": Expected(
        "events",
        {"title": ("bank",)},
        moments={"starts_at": "Monday 09:00", "ends_at": "Monday 09:30"},
    ),
    "Save Lena Hoffmann as a contact, her email is lena@hoffmann.example.": Expected(
        "contacts", {"name": ("lena", "hoffmann")}, values={"email": "lena@hoffmann.example"}
    ),
}
# Written after the checks that the set above led to (DayCheck, AddressCheck, TitleCheck),
# and never used to tune them: run with ``--set held-out`` to see whether they generalize.
HELD_OUT = {
    "Remind me to pay the rent on Friday at 10am": Expected(
        "reminders", {"text": ("rent",)}, moments={"due_at": "Friday 10:00"}
    ),
    "Add a haircut on Saturday from 15:00 to 15:45 to my calendar.": Expected(
        "events",
        {"title": ("haircut",)},
        moments={"starts_at": "Saturday 15:00", "ends_at": "Saturday 15:45"},
    ),
    "Put the team dinner in my calendar tomorrow from 19:30 to 21:00.": Expected(
        "events",
        {"title": ("dinner",)},
        moments={"starts_at": "tomorrow 19:30", "ends_at": "tomorrow 21:00"},
    ),
    "Schedule a meeting with Tom on Wednesday from 14:00 to 15:00.": Expected(
        "events",
        {"title": ("tom",)},
        moments={"starts_at": "Wednesday 14:00", "ends_at": "Wednesday 15:00"},
    ),
    "Save Tom Becker as a contact, his email is tom.becker@mailbox.example.": Expected(
        "contacts", {"name": ("tom", "becker")}, values={"email": "tom.becker@mailbox.example"}
    ),
    "Remind me to buy milk tomorrow at 8am": Expected(
        "reminders", {"text": ("milk",)}, moments={"due_at": "tomorrow 08:00"}
    ),
    "Block Sunday from 10:00 to 12:00 for the garden.": Expected(
        "events",
        {"title": ("garden",)},
        moments={"starts_at": "Sunday 10:00", "ends_at": "Sunday 12:00"},
    ),
}
SETS = {"dev": EXPECTED, "held-out": HELD_OUT}
REQUESTS = list(EXPECTED)
TABLES = {
    "reminders": "select text, due_at from reminders",
    "events": "select title, starts_at, ends_at from events",
    "contacts": "select name, email from contacts",
}
DAY = (2026, 12, 3)  # a Thursday
TIMES = [(8, 20), (12, 5), (17, 45), (21, 10)]


def pin_clock(hour: int, minute: int) -> None:
    """Make the store's clock (and so the system prompt's "Now:") read DAY at hour:minute."""

    class Pinned(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(*DAY, hour, minute, tzinfo=UTC).astimezone(tz)

    store_module.datetime = Pinned


def run_once(model: Any, request: str, call_mode: str | None = None) -> dict[str, Any]:
    """One turn on a fresh store: the calls run, the rows they left and whether those are
    what ``EXPECTED`` asks. ``call_mode`` None is the model's shipped one; an adapter given
    as ``BASE.gguf+lora=PATH`` needs ``single_call`` to be measured as botpsy-smol ships."""
    with tempfile.TemporaryDirectory() as data:
        assistant = open_assistant(
            model, data_dir=data, call_mode=call_mode, params=GenerationParams(max_tokens=256)
        )
        try:
            result = assistant.agent.run(request)
            rows = {t: [dict(r) for r in assistant.store.query(q)] for t, q in TABLES.items()}
            tz, now = assistant.store.tz, assistant.store.now()
        finally:
            assistant.close()
    calls = [f"{s.call.name}({json.dumps(s.call.arguments)})" for s in result.steps]
    expected = EXPECTED.get(request) or HELD_OUT.get(request)
    if expected is None:  # a request given on the command line: shown, not judged
        return {"calls": calls, **rows, "right": None, "wrong": []}
    wrong = judge(expected, rows, tz, now)
    return {"calls": calls, **rows, "right": not wrong, "wrong": wrong}


def judge(
    expected: Expected, rows: dict[str, list[dict]], tz: ZoneInfo, now: datetime
) -> list[str]:
    """Why the store is not what the request asked for (empty when it is): exactly one new
    row, in the expected table, holding the expected words, values and moments, and
    nothing written anywhere else."""
    stray = [t for t, found in rows.items() if found and t != expected.table]
    wrong = [f"wrote to {t}" for t in stray]
    found = rows[expected.table]
    if len(found) != 1:
        return [*wrong, f"{len(found)} rows in {expected.table}, not 1"]
    row = found[0]
    for key, needed in expected.words.items():
        missing = [w for w in needed if w not in str(row.get(key) or "").lower()]
        wrong += [f"{key} {row.get(key)!r} lacks {w!r}" for w in missing]
    wrong += [
        f"{key} {row.get(key)!r}, not {value!r}"
        for key, value in expected.values.items()
        if str(row.get(key) or "").lower() != value
    ]
    for key, phrase in expected.moments.items():
        want = parse_when(phrase, tz=tz, now=now).value.astimezone(UTC)
        got = _moment(row.get(key))
        if got != want:
            wrong.append(f"{key} {row.get(key)!r}, not {want.isoformat()} ({phrase})")
    return wrong


def _moment(stored: str | None) -> datetime | None:
    """A stored timestamp as the store reads it (None when absent or not in its format)."""
    try:
        return from_db(stored) if stored else None
    except ValueError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("requests", nargs="*")
    parser.add_argument("--set", choices=sorted(SETS), default="dev", dest="request_set",
                        help="the requests to run when none are given (default: dev)")
    parser.add_argument("--model", default=ASSISTANT_MODEL)
    parser.add_argument("--call-mode", choices=["auto", "single_call"], default=None)
    args = parser.parse_args()
    model = load_chat_model(args.model, n_ctx=4096)
    right: dict[str, int] = {}
    for request in args.requests or list(SETS[args.request_set]):
        for hour, minute in TIMES:
            pin_clock(hour, minute)
            row = {"model": args.model, "request": request, "time": f"{hour:02d}:{minute:02d}"}
            outcome = run_once(model, request, args.call_mode)
            if outcome["right"] is not None:
                right[request] = right.get(request, 0) + outcome["right"]
            print(json.dumps({**row, **outcome}), flush=True)
    runs = len(TIMES) * len(right)  # judged runs only
    summary = {"right": sum(right.values()), "runs": runs, "per_request": right}
    print(json.dumps({"model": args.model, "summary": summary}), flush=True)


if __name__ == "__main__":
    main()
