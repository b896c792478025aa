"""Saved prefix states on the real default model: the same greedy text, and a bad file is ignored."""

from __future__ import annotations

import pytest

from botpsy.backends import state_cache
from botpsy.backends.llamacpp import LlamaCppBackend
from botpsy.types import GenerationParams

pytestmark = pytest.mark.model

PREAMBLE = (
    "<|im_start|>system\nYou are a helpful assistant on the user's phone. "
    + "Answer briefly and name the tool you would use. " * 12
    + "<|im_end|>\n"
)
PROMPT = PREAMBLE + "<|im_start|>user\nWhat can you do?<|im_end|>\n<|im_start|>assistant\n"
PARAMS = GenerationParams(max_tokens=12)


def _answer(backend: LlamaCppBackend) -> str:
    return "".join(chunk.text for chunk in backend.generate(PROMPT, PARAMS))


@pytest.fixture
def fresh(default_gguf, tmp_path, monkeypatch):
    """Make a new backend (a new process's cold context) over ``tmp_path``'s states."""
    monkeypatch.delenv("BOTPSY_STATE_CACHE", raising=False)
    made: list[LlamaCppBackend] = []

    def make(model=default_gguf, **kwargs) -> LlamaCppBackend:
        backend = LlamaCppBackend(model, n_ctx=1024, n_threads=2, state_dir=tmp_path, **kwargs)
        made.append(backend)
        return backend

    yield make
    for backend in made:
        backend.close()


def _only_state(folder):
    files = list(folder.glob(f"*{state_cache.SUFFIX}"))
    assert len(files) == 1
    return files[0]


def test_a_loaded_state_gives_the_same_greedy_text(fresh, tmp_path, monkeypatch):
    first = fresh()
    assert first.prime(PREAMBLE) == 0  # nothing saved yet: evaluated, then saved
    _only_state(tmp_path)
    second = fresh()
    n = second.prime(PREAMBLE)
    assert n == second.count_tokens(PREAMBLE)
    loaded = _answer(second)
    assert second.last_stats.cached_tokens == n
    monkeypatch.setenv("BOTPSY_STATE_CACHE", "0")
    plain = fresh()
    assert plain.state_dir is None and plain.prime(PREAMBLE) == 0
    assert loaded == _answer(plain)


def _rehashed(data: bytes) -> bytes:
    """The same file with its payload scrambled and the header's hash made to match:
    only llama.cpp itself can refuse it."""
    import hashlib
    import json

    head, _, payload = data[len(state_cache.MAGIC):].partition(b"\n")
    header = json.loads(head)
    garbage = bytes(reversed(payload))
    header["sha256"] = hashlib.sha256(garbage).hexdigest()
    return state_cache.MAGIC + json.dumps(header).encode() + b"\n" + garbage


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "refused"])
def test_a_damaged_state_is_ignored_and_written_again(fresh, tmp_path, damage):
    fresh().prime(PREAMBLE)
    path = _only_state(tmp_path)
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[-1000] ^= 0xFF  # inside the KV payload: only the hash can tell
    elif damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "refused":
        data = bytearray(_rehashed(bytes(data)))
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    backend = fresh()
    assert backend.prime(PREAMBLE) == 0
    answer = _answer(backend)
    assert path.read_bytes() != bytes(data)  # rewritten whole
    again = fresh()
    assert again.prime(PREAMBLE) > 0 and _answer(again) == answer


def test_a_state_of_another_model_is_ignored(fresh, tmp_path, monkeypatch):
    from botpsy.backends.model_files import named_adapter_path

    monkeypatch.setenv("BOTPSY_STATE_CACHE", "0")
    plain = _answer(fresh())
    monkeypatch.delenv("BOTPSY_STATE_CACHE")
    fresh(lora_path=str(named_adapter_path("botpsy-smol"))).prime(PREAMBLE)
    foreign = _only_state(tmp_path)
    base = fresh()
    key = state_cache.model_key(base.model_path, None, base.llama.lora_scale)
    mine = state_cache.state_path(tmp_path, key, base.tokenize(PREAMBLE))
    foreign.rename(mine)  # the adapted model's state where the base model looks
    assert base.prime(PREAMBLE) == 0
    assert _answer(base) == plain
    assert state_cache._read(mine, key, base.tokenize(PREAMBLE)) is not None  # rewritten


def test_states_beyond_the_budget_are_pruned_least_recently_used_first(tmp_path, monkeypatch):
    import os

    for i in range(6):
        path = tmp_path / f"{i:02d}{state_cache.SUFFIX}"
        path.write_bytes(b"x" * 1000)
        os.utime(path, (1000 + i, 1000 + i))  # 05 is the most recently used
    state_cache.prune(tmp_path, budget=3500)
    assert sorted(p.name for p in tmp_path.glob(f"*{state_cache.SUFFIX}")) == [
        f"{i:02d}{state_cache.SUFFIX}" for i in (3, 4, 5)]
    state_cache.prune(tmp_path, budget=10)  # the latest state stays, whatever its size
    assert [p.name for p in tmp_path.glob(f"*{state_cache.SUFFIX}")] == [f"05{state_cache.SUFFIX}"]
    monkeypatch.setenv("BOTPSY_STATE_MB", "2")
    assert state_cache.budget_bytes() == 2 << 20
    monkeypatch.setenv("BOTPSY_STATE_MB", "lots")
    with pytest.warns(UserWarning, match="BOTPSY_STATE_MB"):
        assert state_cache.budget_bytes() == state_cache.DEFAULT_MB << 20


def test_a_state_sharing_a_long_start_serves_that_start(fresh, tmp_path, monkeypatch):
    """Another tool set after the same system prompt: the saved start is reused, the
    rest evaluated, and the greedy text is what a cold evaluation gives."""
    other = PREAMBLE.replace("<|im_end|>", "Tools: search_notes.<|im_end|>")
    mine = PREAMBLE.replace("<|im_end|>", "Tools: add_reminder, list_events.<|im_end|>")
    prompt = mine + "<|im_start|>user\nWhat can you do?<|im_end|>\n<|im_start|>assistant\n"
    fresh().prime(other)
    backend = fresh()
    shared = state_cache.shared_prefix(backend.tokenize(other), backend.tokenize(mine))
    assert shared >= 32
    assert backend.prime(mine) == shared
    reused = "".join(chunk.text for chunk in backend.generate(prompt, PARAMS))
    assert len(list(tmp_path.glob(f"*{state_cache.SUFFIX}"))) == 2  # its own state saved too
    assert fresh().prime(mine) == backend.count_tokens(mine)
    monkeypatch.setenv("BOTPSY_STATE_CACHE", "0")
    assert reused == "".join(chunk.text for chunk in fresh().generate(prompt, PARAMS))
