"""``Tool``: one callable (or described-only) tool, and the ``@tool`` decorator.

A Tool pairs a ``ToolSpec`` (what the model sees) with an optional Python
function (what runs). It is built from a typed, documented function, from an
OpenAI tools entry, or from a BFCL function doc, so the agent, the evals and the
training prompts all read the same schemas. Calling a Tool directly calls the
function unchanged; ``invoke`` is the model-facing path that takes validated
JSON arguments.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import Any, overload

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from pydantic import BaseModel

from botpsy.tools.bfcl import BfclDocError, bfcl_parameters
from botpsy.tools.docstrings import parse_docstring
from botpsy.tools.schema import function_schema
from botpsy.tools.validation import ValidationResult, validate_arguments
from botpsy.types import Provenance, ToolSpec

_BAD_NAME = re.compile(r"\s")


def _checked_name(name: Any) -> str:
    if not isinstance(name, str) or not name or _BAD_NAME.search(name):
        raise ValueError(f"tool name must be a non-empty string without spaces, got {name!r}")
    return name


class Tool:
    """A tool: its spec for the model and, when it can run here, its function.

    ``arguments_model`` (Python tools only) turns validated JSON arguments into
    the values the function takes (models, enums, datetimes, tuples).
    ``bfcl_doc`` keeps the original BFCL document for BFCL's checker.
    """

    def __init__(
        self,
        spec: ToolSpec,
        fn: Callable[..., Any] | None = None,
        *,
        arguments_model: type[BaseModel] | None = None,
        bfcl_doc: dict[str, Any] | None = None,
    ) -> None:
        self.spec = spec
        self.fn = fn
        self.arguments_model = arguments_model
        self.bfcl_doc = bfcl_doc
        # what a call would act on, in words, for its confirmation (None: the arguments say it)
        self.preview: Callable[..., str] | None = None
        # where a returned value's items came from (None: unknown, so untrusted)
        self.provenance: Callable[[Any], Provenance] | None = None
        if fn is not None:
            functools.update_wrapper(self, fn, updated=())  # __name__, __doc__, __wrapped__

    # -- construction ---------------------------------------------------------------
    @classmethod
    def from_function(
        cls,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        side_effect: bool = False,
        writes: bool | None = None,
    ) -> Tool:
        """A tool from a typed function; its docstring gives the descriptions.
        ``writes`` None: as ``side_effect`` (every side effect writes)."""
        if not callable(fn):
            raise TypeError(f"a tool needs a callable, got {fn!r}")
        tool_name = _checked_name(name or getattr(fn, "__name__", None))
        doc = parse_docstring(inspect.getdoc(fn))
        schema = function_schema(fn, tool_name, doc)
        spec = ToolSpec(
            name=tool_name,
            description=description if description is not None else doc.description,
            parameters=schema.parameters,
            side_effect=side_effect,
            writes=side_effect if writes is None else writes or side_effect,
        )
        return cls(spec, fn, arguments_model=schema.model)

    @classmethod
    def from_openai(
        cls,
        spec: dict[str, Any],
        fn: Callable[..., Any] | None = None,
        side_effect: bool = False,
        source: str | None = None,
        writes: bool | None = None,
    ) -> Tool:
        """A tool from an OpenAI ``tools`` entry or a bare ``{name, description, parameters}``;
        ``source`` names the third party that wrote it (``ToolSpec.source``)."""
        if not isinstance(spec, dict):
            raise TypeError(f"an OpenAI tool spec must be an object, got {type(spec).__name__}")
        body = spec.get("function") if spec.get("type") == "function" else spec
        if not isinstance(body, dict):
            raise TypeError("an OpenAI tool of type 'function' needs a 'function' object")
        name = _checked_name(body.get("name"))
        parameters = body.get("parameters") or {"type": "object", "properties": {}}
        _check_parameters(name, parameters)
        tool_spec = ToolSpec(
            name=name,
            description=str(body.get("description") or ""),
            parameters=parameters,
            side_effect=side_effect,
            writes=side_effect if writes is None else writes or side_effect,
            source=source,
        )
        return cls(tool_spec, fn)

    @classmethod
    def from_bfcl(cls, doc: dict[str, Any], fn: Callable[..., Any] | None = None) -> Tool:
        """A tool from a BFCL function doc, types normalised; ``bfcl_doc`` keeps the original."""
        if not isinstance(doc, dict):
            raise BfclDocError(f"a BFCL function doc must be an object, got {type(doc).__name__}")
        name = _checked_name(doc.get("name"))
        parameters = bfcl_parameters(doc.get("parameters", {"type": "dict"}), f"{name}.parameters")
        parameters.setdefault("properties", {})
        _check_parameters(name, parameters)
        spec = ToolSpec(name=name, description=str(doc.get("description") or ""),
                        parameters=parameters)
        return cls(spec, fn, bfcl_doc=doc)

    # -- the spec -------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def description(self) -> str:
        return self.spec.description

    @property
    def parameters(self) -> dict[str, Any]:
        return self.spec.parameters

    @property
    def side_effect(self) -> bool:
        return self.spec.side_effect

    @property
    def writes(self) -> bool:
        return self.spec.writes

    def origin_of(self, value: Any) -> Provenance | None:
        """The provenance of a value this tool returned; None when the tool cannot tell."""
        if self.provenance is None:
            return None
        return self.provenance(value)

    def target(self, arguments: dict[str, Any]) -> str:
        """What a call with ``arguments`` would act on, in words, for its confirmation;
        "" without a preview or when the arguments name nothing that exists (the call
        itself then fails and says why)."""
        if self.preview is None:
            return ""
        try:
            return str(self.preview(**arguments))
        except Exception:  # noqa: BLE001 - a preview never stops a confirmation
            return ""

    @property
    def is_async(self) -> bool:
        return self.fn is not None and inspect.iscoroutinefunction(self.fn)

    # -- running --------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the function exactly as written (Python callers pass Python values)."""
        return self._function()(*args, **kwargs)

    def validate(self, arguments: Any) -> ValidationResult:
        """Repair and check model-written JSON arguments for this tool."""
        return validate_arguments(self, arguments)

    def invoke(self, arguments: dict[str, Any]) -> Any:
        """Call the function with already validated JSON arguments, converted to the
        Python types it declares. Returns a coroutine for async functions."""
        fn = self._function()
        if self.arguments_model is None:
            return fn(**arguments)
        values = self.arguments_model.model_validate(arguments)
        fields = type(values).model_fields
        return fn(**{info.alias or name: getattr(values, name) for name, info in fields.items()})

    def _function(self) -> Callable[..., Any]:
        if self.fn is None:
            raise TypeError(f"tool {self.name!r} has a schema but no implementation to run")
        return self.fn

    def __repr__(self) -> str:
        flags = " side_effect" if self.side_effect else " writes" if self.writes else ""
        runnable = "" if self.fn is not None else " (schema only)"
        return f"<Tool {self.name}{flags}{runnable}>"


def _check_parameters(name: str, parameters: Any) -> None:
    """Reject a parameter schema that is not a valid JSON schema of an object."""
    if not isinstance(parameters, dict) or parameters.get("type", "object") != "object":
        raise ValueError(f"tool {name!r}: parameters must be a JSON schema of type 'object', "
                         f"got {parameters!r}"[:300])
    try:
        Draft202012Validator.check_schema(parameters)
    except SchemaError as exc:
        raise ValueError(f"tool {name!r}: parameters are not a valid JSON schema: "
                         f"{exc.message}") from None
    except RecursionError:  # a schema from elsewhere (an MCP server, a file) nested absurdly
        raise ValueError(f"tool {name!r}: parameters are nested too deeply") from None


@overload
def tool(fn: Callable[..., Any], /) -> Tool: ...
@overload
def tool(
    *, name: str | None = None, description: str | None = None, side_effect: bool = False,
    writes: bool | None = None,
) -> Callable[[Callable[..., Any]], Tool]: ...
def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    side_effect: bool = False,
    writes: bool | None = None,
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Decorator: ``@tool`` or ``@tool(name=..., side_effect=True, description=...)``.

    The result is a ``Tool`` that is still callable like the function it wraps.
    For methods, build the tool from the bound method instead
    (``Tool.from_function(notes.add, name="notes.add")``) so ``self`` is not a parameter.
    """

    def wrap(function: Callable[..., Any]) -> Tool:
        return Tool.from_function(function, name=name, description=description,
                                  side_effect=side_effect, writes=writes)

    return wrap(fn) if fn is not None else wrap
