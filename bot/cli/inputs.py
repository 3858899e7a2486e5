"""Reading the commands' input files and standard input as UTF-8 text, with errors a user
understands (no `UnicodeDecodeError` or `[Errno 21]` text, never a traceback)."""

from __future__ import annotations

import sys
from pathlib import Path


class InputFileError(ValueError):
    """A file or standard input that cannot be read; the message names it and says why."""


def _decode(data: bytes, where: str) -> str:
    try:
        # utf-8-sig: a byte-order mark (Windows editors save one) is read, not an error.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1].hex()
        raise InputFileError(
            f"{where} is not UTF-8 text (byte 0x{bad} at offset {exc.start})"
        ) from None


def read_file(path: str) -> str:
    """The whole file as text."""
    p = Path(path)
    if p.is_dir():
        raise InputFileError(f"{path} is a directory, not a file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    return _decode(data, path)


def read_stdin(*, allow_empty: bool = True) -> str:
    """All of standard input as text."""
    buffer = getattr(sys.stdin, "buffer", None)
    text = _decode(buffer.read(), "standard input") if buffer is not None else sys.stdin.read()
    if not allow_empty and not text.strip():
        raise InputFileError("standard input is empty (give a FILE, or pipe a document in)")
    return text


def read_input(path: str | None, *, allow_empty: bool = False) -> str:
    """FILE, or standard input when FILE is omitted or `-`."""
    if path and path != "-":
        return read_file(path)
    return read_stdin(allow_empty=allow_empty)
