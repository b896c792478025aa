"""Shared fixtures: the real default model (once per session) and a scripted chat model."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A ``slow`` run (a whole benchmark on a real model) lifts the suite-wide per-test timeout.

    The timeout in pyproject.toml guards the default suite, where a test that runs for
    many minutes has hung; a slow test is meant to run long and may still set its own."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(0))


@pytest.fixture(scope="session")
def default_gguf():
    """Path of the embedded SmolLM2 GGUF; skips when it cannot be fetched (offline without cache)."""
    from botpsy.backends.model_files import ModelNotFoundError, default_model_path

    try:
        return default_model_path()
    except ModelNotFoundError as exc:  # pragma: no cover - depends on the machine
        pytest.skip(f"default model unavailable: {exc}")


@pytest.fixture(scope="session")
def smol_backend(default_gguf):
    """One llama.cpp backend on SmolLM2 shared by the model tests (loading costs ~0.3 s, memory 150 MB)."""
    from botpsy.backends.llamacpp import LlamaCppBackend

    backend = LlamaCppBackend(default_gguf, n_ctx=4096, n_threads=2)
    yield backend
    backend.close()
