"""The decision points of each campaign: the versions where some seat has a decision to make or
the campaign has ended, the only ones a campaign may be forked at or rewound to.

A version qualifies when its event closes an append (``settled``) and its state waits
(:func:`~domain.core.engine.waits`). Each version names one state forever, so a campaign's list
only grows: it is kept with the state it reached and extended from there, and dropped when the
heads repository finds that the store's history is not the one cached (a listener's ``reset``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, NamedTuple

from domain.core.engine import waits
from server.codec import Recorded
from server.head import Head
from server.heads import HeadRepository
from server.store.base import StoreError


class _Known(NamedTuple):
    """A campaign's decision points up to ``version``, and the state there to go on from."""

    version: int
    state: Any
    points: tuple[int, ...]


class DecisionPoints:
    def __init__(self, heads: HeadRepository, *, capacity: int = 1024) -> None:
        self._heads = heads
        self._capacity = capacity
        self._known: OrderedDict[str, _Known] = OrderedDict()
        heads.listen(self)

    async def up_to(self, head: Head) -> tuple[int, ...]:
        """The decision points up to ``head``, oldest first."""
        campaign_id = head.facts.id
        known = self._known.get(campaign_id)
        if known is not None and known.version >= head.version:
            self._known.move_to_end(campaign_id)
            return tuple(v for v in known.points if v <= head.version)
        version, state, points = (0, None, ()) if known is None else known
        if version < head.version:
            # Only what ``head`` carries is used, never the campaign's lock: a rewind asks from
            # inside it.
            recorded = await self._heads.history.read(head.facts, version, head.version)
            if not recorded or recorded[0].version != version + 1:
                # The store's history is not what the head was built from: start again later.
                raise StoreError(f"Campaign {campaign_id} changed while its history was read.")
            folded = await self._heads.history.fold(head.facts, recorded, state, version)
            game = head.game
            found = [
                item.version
                for item, after in zip(recorded, folded, strict=True)
                if item.settled and waits(game, after)
            ]
            version, state, points = recorded[-1].version, folded[-1], (*points, *found)
        self._known[campaign_id] = _Known(version, state, points)
        self._known.move_to_end(campaign_id)
        while len(self._known) > self._capacity:
            self._known.popitem(last=False)
        return points

    # -- what the heads repository tells ---------------------------------------------------

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        return None  # the list is extended when asked for, from the state it reached

    def reset(self, head: Head) -> None:
        self._known.pop(head.facts.id, None)
