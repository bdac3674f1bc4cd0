"""Moving every campaign of a store forward (``tabletale upgrade``): each campaign's plan
(:mod:`server.campaigns.forward`), and, when asked, the move (:mod:`server.lineage.moving`) of
every one on an older ruleset that still runs and today's rules can start.

Resumable: a campaign already moved is found through its lineage (:func:`moved_from`) and
skipped, so a run stopped half-way and started again moves the rest and nothing twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field

from domain.core.errors import DomainError
from server.campaigns.service import CampaignService
from server.campaigns.tokens import new_tokens, token_attrs
from server.lineage.family import FORKED_BY
from server.lineage.moving import move_forward, moved_from, plan_of
from server.store.base import CampaignInfo

BY = "tabletale upgrade"
"""Who made the campaigns a run moves, as their lineage says."""
Status = str
"""What a run did with a campaign: ``moved``; ``already moved``; ``ended`` (not moved: it no
longer runs, and stays readable under its own ruleset); ``would move`` (a dry run); ``not
moved`` (a plan with nothing to do)."""


@dataclass(frozen=True)
class Done:
    """One campaign of the store, what moving it forward would do, and what the run did."""

    campaign: str
    ruleset: str
    plan: str
    """The plan's kind: identical, diverges, not_possible, current."""
    said: str
    """The plan in one line (``diverges at move 26 of 60``), or why there is none."""
    status: Status
    moved_to: str | None = None
    tokens: dict[str, str] = field(default_factory=dict)
    """The moved campaign's seat tokens (shown once)."""


@dataclass
class Tally:
    plans: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)

    def add(self, done: Done) -> None:
        self.plans[done.plan] += 1
        self.statuses[done.status] += 1


async def upgrade(
    service: CampaignService, infos: Iterable[CampaignInfo], *, dry_run: bool
) -> AsyncIterator[Done]:
    """Each of ``infos`` (every campaign of the store), by id, with what was done to it."""
    for info in sorted(infos, key=lambda each: each.id):
        yield await _one(service, info, dry_run=dry_run)


async def _one(service: CampaignService, info: CampaignInfo, *, dry_run: bool) -> Done:
    try:
        plan = await plan_of(service, info.id)
    except DomainError as error:  # a ruleset this server does not keep, an empty stream
        return Done(info.id, "?", "not_possible", f"not possible ({error})", "not moved")
    if plan.kind in ("current", "not_possible"):
        said = plan.summary if plan.kind == "current" else f"not possible ({plan.why})"
        return Done(info.id, plan.ruleset, plan.kind, said, "not moved")
    done = await moved_from(service, info.id)
    if done is not None:
        return Done(info.id, plan.ruleset, plan.kind, plan.summary, "already moved", done.id)
    head = await service.head(info.id)
    if head.outcome != "running":
        said = f"{plan.summary}; it has ended ({head.outcome})"
        return Done(info.id, plan.ruleset, plan.kind, said, "ended")
    if dry_run:
        return Done(info.id, plan.ruleset, plan.kind, plan.summary, "would move")
    tokens = new_tokens(plan.seats)
    created = await move_forward(
        service, info.id, plan, attrs=token_attrs(tokens) | {FORKED_BY: BY}
    )
    return Done(info.id, plan.ruleset, plan.kind, plan.summary, "moved", created.id, tokens)
