"""A one-line progress bar on a terminal, and silence everywhere else."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


def progress_bar(
    label: str, *, stream: TextIO | None = None, enabled: bool = True
) -> Callable[[int, int], None] | None:
    """A ``(done, total)`` callback drawing a bar on ``stream`` when it is a terminal, else None."""
    out = stream if stream is not None else sys.stderr
    if not enabled or not out.isatty():
        return None
    last = 0.0

    def update(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done < total and now - last < 0.1:
            return  # redraw at most ten times a second
        last = now
        width = 30
        filled = width * done // max(total, 1)
        out.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            out.write("\n")
        out.flush()

    return update
