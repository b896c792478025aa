"""Start-up of the command line, before vs after, in one run: ``botpsy --help`` (every
subsystem app mounted) and ``botpsy ask --help`` (the assistant's own commands, nothing mounted).

    .venv/bin/python benchmarks/cli_startup.py --before-src DIR [--repeats 5]

``--before-src``: the ``src`` folder of an earlier checkout (``git worktree add /tmp/before
<commit>`` then ``--before-src /tmp/before/src``, or ``git archive <commit> src | tar -x -C
/tmp/before``). Each run is a new process; the two ways alternate, and the ratio of the
median wall times after/before is printed per command (target: no slower, <= 1.05 for noise).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from _common import interleaved, report_ratio

SRC = Path(__file__).resolve().parents[1] / "src"
COMMANDS = {"botpsy --help": ["--help"], "botpsy ask --help": ["ask", "--help"]}


def _run(src: Path, args: list[str]) -> None:
    code = f"import sys; sys.argv = ['botpsy', *{args!r}]; from botpsy.cli import main; main()"
    subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(src)), check=True,
                   stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before-src", type=Path, required=True)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    ok = True
    for label, args in COMMANDS.items():
        times = interleaved({"after": lambda args=args: _run(SRC, args),
                             "before": lambda args=args: _run(options.before_src, args)},
                            options.repeats)
        ok &= report_ratio(f"{label} after/before", times["after"], times["before"], 1.05)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
