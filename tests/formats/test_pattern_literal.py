"""Schema patterns built from values (``grammar.pattern_literal``) that llama.cpp itself reads:
a "+" or "." behind a backslash made llama.cpp refuse the whole grammar of a forced call."""

from __future__ import annotations

import re

import pytest

from botpsy.formats.grammar import hermes_grammar, pattern_literal
from botpsy.types import ToolSpec

VALUES = ["+49 30 5550 1201", "priya.shah@northwind.example", "Sunday dinner at Mom's: 18:00.",
          "a(b)|c{1}*?$", 'q"u\\o^t]e']


@pytest.mark.parametrize("value", VALUES)
def test_a_pattern_literal_matches_its_value(value):
    assert re.fullmatch(pattern_literal(value), value)


def test_llama_cpp_reads_a_grammar_held_to_such_patterns(default_gguf):
    llama_cpp = pytest.importorskip("llama_cpp")
    from botpsy.backends.llamacpp import check_grammar

    model = llama_cpp.Llama(str(default_gguf), vocab_only=True, verbose=False)
    vocab = llama_cpp.llama_model_get_vocab(model.model)
    for value in VALUES:
        spec = ToolSpec(name="note", description="d", parameters={
            "type": "object", "required": ["text"], "properties": {"text": {
                "type": "string", "pattern": "^" + pattern_literal(value) + '[^"\\\\]{0,40}$'}}})
        check_grammar(vocab, hermes_grammar([spec], "note"))  # raises where llama.cpp cannot
