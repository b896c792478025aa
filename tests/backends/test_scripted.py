"""The scripted backend replays outputs in order and fails clearly when exhausted or fed bad files."""

from __future__ import annotations

import json

import pytest

from botpsy.backends.scripted import ScriptedBackend, ScriptExhaustedError, load_script
from botpsy.types import GenerationParams


def test_replays_in_order_and_records_prompts():
    backend = ScriptedBackend(["first answer", "second"])
    params = GenerationParams()
    assert "".join(c.text for c in backend.generate("p1", params)) == "first answer"
    assert "".join(c.text for c in backend.generate("p2", params, grammar="root ::= x")) == "second"
    assert backend.prompts == ["p1", "p2"] and backend.grammars == [None, "root ::= x"]
    with pytest.raises(ScriptExhaustedError, match="no output left"):
        list(backend.generate("p3", params))


def test_jsonl_forms(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps("plain") + "\n\n" + json.dumps({"text": "<tool_call>{}</tool_call>"}) + "\n")
    assert load_script(path) == ["plain", "<tool_call>{}</tool_call>"]


@pytest.mark.parametrize("line, message", [("{not json", "not JSON"), ("42", "expected a JSON string")])
def test_bad_lines_name_their_line(tmp_path, line, message):
    path = tmp_path / "s.jsonl"
    path.write_text('"ok"\n' + line + "\n")
    with pytest.raises(ValueError, match=f"s.jsonl:2: {message}"):
        load_script(path)
