"""A campaign's family as a viewer may see it: the root (its parents followed up), every fork at
any depth, every stretch a rewind undid (:mod:`server.lineage.tree`), paged in tree order; and
where two campaigns' histories part.

Who may see what is decided in one place, :meth:`Lineages.seen`: a public campaign's branches
are everyone's, a private one's only a viewer's who holds a seat token of that campaign (a
fork's own tokens count for it, its parent's for the parent). A private branch that a visible
one descends from stays in the tree as a placeholder, so the tree stays connected.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from projections.catalog import CatalogEntry, known_luck
from projections.runner import CatalogRunner
from projections.timeline import line
from server.campaigns.service import CampaignService
from server.campaigns.tokens import TOKEN_PREFIX, is_private, token_hash
from server.lineage.messages import BranchOut, CompareOut, ParentOut, RewindOut
from server.lineage.moving import made_by as moved_by
from server.lineage.rewinds import Rewinds
from server.lineage.tree import Member, Node, tree
from server.store.base import CampaignInfo, UnknownCampaign, fork_key

FORKED_BY = "forked_by"
"""The campaign attribute that says who made a fork: the seat whose token asked for it,
``bot <name>`` for a bot, or :data:`SPECTATOR`."""
SPECTATOR = "a spectator"
FORKS_PAGE = 500
"""Forks read from the store at a time while the family is gathered."""
READS = 8
"""Store reads a process makes side by side while it gathers families (a cluster's pools do
not wait for a free connection)."""
KEPT_S = 120.0
"""How long a family gathered for a first page serves the pages that follow it."""
FAMILIES = 64
"""Families kept for their following pages."""
UNDONE = "undone"
T = TypeVar("T")
Clock = Callable[[], float]


def forked_by(seat: str | None) -> dict[str, str]:
    """The attribute that remembers who asked for a fork (None: a spectator)."""
    return {FORKED_BY: SPECTATOR if seat is None else seat}


class Viewer:
    """Who asks: a spectator, or the holder of one seat token (of any campaign)."""

    def __init__(self, token: str | None) -> None:
        self.token = token
        self._digest = None if token is None else token_hash(token)

    def seat_in(self, attrs: Mapping[str, str]) -> str | None:
        """The seat of the campaign with ``attrs`` that the viewer's token opens, if any."""
        if self._digest is None:
            return None
        for key, stored in sorted(attrs.items()):
            if key.startswith(TOKEN_PREFIX) and hmac.compare_digest(stored, self._digest):
                return key.removeprefix(TOKEN_PREFIX)
        return None

    def sees(self, info: CampaignInfo) -> bool:
        return not is_private(info.attrs) or self.seat_in(info.attrs) is not None


@dataclass(frozen=True)
class Seen:
    """A family's branches in tree order, each with whether the viewer sees its details
    (False: a private placeholder); ``opened`` says whether the viewer's token opened any."""

    root: str
    branches: list[tuple[Node, bool]]
    opened: bool


class Lineages:
    """Families as viewers see them. A first page gathers the family from the store; the pages
    that follow it (whose cursor names the family's root) read the family as it was then, for
    :data:`KEPT_S` at most, so paging through a family of hundreds of forks gathers it once.
    Outcomes are read afresh for every page."""

    def __init__(
        self, service: CampaignService, catalog: CatalogRunner, *, clock: Clock = time.monotonic
    ) -> None:
        self._service = service
        self._store = service.store
        self._catalog = catalog
        self._clock = clock
        self.rewinds = Rewinds(service.heads)
        self._reads = asyncio.Semaphore(READS)
        self._families: OrderedDict[str, tuple[float, dict[str, Member]]] = OrderedDict()

    async def seen(self, campaign_id: str, viewer: Viewer, *, root: str | None = None) -> Seen:
        """The family of ``campaign_id`` as ``viewer`` may see it; ``root``: the root a
        following page's cursor names. Raises UnknownCampaign for an unknown campaign, and
        alike for one the viewer may not see."""
        members = self._kept(root, campaign_id) or await self._family(campaign_id)
        asked = members.get(campaign_id)
        if asked is None or not viewer.sees(asked.info):
            raise UnknownCampaign(campaign_id)
        root = next(m.info.id for m in members.values() if m.info.parent is None)
        nodes = tree(list(members.values()), root)
        shown = {node.id: viewer.sees(node.member.info) for node in nodes}
        # A branch hidden from the viewer stays when a visible one descends from it.
        by_id = {node.id: node for node in nodes}
        needed: set[str] = set()
        for node in nodes:
            if shown[node.id]:
                parent = node.parent
                while parent is not None and parent.branch not in needed:
                    needed.add(parent.branch)
                    parent = by_id[parent.branch].parent
        branches = [(node, shown[node.id]) for node in nodes if shown[node.id] or node.id in needed]
        opened = any(viewer.seat_in(m.info.attrs) is not None for m in members.values())
        return Seen(root, branches, opened)

    def _kept(self, root: str | None, campaign_id: str) -> dict[str, Member] | None:
        kept = None if root is None else self._families.get(root)
        if kept is None or self._clock() - kept[0] > KEPT_S or campaign_id not in kept[1]:
            return None
        return kept[1]

    async def _family(self, campaign_id: str) -> dict[str, Member]:
        """Every campaign of ``campaign_id``'s family, with its rewinds, from the store."""
        info = await self._store.info(campaign_id)
        while info.parent is not None:
            info = await self._store.info(info.parent)
        root = info.id
        infos = {root: info}
        level = [info]
        while level:
            found = await asyncio.gather(*(self._read(self._forks(each.id)) for each in level))
            level = [fork for forks in found for fork in forks if fork.id not in infos]
            infos |= {fork.id: fork for fork in level}
        rewinds = await asyncio.gather(
            *(self._read(self.rewinds.of(each)) for each in infos.values())
        )
        members = {
            each.id: Member(each, found)
            for each, found in zip(infos.values(), rewinds, strict=True)
        }
        self._families[root] = (self._clock(), members)
        self._families.move_to_end(root)
        while len(self._families) > FAMILIES:
            self._families.popitem(last=False)
        return members

    async def _read(self, work: Awaitable[T]) -> T:
        async with self._reads:
            return await work

    async def _forks(self, campaign_id: str) -> list[CampaignInfo]:
        forks: list[CampaignInfo] = []
        while True:
            after = fork_key(forks[-1]) if forks else None
            page = await self._store.forks_of(campaign_id, after=after, limit=FORKS_PAGE)
            forks += page
            if len(page) < FORKS_PAGE:
                return forks

    async def described(self, branches: Sequence[tuple[Node, bool]]) -> list[BranchOut]:
        """The wire form of a page of branches; only the shown ones' campaigns are read."""
        infos = {node.member.info.id: node.member.info for node, shown in branches if shown}
        entries = {entry.id: entry for entry in await self._catalog.entries(infos.values())}
        ended = {
            cid: await self._ended(cid, entry)
            for cid, entry in entries.items()
            if entry.played and entry.status != "running"
        }
        out: list[BranchOut] = []
        for node, shown in branches:
            info = node.member.info
            if not shown:
                out.append(BranchOut(node.id, node.kind, True))
                continue
            entry = entries.get(info.id)
            undone = node.undone_by
            out.append(
                BranchOut(
                    node.id,
                    node.kind,
                    is_private(info.attrs),
                    campaign=info.id,
                    parent=None
                    if node.parent is None
                    else ParentOut(node.parent.branch, node.parent.campaign, node.parent.version),
                    first=node.first,
                    last=node.last,
                    moves=node.moves,
                    made_by=_made_by(node),
                    made_ms=info.created_ms if undone is None else undone.at_ms,
                    undone_at=None if undone is None else undone.at,
                    rewinds=[RewindOut(r.at, r.to) for r in node.rewinds],
                    outcome=UNDONE if undone else entry.status if entry else "running",
                    ended=None if undone else ended.get(info.id),
                    known_luck=known_luck(info.attrs),
                )
            )
        return out

    async def _ended(self, campaign_id: str, entry: CatalogEntry) -> str:
        """How a finished campaign ended, in the game's words: its last event's line."""
        head = await self._service.head(campaign_id)
        last = await self._service.events(campaign_id, head.version - 1, head.version)
        said = line(head.game, last[0], head.state) if last else None
        return said.text if said is not None else f"The campaign was {entry.status}."

    async def compare(self, a: str, b: str, viewer: Viewer) -> CompareOut:
        """Where ``a``'s and ``b``'s histories part. Raises UnknownCampaign for either unknown,
        or one the viewer may not see."""
        first, second = await asyncio.gather(self._ancestry(a), self._ancestry(b))
        for chain in (first, second):
            if not viewer.sees(chain[0]):
                raise UnknownCampaign(chain[0].id)
        common = 0
        for (mine, top), (theirs, other) in zip(_sources(first), _sources(second), strict=False):
            if mine != theirs:
                break
            common = min(top, other)
            if top != other:
                break
        return CompareOut(a, b, common, first[0].head, second[0].head)

    async def _ancestry(self, campaign_id: str) -> list[CampaignInfo]:
        """The campaign's metadata, then its parent's, up to the root's."""
        chain = [await self._store.info(campaign_id)]
        while (parent := chain[-1].parent) is not None:
            chain.append(await self._store.info(parent))
        return chain


def _sources(chain: list[CampaignInfo]) -> list[tuple[str, int]]:
    """Which campaign's own events a campaign reads (``chain``: its ancestry), oldest first:
    ``(campaign, up to version)``, each starting after the one before."""
    found: list[tuple[str, int]] = []
    top = chain[0].head
    for info in chain:
        low = info.fork_version if info.parent is not None else 0
        if top > low:
            found.append((info.id, top))
        top = min(top, low)
    return found[::-1]


def _made_by(node: Node) -> str | None:
    if node.undone_by is not None:
        return node.undone_by.by
    if node.kind == "root":
        return None
    attrs = node.member.info.attrs
    moved = moved_by(attrs)
    if moved is not None:
        # Who asked, and what it was: "moved to ruleset X" is what the family shows of it.
        return f"{moved} (by {attrs.get(FORKED_BY, SPECTATOR)})"
    return attrs.get(FORKED_BY)
