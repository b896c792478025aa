"""Base model for what tools return: compact when rendered for a model.

Fields that are None or empty lists are left out of the JSON, so a small model
reads ``{"id":3,"title":"Dentist","start":"..."}`` rather than a row of nulls.

Every record also knows where its item came from (``origin``, from the store's
``origin`` column), which the model never sees: the safety layer reads it to tell
the user's own reminders from a stranger's invitation. A record whose toolbox
does not set it counts as a stranger's.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from botpsy.types import Origin

_LABEL_FIELDS = ("subject", "title", "text", "name")


class Record(BaseModel):
    """A tool result; serialises without None values and empty lists."""

    origin: Origin = Field(default=Origin.third_party, exclude=True)
    item_kind: ClassVar[str] = ""  # what the item is called in a confirmation ("email")

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        return {k: v for k, v in data.items() if v is not None and v != []}

    def item_label(self) -> str:
        """The item in words, for a confirmation: "email 4 from eve@x.example: “Invoice”"."""
        data = self.model_dump()
        kind = self.item_kind or type(self).__name__.lower()
        ident = data.get("id", data.get("path", ""))
        text = f"{kind} {ident}".strip()
        if data.get("sender"):
            text += f" from {data['sender']}"
        name = next((str(data[k]) for k in _LABEL_FIELDS if data.get(k)), "")
        if name:
            text += f": \u201c{name[:60]}\u201d"
        return text
