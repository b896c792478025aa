"""Property: no argument a model (or an MCP client) can send makes any assistant tool crash
the call pipeline. Odd text, odd types and odd keys come back as a clear tool error or a
result, every call gets its audit row, and every message and step can be saved as JSON."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from botpsy.agent.calls import CallPipeline
from botpsy.agent.guard import Repeat
from botpsy.assistant import AssistantStore
from botpsy.assistant.toolsets import assistant_tools
from botpsy.safety import AuditLog, SafetyConfig
from botpsy.safety.confirm import ApproveAll
from botpsy.safety.taint import TaintVerdict
from botpsy.tools import ToolRegistry
from botpsy.types import ToolCall

from .oddinput import ODD_JSON, ODD_TEXT

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory) -> CallPipeline:
    folder = tmp_path_factory.mktemp("odd-tools")
    store = AssistantStore(folder, clock=lambda: NOW)
    (store.files_root / "plan.txt").write_text("the plan\n")
    registry = ToolRegistry(assistant_tools(store))
    return CallPipeline(registry, SafetyConfig(), ApproveAll(), AuditLog(folder / "audit.db"),
                        "properties")


def _value(schema: dict[str, Any]) -> st.SearchStrategy:
    """A value of roughly the declared type (so calls get past validation), often odd."""
    kind = schema.get("type")
    typed = {
        "string": ODD_TEXT,
        "integer": st.integers(),
        "number": st.floats(),
        "boolean": st.booleans(),
        "array": st.lists(ODD_TEXT, max_size=3),
    }.get(kind if isinstance(kind, str) else "", ODD_JSON)
    return st.one_of(typed, typed, ODD_JSON)


def arguments_for(parameters: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    return st.fixed_dictionaries(
        {name: _value(spec) for name, spec in properties.items() if name in required},
        optional={**{name: _value(spec) for name, spec in properties.items()
                     if name not in required}, "\ud800x": ODD_JSON},
    )


def _parameters() -> dict[str, dict[str, Any]]:
    """Each assistant tool's parameter schema (from a throwaway store)."""
    with tempfile.TemporaryDirectory() as folder, AssistantStore(folder) as store:
        return {tool.name: tool.spec.parameters for tool in assistant_tools(store)}


SPECS = _parameters()


@pytest.mark.parametrize("name", sorted(SPECS))
@settings(max_examples=12, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_any_arguments_give_a_result_an_audit_row_and_json(pipeline, name, data) -> None:
    arguments = data.draw(arguments_for(SPECS[name]), label="arguments")
    before = len(pipeline.audit.entries(limit=None))
    review = pipeline.review(ToolCall(name=name, arguments=arguments), TaintVerdict(),
                             Repeat.fresh)
    outcome = pipeline.settle(review, 1)
    assert len(pipeline.audit.entries(limit=None)) > before
    outcome.step.model_dump_json(exclude={"result": {"data"}}).encode("utf-8")
    if outcome.message is not None:
        outcome.message.model_dump_json().encode("utf-8")
        assert outcome.message.content
