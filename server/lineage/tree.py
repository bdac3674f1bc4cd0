"""A campaign family's tree of branches, from each campaign's metadata and rewinds. Pure.

Every version names one state, and each event starts from the state before it: event ``v`` from
version ``v - 1``, a ``Rewound(to)`` event from version ``to`` (its state is ``to``'s), a fork's
first own event from its fork version in its parent. So a campaign's own versions form a tree,
and its branches split it into lines:

- the *current line* (``root`` or ``fork``): from the head back through those starting points
  to the fork point (version 0 for a root), the rewinds it passes included;
- one *undone* stretch per rewind, latest rewind first: from the version before the ``Rewound``
  event back to the first version already on a branch, where it parts. A stretch an earlier
  rewind undid parts from the later stretch that holds its starting point, so a rewind to a
  version before an earlier rewind nests that earlier stretch inside its own. A rewind whose
  previous version is already on a branch (a rewind right after a rewind, or into a stretch an
  earlier rewind undid, which brings that stretch back) undoes nothing of its own.

Branches come depth first from the root's current line, children by the version they part at,
then by id. A fork parts from the branch, of whichever campaign, that holds its fork version.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from server.lineage.rewinds import Rewind
from server.store.base import CampaignInfo

Kind = Literal["root", "fork", "undone"]
Span = tuple[int, int]
"""Consecutive versions ``first..last`` of one branch."""


@dataclass(frozen=True)
class Member:
    """A campaign of the family: its metadata and the rewinds among its own events."""

    info: CampaignInfo
    rewinds: tuple[Rewind, ...]


@dataclass(frozen=True)
class Attach:
    """Where a branch parts: ``version`` on branch ``branch`` of campaign ``campaign``."""

    branch: str
    campaign: str
    version: int


@dataclass
class Node:
    id: str
    member: Member
    kind: Kind
    parent: Attach | None
    spans: list[Span]
    """Its own versions, lowest first."""
    rewinds: list[Rewind]
    """The ``Rewound`` events among its own versions, oldest first."""
    undone_by: Rewind | None = None
    children: list[Node] = field(default_factory=list)

    @property
    def first(self) -> int:
        return self.spans[0][0] if self.spans else self.member.info.fork_version + 1

    @property
    def last(self) -> int:
        return self.spans[-1][1] if self.spans else self.member.info.head

    @property
    def moves(self) -> int:
        return sum(last - first + 1 for first, last in self.spans)


def undone_id(campaign_id: str, first: int) -> str:
    return f"{campaign_id}~{first}"


class _Taken:
    """The versions of one campaign already on a branch: disjoint spans, by first version."""

    def __init__(self) -> None:
        self._firsts: list[int] = []
        self._spans: list[tuple[int, int, Node]] = []

    def add(self, first: int, last: int, node: Node) -> None:
        at = bisect.bisect_left(self._firsts, first)
        self._firsts.insert(at, first)
        self._spans.insert(at, (first, last, node))

    def highest_at_or_below(self, version: int) -> tuple[int, Node] | None:
        at = bisect.bisect_right(self._firsts, version) - 1
        if at < 0:
            return None
        _, last, node = self._spans[at]
        return min(last, version), node

    def holder(self, version: int) -> Node | None:
        found = self.highest_at_or_below(version)
        return found[1] if found is not None and found[0] == version else None


class _Campaign:
    """One campaign split into its branches."""

    def __init__(self, member: Member) -> None:
        info = member.info
        self.member = member
        self.base = info.fork_version if info.parent is not None else 0
        self._rewinds = {rewind.at: rewind for rewind in member.rewinds}
        self._at = sorted(self._rewinds)
        self.taken = _Taken()
        kind: Kind = "fork" if info.parent is not None else "root"
        self.line = Node(info.id, member, kind, None, [], [])
        self.parts: list[tuple[Node, int]] = [(self.line, self._walk(info.head, self.line))]
        """Each branch with the version it parts at (on this campaign, or at or below its fork
        point on its parent's)."""
        for rewind in sorted(member.rewinds, key=lambda each: each.at, reverse=True):
            top = rewind.at - 1
            if top <= self.base or self.taken.holder(top) is not None:
                continue
            node = Node("", member, "undone", None, [], [], undone_by=rewind)
            parts_at = self._walk(top, node)
            node.id = undone_id(info.id, node.first)
            self.parts.append((node, parts_at))

    def _walk(self, top: int, node: Node) -> int:
        """Put the versions from ``top`` back to the first one taken on ``node``; returns
        that one, or the first one at or below the fork point it reaches (a rewind may return
        to a version of the parent's that the fork shares)."""
        version = top
        while version > self.base:
            below = self.taken.highest_at_or_below(version)
            lowest = self.base + 1 if below is None else below[0] + 1
            if lowest > version:
                return version
            at = bisect.bisect_right(self._at, version) - 1
            if at >= 0 and self._at[at] >= lowest:
                # Versions above the rewind follow each other; the rewind starts from ``to``.
                rewind = self._rewinds[self._at[at]]
                self._take(rewind.at, version, node)
                node.rewinds.insert(0, rewind)
                version = rewind.to
                continue
            self._take(lowest, version, node)
            return lowest - 1
        return version

    def _take(self, first: int, last: int, node: Node) -> None:
        self.taken.add(first, last, node)
        node.spans.insert(0, (first, last))
        if len(node.spans) > 1 and node.spans[0][1] + 1 == node.spans[1][0]:
            node.spans[0:2] = [(node.spans[0][0], node.spans[1][1])]


def tree(members: Sequence[Member], root: str) -> list[Node]:
    """The branches of the family rooted at ``root``, in order (depth first)."""
    campaigns = {member.info.id: _Campaign(member) for member in members}

    def holder(campaign_id: str | None, version: int) -> Node | None:
        """The branch that holds ``version`` of ``campaign_id`` (maybe an ancestor's); None
        for version 0, or a parent outside the family as read (a fork created meanwhile)."""
        while campaign_id in campaigns:
            campaign = campaigns[campaign_id]
            if version > campaign.base:
                return campaign.taken.holder(version)
            campaign_id = campaign.member.info.parent
        return None

    for campaign_id, campaign in campaigns.items():
        for node, parts_at in campaign.parts:
            parent = holder(campaign_id, parts_at)
            up = campaign.member.info.parent
            if parent is None and node is campaign.line and parts_at == 0 and up in campaigns:
                # A fork at version 0 shares no event (a campaign moved forward to another
                # ruleset, server.lineage.moving): it stands beside its parent's first stretch.
                parent = campaigns[up].line
            if parent is not None:
                node.parent = Attach(parent.id, parent.member.info.id, parts_at)
                parent.children.append(node)
    ordered: list[Node] = []
    stack = [campaigns[root].line]
    while stack:
        node = stack.pop()
        ordered.append(node)
        node.children.sort(key=lambda child: (_parts_at(child), child.id))
        stack.extend(reversed(node.children))
    return ordered


def _parts_at(node: Node) -> int:
    return 0 if node.parent is None else node.parent.version
