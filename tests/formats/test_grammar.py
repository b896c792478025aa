"""Call grammars, checked by llama.cpp itself on the real model's vocabulary.

A grammar sampler is built from the grammar text; each token of a candidate
output is offered to it (and accepted only if allowed), then the end-of-sequence
token must be allowed too. This is the exact check llama.cpp applies while
decoding, so a grammar that passes here constrains generation the same way.
"""

from __future__ import annotations

import ctypes

import pytest

from botpsy.formats import FORMATS, get_format
from botpsy.formats.grammar import accept_anything
from botpsy.types import ToolCall, ToolSpec

from .samples import TOOLS

llama_cpp = pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")

WEATHER, EMAIL, EVENT = (
    next(t for t in TOOLS if t.name == n) for n in ("get_weather", "send_email", "create_event")
)
FORCED = [WEATHER, EMAIL, EVENT]


class GrammarProbe:
    """Says whether llama.cpp's grammar sampler lets a model write a given text."""

    def __init__(self, model_path: str) -> None:
        self.llm = llama_cpp.Llama(model_path, vocab_only=True, verbose=False)

    def _allowed(self, sampler, token: int) -> bool:
        data = (llama_cpp.llama_token_data * 1)(
            llama_cpp.llama_token_data(id=token, logit=0.0, p=0.0)
        )
        array = llama_cpp.llama_token_data_array(data=data, size=1, selected=-1, sorted=False)
        llama_cpp.llama_sampler_apply(sampler, ctypes.byref(array))
        return data[0].logit != float("-inf")

    def accepts(self, grammar: str, text: str) -> bool:
        sampler = llama_cpp.llama_sampler_init_grammar(
            self.llm._model.vocab, grammar.encode(), b"root"
        )
        if not sampler:
            raise AssertionError(f"llama.cpp could not parse the grammar:\n{grammar}")
        try:
            tokens = self.llm.tokenize(text.encode(), add_bos=False, special=False)
            for token in [*tokens, self.llm.token_eos()]:
                if not self._allowed(sampler, token):
                    return False
                llama_cpp.llama_sampler_accept(sampler, token)
            return True
        finally:
            llama_cpp.llama_sampler_free(sampler)


@pytest.fixture(scope="module")
def probe(default_gguf) -> GrammarProbe:
    return GrammarProbe(str(default_gguf))


GOOD_CALLS = [
    [ToolCall(name="get_weather", arguments={"city": "Paris"})],
    [ToolCall(name="get_weather", arguments={"city": "Oslo", "days": 3, "unit": "celsius"})],
    [
        ToolCall(
            name="send_email",
            arguments={
                "to": "bob@example.com",
                "subject": "Hi",
                "body": "Line one\nLine two",
                "urgent": True,
            },
        )
    ],
    [
        ToolCall(
            name="create_event",
            arguments={
                "title": "Sync",
                "attendees": ["ann", "bo"],
                "options": {"remind": 10},
                "duration_h": 1.5,
                "location": None,
            },
        )
    ],
    [
        ToolCall(name="get_weather", arguments={"city": "A"}),
        ToolCall(name="send_email", arguments={"to": "x@y.z", "subject": "s", "body": "b"}),
    ],
]
BAD_CALLS = {
    "enum value": ToolCall(name="get_weather", arguments={"city": "Paris", "unit": "kelvin"}),
    "missing required": ToolCall(
        name="send_email", arguments={"to": "bob@example.com", "subject": "Hi"}
    ),
    "unknown argument": ToolCall(name="get_weather", arguments={"city": "Paris", "mood": "happy"}),
    "wrong type": ToolCall(name="get_weather", arguments={"city": "Paris", "days": "three"}),
    "unknown tool": ToolCall(name="delete_everything", arguments={}),
}


@pytest.mark.model
@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
@pytest.mark.parametrize(
    "calls", GOOD_CALLS, ids=["one-arg", "enum", "all-email", "all-types", "two-calls"]
)
def test_grammar_admits_well_formed_calls(probe, fmt_name, calls):
    fmt = get_format(fmt_name)
    assert probe.accepts(fmt.call_grammar(FORCED, "required"), fmt.render_calls(calls))


@pytest.mark.model
@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
@pytest.mark.parametrize("reason", sorted(BAD_CALLS))
def test_grammar_rejects_calls_that_break_the_schema(probe, fmt_name, reason):
    fmt = get_format(fmt_name)
    assert not probe.accepts(
        fmt.call_grammar(FORCED, "required"), fmt.render_calls([BAD_CALLS[reason]])
    )


@pytest.mark.model
@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
def test_grammar_starts_at_the_call_opener_and_needs_a_call(probe, fmt_name):
    fmt = get_format(fmt_name)
    grammar = fmt.call_grammar(FORCED, "required")
    call = fmt.render_calls(GOOD_CALLS[0])
    assert call.startswith(fmt.call_prefix())
    assert not probe.accepts(grammar, "Sure! " + call)
    assert not probe.accepts(grammar, "")
    assert not probe.accepts(grammar, "The weather is nice.")


@pytest.mark.model
@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
def test_named_tool_choice_allows_only_that_tool(probe, fmt_name):
    fmt = get_format(fmt_name)
    grammar = fmt.call_grammar(FORCED, "send_email")
    assert probe.accepts(grammar, fmt.render_calls(GOOD_CALLS[2]))
    assert not probe.accepts(grammar, fmt.render_calls(GOOD_CALLS[0]))


@pytest.mark.model
def test_pythonic_grammar_writes_python_constants(probe):
    fmt = get_format("pythonic")
    grammar = fmt.call_grammar([EMAIL], "required")
    call = '[send_email(to="a@b.c", subject="s", body="b", urgent=True)]'
    assert probe.accepts(grammar, call)
    assert not probe.accepts(grammar, call.replace("True", "true"))


@pytest.mark.parametrize("choice", ["auto", "none", "nope"])
@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
def test_grammar_needs_a_forcing_choice_and_known_tools(fmt_name, choice):
    with pytest.raises(ValueError, match="tool_choice"):
        get_format(fmt_name).call_grammar(FORCED, choice)


def test_grammar_needs_tools():
    with pytest.raises(ValueError, match="at least one tool"):
        get_format("hermes").call_grammar([], "required")


@pytest.mark.model
def test_rule_names_stay_valid_for_odd_tool_names(probe):
    odd = ToolSpec(
        name="math.factorial_2",
        parameters={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    )
    for fmt_name in sorted(FORMATS):
        fmt = get_format(fmt_name)
        text = fmt.render_calls([ToolCall(name=odd.name, arguments={"n": 5})])
        assert probe.accepts(fmt.call_grammar([odd], "required"), text)


REF_TOOL = ToolSpec(
    name="add_contact",
    parameters={
        "type": "object",
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/Address"}},
        "required": ["name", "address"],
        "$defs": {
            "Address": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "zip": {"type": "integer"}},
                "required": ["city"],
            }
        },
    },
)


@pytest.mark.model
@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
def test_schema_refs_are_followed_and_the_spec_is_left_untouched(probe, fmt_name):
    before = REF_TOOL.model_dump()
    fmt = get_format(fmt_name)
    grammar = fmt.call_grammar([REF_TOOL, WEATHER], "required")
    assert REF_TOOL.model_dump() == before
    good = ToolCall(name="add_contact", arguments={"name": "Ann", "address": {"city": "Bern"}})
    bad = ToolCall(name="add_contact", arguments={"name": "Ann", "address": {"zip": 3000}})
    assert probe.accepts(grammar, fmt.render_calls([good]))
    assert not probe.accepts(grammar, fmt.render_calls([bad]))


def test_pythonic_grammar_refuses_argument_names_python_cannot_write():
    odd = ToolSpec(name="lookup", parameters={"type": "object", "properties": {"user-id": {}}})
    with pytest.raises(ValueError, match="identifier"):
        get_format("pythonic").call_grammar([odd], "required")


@pytest.mark.model
@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
def test_parallel_false_admits_exactly_one_call(probe, fmt_name):
    fmt = get_format(fmt_name)
    single = fmt.call_grammar(FORCED, "required", parallel=False)
    assert probe.accepts(single, fmt.render_calls(GOOD_CALLS[0]))
    assert not probe.accepts(single, fmt.render_calls(GOOD_CALLS[4]))  # two calls
    assert probe.accepts(fmt.call_grammar(FORCED, "required"), fmt.render_calls(GOOD_CALLS[4]))


NULLABLE = ToolSpec(
    name="add_reminder",
    parameters={
        "type": "object",
        "properties": {
            "text": {"type": "string"},
            "due": {"type": ["string", "null"], "pattern": "^2026-12-04$"},
            "tags": {"type": ["array", "null"], "items": {"type": "integer"}},
        },
        "required": ["text"],
    },
)


@pytest.mark.model
@pytest.mark.parametrize("fmt_name", ["hermes", "pythonic"])
def test_a_nullable_arguments_keywords_are_enforced(probe, fmt_name):
    """llama-cpp-python's converter drops every keyword beside a type list; the grammar
    spreads the list into branches, so a narrowed ``due`` cannot take another day."""
    fmt = get_format(fmt_name)
    grammar = fmt.call_grammar([NULLABLE], "required")

    def accepts(**arguments) -> bool:
        call = ToolCall(name="add_reminder", arguments={"text": "call Anna", **arguments})
        return probe.accepts(grammar, fmt.render_calls([call]))

    assert accepts(due="2026-12-04") and accepts(due=None) and accepts(tags=[1, 2])
    assert accepts(tags=None)
    assert not accepts(due="today")
    assert not accepts(tags=["one"])


def test_spread_type_lists_keeps_keywords_per_branch_and_leaves_unions_alone():
    from botpsy.formats.grammar import spread_type_lists

    schema = {"type": "object", "properties": {
        "a": {"type": ["string", "null"], "enum": ["x"]},
        "b": {"type": ["integer", "null"], "anyOf": [{"minimum": 1}]},
        "c": {"type": "array", "items": {"type": ["number", "string"], "minimum": 0}},
    }}
    out = spread_type_lists(schema)
    assert out["properties"]["a"] == {"anyOf": [{"enum": ["x"], "type": "string"},
                                                {"type": "null"}]}
    assert out["properties"]["b"] == {"type": ["integer", "null"], "anyOf": [{"minimum": 1}]}
    assert out["properties"]["c"]["items"]["anyOf"][1] == {"minimum": 0, "type": "string"}


@pytest.mark.model
def test_an_escaped_address_list_pattern_is_enforced(probe):
    """The AddressCheck's narrowing (``re.escape``d addresses, a comma-separated list)
    goes through llama-cpp-python's pattern converter intact."""
    from botpsy.assistant.addresscheck import address_keywords

    keywords = address_keywords(["jonas@web.example", "ana-b@x.example"], several=True)
    spec = ToolSpec(name="send_email", parameters={
        "type": "object", "properties": {"to": {"type": "string", **keywords}},
        "required": ["to"]})
    fmt = get_format("hermes")
    grammar = fmt.call_grammar([spec], "required")

    def accepts(to: str) -> bool:
        return probe.accepts(grammar, fmt.render_calls([ToolCall(name="send_email",
                                                                 arguments={"to": to})]))

    assert accepts("jonas@web.example") and accepts("ana-b@x.example, jonas@web.example")
    assert not accepts("jonas@web") and not accepts("ana-b@xxexample")


@pytest.mark.model
def test_a_phone_narrowed_to_null_can_only_be_left_out(probe):
    """The PhoneCheck's narrowing when no number was given (``{"type": "null"}``, made
    required by ``agent.checks.narrowed``): the retry writes null and nothing else."""
    from botpsy.agent.checks import narrowed
    from botpsy.assistant.phonecheck import PhoneCheck

    spec = ToolSpec(name="add_contact", parameters={
        "type": "object", "required": ["name"],
        "properties": {"name": {"type": "string"},
                       "phone": {"type": ["string", "null"], "default": None}}})
    why = PhoneCheck()(ToolCall(name="add_contact", arguments={"name": "Lena", "phone": "10"}),
                       [])
    spec = narrowed(spec, {"add_contact": dict(why.narrow)})
    fmt = get_format("hermes")
    grammar = fmt.call_grammar([spec], "required")

    def accepts(**arguments) -> bool:
        call = ToolCall(name="add_contact", arguments={"name": "Lena", **arguments})
        return probe.accepts(grammar, fmt.render_calls([call]))

    assert accepts(phone=None)
    assert not accepts(phone="10") and not accepts()


def test_a_true_subschema_accepts_any_value():
    # JSON Schema's `true` ("any value") is valid in a tool schema; the converter
    # reads only `{}`, and a forced call of such a tool failed with an AttributeError
    spec = ToolSpec(name="g", parameters={"type": "object", "properties": {"a": True},
                                          "required": ["a"], "additionalProperties": True})
    assert get_format("hermes").call_grammar([spec], "required")
    assert spec.parameters["properties"]["a"] is True  # the spec itself is left alone
    assert accept_anything({"properties": {"a": True}, "items": True}) == {
        "properties": {"a": {}}, "items": {}}


NOTE = ToolSpec(name="note", parameters={
    "type": "object", "required": ["text", "tag"],
    "properties": {"text": {"type": "string"},
                   "tag": {"type": "string", "minLength": 2, "maxLength": 5}}})


def _note(text: str, tag: str = "home") -> str:
    return get_format("qwen35").render_calls(
        [ToolCall(name="note", arguments={"text": text, "tag": tag})])


@pytest.mark.model
def test_qwen35_values_bound_their_whitespace_runs(probe):
    """A random Qwen3.5 wrote whitespace inside a forced parameter until its budget ran
    out: runs past MAX_SPACES spaces, or past two line breaks, are not writable."""
    from botpsy.formats.grammar import MAX_SPACES

    grammar = get_format("qwen35").call_grammar([NOTE], "required")
    assert probe.accepts(grammar, _note("milk  and\n\n  bread < 3 a<b"))
    assert probe.accepts(grammar, _note("a" + " " * MAX_SPACES + "b"))
    assert not probe.accepts(grammar, _note("a" + " " * (MAX_SPACES + 1) + "b"))
    assert not probe.accepts(grammar, _note("a\n\n\nb"))
    assert not probe.accepts(grammar, _note("a </b"))


@pytest.mark.model
def test_qwen35_values_keep_to_max_length(probe):
    grammar = get_format("qwen35").call_grammar([NOTE], "required")
    assert probe.accepts(grammar, _note("x", "home")) and probe.accepts(grammar, _note("x", "wk"))
    assert not probe.accepts(grammar, _note("x", "office"))  # 6 > maxLength 5
    assert not probe.accepts(grammar, _note("x", "w"))  # 1 < minLength 2


@pytest.mark.model
@pytest.mark.parametrize("fmt_name", ["hermes", "pythonic"])
def test_json_strings_bound_their_whitespace_runs(probe, fmt_name):
    from botpsy.formats.grammar import MAX_SPACES

    fmt = get_format(fmt_name)
    grammar = fmt.call_grammar([NOTE], "required")

    def accepts(text: str) -> bool:
        call = ToolCall(name="note", arguments={"text": text, "tag": "home"})
        return probe.accepts(grammar, fmt.render_calls([call]))

    assert accepts("milk and  bread") and accepts("a" + " " * MAX_SPACES + "b")
    assert not accepts("a" + " " * (MAX_SPACES + 1) + "b")
