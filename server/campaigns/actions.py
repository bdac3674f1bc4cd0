"""The action that caused each stored event: kept in the envelope, or worked out again.

Events stored since the envelope kept it carry it (:attr:`~server.campaigns.codec.Envelope.action`).
For a stream stored before, it is found as the analysis finds the move played at a decision point
(:mod:`domain.analysis.decisions`): at the state the event's seat acted in, it is that seat's
legal action whose events (``decide`` from that state draws from the campaign's own generator, so
it repeats the recorded luck) are the events recorded from there on. The states come from
:func:`domain.core.engine.states`, so a rewind is honoured and the moves of an abandoned branch
get their actions too. It costs a ``decide`` per legal action at each such move: a tool's work
(moving a campaign to another ruleset, an audit), never a request's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.core import engine
from domain.core.events import CampaignCreated, Reseeded, Rewound
from domain.core.game import Game
from server.campaigns.codec import Recorded

_NO_ACTION = (CampaignCreated, Reseeded, Rewound)
"""Campaign events: made by the server (creation, a fork's new luck, a rewind), not a move."""


def with_actions(game: Game, recorded: Sequence[Recorded[Any]]) -> list[Recorded[Any]]:
    """``recorded`` (a whole stream, from its creation) with each event's action: the stored
    one, or the one worked out again. None where no seat's action caused the event, and where no
    legal action of its seat makes the recorded events (rules that no longer decide as the ones
    that recorded them did)."""
    out = list(recorded)
    if all(r.action is not None or r.seat is None for r in out):
        return out  # every move recorded its action: nothing to replay
    events = [(r.version, r.event) for r in out]
    trail = [state for _, state in engine.states(game, events)]
    index = 1
    while index < len(out):
        event = out[index]
        if event.action is not None or event.seat is None or isinstance(event.event, _NO_ACTION):
            index += 1
            continue
        found = _match(game, trail[index - 1], event.seat, events, index)
        if found is None:
            index += 1
            continue
        action, count = found
        for at in range(index, index + count):
            out[at] = msgspec.structs.replace(out[at], action=action)
        index += count
    return out


def _match(
    game: Game, state: Any, seat: str, events: Sequence[tuple[int, Any]], start: int
) -> tuple[str, int] | None:
    """The id of ``seat``'s legal action whose events are those recorded from ``start`` on,
    and how many they are."""
    if game.outcome(state) != "running" or seat not in game.to_act(state):
        return None
    rest = len(events) - start
    for legal in game.legal_actions(state, seat):
        caused = game.decide(state, seat, legal.action)
        if not caused or len(caused) > rest:
            continue
        if all(events[start + i][1] == event for i, event in enumerate(caused)):
            return legal.id, len(caused)
    return None
