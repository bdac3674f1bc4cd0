"""``tabletale migrate``: copy every campaign from one store to another, then verify the copy.

Run it again after it was stopped (or killed) and it completes what it had begun; see
:mod:`server.export.migration` and ``docs/export.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from server.export.migration import CHUNK, WORKERS, Migration, catalog_of
from server.export.store_url import StoreUrl
from server.export.verification import Verification
from server.store.base import StoreError

Advance = Callable[[int, int, int], None]
PLAIN_STEPS = 10
"""Plain progress lines per pass when the output is not a terminal."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    migrate = commands.add_parser(
        "migrate", help="copy every campaign from one store to another, then verify the copy"
    )
    migrate.add_argument(
        "--from", dest="source", required=True, help="sqlite:PATH, redis://... or redis+cluster://"
    )
    migrate.add_argument(
        "--to", dest="target", required=True, help="sqlite:PATH, redis://... or redis+cluster://"
    )
    migrate.add_argument(
        "--chunk", type=int, default=CHUNK, help=f"events per write (default: {CHUNK})"
    )
    migrate.add_argument(
        "--workers", type=int, default=WORKERS, help=f"campaigns at once (default: {WORKERS})"
    )


@contextlib.contextmanager
def progress(label: str) -> Iterator[Advance]:
    """A progress bar on a terminal (stderr); otherwise a plain line at every tenth."""
    console = Console(stderr=True)
    if console.is_terminal:
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[events]:,} events"),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=console) as bar:
            task = bar.add_task(label, total=None, events=0)
            yield lambda done, total, events: bar.update(
                task, completed=done, total=total, events=events
            )
        return
    shown = -1

    def line(done: int, total: int, events: int) -> None:
        nonlocal shown
        step = done * PLAIN_STEPS // max(total, 1)
        if step > shown:
            shown = step
            print(f"{label}: {done:,} of {total:,} campaigns, {events:,} events", flush=True)

    yield line


def run(args: argparse.Namespace) -> int:
    try:
        source, target = StoreUrl(args.source), StoreUrl(args.target)
    except ValueError as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2
    if source.path is not None and not source.path.is_file():
        print(f"tabletale: there is no SQLite store at {source.path}.", file=sys.stderr)
        return 2
    if args.chunk < 1 or args.workers < 1:
        print("tabletale: --chunk and --workers take a whole number from 1 up.", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_migrate(source, target, chunk=args.chunk, workers=args.workers))
    except StoreError as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2


async def _migrate(source_url: StoreUrl, target_url: StoreUrl, *, chunk: int, workers: int) -> int:
    """0 when every campaign was copied and verified; 1 when one was refused, diverges or is
    missing from the target's catalog."""
    source, target = source_url.open(), target_url.open()
    try:
        infos = await catalog_of(source)
        print(
            f"Migrating {len(infos):,} campaigns from {source_url.describe()} "
            f"to {target_url.describe()}.",
            flush=True,
        )
        with progress("copying") as advance:
            migration = Migration(source, target, chunk=chunk, workers=workers, advance=advance)
            copied = await migration.run(infos)
        print(
            f"Copied in {copied.seconds:.1f} s: {copied.created:,} campaigns stored, "
            f"{copied.completed:,} completed, {copied.present:,} there already, "
            f"{len(copied.refused):,} refused; {copied.events_written:,} events written.",
            flush=True,
        )
        for refused in copied.refused:
            print(f"refused {refused.campaign}: {refused.reason}", flush=True)
        refused_ids = {refused.campaign for refused in copied.refused}
        checked = [info for info in infos if info.id not in refused_ids]
        with progress("verifying") as advance:
            verified = await Verification(source, target, workers=workers, advance=advance).run(
                checked
            )
        print(
            f"Verified in {verified.seconds:.1f} s: {verified.campaigns:,} campaigns, "
            f"{verified.events:,} events equal byte for byte, {verified.replayed:,} replayed "
            f"with their state hashes; {len(verified.divergences):,} divergences.",
            flush=True,
        )
        for divergence in verified.divergences:
            print(f"diverges {divergence.campaign}: {divergence.what}", flush=True)
        if verified.unplayed:
            print(
                f"{len(verified.unplayed):,} campaigns recorded under a ruleset this server does "
                "not play were compared byte for byte but not replayed.",
                flush=True,
            )
        if verified.unlisted:
            print(
                f"{len(verified.unlisted):,} campaigns are copied whole but missing from the "
                "target's catalog: a run was killed between the store's creating one and its "
                "entering it in the catalog; run the migration again to put them back.",
                flush=True,
            )
            for campaign_id in verified.unlisted:
                print(f"unlisted {campaign_id}", flush=True)
        trouble = copied.refused or verified.divergences or verified.unlisted
        return 1 if trouble else 0
    finally:
        await asyncio.gather(source.close(), target.close())
