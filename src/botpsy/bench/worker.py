"""One measuring subprocess: ``python -m botpsy.bench.worker '<WorkerJob JSON>'``.

Each (variant, thread count) runs in a fresh process so that its peak resident
memory (``ru_maxrss``) belongs to that variant alone and no allocator or page
cache state of an earlier variant leaks into its timings. The worker prints one
``WorkerResult`` JSON line on stdout; progress goes to stderr as
``@@bench-progress`` lines that the parent turns into a progress bar. C-level
output of the runtimes is sent to stderr too, so stdout stays parseable.

``run_worker`` is the parent side of this protocol.
"""

from __future__ import annotations

import collections
import json
import os
import re
import resource
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botpsy.bench import accuracy, measure
from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.measure import LlamaStepper
from botpsy.bench.measure_hf import TorchStepper, kv_bytes_per_position, weight_bytes
from botpsy.bench.prompts import TURN_PROMPTS
from botpsy.bench.schema import WorkerJob, WorkerResult
from botpsy.types import GenerationParams

PROGRESS_PREFIX = "@@bench-progress "
ERROR_PREFIX = "@@bench-error "
STDERR_TAIL_LINES = 30


@dataclass(frozen=True)
class WorkerProgress:
    """A worker's progress: ``done`` of ``total`` steps, the last one named ``what``."""

    done: int
    total: int
    what: str


def rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def peak_rss_mb(status: Path = Path("/proc/self/status")) -> float:
    """This process's peak resident set in MiB.

    On Linux this is ``VmHWM``, the high-water mark of the process's own address
    space. ``ru_maxrss`` is not used there: Linux carries it across ``fork`` and
    ``exec``, so a worker would report the parent's footprint whenever that was
    larger. Elsewhere ``ru_maxrss`` is the best there is (bytes on macOS).
    """
    if status.is_file():
        match = re.search(r"^VmHWM:\s*(\d+)\s*kB", status.read_text(), re.MULTILINE)
        if match:
            return int(match.group(1)) / 2**10
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


def total_steps(job: WorkerJob) -> int:
    """Progress steps of a job: warm-up, per repeat (prefills, decode(s), turns), accuracy cases."""
    decodes = 2 if job.threads > 1 else 1
    return 1 + job.repeats * (len(job.prompt_lens) + decodes + job.turns) + job.accuracy_cases


@dataclass
class LoadedModel:
    """A loaded model as the worker needs it: a text backend and a stepper on the same weights."""

    backend: Any
    stepper: Any
    weight_bytes: int | None = None
    kv_bytes_per_position: int | None = None


def import_runtime(job: WorkerJob) -> None:
    """Import the runtime before the baseline memory reading, so that ``model_rss_mb`` is the
    model's share and the runtime's own footprint (torch is large) stays in the baseline."""
    if job.backend == "llama.cpp":
        import llama_cpp  # noqa: F401
    else:
        import torch  # noqa: F401
        import transformers  # noqa: F401


def load_model(job: WorkerJob) -> LoadedModel:
    """Load the job's model once; the chat layer and the stepper share it."""
    if job.backend == "llama.cpp":
        from botpsy.backends.llamacpp import LlamaCppBackend  # lazy: llama_cpp

        backend = LlamaCppBackend(
            job.model_path, n_ctx=job.n_ctx, n_threads=job.threads, name=job.label,
            lora_path=job.lora_path, follow_load=False,  # each figure at the count it names
        )
        return LoadedModel(backend, LlamaStepper(backend.llama))
    from botpsy.backends.transformers_backend import TransformersBackend  # lazy: jsonschema

    backend = TransformersBackend(
        job.model_path, dtype=job.dtype, n_threads=job.threads, name=job.label
    )
    stepper = TorchStepper(backend.model, backend.tokenizer)
    return LoadedModel(
        backend, stepper, weight_bytes(backend.model), kv_bytes_per_position(backend.model)
    )


def run_job(job: WorkerJob, report: Callable[[WorkerProgress], None]) -> WorkerResult:
    """Load, warm up, measure ``job.repeats`` times, then accuracy; in this process."""
    from botpsy.backends.chat import FormattedChatModel  # lazy: jsonschema
    from botpsy.formats import get_format  # lazy: jsonschema

    start = time.perf_counter()
    items = accuracy.load_subset(job.accuracy_cases) if job.accuracy_cases else []
    turns = TURN_PROMPTS[: job.turns]
    total, done = total_steps(job), 0

    def tick(what: str) -> None:
        nonlocal done
        done += 1
        report(WorkerProgress(done, total, what))

    import_runtime(job)
    baseline = rss_mb()  # after imports and the accuracy data: what remains is the model's
    loaded_at = time.perf_counter()
    model = load_model(job)
    load_s = time.perf_counter() - loaded_at
    format_name = job.format_name or model.backend.format_hint() or "hermes"
    chat = FormattedChatModel(model.backend, get_format(format_name), name=job.label)
    params = GenerationParams(
        max_tokens=job.turn_max_tokens, temperature=0.0, tool_choice=job.tool_choice
    )
    measure.warm_up(model.stepper)
    measure.time_turn(chat, TURN_PROMPTS[0], params, model.stepper.reset)
    tick("warm-up")
    plan = measure.RepeatPlan(job.prompt_lens, job.decode_tokens, turns, params, job.threads)
    repeats = [
        measure.measure_repeat(i, model.stepper, chat, plan, tick) for i in range(job.repeats)
    ]
    result = None
    if items:
        result = accuracy.run_accuracy(
            chat, items, params, on_case=lambda: tick("accuracy"), before_case=model.stepper.reset
        )
    model.stepper.reset()  # lets a generation thread of the last turn finish before exit
    return WorkerResult(
        job=job,
        load_s=load_s,
        baseline_rss_mb=baseline,
        peak_rss_mb=peak_rss_mb(),
        weight_bytes=model.weight_bytes,
        kv_bytes_per_position=model.kv_bytes_per_position,
        format_name=format_name,
        repeats=repeats,
        accuracy=result,
        wall_s=time.perf_counter() - start,
    )


def main(argv: list[str] | None = None) -> int:
    """Worker entry point: job JSON in argv[1], result JSON on stdout."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m botpsy.bench.worker '<WorkerJob JSON>'", file=sys.stderr)
        return 2
    job = WorkerJob.model_validate_json(args[0])
    result_fd = os.dup(1)
    os.dup2(2, 1)  # anything the runtimes print goes to stderr; fd result_fd is ours alone

    def report(progress: WorkerProgress) -> None:
        payload = {"done": progress.done, "total": progress.total, "what": progress.what}
        print(PROGRESS_PREFIX + json.dumps(payload), file=sys.stderr, flush=True)

    try:
        result = run_job(job, report)
    except Exception as exc:  # noqa: BLE001 - reported to the parent as one categorised line
        traceback.print_exc()
        print(
            f"{ERROR_PREFIX}{type(exc).__name__}: {exc}".replace("\n", " "),
            file=sys.stderr,
            flush=True,
        )
        return 1
    with os.fdopen(result_fd, "w") as out:
        out.write(result.model_dump_json() + "\n")
    return 0


def _read_stderr(
    stream,
    tail: collections.deque,
    errors: list[str],
    on_progress: Callable[[WorkerProgress], None] | None,
) -> None:
    for line in stream:
        if line.startswith(ERROR_PREFIX):
            errors.append(line[len(ERROR_PREFIX) :].strip())
        elif line.startswith(PROGRESS_PREFIX):
            if on_progress is not None:
                data = json.loads(line[len(PROGRESS_PREFIX) :])
                on_progress(WorkerProgress(data["done"], data["total"], data["what"]))
        elif line.strip():
            tail.append(line.rstrip())


def run_worker(
    job: WorkerJob,
    *,
    timeout_s: float = 1800,
    on_progress: Callable[[WorkerProgress], None] | None = None,
) -> WorkerResult:
    """Run ``job`` in a fresh Python process and return its result.

    Raises ``BenchError`` (worker_timeout / worker_failed) with the end of the
    worker's stderr, so a crash inside llama.cpp or torch is explained.
    """
    cmd = [sys.executable, "-m", "botpsy.bench.worker", job.model_dump_json()]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)
    chunks: list[str] = []
    errors: list[str] = []
    readers = [
        threading.Thread(
            target=_read_stderr, args=(proc.stderr, tail, errors, on_progress), daemon=True
        ),
        threading.Thread(target=lambda: chunks.append(proc.stdout.read()), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        code = proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise BenchError(
            BenchErrorKind.worker_timeout,
            f"{job.label} ({job.threads} threads) ran past {timeout_s:.0f} s",
        )
    except KeyboardInterrupt:  # Ctrl-C: the run stops, and so must this worker
        proc.kill()
        proc.wait()
        raise
    for reader in readers:
        reader.join()
    lines = [line for line in "".join(chunks).splitlines() if line.strip()]
    if code != 0 or not lines:
        detail = "; ".join(errors) or " | ".join(list(tail)[-8:]) or "no output"
        raise BenchError(
            BenchErrorKind.worker_failed,
            f"{job.label} ({job.threads} threads) exited with {code}: {detail}",
        )
    return WorkerResult.model_validate_json(lines[-1])


if __name__ == "__main__":
    raise SystemExit(main())
