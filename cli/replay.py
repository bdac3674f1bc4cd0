"""``tabletale replay CAMPAIGN [--verify]``: rebuild a stored campaign, or check it.

``--verify`` says in words what it could check and what it could not. Exit status: 0 every
stored state hash is reproduced; 1 the stream is damaged or diverges (named by version);
2 the store cannot be used, or holds no such campaign (the answer names the store and its key
prefix); 3 the campaign is on a ruleset this server does not play, so its stream was read and
found whole but no state hash could be checked.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import msgspec

from cli.stores import opened
from server.campaigns.raw import check_stored
from server.campaigns.service import CampaignService
from server.store.base import StoreError, UnknownCampaign
from server.store.contract import EventStore

UNPLAYED = 3
"""The exit status of a campaign of a ruleset this server does not play."""


def _say(text: str) -> None:
    print(text, flush=True)


async def replay(campaign_id: str, url: str | None, *, verify: bool) -> int:
    found = opened(url)
    if found is None:
        return 2
    store, named = found
    try:
        service = CampaignService(store)
        ruleset = await service.unplayed(campaign_id)
        if ruleset is not None:
            return await _unplayed(store, campaign_id, ruleset.unplayed or "", verify=verify)
        if verify:
            return await _verify(service, campaign_id)
        version, state = await service.replay(campaign_id)
        game = await service.game_of(campaign_id)
        _say(f"{campaign_id}: version {version}, {game.outcome(state)}")
        _say(msgspec.json.format(msgspec.json.encode(game.view(state, None)).decode()))
        return 0
    except UnknownCampaign:
        print(f"tabletale: There is no campaign {campaign_id!r} in {named}.", file=sys.stderr)
        return 2
    except StoreError as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2
    finally:
        await store.close()


async def _verify(service: CampaignService, campaign_id: str) -> int:
    try:
        report = await service.verify(campaign_id)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        game = (await service.info(campaign_id)).game
        _say(f"{campaign_id}: a stored event does not decode as an event of {game}: {error}.")
        return 1
    if report.ok:
        _say(f"{campaign_id}: {report.events} events, every state hash matches")
        return 0
    bad = report.first_divergence
    assert bad is not None
    if bad.refused is not None:
        _say(
            f"{campaign_id}: diverges at version {bad.version} ({bad.event_type}): the rules "
            f"cannot apply the stored event: {bad.refused}; the {bad.version - 1} events "
            "before it reproduce their stored state hashes"
        )
        return 1
    _say(
        f"{campaign_id}: diverges at version {bad.version} ({bad.event_type}): "
        f"stored hash {bad.expected_hash}, rebuilt {bad.actual_hash}"
    )
    return 1


async def _unplayed(store: EventStore, campaign_id: str, words: str, *, verify: bool) -> int:
    head = (await store.info(campaign_id)).head
    if not verify:
        _say(f"{campaign_id}: {head} events stored, not replayed. {words}")
        return UNPLAYED
    check = await check_stored(store, campaign_id, head)
    if check.problem is not None:
        _say(
            f"{campaign_id}: read as stored, the stream is damaged: {check.problem} "
            f"(versions 1 to {check.events} are whole). {words}"
        )
        return 1
    _say(
        f"{campaign_id}: checked: all {head} stored events are there, versions 1 to {head} in "
        "order, and each decodes as stored."
    )
    _say(
        f"{campaign_id}: not checked: the {head} stored state hashes, since no state can be "
        f"rebuilt without the rules it was recorded under. {words}"
    )
    return UNPLAYED


def run(args: argparse.Namespace, url: str | None) -> int:
    return asyncio.run(replay(args.campaign, url, verify=args.verify))
