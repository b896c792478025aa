"""AgentDojo's functions as botpsy tools: AgentDojo's runtime runs them, botpsy decides.

Each function of a suite becomes a ``Tool`` whose schema is AgentDojo's own (its
pydantic arguments model, ``$ref``s inlined) and whose body calls
``FunctionsRuntime.run_function`` on the task's environment, so the environment
changes exactly as in AgentDojo's own pipelines, and its output is AgentDojo's
YAML rendering (``tool_result_to_str``). A function's error comes back as a
failed result the model reads. The declared traits (``traits``) set the flags the
safety layer reads: a write is a side effect, and what a read declared the user's
own returns (the balance, the user's details, the scheduled payments) is trusted
output, which neither taints the turn nor makes a value it holds a stranger's.
"""

from __future__ import annotations

from typing import Any

from botpsy.evals.agentdojo.traits import FunctionTraits, traits_of
from botpsy.tools import Tool, ToolRegistry, clean_schema
from botpsy.types import Provenance, ToolSpec


class AgentDojoToolError(RuntimeError):
    """An AgentDojo function refused a call (its message is what the model reads)."""


def tool_flags(traits: FunctionTraits) -> dict[str, bool]:
    """The ToolSpec fields a declaration sets: ``side_effect`` for a write, and
    ``writes`` too on a botpsy whose specs have that separate trait."""
    flags = {"side_effect": traits.writes}
    if "writes" in ToolSpec.model_fields:
        flags["writes"] = traits.writes
    return flags


def _runner(runtime: Any, env: Any, name: str):
    from agentdojo.agent_pipeline.tool_execution import tool_result_to_str

    def run(**arguments: Any) -> str:
        result, error = runtime.run_function(env, name, arguments, raise_on_error=False)
        if error:
            raise AgentDojoToolError(error)
        return tool_result_to_str(result)

    return run


_SPECS: dict[tuple[str, str], ToolSpec] = {}


def function_spec(suite_name: str, function: Any) -> ToolSpec:
    """The spec of an AgentDojo ``Function`` with its declared traits (made once per
    function: every task of a run shows the same specs)."""
    key = (suite_name, function.name)
    if key not in _SPECS:
        spec = {"name": function.name, "description": function.description,
                "parameters": clean_schema(function.parameters.model_json_schema())}
        made = Tool.from_openai(spec).spec
        _SPECS[key] = made.model_copy(update=tool_flags(traits_of(suite_name, function.name)))
    return _SPECS[key]


def _own(_: Any) -> Provenance:
    return Provenance(trusted=True)


def function_tool(suite_name: str, function: Any, runtime: Any, env: Any) -> Tool:
    """One AgentDojo ``Function`` as a runnable botpsy Tool with its declared traits."""
    tool = Tool(function_spec(suite_name, function), _runner(runtime, env, function.name))
    traits = traits_of(suite_name, function.name)
    if not traits.writes and not traits.third_party_output:
        tool.provenance = _own
    return tool


def suite_registry(suite: Any, runtime: Any, env: Any) -> ToolRegistry:
    """Every function of ``suite`` bound to ``runtime`` and ``env``. Results are not
    cut (AgentDojo shows its agents whole outputs); botpsy's compaction shortens a
    prompt that does not fit a model's window."""
    return ToolRegistry([function_tool(suite.name, f, runtime, env) for f in suite.tools],
                        max_content_chars=None)
