"""The tool registry: one source of tool schemas for the agent, the evals and training.

Tools come from typed, documented Python functions (``@tool``), OpenAI tool
specs, BFCL function docs or a JSON file of either. Model-written arguments are
repaired where unambiguous and validated with categorised errors
(``validate_arguments``); ``ToolRegistry.execute`` runs a ``ToolCall`` and
always returns a ``ToolResult``.

    from botpsy.tools import ToolRegistry, tool

    @tool
    def add(a: int, b: int) -> int:
        \"\"\"Add two integers.\"\"\"
        return a + b

    registry = ToolRegistry([add])
    registry.execute(ToolCall(name="add", arguments={"a": "2", "b": 3})).content  # "5"
"""

from botpsy.tools.bfcl import BfclDocError, bfcl_parameters, is_bfcl_doc
from botpsy.tools.loading import ToolsFileError, load_tools_file
from botpsy.tools.registry import ToolErrorKind, ToolRefusal, ToolRegistry, ToolResult
from botpsy.tools.render import render_result
from botpsy.tools.schema import clean_schema
from botpsy.tools.tool import Tool, tool
from botpsy.tools.validation import (
    ArgumentError,
    ArgumentErrorKind,
    ValidationResult,
    validate_arguments,
)

__all__ = [
    "ArgumentError",
    "ArgumentErrorKind",
    "BfclDocError",
    "Tool",
    "ToolErrorKind",
    "ToolRefusal",
    "ToolRegistry",
    "ToolResult",
    "ToolsFileError",
    "ValidationResult",
    "bfcl_parameters",
    "clean_schema",
    "is_bfcl_doc",
    "load_tools_file",
    "render_result",
    "tool",
    "validate_arguments",
]
