"""Filling request templates: slots become words in the request and values in the call.

``realise`` turns one ``ToolRecipe`` into a user request, the exact tool call
it asks for and the BFCL-style reference that grades it. ``check_recipe`` finds
the mistakes a hand-written (or user-written) recipe can hold before any data is
made from it, so a bad template is a clear error instead of silently wrong data.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from botpsy.rewards import ReferenceCall
from botpsy.tools.validation import schema_errors
from botpsy.train.catalog import CatalogError, ToolRecipe
from botpsy.train.sample import make_reference
from botpsy.train.vocab import SOURCES, SlotValue, source, spoken_list
from botpsy.types import ToolCall

SLOT = re.compile(r"\{(@?[A-Za-z_][\w.+]*)(?:=([^{}]*))?\}")


def parts(path: str) -> list[str]:
    """The argument paths a slot sets: one, or several for a joint slot like ``{start+end}``
    whose source draws values that must agree (an end after its start)."""
    return path.split("+")


@dataclass
class Realised:
    """A filled request: its text, the call it asks for, its reference and the slot words."""

    recipe: ToolRecipe
    text: str
    call: ToolCall
    reference: ReferenceCall
    surfaces: dict[str, str] = field(default_factory=dict)
    drawn: dict[str, SlotValue] = field(default_factory=dict)  # drawn (not fixed) slots


class Shared:
    """Values drawn once per conversation for ``{@source}`` slots (tool output + answer)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._values: dict[str, SlotValue] = {}

    def get(self, name: str) -> SlotValue:
        if name not in self._values:
            self._values[name] = source(name)(self._rng)
        return self._values[name]


def schema_at(parameters: dict[str, Any], path: str) -> dict[str, Any] | None:
    """The JSON schema node of an argument path like ``passengers.adults``."""
    node: dict[str, Any] | None = parameters
    for part in path.split("."):
        props = (node or {}).get("properties", {})
        node = props.get(part)
        if node is None:
            return None
    return node


def _set_path(args: dict[str, Any], path: str, value: Any) -> None:
    *parents, leaf = path.split(".")
    for part in parents:
        args = args.setdefault(part, {})
    args[leaf] = value


def _ordered(args: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments in the schema's property order (the canonical order of a call)."""
    props = schema.get("properties", {})
    order = {name: i for i, name in enumerate(props)}
    out = {}
    for key in sorted(args, key=lambda k: order.get(k, len(order))):
        value = args[key]
        out[key] = _ordered(value, props.get(key, {})) if isinstance(value, dict) else value
    return out


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\s+([.,?!:;])", r"\1", text)


def _draw(recipe: ToolRecipe, path: str, rng: random.Random, taken: list[Any]) -> SlotValue:
    """A value for ``path``, redrawn a few times to avoid repeating another argument's value."""
    name = recipe.sources[path]
    if name == "enum":
        values = (schema_at(recipe.spec.parameters, path) or {}).get("enum", [])
        choice = rng.choice(values)
        return SlotValue(str(choice).replace("_", " "), choice)
    value = source(name)(rng)
    for _ in range(8):
        if value.value not in taken:
            break
        value = source(name)(rng)
    return value


def realise(
    recipe: ToolRecipe,
    rng: random.Random,
    shared: Shared,
    template: str | None = None,
    preset: dict[str, SlotValue] | None = None,
) -> Realised:
    """Fill one request template of ``recipe`` (a random one unless given); slots named in
    ``preset`` take those values instead of fresh draws."""
    template = template if template is not None else rng.choice(recipe.requests)
    args: dict[str, Any] = {}
    surfaces: dict[str, str] = {}
    drawn_values: dict[str, SlotValue] = {}
    taken: list[Any] = []

    def fill(match: re.Match[str]) -> str:
        name, fixed = match.group(1), match.group(2)
        if name.startswith("@"):
            return shared.get(name[1:]).surface
        if fixed is not None:
            value = json.loads(fixed)
            _set_path(args, name, value)
            surfaces[name] = str(value)
            return ""
        drawn = (preset or {}).get(name) or _draw(recipe, name, rng, taken)
        taken.append(drawn.value)
        joint = parts(name)
        values = drawn.value if len(joint) > 1 else [drawn.value]
        for path, value in zip(joint, values, strict=True):
            _set_path(args, path, value)
        surfaces[name] = drawn.surface
        drawn_values[name] = drawn
        return drawn.surface

    text = _tidy(SLOT.sub(fill, template))
    arguments = _ordered(args, recipe.spec.parameters)
    # Ids come from the seeded generator so that the same seed gives the same records.
    call = ToolCall(
        name=recipe.spec.name, arguments=arguments, id=f"call_{rng.getrandbits(48):012x}"
    )
    reference = make_reference(call.name, arguments, recipe.spec)
    return Realised(recipe, text, call, reference, surfaces, drawn_values)


def fan_out(
    recipe: ToolRecipe, rng: random.Random, shared: Shared, count: int, width: int = 1
) -> tuple[str, list[Realised]] | None:
    """One request that asks for ``count`` calls differing in one slot ("the weather in
    Oslo, Rome and Lima"): BFCL's parallel form, which joined requests never show. With
    ``width=2`` two slots differ, paired in order ("20 and 15 minutes of Taylor Swift and
    Maroon 5, respectively"), BFCL's other common parallel form.

    Returns the request text and one realisation per call, or None when the drawn template
    has no ``width`` slots that each take ``count`` distinct single values."""
    template = rng.choice(recipe.requests)
    base = realise(recipe, rng, shared, template)
    if width > 1 and any(isinstance(v.value, list | dict) for v in base.drawn.values()):
        return None  # "a blue, green and black series ..., respectively" reads as paired too
    slots = [
        n
        for n, v in base.drawn.items()
        if not isinstance(v.value, list | dict) and not _crowded(template, n)
    ]
    rng.shuffle(slots)
    varied: dict[str, list[SlotValue]] = {}
    for slot in slots:
        others = [v.value for name, v in base.drawn.items() if name != slot]
        values = _distinct_values(recipe, slot, rng, count, others)
        # Paired lists of sentences ("... and see you there, respectively") garble: names,
        # numbers and dates only.
        if values is not None and (width == 1 or all(_is_short(v.surface) for v in values)):
            varied[slot] = values
        if len(varied) == width:
            break
    else:
        return None
    if width > 1 and not _ends_near(template, list(varied)):
        return None  # "...; give me its perimeter, respectively" pairs the wrong clause
    items = [
        realise(
            recipe, rng, shared, template, {**base.drawn, **{k: v[i] for k, v in varied.items()}}
        )
        for i in range(count)
    ]
    said = {
        k: SlotValue(spoken_list([v.surface for v in values]), None) for k, values in varied.items()
    }
    text = realise(recipe, rng, shared, template, {**base.drawn, **said}).text
    return (respectively(text) if width > 1 else text), items


# Words that join a list's items: a slot said as a list next to another slot with only
# these between them runs into it ("between 09:15 and 5pm, 3pm and 4pm", "1066 and 287 by
# 1856 and 1104", "{width}x{height}").
_LIST_JOINS = frozenset({"and", "or", "by", "x"})
# At most this many words may follow the last paired slot before ", respectively".
_RESPECTIVELY_TAIL = 3


def _crowded(template: str, slot: str) -> bool:
    """Does ``slot`` touch a neighbouring slot of ``template`` with only list-joining words
    (or nothing) between them?"""
    found = list(SLOT.finditer(template))
    for i, match in enumerate(found):
        if match.group(1) != slot:
            continue
        gaps = [template[found[i - 1].end() : match.start()]] if i else []
        if i + 1 < len(found):
            gaps.append(template[match.end() : found[i + 1].start()])
        for gap in gaps:
            if all(word.lower() in _LIST_JOINS for word in re.findall(r"[A-Za-z]+", gap)):
                return True
    return False


def _ends_near(template: str, slots: list[str]) -> bool:
    """Does the template end within a few words of the last of ``slots``, in the same
    clause and with no other slot after it (where ", respectively" will go)?"""
    ends = [m.end() for m in SLOT.finditer(template) if m.group(1) in slots]
    tail = template[max(ends) :].rstrip().rstrip(".?!")
    return (
        "{" not in tail
        and not any(mark in tail for mark in ".;?!:")
        and len(tail.split()) <= _RESPECTIVELY_TAIL
    )


def _is_short(surface: str) -> bool:
    """A name, number or date (at most three words, no commas or sentence punctuation)."""
    return len(surface.split()) <= 3 and not any(mark in surface for mark in ",.:;!?")


def respectively(text: str) -> str:
    """``text`` with ", respectively" before its closing punctuation."""
    body = text.rstrip()
    end = body[-1] if body and body[-1] in ".?!" else ""
    return f"{body.removesuffix(end)}, respectively{end}"


def _distinct_values(
    recipe: ToolRecipe, slot: str, rng: random.Random, count: int, others: list[Any]
) -> list[SlotValue] | None:
    """``count`` draws for ``slot`` that differ in both value and wording from each other
    and from the ``others`` slots' values (no flight from Vienna to Vienna), or None."""
    values: list[SlotValue] = []
    for _ in range(10 * count):
        value = _draw(recipe, slot, rng, [])
        if value.value not in others and all(
            value.value != v.value and value.surface != v.surface for v in values
        ):
            values.append(value)
        if len(values) == count:
            return values
    return None


def fill_text(template: str, realised: Realised, shared: Shared) -> str:
    """An answer template filled with the request's slot words and shared values."""

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name.startswith("@"):
            return shared.get(name[1:]).surface
        return realised.surfaces.get(name, "")

    return _tidy(SLOT.sub(fill, template))


def fill_json(template: Any, realised: Realised, shared: Shared) -> Any:
    """A tool-output template filled; a string that is one slot keeps the value's type."""
    if isinstance(template, dict):
        return {k: fill_json(v, realised, shared) for k, v in template.items()}
    if isinstance(template, list):
        return [fill_json(v, realised, shared) for v in template]
    if not isinstance(template, str):
        return template
    whole = SLOT.fullmatch(template)
    if whole and whole.group(1).startswith("@"):
        return shared.get(whole.group(1)[1:]).value
    if whole:
        return realised.call.arguments.get(whole.group(1), "")
    return fill_text(template, realised, shared)


def check_recipe(recipe: ToolRecipe) -> None:
    """Raise ``CatalogError`` naming the first inconsistency of a recipe."""
    where = f"recipe {recipe.spec.name!r}"
    params = recipe.spec.parameters
    required = set(params.get("required", []))
    if not recipe.requests:
        raise CatalogError(f"{where}: no request templates")
    for path, name in recipe.sources.items():
        nodes = [schema_at(params, part) for part in parts(path)]
        if None in nodes:
            raise CatalogError(f"{where}: source given for unknown argument {path!r}")
        node = nodes[0] or {}
        if name == "enum" and not node.get("enum"):
            raise CatalogError(f"{where}: {path!r} uses 'enum' but its schema has no enum")
        if name != "enum" and name not in SOURCES:
            raise CatalogError(
                f"{where}: unknown source {name!r} (known: {', '.join(sorted(SOURCES))})"
            )
    for template in recipe.requests:
        _check_template(recipe, template, required, where)
    texts = list(recipe.answers) + [json.dumps(recipe.result)]
    for text in texts:
        for match in SLOT.finditer(text):
            name = match.group(1)
            if name.startswith("@") and name[1:] not in SOURCES:
                raise CatalogError(f"{where}: unknown shared source {name!r} in {text!r}")
            if not name.startswith("@") and name not in required:
                raise CatalogError(
                    f"{where}: answer/result slot {name!r} is not a required argument"
                )


def _check_template(recipe: ToolRecipe, template: str, required: set[str], where: str) -> None:
    seen: set[str] = set()
    for match in SLOT.finditer(template):
        name, fixed = match.group(1), match.group(2)
        if name.startswith("@"):
            if name[1:] not in SOURCES:
                raise CatalogError(f"{where}: unknown shared source {name!r} in {template!r}")
            continue
        if any(schema_at(recipe.spec.parameters, part) is None for part in parts(name)):
            raise CatalogError(f"{where}: template {template!r} names unknown argument {name!r}")
        if fixed is None and name not in recipe.sources:
            raise CatalogError(f"{where}: argument {name!r} has no value source")
        if fixed is not None:
            try:
                json.loads(fixed)
            except json.JSONDecodeError as exc:
                raise CatalogError(
                    f"{where}: fixed value of {name!r} is not JSON: {fixed!r}"
                ) from exc
        seen.update(part.split(".")[0] for part in parts(name))
    missing = required - seen
    if missing:
        raise CatalogError(f"{where}: template {template!r} leaves out required {sorted(missing)}")


def check_call(recipe: ToolRecipe, call: ToolCall) -> None:
    """Raise ``CatalogError`` when a realised call breaks its own tool schema."""
    errors = schema_errors(recipe.spec.parameters, call.arguments)
    if errors:
        problems = "; ".join(e.message for e in errors)
        raise CatalogError(
            f"recipe {recipe.spec.name!r} made an invalid call {call.arguments}: {problems}"
        )
