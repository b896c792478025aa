"""Values inside a table file that a request passes on: "email Dan the p95 from the last week
in latency_numbers.csv".

A search of the files shows a table's header row with the rows under it, and a read shows
the whole file; the 135M default model then wrote the message from what it saw last (Dan's
contact card: the body "CFO"). The value asked for is no free text: it is the cell where the
column the request names (a header word: "p95" in ``p95_ms``) meets the rows it names
("the last week", "all four weeks", "week 2", the only row).

``CellCheck`` reads those cells from a table a result showed (``asked_cells``) and holds
the text of the message or item made (``includecheck.text_argument``) to one that holds
each of them: before the call (``agent.checks.Anticipating``), and as a refusal of a call
that left one out, whose retry writes them in one line ("p95 ms in latency_numbers.csv:
week 4: 198"; held to the values alone, the model filled the space around them with junk).
A request that names no column, or rows it cannot place, is not checked.
"""

from __future__ import annotations

import csv
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.assistant.includecheck import text_argument
from botpsy.extract import file_names
from botpsy.types import ToolSpec

_TABLE_ENDINGS = (".csv", ".tsv")
# a table the request names without its file name: "from the latency csv"
_TABLE_WORDS = re.compile(r"\b(?:csv|tsv|spreadsheet)\b", re.IGNORECASE)
_TOKEN = re.compile(r"[^\W_]+")
_ALL = re.compile(r"\b(?:all|every|each)\b", re.IGNORECASE)
_LAST = re.compile(r"\b(?:last|latest|newest|most\s+recent)\b", re.IGNORECASE)
_FIRST = re.compile(r"\b(?:first|earliest|oldest)\b", re.IGNORECASE)
# header words that say how a column is measured, not what it holds
_UNITS = frozenset({"ms", "s", "sec", "min", "kb", "mb", "gb", "pct", "percent", "eur", "usd"})


@dataclass(frozen=True)
class Cells:
    """The cells a request asks for: the table's path, the column's header, their values,
    and the rows' keys (the first column: header and values)."""

    path: str
    column: str
    values: tuple[str, ...]
    key: str = ""
    keys: tuple[str, ...] = ()

    @property
    def sentence(self) -> str:
        """The cells told in one line: "p95 ms in latency_numbers.csv: week 4: 198"."""
        what = " ".join(self.column.replace("_", " ").split())
        told = [f"{self.key} {k}: {v}" if self.key and k else v
                for k, v in zip(self.keys or ("",) * len(self.values), self.values, strict=True)]
        return f"{what} in {posixpath.basename(self.path)}: {', '.join(told)}"


@dataclass(frozen=True)
class _Table:
    path: str
    header: list[str]
    rows: list[list[str]]


def asked_cells(context: CallContext) -> Cells | None:
    """The cells of a shown table that the latest request asks for, or None."""
    request = context.request
    wanted = _tokens(request)
    named = {found.value for found in file_names(request)}
    for table in _tables(context):
        stem = posixpath.basename(table.path)
        if named and stem not in named:
            continue
        if not named and not _tokens(posixpath.splitext(stem)[0]) & wanted:
            continue
        column = _column(table.header, wanted)
        rows = _rows(request, table) if column is not None else []
        rows = [row for row in rows if column is not None and column < len(row) and row[column]]
        if column is not None and rows:
            key = table.header[0] if column > 0 else ""
            return Cells(table.path, table.header[column], tuple(row[column] for row in rows),
                         key, tuple(row[0] for row in rows) if key else ())
    return None


def names_a_table(request: str) -> bool:
    """Whether a request names a table file, by its name or its kind's word."""
    return bool(_TABLE_WORDS.search(request)) or any(
        found.value.lower().endswith(_TABLE_ENDINGS) for found in file_names(request))


def _tables(context: CallContext) -> Iterator[_Table]:
    """The tables the results showed: a search's header row with its ``rows``, a read's
    whole ``content`` (latest first: a read after a search shows more)."""
    for _family, obj in reversed(context.objects):
        path = obj.get("path")
        if not isinstance(path, str) or not path.lower().endswith(_TABLE_ENDINGS):
            continue
        delimiter = "\t" if path.lower().endswith(".tsv") else ","
        if isinstance(obj.get("content"), str):
            lines = obj["content"].splitlines()
        elif obj.get("line") == 1 and isinstance(obj.get("text"), str) and isinstance(
                obj.get("rows"), list):
            lines = [obj["text"], *map(str, obj["rows"])]
        else:
            continue
        parsed = [[cell.strip() for cell in row]
                  for row in csv.reader(lines, delimiter=delimiter) if row]
        if len(parsed) >= 2:
            yield _Table(path, parsed[0], parsed[1:])


def _column(header: list[str], wanted: set[str]) -> int | None:
    """The one column whose header shares a word with the request; the first column (the
    rows' key: "week") only when no other does."""
    matching = [i for i, name in enumerate(header) if (_tokens(name) - _UNITS) & wanted]
    values = [i for i in matching if i > 0] or matching
    return values[0] if len(values) == 1 else None


def _rows(request: str, table: _Table) -> list[list[str]]:
    """The rows the request names: all of them, the last or first, the one its key names
    ("week 2"), or the only one."""
    rows = table.rows
    key = re.escape(table.header[0].strip()) if table.header[0].strip() else None
    if key and (named := re.search(rf"\b{key}\s+(\w+)", request, re.IGNORECASE)):
        keyed = [row for row in rows if row and row[0].casefold() == named.group(1).casefold()]
        if keyed:
            return keyed
    if _ALL.search(request):
        return rows
    if _LAST.search(request):
        return rows[-1:]
    if _FIRST.search(request):
        return rows[:1]
    return rows if len(rows) == 1 else []


def _tokens(text: str) -> set[str]:
    return {t.casefold() for t in _TOKEN.findall(text) if len(t) > 1}


class CellCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (None for a tool it does not know)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None]):
        self._spec_of = spec_of

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        """A message or item made from a table the request names ("... the p95 for all four
        weeks from the latency csv"), while no result shows a table: the files are looked
        up first (``agent.checks.Prerequisite``). Why: the 135M model looked up Dan and
        wrote "CFO" for the figures."""
        if text_argument(context.tool) is None or not names_a_table(context.request):
            return ()
        return () if any(True for _ in _tables(context)) else ("file",)

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        """The text held to the cells; a message's subject to what they are (the column's
        header, "p95 ms"): a 135M model gave the message its recipient's name."""
        arg = text_argument(context.tool)
        cells = asked_cells(context) if arg is not None else None
        if cells is None or arg is None:
            return {}
        held: dict[str, dict[str, Any]] = {arg: {"enum": [cells.sentence]}}
        properties = (context.tool.parameters or {}).get("properties") or {}
        if "subject" in properties and arg != "subject":
            held["subject"] = {"enum": [" ".join(cells.column.replace("_", " ").split())]}
        return held

    def judge(self, context: CallContext) -> Refusal | None:
        spec = context.spec or self._spec_of(context.call.name)
        arg = text_argument(spec) if spec is not None else None
        cells = asked_cells(context) if arg is not None else None
        if cells is None or arg is None:
            return None
        written = context.call.arguments.get(arg)
        if isinstance(written, str) and all(value in written for value in cells.values):
            return None
        return Refusal(f"the request asks for {cells.column} {', '.join(cells.values)} from "
                       f"{cells.path}: write it into {arg}",
                       {arg: {"enum": [cells.sentence]}})
