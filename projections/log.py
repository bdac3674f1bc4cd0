"""A viewer's copy of the event log: each event as that seat may see it.

The game redacts its own events. The campaign-level events carry the seed, which stays secret while
the campaign runs, so their ``seed`` and ``salt`` are left out until it has ended. A fork's history
starts with its parents' events: a seed among them is theirs, not the fork's, so the fork's end
reveals only its own (its ``Reseeded``, from ``own_from`` on); the parents' are revealed by their
own ends. A stored seed is an integer of up to 64 bits; it is shown as a decimal string, which no
JSON client rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.core.events import CampaignCreated, Reseeded
from domain.core.game import Game
from projections.recorded import RecordedEvent

_SECRET = ("seed", "salt")


class SeenEvent(msgspec.Struct, frozen=True):
    """One event of a viewer's log. ``event`` is the tagged event as plain data (``type`` first)."""

    version: int
    event: Any
    seat: str | None = None
    at_ms: int = 0
    by: str | None = None
    """Who acted for the seat when it was not a person: a bot's name (see :func:`acted_by`)."""
    action: str | None = None
    """The id of the legal action that caused the event, as the acting seat chose it; shown to
    that seat only (another seat's choice may name what only it knows), and absent for events
    stored before the store kept it."""


BOT_COMMAND = "bot:"
"""The start of a command id the server's bot driver gives: ``bot:<policy>:<level>:<seat>@<v>``,
the bot's move for ``seat`` at version ``v`` (the same id whichever process decides it)."""


def bot_command(policy: str, level: int | None, seat: str, version: int) -> str:
    return f"{BOT_COMMAND}{policy}:{'' if level is None else level}:{seat}@{version}"


def bot_name(policy: str, level: int | None) -> str:
    """A bot's name as people read it: ``search bot (level 2)``."""
    return f"{policy} bot" if level is None else f"{policy} bot (level {level})"


def acted_by(recorded: RecordedEvent) -> str | None:
    """The bot that took the action ``recorded`` belongs to, by its command id; None for a
    person's action (and for events no command caused)."""
    command = getattr(recorded, "command", None)
    if not isinstance(command, str) or not command.startswith(BOT_COMMAND):
        return None
    policy, _, rest = command[len(BOT_COMMAND) :].partition(":")
    level, _, _ = rest.partition(":")
    return bot_name(policy, int(level) if level.isdigit() else None)


def seen_event(game: Game, event: Any, seat: str | None, *, ended: bool) -> Any:
    """``event`` as plain data, as ``seat`` may see it."""
    if isinstance(event, CampaignCreated | Reseeded):
        data: dict[str, Any] = msgspec.to_builtins(event)
        if not ended:
            for key in _SECRET:
                data.pop(key, None)
        else:
            data["seed"] = str(event.seed)
        return data
    return msgspec.to_builtins(game.redact(event, seat))


def seen(
    game: Game, recorded: RecordedEvent, seat: str | None, *, ended: bool, own_from: int = 1
) -> SeenEvent:
    """``recorded`` as ``seat`` may see it; ``own_from``: the campaign's first own version (a
    fork's seeds below it are its parents' and stay hidden here)."""
    revealing = ended and recorded.version >= own_from
    return SeenEvent(
        recorded.version,
        seen_event(game, recorded.event, seat, ended=revealing),
        recorded.seat,
        recorded.at_ms,
        acted_by(recorded),
        getattr(recorded, "action", None) if seat is not None and recorded.seat == seat else None,
    )


def seen_log(
    game: Game,
    events: Sequence[RecordedEvent],
    seat: str | None,
    *,
    ended: bool,
    own_from: int = 1,
) -> list[SeenEvent]:
    return [seen(game, recorded, seat, ended=ended, own_from=own_from) for recorded in events]


class Seeding(msgspec.Struct, frozen=True):
    """The seed behind a campaign's luck, published once it has ended."""

    seed: int
    salt: str
    version: int


def last_seeding(events: Sequence[RecordedEvent]) -> Seeding | None:
    """The seed in force at the head: the newest ``CampaignCreated`` or ``Reseeded``."""
    found: Seeding | None = None
    for recorded in events:
        event = recorded.event
        if isinstance(event, CampaignCreated | Reseeded):
            found = Seeding(event.seed, event.salt, recorded.version)
    return found
