"""Start-up of the command line, before vs after, in one run: ``botpsy --help`` (every
subsystem app mounted) and ``botpsy ask --help`` (the assistant's own commands, nothing mounted).

    .venv/bin/python benchmarks/cli_startup.py --before-src DIR [--repeats 5]

``--before-src``: the ``src`` folder of an earlier checkout (``git worktree add /tmp/before
<commit>`` then ``--before-src /tmp/before/src``, or ``git archive <commit> src | tar -x -C
/tmp/before``). Each run is a new process; the two ways alternate, and the ratios of the
median wall times and of the median CPU times (user + system, of the process alone: steadier
than wall time on a shared machine) after/before are printed per command (target: no slower,
<= 1.05 for noise).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

from _common import interleaved, report_ratio

SRC = Path(__file__).resolve().parents[1] / "src"
COMMANDS = {"botpsy --help": ["--help"], "botpsy ask --help": ["ask", "--help"]}


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(src: Path, args: list[str], cpu: list[float]) -> None:
    """One start of the command line; its CPU seconds are appended to ``cpu``."""
    code = f"import sys; sys.argv = ['botpsy', *{args!r}]; from botpsy.cli import main; main()"
    before = _children_cpu_s()
    subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(src)), check=True,
                   stdout=subprocess.DEVNULL)
    cpu.append(_children_cpu_s() - before)


def compare(label: str, args: list[str], before_src: Path, repeats: int) -> bool:
    """Both ways of one command, alternating; prints the wall and CPU ratios."""
    cpu: dict[str, list[float]] = {"after": [], "before": []}
    times = interleaved({"after": lambda: _run(SRC, args, cpu["after"]),
                         "before": lambda: _run(before_src, args, cpu["before"])}, repeats)
    wall_ok = report_ratio(f"{label} after/before, wall", times["after"], times["before"], 1.05)
    # the first run of each way is interleaved's warm-up
    cpu_ok = report_ratio(f"{label} after/before, CPU", cpu["after"][1:], cpu["before"][1:], 1.05)
    return wall_ok and cpu_ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before-src", type=Path, required=True)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    results = [compare(label, args, options.before_src, options.repeats)
               for label, args in COMMANDS.items()]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
