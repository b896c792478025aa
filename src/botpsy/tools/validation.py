"""Checking a model's tool-call arguments against the tool's schema.

``validate_arguments`` repairs what is unambiguous (see ``coercion``), validates
the result with ``jsonschema`` (the tool's top level is closed: a misspelt
argument is an error the model hears about, not a silently dropped value), and
for Python tools also lets pydantic build the real argument values. Every
problem becomes an ``ArgumentError`` with a category and a sentence written for
the model that made the call, e.g. ``argument 'due' must be an ISO 8601
date-time string (e.g. 2025-01-31T09:00:00), got 42``.
"""

from __future__ import annotations

import difflib
import json
from datetime import date, datetime, time
from enum import Enum
from typing import TYPE_CHECKING, Any

import jsonschema
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError as SchemaViolation
from pydantic import BaseModel, Field
from pydantic import ValidationError as PydanticValidationError

from botpsy.tools.coercion import Coercer
from botpsy.tools.jsonvalues import allowed_types, describe, json_type, path_text, show, where
from botpsy.types import ToolSpec

if TYPE_CHECKING:
    from botpsy.tools.tool import Tool


class ArgumentErrorKind(str, Enum):
    """Why an argument set was rejected (the BFCL-style categories)."""

    missing_required = "missing_required"
    unknown_argument = "unknown_argument"
    type_error = "type_error"
    value_error = "value_error"  # wrong enum value, out of range, pattern or format mismatch
    not_an_object = "not_an_object"  # the arguments are not a JSON object at all


class ArgumentError(BaseModel):
    """One problem with the arguments; ``argument`` is a path like ``items[0].name``."""

    kind: ArgumentErrorKind
    message: str
    argument: str | None = None


class ValidationResult(BaseModel):
    """The verdict on one argument set.

    ``arguments`` holds the (repaired) JSON arguments even when they are invalid,
    so nothing the model wrote is lost; ``coercions`` says what was repaired.
    """

    ok: bool
    arguments: dict[str, Any] = Field(default_factory=dict)
    errors: list[ArgumentError] = Field(default_factory=list)
    coercions: list[str] = Field(default_factory=list)

    def feedback(self, tool_name: str | None = None) -> str:
        """All errors as one message to return to the model as the tool result."""
        if self.ok:
            return ""
        head = f"Invalid arguments for {tool_name}: " if tool_name else "Invalid arguments: "
        return head + self.problems() + "."

    def problems(self) -> str:
        """The errors alone, joined ("date: not a date; title: required")."""
        return "; ".join(e.message for e in self.errors)


def _iso_checker(parse: Any) -> Any:
    def check(value: Any) -> bool:
        return not isinstance(value, str) or parse(value) is not None

    return check


# Formats checked with the standard library's ISO 8601 parsers (no extra packages).
FORMATS = FormatChecker(formats=())
FORMATS.checks("date-time", raises=ValueError)(_iso_checker(datetime.fromisoformat))
FORMATS.checks("date", raises=ValueError)(_iso_checker(date.fromisoformat))
FORMATS.checks("time", raises=ValueError)(_iso_checker(time.fromisoformat))

_VALUE_WORDS = {
    "minimum": "must be >= {}",
    "maximum": "must be <= {}",
    "exclusiveMinimum": "must be > {}",
    "exclusiveMaximum": "must be < {}",
    "multipleOf": "must be a multiple of {}",
    "minLength": "must be at least {} characters long",
    "maxLength": "must be at most {} characters long",
    "minItems": "must have at least {} items",
    "maxItems": "must have at most {} items",
    "minProperties": "must have at least {} keys",
    "maxProperties": "must have at most {} keys",
    "pattern": "must match the pattern {}",
}


def _resolve(target: Any) -> tuple[dict[str, Any], type[BaseModel] | None]:
    """The parameter schema (and argument model, for Python tools) of a target."""
    if isinstance(target, dict):
        return target, None
    if isinstance(target, ToolSpec):
        return target.parameters, None
    spec = getattr(target, "spec", None)
    if isinstance(spec, ToolSpec):
        return spec.parameters, getattr(target, "arguments_model", None)
    raise TypeError(f"validate_arguments needs a schema dict, ToolSpec or Tool, got {target!r}")


def validate_arguments(
    schema_or_tool: dict[str, Any] | ToolSpec | Tool, args: Any
) -> ValidationResult:
    """Repair, then validate ``args`` against a tool's parameter schema."""
    schema, model = _resolve(schema_or_tool)
    coercer = Coercer()
    if isinstance(args, str):
        try:
            parsed = json.loads(args)
        except ValueError:
            parsed = args
        if isinstance(parsed, dict):
            coercer.notes.append("the arguments: JSON string -> object")
            args = parsed
    if not isinstance(args, dict):
        error = ArgumentError(
            kind=ArgumentErrorKind.not_an_object,
            message=f"the arguments must be a JSON object of name/value pairs, got {show(args)}",
        )
        return ValidationResult(ok=False, errors=[error], coercions=coercer.notes)
    arguments = coercer.coerce(args, schema)
    errors = schema_errors(schema, arguments)
    if not errors and model is not None:
        errors = _model_errors(model, arguments)
    return ValidationResult(
        ok=not errors, arguments=arguments, errors=errors, coercions=coercer.notes
    )


def schema_errors(schema: dict[str, Any], arguments: dict[str, Any]) -> list[ArgumentError]:
    """Categorised errors of ``arguments`` against ``schema`` (top level closed)."""
    closed = dict(schema)
    closed.setdefault("additionalProperties", False)
    validator_cls = jsonschema.validators.validator_for(schema, default=Draft202012Validator)
    validator = validator_cls(closed, format_checker=FORMATS)
    errors: list[ArgumentError] = []
    seen: set[tuple[str, str | None]] = set()
    for violation in sorted(validator.iter_errors(arguments), key=_order):
        for error in _convert(violation):
            key = (error.kind.value, error.argument) if error.argument else (error.message, None)
            if key not in seen:
                seen.add(key)
                errors.append(error)
    return errors


def _order(violation: SchemaViolation) -> tuple[int, str]:
    first = ("required", "additionalProperties")
    return (0 if violation.validator in first else 1, path_text(list(violation.absolute_path)))


def _convert(violation: SchemaViolation) -> list[ArgumentError]:
    path = list(violation.absolute_path)
    rule = violation.validator
    if rule == "required":
        return _missing(violation, path)
    if rule == "additionalProperties" and isinstance(violation.instance, dict):
        return _unknown(violation, path)
    if rule in ("anyOf", "oneOf"):
        inner = _branch_errors(violation)
        if inner:
            return inner
    if rule in ("type", "anyOf", "oneOf"):
        types = allowed_types(violation.schema)
        kind = (ArgumentErrorKind.value_error if json_type(violation.instance) in types
                else ArgumentErrorKind.type_error)
        return [_error(kind, path, f"must be {describe(violation.schema)}, "
                                   f"got {show(violation.instance)}")]
    if rule in ("enum", "const", "format"):
        text = f"must be {describe(violation.schema)}, got {show(violation.instance)}"
    elif rule in _VALUE_WORDS:
        words = _VALUE_WORDS[rule].format(violation.validator_value)
        text = f"{words}, got {show(violation.instance)}"
    elif rule == "uniqueItems":
        text = f"must not contain duplicates, got {show(violation.instance)}"
    else:
        text = violation.message
    return [_error(ArgumentErrorKind.value_error, path, text)]


def _branch_errors(violation: SchemaViolation) -> list[ArgumentError]:
    """For a union, the errors of the one branch whose type fits the value: that
    branch is what the model meant, so its errors say what to fix."""
    kind = json_type(violation.instance)
    fitting = [i for i, branch in enumerate(violation.validator_value)
               if kind in allowed_types(branch)]
    if len(fitting) != 1:
        return []
    inner = [e for e in violation.context or [] if e.relative_schema_path[0] == fitting[0]]
    return [error for e in inner for error in _convert(e)]


def _error(kind: ArgumentErrorKind, path: list[Any], text: str) -> ArgumentError:
    return ArgumentError(kind=kind, argument=path_text(path) or None,
                         message=f"{where(path)} {text}")


def _missing(violation: SchemaViolation, path: list[Any]) -> list[ArgumentError]:
    properties = violation.schema.get("properties") or {}
    errors = []
    for name in violation.validator_value:
        if name in violation.instance:
            continue
        sub = properties.get(name, {})
        hint = describe(sub)
        if isinstance(sub, dict) and sub.get("description"):
            hint += f": {sub['description']}"
        place = f" in {where(path)}" if path else ""
        errors.append(ArgumentError(
            kind=ArgumentErrorKind.missing_required, argument=path_text([*path, name]),
            message=f"missing required argument '{name}'{place} ({hint})",
        ))
    return errors


def _unknown(violation: SchemaViolation, path: list[Any]) -> list[ArgumentError]:
    known = list(violation.schema.get("properties") or {})
    errors = []
    for name in violation.instance:
        if name in known:
            continue
        text = f"unknown argument '{name}'" + (f" in {where(path)}" if path else "")
        close = difflib.get_close_matches(str(name), known, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        hint += f"valid arguments: {', '.join(known)}" if known else "it takes no arguments"
        text += f" ({hint})"
        errors.append(ArgumentError(kind=ArgumentErrorKind.unknown_argument,
                                    argument=path_text([*path, name]), message=text))
    return errors


def _model_errors(model: type[BaseModel], arguments: dict[str, Any]) -> list[ArgumentError]:
    """What pydantic still rejects once the JSON is valid (custom validators, mostly)."""
    try:
        model.model_validate(arguments)
    except PydanticValidationError as exc:
        errors = []
        for item in exc.errors(include_url=False):
            path = list(item["loc"])
            kind = (ArgumentErrorKind.type_error if item["type"].endswith(("_type", "_parsing"))
                    else ArgumentErrorKind.value_error)
            errors.append(_error(kind, path, f"is invalid: {item['msg']}"))
        return errors
    return []
