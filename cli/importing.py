"""``tabletale import``: restore a campaign from an export file, after checking all of it."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from cli.stores import opened
from domain.core.errors import DomainError
from server.export.errors import TransferError
from server.export.importing import import_export
from server.export.reading import read_export
from server.store.base import StoreError

_SAID = {
    "created": "stored it",
    "forked": "stored it as a fork of {parent}, which the store holds",
    "completed": "added the {appended:,} events the store's copy lacked",
    "present": "the store holds every one of its events already; nothing was written",
}


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    importing = commands.add_parser(
        "import", help="check an export file and store its campaign (docs/export.md)"
    )
    importing.add_argument("file", type=Path)
    importing.add_argument(
        "--store",
        help="the store's URL: sqlite:PATH, redis://..., redis+cluster://... (default: "
        "$TABLETALE_STORE, else the server's settings)",
    )


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_import(args.file, args.store))


async def _import(path: Path, url: str | None) -> int:
    """0 when stored (or already there), 1 when the file or the target refuses it, 2 when the
    store or the file cannot be reached."""
    try:
        with path.open("rb") as file:
            exported = read_export(file)
    except TransferError as error:
        print(f"tabletale: {path} refused: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2
    found = opened(url)
    if found is None:
        return 2
    store, named = found
    try:
        done = await import_export(store, exported)
    except TransferError as error:
        print(f"tabletale: {path} refused: {error}", file=sys.stderr)
        return 1
    except (StoreError, DomainError) as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2
    finally:
        await store.close()
    said = _SAID[done.outcome].format(parent=done.parent, appended=done.appended)
    if done.staged:
        said = f"stored it in steps in {done.parent}, then made it visible as a fork of that"
    print(
        f"Campaign {done.campaign} ({exported.campaign.game}, {done.events:,} events, every "
        f"state hash replayed) into {named}: {said}."
    )
    return 0
