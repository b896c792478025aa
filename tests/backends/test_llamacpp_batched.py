"""The batched llama.cpp backend on the real default model: several threads at once,
the same text as one request at a time, stops, grammars, resumed probes, adapters."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import llama_cpp
import pytest

from botpsy.backends.llamacpp_batched import BatchedLlamaCppBackend, _held_back
from botpsy.types import GenerationParams

pytestmark = pytest.mark.model


def _prompt(i: int) -> str:
    return (
        f"<|im_start|>user\nQuestion {i}: name {i + 2} colours.<|im_end|>\n<|im_start|>assistant\n"
    )


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
    assert [t for t, _ in together] == [t for t, _ in alone]
    for (text, stats), (_, expected) in zip(together, alone):
        assert text.strip()
        assert (stats.completion_tokens, stats.finish_reason) == (
            expected.completion_tokens,
            expected.finish_reason,
        )
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
    prompt = (
        "<|im_start|>user\nWrite a long story about a dragon.<|im_end|>\n<|im_start|>assistant\n"
    )
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
            pool.map(
                lambda p: _text(batched, p, GenerationParams(max_tokens=5), grammar),
                [_prompt(1), _prompt(2)],
            )
        )
    assert all(a in ("yes", "no") for a in answers)


def test_a_consumer_that_stops_reading_frees_its_sequence(batched):
    stream = batched.generate(_prompt(3), GenerationParams(max_tokens=200))
    next(stream)
    stream.close()
    with ThreadPoolExecutor(3) as pool:  # every sequence is usable again
        texts = list(
            pool.map(lambda i: _text(batched, _prompt(i), GenerationParams(max_tokens=3)), range(3))
        )
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
    from botpsy.backends.model_files import load_chat_model
    from botpsy.evals.bfcl.convert import tool_specs
    from botpsy.types import Message

    tools = tool_specs(
        [
            {
                "name": "get_weather",
                "description": "Weather in a city.",
                "parameters": {
                    "type": "dict",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                },
            }
        ]
    )
    messages = [Message(role="user", content="What is the weather in Paris?")]
    params = GenerationParams(max_tokens=40)
    # the adapter applied at run time (plain botpsy-smol has it folded into the base)
    alone = load_chat_model("botpsy-smol:f16+lora", n_ctx=1024, n_threads=2)
    together = load_chat_model("botpsy-smol:f16+lora", n_ctx=1024, n_threads=2, parallel=2)
    try:
        expected = alone.complete(messages, tools, params)
        got = together.complete(messages, tools, params)
    finally:
        alone.backend.close()
        together.backend.close()
    assert together.concurrency == 2 and alone.concurrency == 1
    assert (
        got.tool_calls and got.tool_calls[0].name == "get_weather"
    )  # the plain base calls nothing
    assert got.raw == expected.raw


def test_grammar_checked_on_the_chosen_token_gives_the_fully_constrained_text(
    batched, smol_backend
):
    """Greedy: the argmax token, when the grammar allows it, is also the constrained argmax,
    so checking it first must not change the text (and a token it rejects is re-picked)."""
    grammar = r'''root ::= "{\"city\": \"" [A-Z] [a-z]+ "\", \"days\": " [1-9] "}"'''
    prompt = (
        "<|im_start|>user\nWeather in Paris for 3 days, as JSON.<|im_end|>\n<|im_start|>assistant\n"
    )
    params = GenerationParams(max_tokens=24)
    expected = _text(smol_backend, prompt, params, grammar)
    assert _text(batched, prompt, params, grammar) == expected
    assert expected.startswith('{"city": "') and expected.endswith("}")


SYSTEM = (
    "<|im_start|>system\nYou are a personal assistant with mail, calendar, contacts, notes, "
    "reminders and files. Today is Thursday 2026-12-03 08:20. " * 4
) + "<|im_end|>\n"
ASKS = [
    "Write a haiku about autumn leaves.",
    "Remind me to call Anna tomorrow at 9am",
    "What's the capital of France?",
    "List three fruits.",
    "Who wrote Hamlet?",
    "How do I boil an egg?",
]


def _shared_prefix_prompts() -> list[str]:
    """Prompts that share a long system prompt, as the assistant's and BFCL's do: each
    request may reuse a prefix another request filled."""
    return [f"{SYSTEM}<|im_start|>user\n{a}<|im_end|>\n<|im_start|>assistant\n" for a in ASKS]


def test_greedy_text_does_not_depend_on_what_else_runs(batched):
    """Two runs of one evaluation must agree: one request at a time, or all at once in
    either order, the greedy text is the same (scenario runs differed in 7 of 74 first
    replies when a prompt could share a llama_decode call with decoding sequences)."""
    params = GenerationParams(max_tokens=40)
    prompts = _shared_prefix_prompts()
    alone = [_text(batched, p, params) for p in prompts]
    for order in (prompts, prompts[::-1]):
        with ThreadPoolExecutor(len(prompts)) as pool:
            texts = dict(zip(order, pool.map(lambda p: _text(batched, p, params), order)))
        assert [texts[p] for p in prompts] == alone


def test_a_prompt_token_is_never_evaluated_alone_or_beside_other_sequences(batched, monkeypatch):
    """The mechanism behind the test above, call by call: llama.cpp evaluates a sequence
    with one token in a micro-batch on another path (other rounding), so prompt chunks go
    in calls of their own, two tokens or more, and decoding calls hold one token per
    sequence, each with its logits."""
    calls: list[list[tuple[int, bool]]] = []
    decode = llama_cpp.llama_decode

    def spy(ctx, batch):
        calls.append([(batch.seq_id[i][0], bool(batch.logits[i])) for i in range(batch.n_tokens)])
        return decode(ctx, batch)

    monkeypatch.setattr(llama_cpp, "llama_decode", spy)
    params = GenerationParams(max_tokens=8)
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda p: _text(batched, p, params), _shared_prefix_prompts()))
    again = _shared_prefix_prompts()[0]
    _text(batched, again, params)
    _text(batched, again, params)  # its whole prompt is cached: the last two are evaluated
    assert batched.last_stats.cached_tokens == batched.last_stats.prompt_tokens - 2
    assert calls
    for call in calls:
        per_seq = Counter(seq for seq, _ in call)
        if max(per_seq.values()) > 1:  # a prompt chunk: one sequence, two tokens or more
            assert len(per_seq) == 1 and len(call) >= 2, call
        else:  # decoding: one token a sequence, every one read
            assert all(logits for _, logits in call), call
