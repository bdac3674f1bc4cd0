"""Moving a campaign forward to today's ruleset of its game, as a new stretch of its family.

The moved campaign is stored as a fork of the original at version 0: it shares none of its
events (they were decided under another ruleset) but stands in its family, so the lineage shows
it beside the original's forks with the words :data:`MOVED_TO` keeps ("moved to ruleset X"). It
holds today's creation and set-up, then each move of :func:`server.campaigns.forward.plan` that
applied, each with its seat, command and action, all stored in one step (a move that fails
leaves nothing). The original stays as it was, readable and playable under its own ruleset.

A campaign already moved is found through its forks (:func:`moved_from`), so moving twice
answers the first move instead of making a second.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from domain.core.engine import waits
from domain.core.errors import DomainError
from domain.core.events import Reseeded
from projections.catalog import KNOWN_LUCK, known_luck
from server.campaigns.codec import Recorded, codec_for
from server.campaigns.forward import Plan, plan
from server.campaigns.played import created_of, game_for
from server.campaigns.points import SEEDED_AT
from server.campaigns.repository import ORIGIN
from server.campaigns.results import Created
from server.campaigns.service import SEED_HASH, CampaignService
from server.campaigns.tokens import PRIVATE, is_private
from server.store.base import CampaignInfo, fork_key

MOVED_TO = "moved_to"
"""The moved campaign's attribute: the ruleset it was moved to, from its parent."""
MOVED_FROM_RULESET = "moved_from"
"""The moved campaign's attribute: the ruleset its parent is played under."""
FORKS_PAGE = 500


class CannotMove(DomainError):
    """A campaign that cannot be moved forward: already current, ended, or today's rules
    cannot start from its creation. Nothing is written."""

    code = "conflict"


def made_by(attrs: Mapping[str, str]) -> str | None:
    """How the lineage names a moved campaign's making; None for any other campaign."""
    ruleset = attrs.get(MOVED_TO)
    return None if ruleset is None else f"moved to ruleset {ruleset}"


async def plan_of(service: CampaignService, campaign_id: str) -> Plan:
    """What moving ``campaign_id`` forward would do, from its whole stored stream (decoded by
    the game of its own ruleset; UnsupportedRuleset with words for one this server does not
    keep), worked out off the event loop."""
    stored = await service.store.read(campaign_id)
    if not stored:
        raise CannotMove(f"Campaign {campaign_id} has no events yet.")
    game = game_for(created_of(stored[0].data))
    recorded: list[Recorded[Any]] = codec_for(game).decode_stored(stored)
    return await asyncio.to_thread(plan, campaign_id, game, recorded)


async def moved_from(service: CampaignService, campaign_id: str) -> CampaignInfo | None:
    """The campaign ``campaign_id`` was already moved forward to, if any."""
    after = None
    while True:
        page = await service.store.forks_of(campaign_id, after=after, limit=FORKS_PAGE)
        for fork in page:
            if MOVED_TO in fork.attrs:
                return fork
        if len(page) < FORKS_PAGE:
            return None
        after = fork_key(page[-1])


async def check_movable(service: CampaignService, campaign_id: str, moving: Plan) -> None:
    """Raise CannotMove unless ``moving`` can be done now: a campaign of an older ruleset that
    still runs, today's rules can start from, and was not moved forward before."""
    if moving.kind == "current":
        raise CannotMove(moving.why)
    if moving.kind == "not_possible":
        raise CannotMove(f"Campaign {campaign_id} cannot move forward: {moving.why}")
    head = await service.head(campaign_id)
    if head.outcome != "running":
        raise CannotMove(
            f"Campaign {campaign_id} has ended ({head.outcome}); only a running campaign moves"
            " forward. It stays readable under its own ruleset."
        )
    if (done := await moved_from(service, campaign_id)) is not None:
        raise CannotMove(f"Campaign {campaign_id} was already moved forward, to {done.id}.")


async def move_forward(
    service: CampaignService, campaign_id: str, moving: Plan, *, attrs: dict[str, str]
) -> Created:
    """Store the campaign ``moving`` plans (see the module's docstring); ``attrs``: the moved
    campaign's own (its seats' tokens, who asked). Raises CannotMove for a plan with nothing to
    store, or for a campaign already moved."""
    await check_movable(service, campaign_id, moving)
    info = await service.store.info(campaign_id)
    created = moving.stretches[0].steps[0][0]
    today = game_for(created)
    codec = codec_for(today)
    now = service.clock()
    payloads: list[bytes] = []
    version = 0
    origin, seeded_at = len(moving.stretches[0].steps), 1
    for stretch in moving.stretches:
        encoded, _ = codec.encode_steps(
            version, stretch.steps, stretch.seat, stretch.command, now, stretch.action
        )
        payloads += encoded
        version += len(stretch.steps)
        if isinstance(stretch.steps[0][0], Reseeded):
            # A fork's new luck: no rewind may return to the luck before it (as in the fork).
            origin = seeded_at = version
    # The same seed and salt as the original: whoever played it has seen this luck.
    child_attrs = {
        **{k: v for k, v in info.attrs.items() if k in (SEED_HASH, PRIVATE)},
        **attrs,
        ORIGIN: str(origin),
        SEEDED_AT: str(seeded_at),
        KNOWN_LUCK: "1",
        MOVED_TO: moving.today,
        MOVED_FROM_RULESET: moving.ruleset,
    }
    if not known_luck(info.attrs):
        await service.store.add_attrs(campaign_id, {KNOWN_LUCK: "1"})
    child_id = service.new_campaign_id()
    last_state = moving.stretches[-1].steps[-1][1]
    await service.store.fork(
        campaign_id,
        0,
        child_id,
        now_ms=now,
        attrs=child_attrs,
        events=payloads,
        listed=not is_private(child_attrs),
        point=waits(today, last_state),
    )
    return Created(child_id, today.info.name, created.seats, child_attrs[SEED_HASH], version)
