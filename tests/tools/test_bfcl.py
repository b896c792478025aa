"""BFCL function docs: type normalisation, written by hand and from the real data."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from botpsy.tools import BfclDocError, Tool, bfcl_parameters, is_bfcl_doc, load_tools_file


def _bfcl_data() -> Path:
    """The data folder of the installed bfcl-eval package, found without importing it
    (its import pulls API clients that are not installed here)."""
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or spec.origin is None:
        return Path("/nonexistent")
    return Path(spec.origin).parent / "data"


BFCL_DATA = _bfcl_data()

FLIGHT_DOC: dict[str, Any] = {
    "name": "travel.book_flight",
    "description": "Book a flight between two airports.",
    "parameters": {
        "type": "dict",
        "properties": {
            "origin": {"type": "String", "description": "IATA code of the departure airport."},
            "destination": {"type": "string", "description": "IATA code of the arrival airport."},
            "passengers": {"type": "integer", "description": "Number of travellers.", "default": 1},
            "max_price": {"type": "float", "description": "Budget in USD.", "optional": True},
            "coordinates": {"type": "tuple", "items": {"type": "float"},
                            "description": "Latitude and longitude of the origin."},
            "extras": {"type": "dict", "properties": {"meal": {"type": "Boolean"}},
                       "description": "Add-ons."},
            "seats": {"type": "ArrayList", "items": {"type": "long"}},
            "notes": {"type": "any", "description": "Free-form notes."},
            "cabin": {"type": "string", "enum": ["economy", "business"]},
        },
        "required": ["origin", "destination"],
        "optional": ["passengers"],
    },
}


def test_bfcl_types_are_normalised_to_json_schema() -> None:
    made = Tool.from_bfcl(FLIGHT_DOC)
    assert made.name == "travel.book_flight"
    assert made.description == "Book a flight between two airports."
    assert made.parameters == {
        "type": "object",
        "properties": {
            "origin": {"type": "string", "description": "IATA code of the departure airport."},
            "destination": {"type": "string", "description": "IATA code of the arrival airport."},
            "passengers": {"type": "integer", "description": "Number of travellers.", "default": 1},
            "max_price": {"type": "number", "description": "Budget in USD."},
            "coordinates": {"type": "array", "items": {"type": "number"},
                            "description": "Latitude and longitude of the origin."},
            "extras": {"type": "object", "properties": {"meal": {"type": "boolean"}},
                       "description": "Add-ons."},
            "seats": {"type": "array", "items": {"type": "integer"}},
            "notes": {"description": "Free-form notes."},
            "cabin": {"type": "string", "enum": ["economy", "business"]},
        },
        "required": ["origin", "destination"],
    }
    assert made.bfcl_doc is FLIGHT_DOC  # the original stays for BFCL's checker
    assert made.fn is None


def test_bfcl_tool_validates_model_arguments() -> None:
    made = Tool.from_bfcl(FLIGHT_DOC)
    result = made.validate({"origin": "CDG", "destination": "JFK", "coordinates": ["48.8", 2],
                            "notes": {"any": "thing"}})
    assert result.ok
    assert result.arguments["coordinates"] == [48.8, 2.0]
    assert not made.validate({"origin": "CDG"}).ok


def test_unknown_bfcl_type_is_a_clear_error() -> None:
    doc = {"name": "f", "parameters": {"type": "dict", "properties": {"x": {"type": "matrix"}}}}
    with pytest.raises(BfclDocError, match=r"f\.parameters\.x: unknown type 'matrix'"):
        Tool.from_bfcl(doc)


def test_bfcl_doc_detection() -> None:
    assert is_bfcl_doc(FLIGHT_DOC)
    assert not is_bfcl_doc({"name": "f", "parameters": {"type": "object"}})
    assert not is_bfcl_doc({"type": "function", "function": {"name": "f"}})


def test_bfcl_parameters_rejects_non_objects() -> None:
    with pytest.raises(BfclDocError, match="must be an object"):
        bfcl_parameters(["not", "a", "schema"])


JSON_TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


def _types_in(schema: Any) -> set[str]:
    """Every ``type`` value anywhere in a (normalised) schema."""
    if not isinstance(schema, dict):
        return set()
    found = {schema["type"]} if isinstance(schema.get("type"), str) else set()
    for sub in (schema.get("properties") or {}).values():
        found |= _types_in(sub)
    return found | _types_in(schema.get("items")) | _types_in(schema.get("additionalProperties"))


def _docs_of(path: Path, limit: int) -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            docs += json.loads(line)["function"]
            if len(docs) >= limit:
                break
    return docs


@pytest.mark.skipif(not BFCL_DATA.is_dir(), reason="bfcl-eval data not installed")
@pytest.mark.parametrize(
    "name", ["BFCL_v4_simple_python.json", "BFCL_v4_live_multiple.json",
             "BFCL_v4_simple_java.json", "BFCL_v4_simple_javascript.json"]
)
def test_real_bfcl_docs_load(name: str) -> None:
    docs = _docs_of(BFCL_DATA / name, limit=60)
    tools = [Tool.from_bfcl(doc) for doc in docs]
    for made, doc in zip(tools, docs, strict=True):
        assert made.parameters["type"] == "object"
        assert set(made.parameters["properties"]) == set(doc["parameters"]["properties"])
        assert _types_in(made.parameters) <= JSON_TYPES
        assert made.bfcl_doc is doc


@pytest.mark.skipif(not BFCL_DATA.is_dir(), reason="bfcl-eval data not installed")
def test_real_bfcl_example_validates_its_reference_answer() -> None:
    doc = _docs_of(BFCL_DATA / "BFCL_v4_simple_python.json", limit=1)[0]
    made = Tool.from_bfcl(doc)  # calculate_triangle_area(base, height, unit)
    assert made.name == "calculate_triangle_area"
    assert made.validate({"base": 10, "height": 5}).ok
    missing = made.validate({"base": 10})
    assert [e.argument for e in missing.errors] == ["height"]


@pytest.mark.skipif(not BFCL_DATA.is_dir(), reason="bfcl-eval data not installed")
def test_real_multi_turn_func_doc_file_loads_as_json_lines() -> None:
    tools = load_tools_file(BFCL_DATA / "multi_turn_func_doc" / "gorilla_file_system.json")
    names = {t.name for t in tools}
    assert {"cat", "cd", "ls"} <= names
    cd = next(t for t in tools if t.name == "cd")
    assert cd.parameters["properties"]["folder"]["type"] == "string"
    assert "response" in cd.bfcl_doc
