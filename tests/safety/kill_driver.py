"""The process the SIGKILL test kills: real agent turns that create notes and reminders.

    python kill_driver.py DATA_DIR

A zygote: it imports botpsy once, then for each ``go N`` line on stdin forks a
worker, which prints ``pid PID`` and opens the assistant in DATA_DIR
(store, audit log, agent with a scripted model) and runs turns until it is
killed: each turn the model calls ``create_note`` or ``add_reminder`` with a
unique marker ``kN-I`` in its title or text, through the same pipeline as the
CLI (review, confirmation, audit, execution). The worker prints ``turn SECONDS``
after each turn, so the killer can wait for one and aim its random delay at the
turns that follow, whatever the machine's speed. The zygote
reaps the worker, prints ``reaped`` and waits for the next line; ``quit`` (or end
of input) ends it. A turn that runs past ``TURN_LIMIT_S`` is a hang, not a slow
machine: the worker's watchdog writes every thread's stack to stderr and ends it,
so the test fails with the place it hung instead of blocking the suite.
Every line goes out in one ``write`` (``say``): ``print`` writes a line's text and its
newline apart when Python runs unbuffered (``PYTHONUNBUFFERED``), so a kill between the
two glued the next ``reaped`` to a torn ``turn`` line and the test waited for ever. The
worker prints its own pid for the same reason: its lines then come in the order it wrote
them, never before the zygote's.
Forking after the imports makes a kill round cost milliseconds instead of a
Python start-up, so the default test suite can afford dozens of kills.
"""

from __future__ import annotations

import faulthandler
import itertools
import json
import os
import sys
import time
from pathlib import Path

from botpsy.assistant.runtime import open_assistant
from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.scripted import ScriptedBackend
from botpsy.formats import get_format
from botpsy.safety.confirm import ApproveAll

TURN_LIMIT_S = 120.0


def say(line: str) -> None:
    """Write one line to stdout in one system call: a short write to a pipe is atomic."""
    os.write(sys.stdout.fileno(), f"{line}\n".encode())


def call_text(name: str, **arguments: object) -> str:
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}) + "\n</tool_call>"


def work(data_dir: Path, round_: int) -> None:
    """Run turns for ever (until SIGKILL)."""
    say(f"pid {os.getpid()}")
    faulthandler.dump_traceback_later(TURN_LIMIT_S, exit=True)  # opening the assistant, too
    backend = ScriptedBackend([])
    model = FormattedChatModel(backend, get_format("hermes"), name="scripted")
    assistant = open_assistant(model, data_dir=data_dir, confirmer=ApproveAll(),
                               select_tools=False, call_mode="auto")
    for index in itertools.count():
        faulthandler.dump_traceback_later(TURN_LIMIT_S, exit=True)
        started = time.perf_counter()
        marker = f"k{round_}-{index}"
        call = (call_text("create_note", title=f"note {marker}", body="written by the kill test")
                if index % 2 == 0 else call_text("add_reminder", text=f"reminder {marker}"))
        backend.outputs.extend([call, "Done."])
        assistant.agent.run(f"please save {marker}")
        say(f"turn {time.perf_counter() - started:.4f}")


def main() -> None:
    data_dir = Path(sys.argv[1])
    for line in sys.stdin:
        command = line.split()
        if not command or command[0] == "quit":
            break
        pid = os.fork()
        if pid == 0:
            try:
                work(data_dir, int(command[1]))
            finally:
                os._exit(1)
        os.waitpid(pid, 0)
        say("reaped")


if __name__ == "__main__":
    main()
