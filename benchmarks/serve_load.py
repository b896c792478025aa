"""Load on `botpsy serve`: concurrent clients on loopback, latency percentiles, overhead.

    .venv/bin/python benchmarks/serve_load.py [--clients 20] [--requests 10] [--max-tokens 8]
                                              [--models scripted,smollm2]

For each model (a scripted one, which measures the server alone, and the default
SmolLM2 GGUF with a short ``max_tokens``), a server runs in this process on
127.0.0.1 and a free port; ``--clients`` concurrent clients each send
``--requests`` chat completions one after the other (every prompt differs a little).
Printed: errors (must be 0), p50/p95/max latency, throughput, and, measured
side by side, the ratio of one request through the server to the same
generation in process. One model instance serves all clients in turn, so the
p95 under load is about ``clients`` generations long: the queue, not a fault.
Loops are bounded and every request has a timeout; the script stops by itself.
Exit status 1 when any request failed or the overhead target was missed.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from dataclasses import dataclass, field

import httpx
from _common import interleaved, report_ratio

from botpsy.backends.base import ChatModel
from botpsy.server.app import create_app
from botpsy.server.runner import serve_in_thread
from botpsy.types import GenerationParams, Message

REQUEST_TIMEOUT_S = 300.0
# Through the server, a real generation may cost at most this much more than in process.
OVERHEAD_TARGET = 1.15


@dataclass
class LoadResult:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    wall_s: float = 0.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def body(model_name: str, client: int, index: int, max_tokens: int) -> dict:
    text = f"Client {client}, request {index}: say hello in five words."
    return {
        "model": model_name,
        "max_tokens": max_tokens,
        "messages": [{"role": "user", "content": text}],
    }


async def one_client(
    http: httpx.AsyncClient,
    model_name: str,
    client: int,
    requests: int,
    max_tokens: int,
    result: LoadResult,
) -> None:
    for index in range(requests):
        start = time.perf_counter()
        try:
            response = await http.post(
                "/v1/chat/completions", json=body(model_name, client, index, max_tokens)
            )
            if response.status_code != 200:
                result.errors.append(f"{response.status_code}: {response.text[:200]}")
                continue
            response.json()["choices"][0]["message"]
        except (httpx.HTTPError, KeyError, ValueError) as exc:
            result.errors.append(f"{type(exc).__name__}: {exc}")
            continue
        result.latencies.append(time.perf_counter() - start)


async def load(
    url: str, model_name: str, clients: int, requests: int, max_tokens: int
) -> LoadResult:
    result = LoadResult()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=REQUEST_TIMEOUT_S, limits=limits) as http:
        start = time.perf_counter()
        await asyncio.gather(
            *(one_client(http, model_name, c, requests, max_tokens, result) for c in range(clients))
        )
        result.wall_s = time.perf_counter() - start
    return result


def report(label: str, result: LoadResult, total: int) -> None:
    lat = result.latencies
    print(
        f"[{label}] {total} requests, {len(result.errors)} errors, "
        f"{len(lat) / result.wall_s:.1f} req/s over {result.wall_s:.1f} s"
    )
    if lat:
        print(
            f"[{label}] latency p50 {percentile(lat, 0.5) * 1000:.1f} ms, "
            f"p95 {percentile(lat, 0.95) * 1000:.1f} ms, max {max(lat) * 1000:.1f} ms"
        )
    for error in result.errors[:5]:
        print(f"[{label}] error: {error}")


def overhead(
    label: str, model: ChatModel, url: str, max_tokens: int, repeats: int, target: float | None
) -> bool:
    """One request through the server vs. the same generation in process, interleaved."""
    messages = [Message(role="user", content="Say hello in five words.")]
    params = GenerationParams(max_tokens=max_tokens)
    payload = {
        "model": model.name,
        "max_tokens": max_tokens,
        "messages": [{"role": "user", "content": "Say hello in five words."}],
    }
    with httpx.Client(base_url=url, timeout=REQUEST_TIMEOUT_S) as http:

        def served() -> None:
            http.post("/v1/chat/completions", json=payload).raise_for_status()

        def in_process() -> None:
            model.complete(messages, None, params)

        times = interleaved({"server": served, "in_process": in_process}, repeats)
    if target is None:
        server, local = statistics.median(times["server"]), statistics.median(times["in_process"])
        print(
            f"[{label}] server adds {(server - local) * 1000:.2f} ms per request "
            f"(ratio {server / local:.1f}; a scripted model costs almost nothing, "
            "so only the difference means something)"
        )
        return True
    return report_ratio(
        f"[{label}] server / in-process, one request", times["server"], times["in_process"], target
    )


def scripted(count: int) -> ChatModel:
    from botpsy.backends.chat import FormattedChatModel
    from botpsy.backends.scripted import ScriptedBackend
    from botpsy.formats import get_format

    backend = ScriptedBackend(["Hello there, nice to meet you."] * count)
    return FormattedChatModel(backend, get_format("hermes"), name="scripted")


def default_model() -> ChatModel | None:
    from botpsy.backends.model_files import ModelNotFoundError, load_chat_model

    try:
        return load_chat_model("smollm2", n_ctx=2048)
    except (ModelNotFoundError, ImportError) as exc:
        print(f"[smollm2] skipped: {exc}")
        return None


def run(label: str, model: ChatModel, args: argparse.Namespace, target: float | None) -> bool:
    total = args.clients * args.requests
    with serve_in_thread(
        create_app(model, request_timeout=REQUEST_TIMEOUT_S, max_pending=args.clients + 4)
    ) as server:
        ok = overhead(label, model, server.url, args.max_tokens, args.repeats, target)
        result = asyncio.run(
            load(server.url, model.name, args.clients, args.requests, args.max_tokens)
        )
    report(label, result, total)
    return ok and not result.errors and len(result.latencies) == total


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--max-tokens", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=7, help="overhead measurement pairs")
    parser.add_argument("--models", default="scripted,smollm2")
    args = parser.parse_args()
    ok = True
    for name in [m.strip() for m in args.models.split(",") if m.strip()]:
        if name == "scripted":
            needed = args.clients * args.requests + 2 * (args.repeats + 1)
            ok &= run("scripted", scripted(needed), args, None)
        elif name == "smollm2":
            model = default_model()
            if model is not None:
                ok &= run("smollm2", model, args, OVERHEAD_TARGET)
        else:
            print(f"unknown model {name!r}: use scripted and/or smollm2")
            return 2
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
