"""Saved llama.cpp KV state of a prompt prefix, so a new process need not evaluate it again.

Why: every ``botpsy ask`` is a new process, and the system prompt with the tool
preamble is most of its prompt; evaluating it again is most of a cold answer's time.
llama.cpp can copy a sequence's KV cache out (``llama_state_seq_get_data``) and back
(``llama_state_seq_set_data``).

A state is worth keeping only while it is exactly what evaluating its tokens would
give, so a file is found by a hash of everything that shapes the cache: the
llama-cpp-python version, the model and adapter files (``model_files.file_print``), the
adapter scale and the prefix's token ids (which carry the chat format and preamble).
The file repeats that key and the tokens in its header, with the payload's size and
sha256. A file whose header, key, tokens, size or hash do not match, or that
llama.cpp refuses, counts as absent: the caller evaluates the prefix and writes the
file again (atomically). Files live in the user cache dir (``states/``); the least
recently used go beyond ``budget_bytes()`` (``BOTPSY_STATE_MB``, default ``DEFAULT_MB``):
each tool set the selector shows, and each one-tool retry, is a prefix of its own, so a
count of a few files was spent within one round of everyday requests.

A prefix with no file of its own can still start from the file that shares the most
leading tokens with it (``load_longest``): the cache of those tokens does not depend
on what followed them, so the rest is cut off and only the tokens that differ (another
tool set after the same system prompt) are evaluated. ``BOTPSY_STATE_CACHE=0`` turns the cache off;
``BOTPSY_STATE_DIR`` puts it elsewhere.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import time
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

MAGIC = b"botpsy-kv-state 1\n"
DEFAULT_MB = 512  # disk kept for states per cache folder (each is the KV of one prefix)
SUFFIX = ".kv"


@dataclass(frozen=True)
class StateKey:
    """What the KV cache of a token prefix depends on besides the tokens."""

    runtime: str  # llama-cpp-python version (its state layout may change)
    model: str  # model_files.file_print of the GGUF
    adapter: str | None  # the same of the LoRA adapter, if any
    adapter_scale: float


@dataclass(frozen=True)
class Header:
    """The first line of a state file (JSON) after ``MAGIC``."""

    key: StateKey
    tokens: list[int]
    size: int
    sha256: str


def enabled() -> bool:
    """Whether states are saved and loaded (``BOTPSY_STATE_CACHE=0`` turns it off)."""
    return os.environ.get("BOTPSY_STATE_CACHE", "1").strip() not in ("0", "false", "no", "off")


def state_dir() -> Path:
    """The user cache dir's ``states/`` (``BOTPSY_STATE_DIR`` overrides)."""
    from botpsy.backends.model_files import cache_dir  # lazy: pydantic

    override = os.environ.get("BOTPSY_STATE_DIR")
    return Path(override) if override else cache_dir() / "states"


def model_key(model_path: str, lora_path: str | None, lora_scale: float) -> StateKey:
    """The key of a model as loaded: its files' prints and the runtime's version."""
    import llama_cpp

    from botpsy.backends.model_files import file_print  # lazy: pydantic

    adapter = file_print(Path(lora_path)) if lora_path else None
    return StateKey(llama_cpp.__version__, file_print(Path(model_path)), adapter, lora_scale)


def state_path(folder: Path, key: StateKey, tokens: Sequence[int]) -> Path:
    digest = hashlib.sha256(json.dumps(asdict(key), sort_keys=True).encode())
    digest.update(b"".join(int(t).to_bytes(4, "little", signed=True) for t in tokens))
    return folder / f"{digest.hexdigest()[:32]}{SUFFIX}"


def _read(path: Path, key: StateKey, tokens: Sequence[int]) -> bytes | None:
    """The payload of ``path`` when everything in its header matches; None otherwise."""
    try:
        with path.open("rb") as handle:
            if handle.read(len(MAGIC)) != MAGIC:
                return None
            raw = json.loads(handle.readline())
            header = Header(StateKey(**raw["key"]), raw["tokens"], raw["size"], raw["sha256"])
            payload = handle.read(header.size + 1)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if header.key != key or header.tokens != list(tokens) or len(payload) != header.size:
        return None
    return payload if hashlib.sha256(payload).hexdigest() == header.sha256 else None


def _put(ctx: Any, path: Path, payload: bytes) -> bool:
    """Load ``payload`` into sequence 0 of ``ctx``; False (the sequence emptied) if refused."""
    import llama_cpp

    buffer = (ctypes.c_uint8 * len(payload)).from_buffer_copy(payload)
    if llama_cpp.llama_state_seq_set_data(ctx, buffer, len(payload), 0) != len(payload):
        llama_cpp.llama_memory_seq_rm(llama_cpp.llama_get_memory(ctx), 0, -1, -1)
        return False
    os.utime(path)  # recently used: kept longest
    return True


def load(ctx: Any, folder: Path, key: StateKey, tokens: Sequence[int]) -> bool:
    """Put the saved KV of ``tokens`` into sequence 0 of llama context ``ctx``; False (and
    the sequence left empty) when there is no good file for it."""
    path = state_path(folder, key, tokens)
    payload = _read(path, key, tokens)
    return payload is not None and _put(ctx, path, payload)


def _header_tokens(path: Path, key: StateKey) -> list[int] | None:
    """The tokens a state file holds when it is one of ``key``'s (its header only)."""
    try:
        with path.open("rb") as handle:
            if handle.read(len(MAGIC)) != MAGIC:
                return None
            raw = json.loads(handle.readline())
        return list(raw["tokens"]) if StateKey(**raw["key"]) == key else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def shared_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens ``a`` and ``b`` have in common."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def load_longest(ctx: Any, folder: Path, key: StateKey, tokens: Sequence[int], minimum: int) -> int:
    """Load the saved state that shares the most leading tokens with ``tokens`` (at least
    ``minimum``), cut to those tokens; returns how many are loaded (0: none, sequence empty)."""
    import llama_cpp

    if load(ctx, folder, key, tokens):
        return len(tokens)
    best, best_path = 0, None
    for path in folder.glob(f"*{SUFFIX}") if folder.is_dir() else ():
        held = _header_tokens(path, key)
        shared = shared_prefix(held, tokens) if held else 0
        if shared > best:
            best, best_path = shared, (path, held)
    if best < minimum or best_path is None:
        return 0
    path, held = best_path
    payload = _read(path, key, held)
    if payload is None or not _put(ctx, path, payload):
        return 0
    memory = llama_cpp.llama_get_memory(ctx)
    if not llama_cpp.llama_memory_seq_rm(memory, 0, best, -1):
        # a recurrent model (Qwen3.5's linear attention) cannot be cut back to a prefix
        llama_cpp.llama_memory_seq_rm(memory, 0, -1, -1)
        return 0
    return best


def is_empty(ctx: Any) -> bool:
    """Whether sequence 0 of ``ctx`` holds no tokens (as after a refused ``load``)."""
    import llama_cpp

    return llama_cpp.llama_memory_seq_pos_max(llama_cpp.llama_get_memory(ctx), 0) < 0


def save(ctx: Any, folder: Path, key: StateKey, tokens: Sequence[int]) -> Path | None:
    """Write the KV of sequence 0 (which must hold exactly ``tokens``) for later processes;
    None when llama.cpp gives nothing or the folder cannot be written (the cache is an
    optimisation: a read-only disk must not fail an answer)."""
    import llama_cpp

    size = llama_cpp.llama_state_seq_get_size(ctx, 0)
    buffer = (ctypes.c_uint8 * size)()
    if not size or llama_cpp.llama_state_seq_get_data(ctx, buffer, size, 0) != size:
        return None
    payload = bytes(buffer)
    header = Header(key, list(map(int, tokens)), size, hashlib.sha256(payload).hexdigest())
    path = state_path(folder, key, tokens)
    tmp = path.with_suffix(f".{os.getpid()}.part")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(MAGIC + json.dumps(asdict(header)).encode() + b"\n" + payload)
        tmp.replace(path)
        prune(folder)
    except OSError:
        tmp.unlink(missing_ok=True)
        return None
    return path


def budget_bytes() -> int:
    """Disk the states may take (``BOTPSY_STATE_MB``, in MiB). A value that is no whole
    number is warned about and the default used: the cache must not fail an answer."""
    value = os.environ.get("BOTPSY_STATE_MB", "").strip()
    if value and not value.isdigit():
        warnings.warn(f"BOTPSY_STATE_MB must be a whole number of MiB, got {value!r}; "
                      f"using {DEFAULT_MB}", stacklevel=2)
        value = ""
    return int(value or DEFAULT_MB) << 20


def prune(folder: Path, budget: int | None = None) -> None:
    """Delete the least recently used states beyond ``budget`` bytes (the most recent one is
    always kept), and parts older than a minute."""
    budget = budget_bytes() if budget is None else budget
    now = time.time()
    for part in folder.glob("*.part"):
        if now - part.stat().st_mtime > 60:
            part.unlink(missing_ok=True)
    states = sorted(((p, p.stat()) for p in folder.glob(f"*{SUFFIX}")),
                    key=lambda item: item[1].st_mtime, reverse=True)
    total = 0
    for index, (path, stat) in enumerate(states):
        total += stat.st_size
        if index and total > budget:
            path.unlink(missing_ok=True)
