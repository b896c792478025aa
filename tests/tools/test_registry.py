"""ToolRegistry: lookup, specs, and execute for every outcome."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from typing import Any

import pytest

from botpsy.tools import Tool, ToolErrorKind, ToolRegistry, ToolResult, tool
from botpsy.types import ToolCall


@dataclasses.dataclass
class Event:
    title: str
    start: dt.datetime


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool(side_effect=True)
def delete_note(note_id: int) -> None:
    """Delete a note by id."""
    raise LookupError(f"no note with id {note_id}")


@tool
def list_events(day: dt.date) -> list[Event]:
    """Events of a day."""
    return [Event("standup", dt.datetime.combine(day, dt.time(9)))]


@tool
async def slow_echo(text: str) -> str:
    """Echo after a pause."""
    await asyncio.sleep(0)
    return text


@tool
def dump(size: int) -> str:
    """A long text."""
    return "x" * size


@pytest.fixture
def registry() -> ToolRegistry:
    return ToolRegistry([add, delete_note, list_events, slow_echo, dump], max_content_chars=200)


def test_lookup_and_membership(registry: ToolRegistry) -> None:
    assert "add" in registry and "nope" not in registry
    assert registry.get("add") is add
    assert [t.name for t in registry] == ["add", "delete_note", "list_events", "slow_echo", "dump"]
    assert len(registry) == 5


def test_unknown_name_suggests_the_closest(registry: ToolRegistry) -> None:
    with pytest.raises(KeyError, match="unknown tool 'ad'; did you mean 'add'"):
        registry.get("ad")


def test_specs_all_or_chosen(registry: ToolRegistry) -> None:
    assert [s.name for s in registry.specs()] == registry.names()
    assert [s.name for s in registry.specs(["dump", "add"])] == ["dump", "add"]
    assert registry.to_openai(["add"])[0]["function"]["name"] == "add"
    with pytest.raises(KeyError):
        registry.specs(["missing"])


def test_register_a_plain_function_and_refuse_duplicates() -> None:
    registry = ToolRegistry()

    @registry.register
    def greet(name: str) -> str:
        """Say hello."""
        return f"hello {name}"

    assert isinstance(greet, Tool) and registry.get("greet") is greet
    with pytest.raises(ValueError, match="already registered"):
        registry.register(greet)
    registry.register(Tool.from_function(lambda: "hi", name="greet"), replace=True)
    assert registry.execute(ToolCall(name="greet")).content == "hi"


def test_execute_success_with_coercion(registry: ToolRegistry) -> None:
    call = ToolCall(name="add", arguments={"a": "2", "b": 3})
    result = registry.execute(call)
    assert result == ToolResult(call_id=call.id, name="add", ok=True, content="5", data=5,
                                coercions=["argument 'a': \"2\" -> 2 (string to integer)"])


def test_execute_renders_structured_results_as_compact_json(registry: ToolRegistry) -> None:
    result = registry.execute(ToolCall(name="list_events", arguments={"day": "2025-01-31"}))
    assert result.ok
    assert result.content == '[{"title":"standup","start":"2025-01-31T09:00:00"}]'
    assert result.data == [Event("standup", dt.datetime(2025, 1, 31, 9))]


def test_execute_tool_exception_becomes_a_tool_error(registry: ToolRegistry) -> None:
    result = registry.execute(ToolCall(name="delete_note", arguments={"note_id": 7}))
    assert not result.ok and result.data is None
    assert result.error_kind == ToolErrorKind.tool_error == "tool_error"
    assert result.error == "tool 'delete_note' failed: LookupError: no note with id 7"
    assert result.content == "Error: " + result.error


def test_execute_unknown_tool(registry: ToolRegistry) -> None:
    result = registry.execute(ToolCall(name="dumpp", arguments={}))
    assert result.error_kind == "unknown_tool"
    assert result.content.startswith("Error: unknown tool 'dumpp'; did you mean 'dump'?")
    assert "Available tools: add, delete_note" in result.content


def test_execute_invalid_arguments(registry: ToolRegistry) -> None:
    result = registry.execute(ToolCall(name="add", arguments={"a": "two", "c": 1}))
    assert result.error_kind == "invalid_arguments"
    assert result.content == (
        "Error: Invalid arguments for add: missing required argument 'b' (an integer); "
        "unknown argument 'c' (valid arguments: a, b); "
        "argument 'a' must be an integer, got \"two\"."
    )


def test_execute_schema_only_tool_is_a_tool_error() -> None:
    remote = Tool.from_openai({"name": "remote", "parameters": {"type": "object"}})
    registry = ToolRegistry([remote])
    result = registry.execute(ToolCall(name="remote"))
    assert result.error_kind == "tool_error" and "no implementation" in result.content


def test_execute_async_tool_without_and_within_a_running_loop(registry: ToolRegistry) -> None:
    call = ToolCall(name="slow_echo", arguments={"text": "hi"})
    assert registry.execute(call).content == "hi"

    async def inside_loop() -> ToolResult:
        return registry.execute(call)  # sync API used from async code

    assert asyncio.run(inside_loop()).content == "hi"


def test_aexecute_runs_sync_and_async_tools(registry: ToolRegistry) -> None:
    async def both() -> list[ToolResult]:
        return [await registry.aexecute(ToolCall(name="slow_echo", arguments={"text": "a"})),
                await registry.aexecute(ToolCall(name="add", arguments={"a": 1, "b": 1})),
                await registry.aexecute(ToolCall(name="delete_note", arguments={"note_id": 1})),
                await registry.aexecute(ToolCall(name="nope"))]

    results = asyncio.run(both())
    assert [r.content for r in results[:2]] == ["a", "2"]
    assert [r.error_kind for r in results[2:]] == ["tool_error", "unknown_tool"]


@pytest.mark.parametrize("size", [199, 200, 201, 5000])
def test_long_content_is_truncated_with_a_marker(registry: ToolRegistry, size: int) -> None:
    result = registry.execute(ToolCall(name="dump", arguments={"size": size}))
    assert len(result.content) <= 200
    assert result.data == "x" * size  # the program still gets everything
    if size > 200:
        assert result.content.endswith(f"of {size} chars]")
        assert "…[truncated: showing" in result.content
    else:
        assert result.content == "x" * size


def test_tool_result_becomes_a_tool_message(registry: ToolRegistry) -> None:
    call = ToolCall(name="add", arguments={"a": 1, "b": 2})
    message = registry.execute(call).to_message()
    assert (message.role, message.content, message.tool_call_id, message.name) == (
        "tool", "3", call.id, "add")


def test_execute_never_raises_on_odd_return_values() -> None:
    class Opaque:
        def __repr__(self) -> str:
            return "<opaque>"

    def weird() -> Any:
        """Returns something JSON cannot hold."""
        loop: list[Any] = []
        loop.append(loop)
        return {"obj": Opaque(), "loop": loop}

    result = ToolRegistry([weird]).execute(ToolCall(name="weird"))
    assert result.ok and "obj" in result.content
