"""What one running server holds: the model, its worker, limits, the assistant."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request

from botpsy.backends.base import ChatModel
from botpsy.server.worker import ModelWorker

if TYPE_CHECKING:
    from botpsy.server.assistant_service import AssistantService

DEFAULT_TIMEOUT_S = 120.0


@dataclass
class ServerState:
    """Shared by all routes of one app (``app.state.botpsy``)."""

    model: ChatModel
    worker: ModelWorker
    request_timeout: float = DEFAULT_TIMEOUT_S
    assistant: AssistantService | None = None
    aliases: tuple[str, ...] = ()
    started: float = field(default_factory=time.time)

    @property
    def model_names(self) -> list[str]:
        """Names a request may use for the model: its own name first, then aliases."""
        names = [self.model.name, *self.aliases]
        return list(dict.fromkeys(name for name in names if name))


def get_state(request: Request) -> ServerState:
    """FastAPI dependency: the state of the app serving ``request``."""
    return request.app.state.botpsy


StateDep = Annotated[ServerState, Depends(get_state)]
