"""The recipe format of the tool catalog, its builders, and users' own recipes.

Each ``ToolRecipe`` pairs a tool schema with request templates (paraphrases),
the value source of every argument, a tool-output template and final-answer
templates. Templates name arguments by path in braces: ``{to}``,
``{passengers.adults}``; ``{path=value}`` sets an argument the wording implies
without showing text ("urgent" -> ``{priority="high"}``), and ``{@source}`` draws
a value that only the tool output and the final answer share (``{@condition}``).

Users extend the catalog with their own tools: a JSON list of ``ToolRecipe``
objects (``load_recipes``), so the recipe trains on *their* schemas. The built-in
recipes are written with the builders here, in the ``catalog_*`` modules
(``catalog_builtin.builtin_recipes`` gathers them).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from botpsy.types import ToolSpec


class ToolRecipe(BaseModel):
    """A tool schema with everything needed to synthesise requests for it."""

    spec: ToolSpec
    domain: str
    sources: dict[str, str] = Field(default_factory=dict)  # argument path -> vocab source name
    requests: list[str]
    # An object, or a list for tools that answer with one (the assistant's searches and listings).
    result: dict[str, Any] | list[Any] = Field(default_factory=lambda: {"status": "ok"})
    answers: list[str] = Field(default_factory=lambda: ["Done."])


class CatalogError(ValueError):
    """A recipe file that cannot be used: bad JSON, wrong shape, or inconsistent templates."""


# JSON-schema builders for the catalog modules: one short call per parameter.


def string(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def enum(description: str, values: list[str]) -> dict[str, Any]:
    return {"type": "string", "description": description, "enum": values}


def integer(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "integer", "description": description, **extra}


def number(description: str) -> dict[str, Any]:
    return {"type": "number", "description": description}


def boolean(description: str) -> dict[str, Any]:
    return {"type": "boolean", "description": description}


def array(description: str, items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "description": description, "items": items}


def obj(description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "description": description, "properties": props, "required": required}


def tool(
    name: str,
    description: str,
    props: dict[str, Any],
    required: list[str],
    side_effect: bool = False,
) -> ToolSpec:
    parameters = {"type": "object", "properties": props, "required": required}
    return ToolSpec(
        name=name, description=description, parameters=parameters, side_effect=side_effect
    )


Param = tuple[dict[str, Any], str | None]  # (schema, value source); None: fixed values only


def recipe_factory(
    domain: str,
    name: str,
    description: str,
    params: dict[str, Param],
    required: list[str],
    requests: list[str],
    result: dict[str, Any],
    answers: list[str],
) -> Callable[[], ToolRecipe]:
    """A recipe factory for a tool whose output and answers are shared by its domain (the
    science calculators, the software methods): ``params`` maps each argument to (schema,
    source); a ``None`` source marks one that only a fixed ``{name=value}`` template sets."""

    def factory() -> ToolRecipe:
        return ToolRecipe(
            spec=tool(name, description, {k: v[0] for k, v in params.items()}, required),
            domain=domain,
            sources={k: v[1] for k, v in params.items() if v[1]},
            requests=requests,
            result=result,
            answers=answers,
        )

    factory.__name__ = "_" + name.replace(".", "_")
    return factory


def load_recipes(path: Path) -> list[ToolRecipe]:
    """User recipes from a JSON list of ``ToolRecipe`` objects, with a clear error per problem."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CatalogError(f"{path}: cannot read recipes: {exc}") from exc
    try:
        return TypeAdapter(list[ToolRecipe]).validate_python(raw)
    except ValidationError as exc:
        raise CatalogError(f"{path}: not a list of tool recipes: {exc}") from exc
