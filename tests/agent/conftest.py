"""Fixtures for the agent tests: a world the small tools change, an audit log, an agent factory."""

from __future__ import annotations

import pytest

from botpsy.agent import Agent, SystemPrompt
from botpsy.safety import AuditLog, SafetyConfig

from .helpers import FIXED_NOW, World, scripted, small_registry


@pytest.fixture
def world() -> World:
    return World()


@pytest.fixture
def audit(tmp_path) -> AuditLog:
    return AuditLog(tmp_path / "audit.db")


@pytest.fixture
def make_agent(world: World, audit: AuditLog):
    """``make_agent(outputs, **agent_kwargs)`` -> an Agent on a scripted model."""

    def make(outputs: list[str], **kwargs) -> Agent:
        kwargs.setdefault("safety", SafetyConfig())
        kwargs.setdefault("audit", audit)
        kwargs.setdefault("system_prompt_builder", SystemPrompt(
            user_name="Alex Morgan", user_email="alex@example.com", timezone="Europe/Berlin",
            clock=lambda: FIXED_NOW))
        return Agent(scripted(outputs), small_registry(world), **kwargs)

    return make
