"""What the Eternity rules did in an expedition, read from its events, and over many expeditions.

:func:`tally` folds one expedition's stream into an :class:`EternityTally`: how often each rule of
the rule sheet fired and how many rounds were played. :func:`eternity_report` sums the tallies of
many expeditions (``tabletale simulate machina`` prints it under ``"eternity"``), so that balance
targets such as "spawn rating 1 comes into play in half of the expeditions" are measured.

A slider rule fires when its phase begins in an Eternity chapter with the rating at its value:
the spawn phase at spawn rating 1 (each explorer spawns, the rating resets), the horror phase at
horror rating 2 (hits cost 2) or 1 (hits cost 3). The ratings are followed from the events that
set them (a chapter entering play, the end of the round lowering them, the reset), as
:mod:`domain.machina.rules.evolve` sets them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from domain.machina.content_load import content
from domain.machina.events import (
    CardCharged,
    ChapterBegan,
    EffectsCancelled,
    EndgameBegan,
    ItemCharges,
    PhaseBegan,
    RatingsLowered,
    RoundBegan,
    SpawnRatingReset,
    TilePlaced,
    TileScrolled,
)

RULES = (
    "spawn_rating_1",
    "horror_rating_2",
    "horror_rating_1",
    "spawn_effects_cancelled",
    "spawn_effects_resolved",
    "horror_effects_cancelled",
    "horror_effects_resolved",
    "ratings_lowered",
    "chapter_tiles_placed",
    "tiles_scrolled",
    "card_charges_removed",
    "item_charges_changed",
)
"""The rules counted, in the rule sheet's order of sections:

- ``spawn_rating_1``: a spawn phase began at spawn rating 1 (each explorer spawned a monster and
  the rating was reset);
- ``horror_rating_2`` / ``horror_rating_1``: a horror phase began at that horror rating (each hit
  costs 2 / 3 health until the next horror phase);
- ``spawn_effects_cancelled`` / ``horror_effects_cancelled``: effects in force were cancelled at
  the start of a phase of an Eternity chapter;
- ``spawn_effects_resolved`` / ``horror_effects_resolved``: effects a chapter lists for the
  rating in force were resolved (the three rules above aside);
- ``ratings_lowered``: the end of a round lowered a rating;
- ``chapter_tiles_placed``: a flipped chapter's tile came into play;
- ``tiles_scrolled``: a tile left the play area to keep it within 2x2 map tiles;
- ``card_charges_removed``: a count token came off a chapter or endgame card;
- ``item_charges_changed``: an item's count tokens changed (used, or rusted).
"""
REACHED = ("spawn_rating_1", "horror_rating_2", "horror_rating_1")
"""The rating levels whose share of expeditions the report gives."""


class EternityTally(msgspec.Struct, frozen=True):
    """One expedition: the rounds it lasted and how often each rule of :data:`RULES` fired."""

    rounds: int
    fired: dict[str, int]


class EternityReport(msgspec.Struct, frozen=True):
    """Many expeditions' tallies together.

    ``fired``: each rule's firings over all expeditions; ``games_fired``: the expeditions in which
    it fired at least once; ``reached``: for spawn rating 1 and horror ratings 2 and 1, the share
    of expeditions (0 to 1) in which that rating came into play; ``rounds_*``: rounds played per
    expedition (the median is the middle one, or the lower of the two middle ones).
    """

    games: int
    rounds_median: int
    rounds_mean: float
    rounds_min: int
    rounds_max: int
    reached: dict[str, float]
    fired: dict[str, int]
    games_fired: dict[str, int]


def tally(events: Iterable[Any]) -> EternityTally:
    """Fold one expedition's events (its creation first or not) into its tally."""
    fired = dict.fromkeys(RULES, 0)
    chapter = content().scenario.chapters[0]
    spawn = horror = rounds = 0
    for event in events:
        match event:
            case ChapterBegan(chapter=begun) | EndgameBegan(endgame=begun):
                chapter = content().chapter(begun)
                spawn, horror = chapter.spawn, chapter.horror
            case RatingsLowered(spawn=lowered_spawn, horror=lowered_horror):
                spawn, horror = lowered_spawn, lowered_horror
                fired["ratings_lowered"] += 1
            case SpawnRatingReset(rating=rating):
                spawn = rating
            case RoundBegan(round=number):
                rounds = number
            case PhaseBegan(phase="spawn") if chapter.kind == "eternity":
                fired["spawn_rating_1"] += spawn == 1
                fired["spawn_effects_resolved"] += sum(e.at == spawn for e in chapter.spawn_effects)
            case PhaseBegan(phase="horror") if chapter.kind == "eternity":
                fired["horror_rating_2"] += horror == 2
                fired["horror_rating_1"] += horror == 1
                resolved = sum(e.at == horror for e in chapter.horror_effects)
                fired["horror_effects_resolved"] += resolved
            case EffectsCancelled(which=which) if chapter.kind == "eternity":
                fired[f"{which}_effects_cancelled"] += 1
            case TilePlaced(source="chapter"):
                fired["chapter_tiles_placed"] += 1
            case TileScrolled():
                fired["tiles_scrolled"] += 1
            case CardCharged():
                fired["card_charges_removed"] += 1
            case ItemCharges():
                fired["item_charges_changed"] += 1
    return EternityTally(rounds, fired)


def eternity_report(tallies: Sequence[EternityTally]) -> EternityReport | None:
    """The tallies of many expeditions summed up; None for none."""
    if not tallies:
        return None
    rounds = sorted(t.rounds for t in tallies)
    games = len(tallies)
    games_fired = {rule: sum(t.fired[rule] > 0 for t in tallies) for rule in RULES}
    return EternityReport(
        games=games,
        rounds_median=rounds[(games - 1) // 2],
        rounds_mean=round(sum(rounds) / games, 2),
        rounds_min=rounds[0],
        rounds_max=rounds[-1],
        reached={rule: round(games_fired[rule] / games, 3) for rule in REACHED},
        fired={rule: sum(t.fired[rule] for t in tallies) for rule in RULES},
        games_fired=games_fired,
    )
