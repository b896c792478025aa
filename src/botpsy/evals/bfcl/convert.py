"""Conversions between botpsy's data model and BFCL's shapes.

BFCL messages -> ``Message``; BFCL function docs -> ``ToolSpec`` (through the
tool registry, so evals read schemas exactly as the agent does); a
``Completion`` -> BFCL's result entry; a BFCL result entry -> decoded calls for
its checkers; checker-side values of Java/JavaScript calls -> Python values for
the grader.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from botpsy.evals.bfcl import upstream
from botpsy.evals.bfcl.results import Mode
from botpsy.tools import Tool
from botpsy.types import Completion, Message, ToolCall, ToolSpec


class DecodeError(ValueError):
    """A result entry that holds no decodable function calls."""


def to_messages(turn: list[dict[str, Any]]) -> list[Message]:
    """BFCL chat messages as botpsy messages (roles system/user/assistant/tool)."""
    return [Message(role=m["role"], content=str(m.get("content") or "")) for m in turn]


def tool_specs(functions: list[dict[str, Any]]) -> list[ToolSpec]:
    return [Tool.from_bfcl(doc).spec for doc in functions]


def checker_tag(model_name: str) -> str:
    """A Python identifier fragment for BFCL's per-model API instances (they are eval'ed)."""
    return re.sub(r"\W", "_", model_name) or "model"


def bfcl_result(completion: Completion, mode: Mode) -> Any:
    """What BFCL stores for one model answer.

    FC mode: the parsed calls as ``[{"func": {"arg": value}}]``, or the text when
    the model made no call (as BFCL's FC handlers do). Prompt mode: the raw
    text, decoded later by BFCL's own parser.
    """
    if mode == "prompt":
        return completion.raw or completion.content
    if completion.tool_calls:
        return [{call.name: call.arguments} for call in completion.tool_calls]
    return completion.content


# A Hermes tool-call block as BFCL's own Hermes/Qwen FC handler finds it: the tags on
# lines of their own around one JSON object.
_STRICT_BLOCK = re.compile(r"<tool_call>\n(.*?)\n</tool_call>", re.DOTALL)


def strict_fc_result(raw: str) -> Any:
    """The FC answer as BFCL's Hermes/Qwen FC handler reads the raw text, for scores
    comparable to the leaderboard's: only complete ``<tool_call>`` blocks that are
    valid JSON count (botpsy's parser repairs broken JSON and unclosed tags); a block
    that does not parse is dropped, as BFCL drops it, and a call object without its
    name and arguments fails the whole answer, as it does there. No block: the text."""
    calls: list[Any] = []
    for block in _STRICT_BLOCK.findall(raw):
        try:
            item = json.loads(block)
        except ValueError:
            continue
        if not (isinstance(item, dict) and isinstance(item.get("name"), str)
                and isinstance(item.get("arguments"), dict)):
            return raw  # BFCL's handler raises here: the answer fails to decode
        calls.append({item["name"]: item["arguments"]})
    return calls or raw


def _fc_calls(result: Any) -> list[dict[str, dict[str, Any]]]:
    if not isinstance(result, list):
        raise DecodeError("the model answered with text, not a function call")
    calls = []
    for item in result:
        if not isinstance(item, dict) or len(item) != 1:
            raise DecodeError(f"not a one-key call object: {item!r}")
        ((name, args),) = item.items()
        if isinstance(args, str):  # OpenAI-style handlers store arguments as JSON text
            try:
                args = json.loads(args)
            except json.JSONDecodeError as exc:
                raise DecodeError(f"arguments of {name!r} are not JSON: {exc.msg}") from exc
        if not isinstance(args, dict):
            raise DecodeError(f"arguments of {name!r} are not an object: {args!r}")
        calls.append({name: args})
    return calls


def decode_ast(result: Any, mode: Mode, language: upstream.Language) -> list[dict[str, Any]]:
    """A single-turn result as the AST checker's input ``[{"func": {"arg": value}}]``."""
    if mode == "fc":
        return _fc_calls(result)
    if not isinstance(result, str):
        raise DecodeError(f"a prompt-mode result is text, got {type(result).__name__}")
    try:
        decoded = upstream.default_decode_ast_prompting(
            result, upstream.ReturnFormat(language.value)
        )
    except Exception as exc:  # BFCL's parsers raise anything from SyntaxError to AssertionError
        raise DecodeError(f"{type(exc).__name__}: {exc}") from exc
    if not upstream.is_function_calling_format_output(decoded):
        raise DecodeError(f"decoded output is not a list of calls: {decoded!r}")
    return decoded


def decode_execute(result: Any, mode: Mode) -> list[str]:
    """A multi-turn step as executable call strings (``["cd(folder='x')"]``); [] when none."""
    try:
        if mode == "fc":
            return upstream.convert_to_function_call(_fc_calls(result))
        if not isinstance(result, str):
            raise DecodeError(f"a prompt-mode result is text, got {type(result).__name__}")
        return upstream.default_decode_execute_prompting(result)
    except DecodeError:
        raise
    except Exception as exc:
        raise DecodeError(f"{type(exc).__name__}: {exc}") from exc


@dataclass(frozen=True)
class NotSourceText:
    """A Java/JavaScript argument given as a JSON value where BFCL wants source text.

    BFCL's checker fails ``42`` for a Java ``int`` (the model must write ``"42"``);
    wrapping the value makes the grader fail it too (a type error: it equals
    nothing), so the grader's ``exact`` cannot be kinder than the checker.
    """

    value: Any

    def __repr__(self) -> str:
        return f"{self.value!r} (not source text)"


def _convert(value: Any, declared: str, spec: dict[str, Any], language: upstream.Language) -> Any:
    """A Java/JavaScript argument string as the Python value BFCL's checker compares."""
    if language is upstream.Language.JAVA:
        table, converter, nested = (
            upstream.JAVA_TYPE_CONVERSION,
            upstream.java_type_converter,
            ("Array", "ArrayList"),
        )
    else:
        table, converter, nested = (
            upstream.JS_TYPE_CONVERSION,
            upstream.js_type_converter,
            ("array",),
        )
    if declared not in table:
        return value
    if not isinstance(value, str):
        return NotSourceText(value)
    try:
        if declared in nested:
            return converter(value, declared, spec.get("items", {}).get("type"))
        return converter(value, declared)
    except Exception:  # noqa: BLE001 - a value BFCL cannot convert stays a string, as in BFCL
        return value


def checker_values(
    calls: list[dict[str, Any]], functions: list[dict[str, Any]], language: upstream.Language
) -> list[ToolCall]:
    """Decoded calls as ToolCalls with the values BFCL's checker would compare.

    Python calls are unchanged; Java and JavaScript calls carry their arguments as
    source text (``"new int[]{1, 2}"``), converted here with BFCL's converters and
    the declared types, so the grader judges the same values as the checker.
    """
    docs = {doc["name"]: doc for doc in functions}
    out = []
    for item in calls:
        ((name, args),) = item.items()
        args = dict(args) if isinstance(args, dict) else {}
        props = docs.get(name, {}).get("parameters", {}).get("properties", {})
        if language is not upstream.Language.PYTHON:
            args = {
                key: _convert(
                    value, props.get(key, {}).get("type", ""), props.get(key, {}), language
                )
                for key, value in args.items()
            }
        out.append(ToolCall(name=name, arguments=args))
    return out
