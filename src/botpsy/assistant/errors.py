"""The one error type the assistant's tools raise for bad input, with a category.

Tools raise ``ToolInputError`` (a ``ValueError``) with a message written for the
model that called the tool: what was wrong and what to send instead. The
``kind`` lets the agent, the evals and the audit log count failures by category
without parsing messages.
"""

from __future__ import annotations

from enum import Enum

from botpsy.tools.registry import ToolRefusal, finders_in_words


class ErrorKind(str, Enum):
    """Why a tool refused its input."""

    invalid_argument = "invalid_argument"  # wrong value, empty text, out-of-range number
    invalid_date = "invalid_date"  # a date/time that cannot be parsed or does not exist
    not_found = "not_found"  # no item with that id
    conflict = "conflict"  # the change contradicts existing data (duplicate contact...)
    path_rejected = "path_rejected"  # a path that leaves the files root or is malformed
    binary_file = "binary_file"  # a file that is not text
    too_large = "too_large"  # content over a size limit


class ToolInputError(ToolRefusal):
    """Bad tool input; the store was not changed. ``finders``: the tools that list the
    values it would take, for the agent's retry (``ToolRefusal``), named for the model
    after the message ("; list_reminders gives the ids", ``listing`` naming what they
    give); a conflict (the item is already there) is not retried."""

    def __init__(self, message: str, kind: ErrorKind = ErrorKind.invalid_argument,
                 finders: tuple[str, ...] = (), listing: str = "ids") -> None:
        super().__init__(message, finders, retry=kind is not ErrorKind.conflict,
                         hint=finder_hint(tuple(finders), listing))
        self.kind = kind

    def __repr__(self) -> str:
        return f"ToolInputError({str(self)!r}, kind={self.kind.value})"


def finder_hint(finders: tuple[str, ...], what: str = "ids") -> str:
    """"; list_reminders gives the ids": the finders, in words, after a tool's message."""
    return f"; {finders_in_words(finders, what)}" if finders else ""


def not_found(what: str, item_id: int, *finders: str) -> ToolInputError:
    """The standard error for an unknown id; ``finders`` name the tools that list the
    real ids, because a small model that made an id up can then look it up instead."""
    return ToolInputError(f"no {what} with id {item_id}", ErrorKind.not_found, finders)
