"""What the command line shows a person: progress bars and tables (rich), quiet when piped."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

Advance = Callable[[int, int], None]
"""``(done, total)``: called as work goes on."""


@contextlib.contextmanager
def progress(label: str, *, enabled: bool = True) -> Iterator[Advance | None]:
    """A progress bar on stderr while it is a terminal; None (no bar) otherwise."""
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield None
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(label, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def print_table(rows: Sequence[tuple[str, str, str]], *, title: str | None = None) -> None:
    """Label, value and unit rows, values aligned right, on stdout."""
    table = Table(title=title, show_header=False, box=None, pad_edge=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("unit")
    for row in rows:
        table.add_row(*row)
    Console(file=sys.stdout, soft_wrap=True).print(table)
