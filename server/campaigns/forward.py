"""What moving a stored campaign forward to today's ruleset of its game would do.

From the same creation (the same seed, salt, seats and options; only the ruleset is today's),
today's set-up, then each recorded move on the line that leads to the campaign's head, decided
again under today's rules. A move's action is the one its events record
(:attr:`~server.campaigns.codec.Envelope.action`) or, for a stream stored before they did, the one
worked out again as the analysis does (:mod:`domain.analysis.decisions`). The luck is the same
because the generator is the campaign's own: the same seed, and the same draws in the same order
as long as the moves come out the same.

The plan is *identical* when every move applies and its events are those recorded, as today's
game reads them (a field added since, with its default, is the same); it *diverges at move N*
at the first move that is no longer legal or whose events differ (move 0: the set-up deals
otherwise); it is *not possible* when today's game cannot start from that creation at all. The
steps of the moves before the divergence are kept in the plan: they are what a moved campaign
holds (:mod:`server.lineage.moving`).

It costs a ``decide`` per legal action at each move of an older stream: a tool's work, which the
callers run off the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from domain.analysis.decisions import decisions
from domain.core import engine
from domain.core.events import CampaignCreated, Reseeded
from domain.core.game import Game, Step
from domain.games import get_game
from server.campaigns.codec import Recorded, codec_for

Kind = Literal["identical", "diverges", "not_possible", "current"]


@dataclass(frozen=True)
class Stretch:
    """Events of the moved campaign appended as one: the creation with its set-up, or a move."""

    steps: list[Step]
    seat: str | None = None
    command: str | None = None
    action: str | None = None


@dataclass(frozen=True)
class Plan:
    """What moving a campaign forward does; ``why`` says it in words for the players."""

    campaign: str
    game: str
    ruleset: str
    """The campaign's own ruleset."""
    today: str
    """Today's ruleset of its game."""
    kind: Kind
    moves: int
    """The recorded moves on the line to its head."""
    applied: int
    """How many of them apply under today's rules, with the events they recorded."""
    at: int | None
    """The move it diverges at (0: the set-up); None unless it diverges."""
    why: str
    stretches: list[Stretch] = field(default_factory=list, repr=False, compare=False)
    """What the moved campaign holds: creation and set-up, then each move that applied (and
    a fork's new luck where it came)."""

    seats: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """One short line: what an operator's listing shows."""
        match self.kind:
            case "identical":
                return f"identical ({self.moves} moves)"
            case "diverges":
                return f"diverges at move {self.at} of {self.moves}"
            case "not_possible":
                return "not possible"
        return "already current"


def current_plan(campaign: str, game: str, ruleset: str, seats: tuple[str, ...] = ()) -> Plan:
    """The plan of a campaign already on today's ruleset: nothing to do."""
    return Plan(
        campaign,
        game,
        ruleset,
        ruleset,
        "current",
        0,
        0,
        None,
        f"The campaign is already played under {ruleset}, the ruleset in force.",
        seats=seats,
    )


def read_by(today: Game, events: Sequence[Any]) -> list[Any] | None:
    """``events`` of an older ruleset as today's game reads them; None when one of them is no
    event of today's game."""
    decoder = msgspec.json.Decoder(codec_for(today).event_type)
    try:
        return [decoder.decode(msgspec.json.encode(event)) for event in events]
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def _said(game: Game, events: Sequence[Any], state: Any) -> str:
    """A move in the game's words: the timeline's first line of its events (each given the
    state it left; ``state`` is the one before them)."""
    for event in events:
        state = engine.evolve(game, state, event)
        text = game.describe(event, state)
        if text:
            return f"“{text}”"
    return "a move the timeline does not describe"


def plan(
    campaign: str, old: Game, recorded: Sequence[Recorded[Any]], today: Game | None = None
) -> Plan:
    """The plan for ``recorded`` (a whole stream, from its creation) of a campaign played
    under ``old``; ``today``: the game it moves to (by default the ruleset in force)."""
    created = recorded[0].event
    assert isinstance(created, CampaignCreated)
    today = today or get_game(created.game)
    name, mine, theirs = created.game, created.ruleset, today.info.ruleset
    if mine == theirs:
        return current_plan(campaign, name, mine, created.seats)
    pairs = [(r.version, r.event) for r in recorded]
    moves = decisions(old, pairs)
    stored = {r.version: r for r in recorded}

    def made(kind: Kind, applied: int, at: int | None, why: str, kept: list[Stretch]) -> Plan:
        return Plan(
            campaign, name, mine, theirs, kind, len(moves), applied, at, why, kept, created.seats
        )

    moved = msgspec.structs.replace(created, ruleset=theirs)
    try:
        state = engine.evolve(today, None, moved)
        setup = list(today.setup(state))
    except Exception as error:  # any refusal of the creation by today's rules
        return made(
            "not_possible",
            0,
            None,
            f"{theirs} cannot start a campaign from this one's creation: {error}",
            [],
        )
    steps: list[Step] = [(moved, state)]
    for event in setup:
        state = engine.evolve(today, state, event)
        steps.append((event, state))
    kept = [Stretch(steps)]
    first = moves[0].version if moves else len(pairs)
    if setup != read_by(today, [event for _, event in pairs[1:first]]):
        return made(
            "diverges",
            0,
            0,
            f"Under {theirs} the set-up deals otherwise: the moved campaign starts afresh from"
            " today's set-up, with none of this campaign's moves.",
            kept,
        )
    # A fork with new luck carries its Reseeded event between two moves: it is put in at the
    # same place (no rewind returns before it, so the line holds it).
    reseeds = [(r.version, r.event) for r in recorded if isinstance(r.event, Reseeded)]
    done = 0
    for number, move in enumerate(moves, start=1):
        for version, event in reseeds:
            if done < version <= move.version:
                state = engine.evolve(today, state, event)
                kept.append(Stretch([(event, state)]))
        done = move.after_version
        first_event = stored.get(move.version + 1)
        action = (first_event.action if first_event else None) or move.played.id
        said = _said(old, move.events, move.state)
        legal = {each.id: each for each in today.legal_actions(state, move.seat)}
        if action not in legal:
            return made(
                "diverges",
                number - 1,
                number,
                f"Move {number} ({said}) is no longer a legal move under {theirs}; the moved"
                f" campaign goes on from move {number - 1}, where it is {move.seat}'s turn.",
                kept,
            )
        played = today.play(state, move.seat, legal[action].action)
        if [event for event, _ in played] != read_by(today, move.events):
            return made(
                "diverges",
                number - 1,
                number,
                f"Move {number} ({said}) has other results under {theirs}; the moved campaign"
                f" goes on from move {number - 1}, where {move.seat} decides it again.",
                kept,
            )
        command = first_event.command if first_event else None
        kept.append(Stretch(played, move.seat, command, action))
        state = played[-1][1]
    return made(
        "identical",
        len(moves),
        None,
        f"Every one of its {len(moves)} moves plays out the same under {theirs}: it is the same"
        " game, from then on under today's rules.",
        kept,
    )
