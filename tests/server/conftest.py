"""Fixtures for the server tests: a live uvicorn server on a free loopback port."""

from __future__ import annotations

import pytest

from botpsy.server.app import create_app
from botpsy.server.runner import serve_in_thread

from .helpers import scripted_model


@pytest.fixture
def live():
    """Start an app on a free loopback port: ``with live(app) as server: server.url``."""
    return serve_in_thread


@pytest.fixture(scope="module")
def shared_server():
    """One server for the plain OpenAI tests; each test queues its model outputs."""
    model = scripted_model([])
    with serve_in_thread(create_app(model)) as server:
        yield server, model.backend
