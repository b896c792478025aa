"""Values inside a table file that a request passes on (``CellCheck``)."""

from __future__ import annotations

import json

from botpsy.agent.rules import CallContext
from botpsy.assistant.cellcheck import CellCheck, asked_cells
from botpsy.types import Message, ToolCall, ToolSpec

SEND = ToolSpec(name="send_email", description="d", parameters={
    "type": "object", "required": ["to", "subject", "body"],
    "properties": {"to": {"type": "string"}, "subject": {"type": "string"},
                   "body": {"type": "string"}}})
FOUND = [{"path": "work/latency_numbers.csv", "line": 1, "text": "week,p50_ms,p95_ms",
          "rows": ["1,82,310", "2,79,274", "3,75,231", "4,71,198"]},
         {"path": "work/roadmap_q3.md", "line": 4, "text": "- search p95 < 200 ms"}]


def _context(request: str, result: object = FOUND, tool: str = "search_files") -> CallContext:
    messages = [Message(role="user", content=request),
                Message(role="tool", name=tool, source=f"tool:{tool}:c1",
                        content=json.dumps(result))]
    return CallContext.before(SEND, messages)


def _values(request: str, result: object = FOUND, tool: str = "search_files") -> tuple | None:
    cells = asked_cells(_context(request, result, tool))
    return cells.values if cells else None


def test_the_cells_are_where_the_named_column_meets_the_named_rows():
    assert _values("email Dan the p95 from the last week in latency_numbers.csv") == ("198",)
    assert _values("draft dan the p95 for all four weeks from the latency csv") == (
        "310", "274", "231", "198")
    assert _values("send dan the p50 of week 2 from the latency csv") == ("79",)
    assert _values("send dan the p95 from the first week of latency_numbers.csv") == ("310",)


def test_a_read_file_is_a_table_too():
    read = {"path": "work/latency_numbers.csv", "content": "week,p95_ms\n1,310\n2,274\n"}
    assert _values("mail Dan the latest p95 in latency_numbers.csv", read, "read_file") == (
        "274",)


def test_no_cells_where_the_request_names_no_column_no_rows_or_another_file():
    assert _values("email Dan the latency csv") is None  # the whole file: CarryCheck's
    assert _values("email Dan a p95 from latency_numbers.csv") is None  # which row?
    assert _values("email Dan the last p95 from budget.csv") is None


def test_a_message_without_the_cells_is_refused_and_held_to_them():
    check = CellCheck({"send_email": SEND}.get)
    context = _context("email Dan the p95 from the last week in latency_numbers.csv")
    line = "p95 ms in latency_numbers.csv: week 4: 198"
    assert check.expected(context) == {"body": {"enum": [line]}, "subject": {"enum": ["p95 ms"]}}
    call = ToolCall(name="send_email", arguments={"to": "dan@x.example", "subject": "p95",
                                                  "body": "CFO"})
    assert check(call, context.messages).narrow == {"body": {"enum": [line]}}
    right = call.model_copy(update={"arguments": {**call.arguments, "body": "p95 was 198 ms"}})
    assert check(right, context.messages) is None


def test_the_line_tells_every_cell_with_its_row():
    cells = asked_cells(_context("draft dan the p95 for all four weeks from the latency csv"))
    assert cells.sentence == ("p95 ms in latency_numbers.csv: week 1: 310, week 2: 274, "
                              "week 3: 231, week 4: 198")


def test_a_table_the_request_names_is_looked_up_first():
    check = CellCheck({"send_email": SEND}.get)
    asked = [Message(role="user", content="draft dan the p95 for all weeks from the latency csv")]
    assert check.needs_first(CallContext.before(SEND, asked)) == ("file",)
    assert check.needs_first(_context("draft dan the p95 for all weeks from the latency csv")) == ()
    plain = [Message(role="user", content="email dan that the report is late")]
    assert check.needs_first(CallContext.before(SEND, plain)) == ()
