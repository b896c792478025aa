"""JSON schemas that a small model can read, from Python type hints.

pydantic generates the schema (and later converts validated JSON arguments back
into the Python objects the function expects); this module makes its output
plain: ``$ref``s inlined, no ``title`` clutter, ``X | None`` written as
``{"type": ["x", "null"]}``, and keys in a fixed reading order. A parameter whose
annotation cannot be expressed as JSON raises a ``TypeError`` naming it.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model
from pydantic.errors import PydanticInvalidForJsonSchema, PydanticSchemaGenerationError
from pydantic.fields import FieldInfo

from botpsy.tools.docstrings import DocInfo

# Keys whose value is a mapping of names to schemas, a schema, or a list of schemas.
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions")
_SCHEMA_VALUES = ("items", "additionalProperties", "not", "contains", "propertyNames")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
# Reading order: what a value is, what it means, then its constraints.
_KEY_ORDER = ("type", "description", "enum", "const", "format", "items", "prefixItems",
              "properties", "required", "additionalProperties", "anyOf", "default")
_SUPPORTED = ("str, int, float, bool, None, X | None, Literal, Enum, list[X], tuple[...], "
              "set[X], dict[str, X], Any, datetime/date/time, pydantic models, dataclasses")


@dataclass(frozen=True)
class FunctionSchema:
    """A function's parameters as a plain JSON schema plus the pydantic model that
    turns validated JSON arguments into the Python values the function takes."""

    parameters: dict[str, Any]
    model: type[BaseModel]


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with ``$ref``s inlined, titles dropped and nullable unions flattened."""
    defs = {**schema.get("$defs", {}), **schema.get("definitions", {})}
    return _clean(schema, defs, ())


def _clean(node: Any, defs: dict[str, Any], seen: tuple[str, ...]) -> Any:
    if not isinstance(node, dict):
        return node
    node = dict(node)
    ref = node.pop("$ref", None)
    if isinstance(ref, str) and ref.rsplit("/", 1)[-1] in defs:
        name = ref.rsplit("/", 1)[-1]
        if name in seen:
            raise TypeError(f"recursive type {name!r} cannot be inlined into a tool schema")
        inlined = _clean(defs[name], defs, (*seen, name))
        node = {**inlined, **{k: v for k, v in node.items() if k != "title"}}
        seen = (*seen, name)
    elif ref is not None:
        node["$ref"] = ref  # an external reference: keep it as written
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("title", "$defs", "definitions"):
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            value = {name: _clean(sub, defs, seen) for name, sub in value.items()}
        elif key in _SCHEMA_VALUES:
            value = _clean(value, defs, seen)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            value = [_clean(sub, defs, seen) for sub in value]
        out[key] = value
    if out.get("items") == {}:
        del out["items"]  # list[Any]: "an array" says it all
    if out.get("type") == "object" and out.get("additionalProperties") is True:
        del out["additionalProperties"]
    return _ordered(_flatten_nullable(out))


def _flatten_nullable(node: dict[str, Any]) -> dict[str, Any]:
    """``anyOf: [X, {"type": "null"}]`` -> X with ``"null"`` added to its type."""
    branches = node.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2:
        return node
    others = [b for b in branches if b != {"type": "null"}]
    if len(others) != 1 or not isinstance(others[0].get("type"), str):
        return node
    merged = {k: v for k, v in node.items() if k != "anyOf"}
    merged.update({k: v for k, v in others[0].items() if k not in merged})
    merged["type"] = [others[0]["type"], "null"]
    if "enum" in merged and None not in merged["enum"]:
        merged["enum"] = [*merged["enum"], None]
    return merged


def _ordered(node: dict[str, Any]) -> dict[str, Any]:
    first = {k: node[k] for k in _KEY_ORDER if k in node}
    return {**first, **{k: v for k, v in node.items() if k not in first}}


def _split_annotated(annotation: Any) -> tuple[Any, str | None]:
    """``Annotated[T, "text", ...]`` -> (``Annotated[T, ...]`` without strings, "text")."""
    if get_origin(annotation) is not Annotated:
        return annotation, None
    base, *meta = get_args(annotation)
    texts = [m for m in meta if isinstance(m, str)]
    rest = [m for m in meta if not isinstance(m, str)]
    kept = Annotated[(base, *rest)] if rest else base  # type: ignore[valid-type]
    return kept, (texts[0] if texts else None)


def _has_field_description(annotation: Any) -> bool:
    """Whether ``Annotated[T, Field(description=...)]`` already describes the parameter."""
    if get_origin(annotation) is not Annotated:
        return False
    return any(isinstance(m, FieldInfo) and m.description for m in get_args(annotation)[1:])


def _check_expressible(fn_name: str, param: str, annotation: Any) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clean_schema(TypeAdapter(annotation).json_schema())
    except (PydanticSchemaGenerationError, PydanticInvalidForJsonSchema, TypeError) as exc:
        raise TypeError(
            f"parameter {param!r} of tool {fn_name!r}: annotation {annotation!r} cannot be "
            f"expressed as a JSON schema ({exc.__class__.__name__}: {str(exc).splitlines()[0]}). "
            f"Supported: {_SUPPORTED}."
        ) from None


def _field_name(param: str) -> str:
    """The model field name of a parameter: pydantic treats ``_name`` as private, so
    such parameters get another field name and keep theirs as the alias."""
    return f"param{param}" if param.startswith("_") else param


def _field_for(
    param: inspect.Parameter, annotation: Any, description: str | None
) -> tuple[Any, Any]:
    """The (annotation, default) pair ``create_model`` takes for one parameter.

    Description and alias travel in an ``Annotated`` ``Field`` so that a ``Field``
    the author wrote as the default is merged with them, not mutated, and its own
    description wins. Only set keys are passed: an explicit None would override.
    """
    extra: dict[str, Any] = {"description": description} if description else {}
    if param.name.startswith("_"):
        extra["alias"] = param.name
    if extra:
        annotation = Annotated[annotation, Field(**extra)]
    default = ... if param.default is inspect.Parameter.empty else param.default
    return annotation, default


def _reject_unusable(fn_name: str, param: inspect.Parameter, hints: dict[str, Any]) -> None:
    if param.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
        raise TypeError(f"parameter {param.name!r} of tool {fn_name!r}: *args/**kwargs "
                        "cannot be described to a model; name each parameter")
    if param.kind is inspect.Parameter.POSITIONAL_ONLY:
        raise TypeError(f"parameter {param.name!r} of tool {fn_name!r} is positional-only; "
                        "tools are called with keyword arguments")
    if param.name not in hints:
        raise TypeError(f"parameter {param.name!r} of tool {fn_name!r} has no type "
                        "annotation; the model needs a type for every argument")


def function_schema(fn: Callable[..., Any], name: str, doc: DocInfo) -> FunctionSchema:
    """The parameter schema and argument model of ``fn`` (named ``name`` in errors)."""
    try:
        hints = get_type_hints(fn, include_extras=True)
    except NameError as exc:  # a string annotation naming a type not in fn's module
        raise TypeError(f"tool {name!r}: cannot resolve its type hints ({exc}); "
                        "define the types they name at module level") from None
    fields: dict[str, Any] = {}
    for param in inspect.signature(fn).parameters.values():
        _reject_unusable(name, param, hints)
        annotation, annotated_text = _split_annotated(hints[param.name])
        _check_expressible(name, param.name, annotation)
        description = annotated_text
        if description is None and not _has_field_description(annotation):
            description = doc.params.get(param.name)
        fields[_field_name(param.name)] = _field_for(param, annotation, description)
    unknown = set(doc.params) - set(inspect.signature(fn).parameters)
    if unknown:
        warnings.warn(f"tool {name!r}: docstring describes unknown parameter(s) "
                      f"{sorted(unknown)}", stacklevel=3)
    with warnings.catch_warnings():
        # Parameter names may shadow BaseModel attributes (``json``, ``copy``) and
        # non-JSON defaults are left out of the schema: both are fine here.
        warnings.simplefilter("ignore")
        model = create_model(  # type: ignore[call-overload]
            f"{name}_arguments", __config__=ConfigDict(protected_namespaces=()), **fields
        )
        parameters = clean_schema(model.model_json_schema())
    parameters.setdefault("properties", {})
    parameters.setdefault("required", [])
    return FunctionSchema(parameters=parameters, model=model)
