"""Path checks that keep the file tools inside one folder (the files root).

A model-written path is untrusted: it may climb out with '..', be absolute,
point through a symlink to somewhere else, hide a NUL byte or be absurdly long.
``Sandbox.resolve`` refuses all of those with a ``ToolInputError`` and returns a
fully resolved path that lies under the root. Reads then open that path with
``O_NOFOLLOW`` so a symlink swapped in after the check is not followed.

File names are bytes on POSIX and need not be UTF-8. Such a name is shown with
each undecodable byte as ``\\xNN`` (``relative``), which is plain text the model,
the audit log and the conversation store can carry; ``resolve`` maps that form
back to the real name, so a listed file can always be read.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.safetext import lone_surrogate

MAX_PATH_CHARS = 1024
MAX_NAME_BYTES = 255  # NAME_MAX on common file systems
BINARY_PROBE_BYTES = 8192
# How ``relative`` shows a byte that is not UTF-8.
_SHOWN_BYTE = re.compile(r"\\x([89a-fA-F][0-9a-fA-F])")


def shown_name(name: str) -> str:
    """``name`` as text: bytes that are not UTF-8 (surrogate-escaped by the OS layer)
    written as ``\\xNN``; a valid name is unchanged."""
    if lone_surrogate(name) is None:
        return name
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _real_name(root: Path, path: str) -> str:
    """The on-disk name of ``path``: itself, or, when it does not exist and holds
    ``\\xNN`` escapes, the name ``shown_name`` showed that way."""
    if not _SHOWN_BYTE.search(path) or os.path.lexists(root / path):
        return path
    real = _SHOWN_BYTE.sub(lambda m: chr(0xDC00 + int(m.group(1), 16)), path)
    return real if os.path.lexists(root / real) else path


def _reject(message: str) -> ToolInputError:
    return ToolInputError(message, ErrorKind.path_rejected)


@dataclass(frozen=True)
class TextRead:
    """The start of a text file: at most the byte limit, decoded as UTF-8."""

    text: str
    size: int
    truncated: bool


class Sandbox:
    """Resolves relative paths under ``root`` and reads files there safely."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def resolve(self, path: str) -> Path:
        """The real path of ``path`` (relative to the root), or ToolInputError."""
        if not isinstance(path, str):
            raise _reject(f"path must be text, got {type(path).__name__}")
        if "\x00" in path:
            raise _reject("path contains a NUL byte")
        if len(path) > MAX_PATH_CHARS:
            raise _reject(f"path is too long ({len(path)} characters, at most {MAX_PATH_CHARS})")
        if any(ord(ch) < 32 for ch in path):
            raise _reject("path contains control characters")
        if lone_surrogate(path) is not None:
            raise _reject("path holds a character that is not text (a lone surrogate); names "
                          "that are not UTF-8 are listed with \\xNN escapes: use that form")
        cleaned = path.strip() or "."
        if (
            PurePosixPath(cleaned).is_absolute()
            or PureWindowsPath(cleaned).is_absolute()
            or PureWindowsPath(cleaned).drive
            or cleaned.startswith("~")
        ):
            raise _reject(f"{path!r} is absolute; use a path relative to the files folder")
        parts = PurePosixPath(cleaned.replace("\\", "/")).parts
        if ".." in parts:
            raise _reject(f"{path!r} contains '..'; paths must stay inside the files folder")
        if any(len(part.encode("utf-8")) > MAX_NAME_BYTES for part in parts):
            raise _reject(f"a name in {path!r} is longer than {MAX_NAME_BYTES} bytes")
        resolved = (self.root / _real_name(self.root, cleaned)).resolve(strict=False)
        if not resolved.is_relative_to(self.root):
            raise _reject(f"{path!r} leads outside the files folder (through a symlink)")
        return resolved

    def relative(self, resolved: Path) -> str:
        """How a resolved path is shown to the model: POSIX, relative to the root."""
        relative = resolved.relative_to(self.root).as_posix()
        return shown_name(relative) or "."

    def read_text(self, resolved: Path, max_bytes: int) -> TextRead:
        """The first ``max_bytes`` of a regular UTF-8 text file; binaries are refused."""
        try:
            info = os.lstat(resolved)
        except FileNotFoundError:
            raise ToolInputError(
                f"no file {self.relative(resolved)!r}", ErrorKind.not_found
            ) from None
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise ToolInputError(f"{self.relative(resolved)!r} is {kind}")
        fd = os.open(resolved, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            data = handle.read(max_bytes)
        truncated = size > len(data)
        if b"\x00" in data[:BINARY_PROBE_BYTES]:
            raise ToolInputError(
                f"{self.relative(resolved)!r} is a binary file, not text", ErrorKind.binary_file
            )
        decoder = codecs.getincrementaldecoder("utf-8")()
        try:  # final=False when cut: a character split by the limit is dropped, not an error
            text = decoder.decode(data, final=not truncated)
        except UnicodeDecodeError:
            raise ToolInputError(
                f"{self.relative(resolved)!r} is not UTF-8 text", ErrorKind.binary_file
            ) from None
        return TextRead(text=text, size=size, truncated=truncated)
