"""The llama.cpp backend on the real default model: generation, usage, prefix reuse."""

from __future__ import annotations

import threading

import pytest

from botpsy.backends.cancel import GenerationCancelled, cancel_scope
from botpsy.backends.llamacpp import LlamaCppBackend, prompt_chunk
from botpsy.types import GenerationParams

pytestmark = pytest.mark.model

PROMPT = "<|im_start|>user\nName three colours.<|im_end|>\n<|im_start|>assistant\n"


def test_generates_and_counts_tokens(smol_backend):
    text = "".join(c.text for c in smol_backend.generate(PROMPT, GenerationParams(max_tokens=8)))
    stats = smol_backend.last_stats
    assert text.strip()
    assert stats.prompt_tokens == smol_backend.count_tokens(PROMPT)
    assert stats.completion_tokens == 8 and stats.finish_reason == "length"
    assert stats.prompt_eval_s is not None and stats.prompt_eval_s > 0


def test_greedy_is_deterministic_and_reuses_prefix(smol_backend):
    params = GenerationParams(max_tokens=6)
    smol_backend.llama.reset()
    first = "".join(c.text for c in smol_backend.generate(PROMPT, params))
    assert smol_backend.last_stats.cached_tokens == 0
    second = "".join(c.text for c in smol_backend.generate(PROMPT, params))
    assert first == second
    # the last two prompt tokens are evaluated again (never one alone: see the module)
    assert smol_backend.last_stats.cached_tokens == smol_backend.last_stats.prompt_tokens - 2


def test_stop_sequence_is_honoured(smol_backend):
    params = GenerationParams(max_tokens=40, stop=[","])
    text = "".join(c.text for c in smol_backend.generate("1, 2, 3, 4,", params))
    assert "," not in text


def test_prompt_over_context_is_a_clear_error(smol_backend):
    huge = "word " * 5000
    with pytest.raises(ValueError, match="context window"):
        list(smol_backend.generate(huge, GenerationParams(max_tokens=1)))


def test_grammar_constrains_output(smol_backend):
    grammar = 'root ::= "yes" | "no"'
    text = "".join(
        c.text for c in smol_backend.generate(PROMPT, GenerationParams(max_tokens=4), grammar)
    )
    assert text in {"yes", "no"}


def test_a_grammar_llama_cpp_cannot_parse_is_a_clear_error(smol_backend):
    # handed on unparsed, such a grammar crashed the process at the first token
    with pytest.raises(ValueError, match="could not parse the grammar"):
        list(smol_backend.generate(PROMPT, GenerationParams(max_tokens=4), 'root ::= "a"b"'))
    assert "".join(c.text for c in smol_backend.generate(PROMPT, GenerationParams(max_tokens=2)))


def test_format_hint_from_gguf_metadata(smol_backend):
    assert smol_backend.format_hint() == "hermes"  # ChatML template without tool support


def _text(backend, prompt, params) -> str:
    return "".join(c.text for c in backend.generate(prompt, params))


def test_greedy_text_does_not_depend_on_what_the_cache_held(smol_backend):
    """A follow-up turn reuses the first prompt, not its answer (each answer token was
    evaluated alone, on another rounding path), and its text is what a fresh cache gives:
    botpsy ask and an evaluation of the same request agree."""
    params = GenerationParams(max_tokens=24)
    smol_backend.llama.reset()
    answer = _text(smol_backend, PROMPT, params)
    follow = f"{PROMPT}{answer}<|im_end|>\n<|im_start|>user\nAnd three more?<|im_end|>\n"
    follow += "<|im_start|>assistant\n"
    warm = _text(smol_backend, follow, params)
    assert smol_backend.last_stats.cached_tokens == smol_backend.count_tokens(PROMPT)
    smol_backend.llama.reset()
    assert _text(smol_backend, follow, params) == warm
    assert smol_backend.last_stats.cached_tokens == 0


@pytest.mark.parametrize(
    ("pending", "n_batch", "size"), [(600, 512, 512), (513, 512, 511), (2, 512, 2), (1, 512, 1)]
)
def test_prompt_chunks_never_leave_one_token_alone(pending, n_batch, size):
    assert prompt_chunk(pending, n_batch) == size


def test_a_json_schema_holds_the_answer(smol_backend):
    # structured output: whatever the small model would say, the answer parses and fits
    import json

    from jsonschema import validate

    from botpsy.backends.chat import FormattedChatModel
    from botpsy.formats import get_format
    from botpsy.types import Message

    schema = {"type": "object", "properties": {"colour": {"enum": ["red", "green", "blue"]},
                                               "count": {"type": "integer"}},
              "required": ["colour", "count"], "additionalProperties": False}
    model = FormattedChatModel(smol_backend, get_format("hermes"))
    reply = model.complete([Message(role="user", content="Name a colour and a number.")],
                           params=GenerationParams(max_tokens=40, json_schema=schema))
    validate(json.loads(reply.content), schema)
    assert not reply.tool_calls


def test_a_cancelled_job_stops_between_prompt_chunks_and_keeps_what_it_read(
    default_gguf, monkeypatch
):
    """The cancel flag is read between prompt chunks: a long prefill stops after the
    chunk in flight, and the next request reuses the tokens evaluated so far."""
    backend = LlamaCppBackend(default_gguf, n_ctx=2048, n_threads=2, n_batch=64)
    try:
        prompt = " ".join(f"item {i}" for i in range(200))  # several 64-token chunks
        flag, chunks = threading.Event(), []
        evaluate = backend.llama.eval

        def eval_then_cancel(tokens):
            evaluate(tokens)
            chunks.append(len(tokens))
            flag.set()  # the client left while the first chunk was evaluated

        monkeypatch.setattr(backend.llama, "eval", eval_then_cancel)
        with cancel_scope(flag), pytest.raises(GenerationCancelled):
            list(backend.generate(prompt, GenerationParams(max_tokens=2)))
        assert chunks == [64]
        monkeypatch.setattr(backend.llama, "eval", evaluate)
        text = "".join(c.text for c in backend.generate(prompt, GenerationParams(max_tokens=2)))
        assert text and backend.last_stats.cached_tokens == 64
    finally:
        backend.close()


def test_a_grammar_is_checked_on_the_likeliest_token_first_with_the_same_greedy_text(
    smol_backend, default_gguf
):
    """The grammar-first sampler picks what llama.cpp's chain over the whole vocabulary
    picks (the likeliest allowed token), on a grammar the model does not follow unaided."""
    from llama_cpp import Llama, LlamaGrammar

    from botpsy.backends.llamacpp import ChainSampler

    grammar = 'root ::= "{\\"colour\\": \\"" [a-z]+ "\\", \\"count\\": " [0-9] "}"'
    params = GenerationParams(max_tokens=24)
    ours = "".join(c.text for c in smol_backend.generate(PROMPT, params, grammar))
    assert isinstance(smol_backend.llama._init_sampler(grammar=LlamaGrammar.from_string(
        grammar, verbose=False), temp=0.0).sampler, ChainSampler)
    plain = Llama(model_path=str(default_gguf), n_ctx=512, n_threads=2, verbose=False)
    try:
        out = plain.create_completion(PROMPT, max_tokens=24, temperature=0.0,
                                      grammar=LlamaGrammar.from_string(grammar, verbose=False))
    finally:
        plain.close()
    assert ours == out["choices"][0]["text"] and ours.startswith('{"colour": "')
