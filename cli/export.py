"""``tabletale export``: one campaign as a complete export file (``docs/export.md``); a raw one,
as stored and not verified by replay, for a ruleset this server does not play."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from cli.stores import opened
from domain.core.errors import DomainError
from server.campaigns.fresh import wall_clock_ms
from server.campaigns.service import CampaignService
from server.export.raw import raw_export_lines
from server.export.writing import export_lines
from server.store.base import StoreError, UnknownCampaign


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = commands.add_parser(
        "export", help="write a campaign, its whole history, as an export file (JSON Lines)"
    )
    export.add_argument("campaign")
    export.add_argument(
        "--store",
        help="the store's URL: sqlite:PATH, redis://..., redis+cluster://... (default: "
        "$TABLETALE_STORE, else the server's settings)",
    )
    export.add_argument(
        "-o", "--output", type=Path, help="the file to write (default: standard output)"
    )


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_export(args.campaign, args.store, args.output))


async def _export(campaign_id: str, url: str | None, output: Path | None) -> int:
    found = opened(url)
    if found is None:
        return 2
    store, named = found
    try:
        service = CampaignService(store)
        ruleset = await service.unplayed(campaign_id)
        if ruleset is None:
            lines = export_lines(service, campaign_id, taken_ms=wall_clock_ms())
        else:
            # Written all the same, as stored: the file says it was not verified by replay.
            print(
                f"tabletale: {ruleset.unplayed} The file is raw: every event as stored, with "
                "its stored state hash, not verified by replay.",
                file=sys.stderr,
            )
            lines = raw_export_lines(service, campaign_id, ruleset, taken_ms=wall_clock_ms())
        if output is None:
            async for line in lines:
                sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
            return 0
        # Written beside the file and renamed over it: a failed export leaves no half file.
        partial = output.with_name(output.name + ".part")
        written = 0
        try:
            with partial.open("wb") as file:
                async for line in lines:
                    file.write(line)
                    written += 1
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        os.replace(partial, output)
        events = written - 3  # besides the header, the campaign and the closing line
        print(f"Exported campaign {campaign_id} ({events:,} events) from {named} to {output}.")
        return 0
    except UnknownCampaign:
        print(f"tabletale: There is no campaign {campaign_id!r} in {named}.", file=sys.stderr)
        return 2
    except (StoreError, DomainError) as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2
    finally:
        await store.close()
