"""The release's own architecture end to end, on a tiny random Qwen3.5.

The ``qwen3.5-0.8b`` preset's stages (SFT, distillation with LoRA teachers, the balance
phase, DAPO x2) run at smoke scale on a 4-layer Qwen3.5 (three Gated DeltaNet layers, one
full-attention layer, SmolLM2's tokenizer); the result is exported by llama.cpp's
converter to a ``qwen35`` GGUF and, as a LoRA adapter, to a GGUF adapter; then every
command of docs/training/bring-your-own-model.md runs on it: ask (a grammar-forced call
that must end), chat, serve, bench, BFCL, and the transformers backend on the HF folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from botpsy.cli import app

pytest.importorskip("llama_cpp")
pytestmark = pytest.mark.model  # SmolLM2's tokenizer comes from the shipped GGUF

runner = CliRunner()
# A tool whose every value is bounded by its schema: a forced call cannot run on.
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "maxLength": 24},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                },
                "required": ["city", "unit"],
            },
        },
    }
]


def _ok(args: list[str], **kwargs) -> str:
    done = runner.invoke(app, args, **kwargs)
    assert done.exit_code == 0, f"{args}: {done.output}\n{done.exception!r}"
    return done.output


RECIPES = Path(__file__).parents[2] / "src" / "botpsy" / "train" / "examples" / "your-tools.example.json"


@pytest.fixture(scope="module")
def tiny(default_gguf, tmp_path_factory) -> Path:
    """``botpsy train tiny-qwen35``: the guide's tiny Qwen3.5."""
    out = tmp_path_factory.mktemp("tiny-qwen35")
    _ok(["train", "tiny-qwen35", "--out", str(out)])
    return out


@pytest.fixture(scope="module")
def run(tiny, tmp_path_factory) -> Path:
    """``botpsy train recipe --preset qwen3.5-0.8b --smoke`` with the example tool recipes."""
    out = tmp_path_factory.mktemp("qwen35-run")
    _ok(["train", "recipe", "--preset", "qwen3.5-0.8b", "--base-model", str(tiny),
         "--out", str(out), "--recipes", str(RECIPES), "--smoke"])
    return out


@pytest.fixture(scope="module")
def gguf(run) -> Path:
    return run / "gguf" / "botpsy-qwen3.5-0.8b-Q8_0.gguf"


@pytest.fixture(scope="module")
def tools_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("tools") / "weather.json"
    path.write_text(json.dumps(TOOLS))
    return path


def test_every_stage_of_the_preset_trains_and_the_export_loads(run):
    report = json.loads((run / "recipe_report.json").read_text())
    stages = {s["stage"]: s for s in report["stages"]}
    assert list(stages) == ["sft", "distill", "balance", "dapo1", "dapo2"]
    assert all(s["steps"] >= 1 for s in stages.values())
    assert stages["sft"]["param_change"] > 0
    teachers = list((run / "distill" / "teachers").iterdir())
    assert teachers  # LoRA teachers made with the SFT code, as the preset says
    export = report["export"]
    assert set(export["quantized"]) == {"Q8_0"}
    assert [Path(c["path"]).name for c in export["checks"]] == [
        "botpsy-qwen3.5-0.8b-F16.gguf", "botpsy-qwen3.5-0.8b-Q8_0.gguf"]
    import gguf as gguf_py

    reader = gguf_py.GGUFReader(export["f16"])
    assert reader.fields["general.architecture"].contents() == "qwen35"


def test_an_adapter_of_the_fine_tune_applies_over_the_base_gguf(run, tiny, tools_file, tmp_path):
    _ok(["train", "export", "--model", str(tiny), "--out", str(tmp_path / "gguf"),
         "--name", "tiny", "--quant", "Q8_0"])
    base = tmp_path / "gguf" / "tiny-Q8_0.gguf"
    _ok(["train", "extract-lora", "--base", str(tiny), "--tuned", str(run / "dapo2" / "model"),
         "--rank", "4", "--out", str(tmp_path / "lora")])
    spec = f"{base}+lora={tmp_path / 'lora' / 'adapter.gguf'}"
    output = _ok(["ask", "Weather in Oslo?", "--model", spec, "--tools", str(tools_file),
                  "--tool-choice", "required", "--max-tokens", "128", "--json"])
    assert json.loads(output)["tool_calls"][0]["name"] == "get_weather"


def test_ask_forces_a_call_that_ends(gguf, tools_file):
    output = _ok(["ask", "Weather in Oslo?", "--model", str(gguf), "--tools", str(tools_file),
                  "--tool-choice", "required", "--max-tokens", "256", "--json"])
    completion = json.loads(output)
    (call,) = completion["tool_calls"][:1]
    assert call["name"] == "get_weather"
    assert call["arguments"]["unit"] in ("celsius", "fahrenheit")
    assert len(call["arguments"]["city"]) <= 24
    assert completion.get("finish_reason") != "length"


def test_chat_answers_in_the_terminal(gguf, tmp_path):
    output = _ok(["chat", "--model", str(gguf), "--data-dir", str(tmp_path / "d"),
                  "--max-tokens", "16"], input="Hello\n")
    assert "Hello" in output or output.strip()


def test_serve_answers_a_forced_call_over_the_openai_api(gguf):
    import httpx

    from botpsy.backends.model_files import load_chat_model
    from botpsy.server.app import create_app
    from botpsy.server.runner import serve_in_thread

    with serve_in_thread(create_app(load_chat_model(str(gguf), n_ctx=2048))) as server:
        name = httpx.get(f"{server.url}/v1/models", timeout=30).json()["data"][0]["id"]
        reply = httpx.post(f"{server.url}/v1/chat/completions", timeout=120, json={
            "model": name, "max_tokens": 256, "tools": TOOLS, "tool_choice": "required",
            "messages": [{"role": "user", "content": "Weather in Oslo?"}]}).json()
    choice = reply["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["tool_calls"][0]["function"]["name"] == "get_weather"


def test_bench_quick_fills_every_report_field(gguf, tmp_path):
    _ok(["bench", "run", "--model", str(gguf), "--quick", "--accuracy-cases", "2",
         "--out", str(tmp_path / "bench")])
    report = json.loads((tmp_path / "bench" / "report.json").read_text())
    assert not report["failed"] and report["variants"]
    for variant in report["variants"]:
        empty = [k for k in ("ttft_s", "prefill_tok_s", "decode_tok_s", "peak_rss_mb",
                             "model_rss_mb", "kv_cache_mb", "bytes_per_token", "roofline_tok_s",
                             "turn_latency_s", "accuracy", "size_mb", "load_s")
                 if variant.get(k) in (None, {}, [])]
        assert not empty, f"{variant['quant']}: {empty}"


def test_bfcl_runs_and_scores(gguf, tmp_path):
    _ok(["eval", "bfcl", "--model", str(gguf), "--limit", "2", "-c", "simple_python",
         "--out", str(tmp_path / "bfcl")])
    assert list((tmp_path / "bfcl").rglob("*score*"))


def test_scenarios_and_injection_run(gguf, tmp_path):
    _ok(["eval", "scenarios", "--model", str(gguf), "--limit", "1", "--max-tokens", "32",
         "--out", str(tmp_path / "scenarios")])
    _ok(["eval", "injection", "--model", str(gguf), "--max-tokens", "16",
         "--out", str(tmp_path / "injection")])


def test_the_transformers_backend_runs_the_hf_folder(run, tools_file):
    output = _ok(["ask", "Weather in Oslo?", "--model", str(run / "dapo2" / "model"),
                  "--tools", str(tools_file), "--format", "qwen35", "--max-tokens", "16",
                  "--json"])
    assert "content" in json.loads(output[output.index("{"):])  # after any library warning
