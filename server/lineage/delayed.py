"""A campaign family as a delayed campaign's spectators may see it (:mod:`server.live.spectators`).

A delayed running campaign's current line ends at its delayed version, with the rewinds up to it,
and where two campaigns part is told only as far as the viewer may see each of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import msgspec

from server.lineage.messages import BranchOut, CompareOut, ParentOut, RewindOut
from server.lineage.tree import Node
from server.live.spectators import Spectators


async def delayed_compare(
    spectators: Spectators, compared: CompareOut, seat_in: Callable[[Mapping[str, str]], str | None]
) -> CompareOut:
    """Where two campaigns part, as far as the viewer may see each of them."""
    a_head = await spectators.delayed_version(compared.a, seat_in) or compared.a_head
    b_head = await spectators.delayed_version(compared.b, seat_in) or compared.b_head
    common = min(compared.common, a_head, b_head)
    return CompareOut(compared.a, compared.b, common, a_head, b_head)


async def delayed_lineage(
    spectators: Spectators,
    family: Sequence[tuple[Node, bool]],
    page: Sequence[tuple[Node, bool]],
    branches: list[BranchOut],
    seat_in: Callable[[Mapping[str, str]], str | None],
) -> list[BranchOut]:
    """A page of a lineage (``branches``, described from ``page``, out of the whole
    ``family``) as a viewer whose seats ``seat_in`` names may see it: a delayed running
    campaign's current line ends at its delayed version, with the rewinds up to it; a
    stretch undone by a rewind past it is still part of that line, as the spectator knows
    it, so it is not listed and what forked from it hangs from the line."""
    visible: dict[str, int] = {}
    for node, shown in family:
        info = node.member.info
        if shown and info.id not in visible:
            found = await spectators.delayed_version(info.id, seat_in)
            if found is not None:
                visible[info.id] = found
    if not visible:
        return branches
    hidden: dict[str, list[tuple[int, int]]] = {}  # campaign -> spans of unknown rewinds
    hidden_ids: set[str] = set()
    for node, _ in family:
        cid, undone = node.member.info.id, node.undone_by
        if cid in visible and undone is not None and undone.at > visible[cid]:
            hidden.setdefault(cid, []).extend(node.spans)
            hidden_ids.add(node.id)
    out: list[BranchOut] = []
    for (node, _), branch in zip(page, branches, strict=True):
        if node.id in hidden_ids:
            continue
        parent = branch.parent
        if isinstance(parent, ParentOut) and parent.branch in hidden_ids:
            branch = msgspec.structs.replace(
                branch, parent=ParentOut(parent.campaign, parent.campaign, parent.version)
            )
        last = visible.get(node.member.info.id)
        if last is not None and node.undone_by is None:
            spans = [*node.spans, *hidden.get(node.member.info.id, [])]
            branch = msgspec.structs.replace(
                branch,
                last=last,
                moves=sum(max(0, min(end, last) - start + 1) for start, end in spans),
                rewinds=[RewindOut(r.at, r.to) for r in node.rewinds if r.at <= last],
            )
        out.append(branch)
    return out
