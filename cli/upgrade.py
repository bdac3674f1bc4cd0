"""``tabletale upgrade``: move every running campaign of an older ruleset forward to today's
ruleset of its game, as a new campaign of its family (``docs/releases.md``, "Moving a campaign
forward"); ``--dry-run`` lists what that would do to each campaign of the store.

Resumable: run it again after it was stopped and it moves the rest; a campaign already moved is
skipped (found through its lineage)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from cli.stores import opened
from domain.core.errors import DomainError
from server.campaigns.service import CampaignService
from server.export.migration import catalog_of
from server.lineage.upgrading import Done, Tally, upgrade
from server.store.base import StoreError

PLANS = {
    "identical": "identical",
    "diverges": "diverge",
    "not_possible": "not possible",
    "current": "already current",
}


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    up = commands.add_parser(
        "upgrade",
        help="move every running campaign of an older ruleset forward to today's ruleset",
    )
    up.add_argument(
        "--store",
        help="the store's URL: sqlite:PATH, redis://..., redis+cluster://... (default: "
        "$TABLETALE_STORE, else the server's settings), as export, import and migrate take it",
    )
    up.add_argument(
        "--dry-run",
        action="store_true",
        help="list what moving each campaign forward would do, and move none",
    )


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_upgrade(args.store, dry_run=args.dry_run))


def _line(done: Done) -> str:
    text = f"{done.campaign} ({done.ruleset}): {done.said}"
    match done.status:
        case "moved":
            seats = ", ".join(f"{seat}={token}" for seat, token in sorted(done.tokens.items()))
            return f"{text}; moved to {done.moved_to}, seat tokens: {seats}"
        case "already moved":
            return f"{text}; already moved to {done.moved_to}"
    return text


async def _upgrade(url: str | None, *, dry_run: bool) -> int:
    found = opened(url)
    if found is None:
        return 2
    store, named = found
    try:
        service = CampaignService(store)
        infos = await catalog_of(store)
        doing = "What moving forward would do to" if dry_run else "Moving forward"
        print(f"{doing} {len(infos):,} campaigns of {named}.", flush=True)
        tally = Tally()
        async for done in upgrade(service, infos, dry_run=dry_run):
            tally.add(done)
            print(_line(done), flush=True)
        plans = ", ".join(f"{tally.plans[kind]:,} {word}" for kind, word in PLANS.items())
        print(f"Plans: {plans}.")
        statuses = tally.statuses
        print(
            f"{'Would move' if dry_run else 'Moved'} "
            f"{statuses['moved'] + statuses['would move']:,}; "
            f"{statuses['already moved']:,} moved before; "
            f"{statuses['ended']:,} ended (not moved, readable under their own rulesets)."
        )
        return 0
    except (StoreError, DomainError) as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2
    finally:
        await store.close()
