"""Base model for what tools return: compact when rendered for a model.

Fields that are None or empty lists are left out of the JSON, so a small model
reads ``{"id":3,"title":"Dentist","start":"..."}`` rather than a row of nulls.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer


class Record(BaseModel):
    """A tool result; serialises without None values and empty lists."""

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        return {k: v for k, v in data.items() if v is not None and v != []}
