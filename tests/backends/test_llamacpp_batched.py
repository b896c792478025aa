"""The batched llama.cpp backend on the real default model: several threads at once,
the same text as one request at a time, stops, grammars, resumed probes, adapters."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from botpsy.backends.llamacpp_batched import BatchedLlamaCppBackend, _held_back
from botpsy.types import GenerationParams

pytestmark = pytest.mark.model


def _prompt(i: int) -> str:
    return f"<|im_start|>user\nQuestion {i}: name {i + 2} colours.<|im_end|>\n<|im_start|>assistant\n"


def _text(backend, prompt, params, grammar=None) -> str:
    return "".join(chunk.text for chunk in backend.generate(prompt, params, grammar))


@pytest.fixture(scope="module")
def batched(default_gguf):
    backend = BatchedLlamaCppBackend(default_gguf, parallel=3, n_ctx=1024, n_threads=2)
    yield backend
    backend.close()


def test_concurrent_requests_get_the_text_of_one_at_a_time(batched, smol_backend):
    params = GenerationParams(max_tokens=12)
    prompts = [_prompt(i) for i in range(5)]  # more requests than sequences: some wait
    alone = [(_text(smol_backend, p, params), smol_backend.last_stats) for p in prompts]

    def ask(prompt):
        return _text(batched, prompt, params), batched.last_stats

    with ThreadPoolExecutor(5) as pool:
        together = list(pool.map(ask, prompts))
    # Batches of other sizes may round differently; a greedy tie can flip a late token.
    same = [(got, ref) for got, ref in zip(together, alone) if got[0] == ref[0]]
    assert len(same) >= 4, [t for t, _ in together]
    for (text, stats), (_, expected) in same:
        assert text.strip()
        assert (stats.completion_tokens, stats.finish_reason) == (
            expected.completion_tokens, expected.finish_reason)
    for (_, stats), prompt in zip(together, prompts):
        assert stats.prompt_tokens == batched.count_tokens(prompt)  # each thread its own stats


def test_stop_sequence_cuts_the_text_and_nothing_past_it_is_sent(batched):
    chunks = list(batched.generate("1, 2, 3, 4,", GenerationParams(max_tokens=40, stop=[", 7"])))
    text = "".join(c.text for c in chunks)
    assert ", 7" not in text and batched.last_stats.finish_reason == "stop"


def test_held_back_text_is_what_could_begin_a_stop():
    assert _held_back("call <tool", ["<tool_call>"]) == 5
    assert _held_back("done", ["<tool_call>"]) == 0
    assert _held_back("a\n<|im", ["<|im_end|>", "\n<"]) == 4


def test_a_larger_budget_for_the_same_prompt_goes_on_from_the_cut(batched, smol_backend):
    prompt = "<|im_start|>user\nWrite a long story about a dragon.<|im_end|>\n<|im_start|>assistant\n"
    probe = _text(batched, prompt, GenerationParams(max_tokens=6))
    full = _text(batched, prompt, GenerationParams(max_tokens=20))
    stats = batched.last_stats
    assert full.startswith(probe) and len(full) > len(probe)
    assert stats.cached_tokens == stats.prompt_tokens - 1 and stats.completion_tokens == 20
    assert full == _text(smol_backend, prompt, GenerationParams(max_tokens=20))


def test_grammar_constrains_each_request(batched):
    grammar = 'root ::= "yes" | "no"'
    with ThreadPoolExecutor(2) as pool:
        answers = list(
            pool.map(lambda p: _text(batched, p, GenerationParams(max_tokens=5), grammar), [_prompt(1), _prompt(2)])
        )
    assert all(a in ("yes", "no") for a in answers)


def test_a_consumer_that_stops_reading_frees_its_sequence(batched):
    stream = batched.generate(_prompt(3), GenerationParams(max_tokens=200))
    next(stream)
    stream.close()
    with ThreadPoolExecutor(3) as pool:  # every sequence is usable again
        texts = list(pool.map(lambda i: _text(batched, _prompt(i), GenerationParams(max_tokens=3)), range(3)))
    assert all(t for t in texts)


def test_prompt_over_the_sequence_context_is_a_clear_error(batched):
    with pytest.raises(ValueError, match="context window"):
        list(batched.generate("word " * 2000, GenerationParams(max_tokens=4)))


def test_a_closed_backend_refuses_requests(default_gguf):
    backend = BatchedLlamaCppBackend(default_gguf, parallel=1, n_ctx=512, n_threads=2)
    backend.close()
    with pytest.raises(RuntimeError, match="closed"):
        list(backend.generate(_prompt(0), GenerationParams(max_tokens=2)))
    with pytest.raises(ValueError, match="parallel"):
        BatchedLlamaCppBackend(default_gguf, parallel=0)


def test_the_adapter_of_a_named_model_applies_to_every_sequence():
    from botpsy.backends.store import load_chat_model
    from botpsy.evals.bfcl.convert import tool_specs
    from botpsy.types import Message

    tools = tool_specs(
        [{"name": "get_weather", "description": "Weather in a city.",
          "parameters": {"type": "dict", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]
    )
    messages = [Message(role="user", content="What is the weather in Paris?")]
    params = GenerationParams(max_tokens=40)
    alone = load_chat_model("botpsy-smol", n_ctx=1024, n_threads=2)
    together = load_chat_model("botpsy-smol", n_ctx=1024, n_threads=2, parallel=2)
    try:
        expected = alone.complete(messages, tools, params)
        got = together.complete(messages, tools, params)
    finally:
        alone.backend.close()
        together.backend.close()
    assert together.concurrency == 2 and alone.concurrency == 1
    assert got.tool_calls and got.tool_calls[0].name == "get_weather"  # the plain base calls nothing
    assert got.raw == expected.raw


def test_grammar_checked_on_the_chosen_token_gives_the_fully_constrained_text(batched, smol_backend):
    """Greedy: the argmax token, when the grammar allows it, is also the constrained argmax,
    so checking it first must not change the text (and a token it rejects is re-picked)."""
    grammar = r'''root ::= "{\"city\": \"" [A-Z] [a-z]+ "\", \"days\": " [1-9] "}"'''
    prompt = "<|im_start|>user\nWeather in Paris for 3 days, as JSON.<|im_end|>\n<|im_start|>assistant\n"
    params = GenerationParams(max_tokens=24)
    expected = _text(smol_backend, prompt, params, grammar)
    assert _text(batched, prompt, params, grammar) == expected
    assert expected.startswith('{"city": "') and expected.endswith("}")
