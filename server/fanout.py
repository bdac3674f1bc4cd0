"""Live fan-out: one tail task per watched campaign per process, feeding every local subscriber.

The tail follows the campaign's stream through ``store.wait_for`` (XREAD BLOCK on Redis), so events
appended by any process reach this process's sockets. It keeps the head state itself, applies each
new event once, and hands each subscriber the event with that seat's view and legal actions.
A subscriber that falls too far behind is cut off (it reconnects and resumes from its version).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from domain.core.engine import evolve
from domain.core.events import Rewound
from domain.core.game import Game
from projections.log import seen_event
from projections.views import choices, seat_view
from server.codec import Recorded, codec_for
from server.messages import EventMessage
from server.service import CampaignService
from server.store.base import StoreError, StoreUnavailable, UnknownCampaign

log = logging.getLogger("tabletale.fanout")

LAGGING = None
"""Put on a subscriber's queue when it fell too far behind to catch up live."""


def event_message(
    game: Game, recorded: Recorded[Any], state: Any, seat: str | None
) -> EventMessage:
    """``recorded`` (which produced ``state``) as ``seat`` receives it."""
    outcome = game.outcome(state)
    return EventMessage(
        version=recorded.version,
        event=seen_event(game, recorded.event, seat, ended=outcome != "running"),
        view=seat_view(game, state, seat),
        legal_actions=choices(game, state, seat),
        outcome=outcome,
        seat=recorded.seat,
        at_ms=recorded.at_ms,
    )


async def advance(
    service: CampaignService, campaign_id: str, game: Game, state: Any, recorded: Recorded[Any]
) -> Any:
    """The state after ``recorded``, given ``state`` before it."""
    if isinstance(recorded.event, Rewound):
        _, state = await service.state_at(campaign_id, recorded.event.to)
        return state
    return evolve(game, state, recorded.event)


async def missed(
    service: CampaignService, campaign_id: str, seat: str | None, since: int
) -> tuple[Any, list[EventMessage]]:
    """The state at ``since`` and the event messages of every later version, up to the head."""
    game = await service.game_of(campaign_id)
    _, start = await service.state_at(campaign_id, since)
    state = start
    messages: list[EventMessage] = []
    for recorded in await service.events(campaign_id, since):
        state = await advance(service, campaign_id, game, state, recorded)
        messages.append(event_message(game, recorded, state, seat))
    return start, messages


class Subscriber:
    def __init__(self, seat: str | None, *, limit: int) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[EventMessage | None] = asyncio.Queue()
        self._limit = limit
        self.lagging = False

    def offer(self, message: EventMessage) -> None:
        if self.lagging:
            return
        if self.queue.qsize() >= self._limit:
            self.lagging = True
            self.queue.put_nowait(LAGGING)
            return
        self.queue.put_nowait(message)


class _Tail:
    def __init__(self, campaign_id: str, game: Game, version: int, state: Any) -> None:
        self.campaign_id = campaign_id
        self.game = game
        self.version = version
        self.state = state
        self.subscribers: set[Subscriber] = set()
        self.task: asyncio.Task[None] | None = None


class Hub:
    def __init__(
        self,
        service: CampaignService,
        *,
        block: float = 5.0,
        queue_limit: int = 1000,
        retry: Sequence[float] = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0),
    ) -> None:
        self._service = service
        self._block = block
        self._queue_limit = queue_limit
        self._retry = tuple(retry)
        self._tails: dict[str, _Tail] = {}
        self._lock = asyncio.Lock()

    @property
    def watched(self) -> int:
        return len(self._tails)

    async def subscribe(self, campaign_id: str, seat: str | None) -> Subscriber:
        """Receive every event after the current head (and possibly a few before: skip those)."""
        async with self._lock:
            tail = self._tails.get(campaign_id)
            if tail is None:
                game = await self._service.game_of(campaign_id)
                version, state = await self._service.state_at(campaign_id)
                tail = _Tail(campaign_id, game, version, state)
                tail.task = asyncio.create_task(self._follow(tail), name=f"tail:{campaign_id}")
                self._tails[campaign_id] = tail
            subscriber = Subscriber(seat, limit=self._queue_limit)
            tail.subscribers.add(subscriber)
            return subscriber

    def unsubscribe(self, campaign_id: str, subscriber: Subscriber) -> None:
        tail = self._tails.get(campaign_id)
        if tail is None:
            return
        tail.subscribers.discard(subscriber)
        if not tail.subscribers:
            del self._tails[campaign_id]
            if tail.task is not None:
                tail.task.cancel()

    async def close(self) -> None:
        tasks = [tail.task for tail in self._tails.values() if tail.task is not None]
        self._tails.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _follow(self, tail: _Tail) -> None:
        store = self._service.store
        codec = codec_for(tail.game)
        failures = 0
        while True:
            try:
                stored = await store.wait_for(tail.campaign_id, tail.version, self._block)
                for item in stored:
                    recorded = codec.decode_recorded(item.version, item.data)
                    tail.state = await advance(
                        self._service, tail.campaign_id, tail.game, tail.state, recorded
                    )
                    tail.version = recorded.version
                    self._dispatch(tail, recorded)
                failures = 0
            except UnknownCampaign:
                log.warning("Campaign %s vanished; its tail stops.", tail.campaign_id)
                return
            except Exception as error:
                # Most likely the store is down: keep the subscribers, retry with a growing pause.
                pause = self._retry[min(failures, len(self._retry) - 1)]
                failures += 1
                if not isinstance(error, StoreUnavailable | StoreError | OSError):
                    log.exception("Tail of %s failed; retrying.", tail.campaign_id)
                else:
                    log.warning("Tail of %s waiting for the store: %s", tail.campaign_id, error)
                await asyncio.sleep(pause)

    def _dispatch(self, tail: _Tail, recorded: Recorded[Any]) -> None:
        by_seat: dict[str | None, EventMessage] = {}
        for subscriber in list(tail.subscribers):
            message = by_seat.get(subscriber.seat)
            if message is None:
                message = by_seat[subscriber.seat] = event_message(
                    tail.game, recorded, tail.state, subscriber.seat
                )
            subscriber.offer(message)
