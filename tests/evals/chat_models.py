"""Small models for the eval tests: one answers from BFCL's ground truth, one from a
script, and a text backend that honours ``max_tokens`` (for the early-stop probes).

``OracleChatModel`` recognises each BFCL case by its messages and tools and
answers with the possible answer (the first acceptable value of each argument,
optional ones left out), so feeding it through generate + score must reproduce
BFCL's own verdict on its ground truth. Java and JavaScript arguments are
written as those languages' literals, as BFCL asks models to.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from typing import Any

from botpsy.backends.base import GenerationStats, TextChunk
from botpsy.evals.bfcl.categories import Category, CategoryKind
from botpsy.evals.bfcl.dataset import load_answers, load_cases
from botpsy.evals.bfcl.upstream import ADDITIONAL_FUNCTION_PROMPT
from botpsy.types import (
    Completion,
    GenerationParams,
    Message,
    StreamEvent,
    ToolCall,
    ToolSpec,
    Usage,
)


def _java_literal(value: Any, declared: str, item_type: str | None) -> str:
    """Java source for a value, written the way BFCL's Java converter reads it back."""
    if isinstance(value, str):
        return value
    if declared == "HashMap":
        puts = " ".join(
            f'put("{k}", {_java_element(v, None, quoted=True)});' for k, v in value.items()
        )
        return f"new HashMap<String, Object>() {{{{ {puts} }}}}"
    if declared == "ArrayList":  # BFCL strips quotes only from String/char elements here
        quoted = item_type in ("String", "char")
        items = ", ".join(_java_element(v, item_type, quoted=quoted) for v in value)
        return f"new ArrayList<>(Arrays.asList({items}))"
    if declared == "Array":
        items = ", ".join(_java_element(v, item_type, quoted=False) for v in value)
        return f"new {item_type or 'Object'}[]{{{items}}}"
    return _java_element(value, declared, quoted=False)


def _java_element(value: Any, declared: str | None, *, quoted: bool) -> str:
    if isinstance(value, str):
        return f'"{value}"' if quoted else value
    if isinstance(value, bool):
        return "true" if value else "false"
    if declared == "long":
        return f"{value}L"
    if declared == "float":
        return f"{value}f"
    return str(value)


def _js_literal(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def _pick(values: Any, optional: bool) -> tuple[bool, Any]:
    """(give it?, value): leave optional arguments out, else the first acceptable value."""
    values = values if isinstance(values, list) else [values]
    if "" in values and optional:
        return False, None
    concrete = [v for v in values if v != ""]
    return (True, _concrete(concrete[0])) if concrete else (False, None)


def _concrete(value: Any) -> Any:
    """One plain value from an answer: dicts in answers list acceptable values per key."""
    if isinstance(value, dict):
        picked = {k: _pick(v, optional=True) for k, v in value.items()}
        return {k: v for k, (give, v) in picked.items() if give}
    if isinstance(value, list):
        return [_concrete(v) for v in value]
    return value


def answer_calls(truth: list[dict], functions: list[dict], cat: Category) -> list[ToolCall]:
    """ToolCalls BFCL's ground truth accepts, values written in the category's language."""
    docs = {doc["name"]: doc for doc in functions}
    calls = []
    for item in truth:
        ((name, args),) = item.items()
        params = docs[name]["parameters"]
        required = set(params.get("required", []))
        arguments = {}
        for key, values in args.items():
            give, value = _pick(values, key not in required)
            if not give:
                continue
            spec = params["properties"].get(key, {})
            if cat.language.value == "java":
                value = _java_literal(
                    value, spec.get("type", ""), spec.get("items", {}).get("type")
                )
            elif cat.language.value == "javascript":
                value = _js_literal(value)
            arguments[key] = value
        calls.append(ToolCall(name=name, arguments=arguments))
    return calls


def python_source(calls: list[ToolCall]) -> str:
    """Calls in the pythonic ``[f(a=1), g(b='x')]`` form BFCL's prompt mode parses."""
    return (
        "["
        + ", ".join(
            f"{c.name}({', '.join(f'{k}={v!r}' for k, v in c.arguments.items())})" for c in calls
        )
        + "]"
    )


def _parse_call_string(call: str, tools: list[ToolSpec]) -> ToolCall:
    """``"sort('a.txt')"`` -> ToolCall, naming positional arguments from the tool schema."""
    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call)
    name = ast.unparse(node.func)
    # BFCL's answers sometimes call a function before it is offered (held out): keywords only then.
    spec = next((t for t in tools if t.name == name), None)
    order = list(spec.parameters.get("properties", {})) if spec else []
    arguments = {order[i]: ast.literal_eval(arg) for i, arg in enumerate(node.args)}
    arguments.update({kw.arg: ast.literal_eval(kw.value) for kw in node.keywords})
    return ToolCall(name=name, arguments=arguments)


def _user_turns(messages: list[Message]) -> list[list[str]]:
    """The user (and system) texts of each turn: runs of messages between model answers."""
    turns: list[list[str]] = []
    previous = None
    for message in messages:
        if message.role in ("user", "system"):
            if previous not in ("user", "system"):
                turns.append([])
            turns[-1].append(message.content)
        previous = message.role
    return turns


def _key(messages: list[Message], tools: list[str]) -> str:
    return json.dumps([[[m.role, m.content] for m in messages], sorted(tools)])


class OracleChatModel:
    """Answers BFCL cases of the given categories with their ground truth."""

    def __init__(self, categories: list[Category], *, mode: str = "fc", name: str = "oracle"):
        self.name = name
        self.mode = mode
        self.calls = 0
        self._single: dict[str, list[ToolCall]] = {}
        # conversation: (user texts per turn, answer per turn)
        self._multi: list[tuple[list[list[str]], list[list[str]]]] = []
        for cat in categories:
            self._learn(cat)

    def _learn(self, cat: Category) -> None:
        originals = {c.id: c for c in load_cases(cat, for_model=False)}
        answers = load_answers(cat)
        for case in load_cases(cat, for_model=True):
            first = [Message(role=m["role"], content=m["content"]) for m in case.turns[0]]
            tools = [doc["name"] for doc in case.functions]
            if cat.kind is CategoryKind.multi_turn:
                texts = [
                    [m["content"] for m in turn] or [ADDITIONAL_FUNCTION_PROMPT]
                    for turn in case.turns
                ]
                self._multi.append((texts, answers[case.id]))
            elif cat.kind is CategoryKind.irrelevance:
                self._single[_key(first, tools)] = []
            elif cat.kind is CategoryKind.relevance:  # no answers: any call is right
                self._single[_key(first, tools)] = [ToolCall(name=tools[0], arguments={})]
            else:
                original = originals[case.id]
                self._single[_key(first, tools)] = answer_calls(
                    answers[case.id], original.functions, cat
                )

    def _reply(self, calls: list[ToolCall], text: str = "") -> Completion:
        raw = python_source(calls) if calls else text
        if self.mode == "prompt":
            return Completion(
                content="" if calls else text,
                tool_calls=calls,
                raw=raw,
                usage=Usage(prompt_tokens=10, completion_tokens=len(raw.split())),
            )
        return Completion(
            content=text,
            tool_calls=calls,
            raw=raw,
            usage=Usage(prompt_tokens=10, completion_tokens=len(raw.split())),
        )

    def complete(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        params: GenerationParams | None = None,
    ) -> Completion:
        self.calls += 1
        names = [t.name for t in tools or []]
        key = _key(messages, names)
        if key in self._single:
            return self._reply(self._single[key], "None of the functions fit this request.")
        if messages[-1].role == "tool":
            return self._reply([], "Done.")
        asked = _user_turns(messages)
        calls = [_parse_call_string(c, tools or []) for c in self._turn_answer(asked)]
        return self._reply(calls, "I cannot do that with these tools.")

    def _turn_answer(self, asked: list[list[str]]) -> list[str]:
        """The reference calls of the current turn of the conversation that began with ``asked``.

        Some conversations share their opening turns (with different starting
        states); their answers so far must then agree, or the case is ambiguous.
        """
        found = {
            json.dumps(answers[len(asked) - 1])
            for texts, answers in self._multi
            if texts[: len(asked)] == asked
        }
        if len(found) != 1:
            raise KeyError(f"{len(found)} different answers to {asked[-1][0][:60]!r}")
        return json.loads(found.pop())

    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        params: GenerationParams | None = None,
    ) -> Iterator[StreamEvent]:
        completion = self.complete(messages, tools, params)
        yield StreamEvent(type="done", completion=completion)


class ScriptedChatModel:
    """Returns the given completions in order (raises when the script runs out)."""

    def __init__(self, completions: list[Completion], name: str = "scripted"):
        self.name = name
        self._completions = list(completions)
        self.seen: list[list[Message]] = []

    def complete(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        params: GenerationParams | None = None,
    ) -> Completion:
        self.seen.append(list(messages))
        if not self._completions:
            raise RuntimeError("script exhausted")
        return self._completions.pop(0)

    def stream(self, messages, tools=None, params=None) -> Iterator[StreamEvent]:
        yield StreamEvent(type="done", completion=self.complete(messages, tools, params))


class BudgetBackend:
    """A deterministic TextBackend: the same answer to every prompt, cut at ``max_tokens``.

    Tokens are whitespace-delimited pieces, and each ``<`` is a token of its own
    (as a call opener's first token is), so a test can say exactly where a
    budget cuts. ``budgets`` records the ``max_tokens`` of every request and
    ``grammars`` the grammar it came with; wrap it in a ``FormattedChatModel``
    so that the real format renders the prompt and parses the answer.
    """

    name = "budget"
    supports_grammar = True

    def __init__(self, answer: str):
        self.pieces = re.findall(r"\s*(?:<|[^\s<]+)", answer)
        self.budgets: list[int] = []
        self.grammars: list[str | None] = []
        self._stats = GenerationStats()

    @property
    def last_stats(self) -> GenerationStats:
        return self._stats

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def format_hint(self) -> str | None:
        return "hermes"

    def generate(
        self, prompt: str, params: GenerationParams, grammar: str | None = None
    ) -> Iterator[TextChunk]:
        self.budgets.append(params.max_tokens)
        self.grammars.append(grammar)
        pieces = self.pieces[: params.max_tokens]
        cut = len(pieces) < len(self.pieces)
        self._stats = GenerationStats(
            prompt_tokens=self.count_tokens(prompt),
            completion_tokens=len(pieces),
            finish_reason="length" if cut else "stop",
        )
        for piece in pieces:
            yield TextChunk(piece)
