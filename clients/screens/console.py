"""The terminal's own input and output: lines typed, read while the socket keeps being read, and
lines written to a rich console, in colour where the terminal has it (not when it is not a
terminal, nor when NO_COLOR is set), or to a plain sink of lines."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

Read = Callable[[str], str]
Write = Callable[[str], None]
PROMPT = "> "
LINE_SINK_WIDTH = 80
"""What a sink of lines is taken to be as wide as; it has no height (nothing is paged)."""


class Output:
    """Where the client writes: a rich console on stdout (its width and height, colour when it is
    a terminal that has it and NO_COLOR is not set), or ``write``, a sink of plain lines."""

    def __init__(self, write: Write | None = None) -> None:
        self.write = write
        plain = bool(os.environ.get("NO_COLOR"))
        self.console = Console(
            highlight=False,
            markup=False,
            emoji=False,
            soft_wrap=True,
            color_system=None if plain else "auto",
        )
        self.prompted = False

    @property
    def size(self) -> tuple[int, int | None]:
        if self.write is not None:
            return LINE_SINK_WIDTH, None
        if self.console.is_terminal:
            # The terminal's own size, which follows a resize; LINES and COLUMNS inherited from
            # a parent process would not.
            with contextlib.suppress(OSError, ValueError):
                size = os.get_terminal_size(self.console.file.fileno())
                return size.columns, size.lines
        width, height = self.console.size
        return width, height

    def line(self, text: str | Text, style: str = "") -> None:
        if self.write is not None:
            self.write(text.plain if isinstance(text, Text) else text)
            return
        if self.prompted:
            self.console.print()  # leave the prompt's line
            self.prompted = False
        self.console.print(text if isinstance(text, Text) else Text(text, style=style))

    def prompt(self) -> None:
        if self.write is None and not self.prompted:
            self.console.print(PROMPT, end="")
            self.console.file.flush()
            self.prompted = True

    def typed(self) -> None:
        """A line was typed: the terminal ended the prompt's line."""
        self.prompted = False


class Keyboard:
    """Lines typed, read without holding up the socket: stdin watched by the event loop (or, where
    it cannot be, read in a thread), or ``read`` called in a thread. None at the end of input."""

    def __init__(self, read: Read | None = None) -> None:
        self.read = read
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._waiting = False
        self._buffer = b""
        self._fd: int | None = None
        if read is None:
            self._watch_stdin()

    def _watch_stdin(self) -> None:
        try:
            fd = sys.stdin.fileno()
            self._loop.add_reader(fd, self._readable, fd)
            self._fd = fd
        except (OSError, ValueError, NotImplementedError, PermissionError):
            threading.Thread(target=self._read_stdin, daemon=True).start()

    def _readable(self, fd: int) -> None:
        chunk = os.read(fd, 4096)
        if not chunk:
            self._loop.remove_reader(fd)
            self._fd = None
            self.lines.put_nowait(None)
            return
        self._buffer += chunk
        *whole, self._buffer = self._buffer.split(b"\n")
        for line in whole:
            self.lines.put_nowait(line.decode(errors="replace"))

    def _read_stdin(self) -> None:
        for line in sys.stdin:
            self._post(line.rstrip("\n"))
        self._post(None)

    def _post(self, line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is reading
            self._loop.call_soon_threadsafe(self.lines.put_nowait, line)

    async def line(self) -> str | None:
        if self.read is not None and self.lines.empty() and not self._waiting:
            self._waiting = True
            threading.Thread(target=self._read_once, daemon=True).start()
        line = await self.lines.get()
        self._waiting = False
        return line

    def _read_once(self) -> None:
        assert self.read is not None
        try:
            line: str | None = self.read(PROMPT)
        except (EOFError, StopIteration):
            line = None
        self._post(line)

    def close(self) -> None:
        if self._fd is not None:
            self._loop.remove_reader(self._fd)
            self._fd = None
