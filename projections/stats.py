"""Statistics per game (and per chapter for games that have chapters), from catalog entries.

A game's length is the number of versions its campaign took to finish; running campaigns are
counted but do not enter wins, losses or the average length. In games played in chapters, every
campaign's finished attempts at each chapter, won and lost, count too, under that chapter.
Campaigns of a ruleset this server does not play are counted apart, per ruleset: how they stand
is known only to the rules they were recorded under.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from projections.catalog import CatalogEntry


class Tally(msgspec.Struct, frozen=True):
    games: int = 0
    running: int = 0
    wins: int = 0
    losses: int = 0
    average_length: float = 0.0
    attempts_won: int = 0
    """Chapter attempts won (games played in chapters)."""
    attempts_lost: int = 0
    known_luck: int = 0
    """Campaigns played on known luck (:data:`projections.catalog.KNOWN_LUCK`): counted here
    and in none of the figures above, so no win on known luck counts with the others."""
    known_luck_wins: int = 0
    """Those of them won, and lost: their results, apart."""
    known_luck_losses: int = 0
    unplayed: int = 0
    """Campaigns on a ruleset this server does not play: counted here and in none of the
    figures above (their status is unknown here)."""


class GameStats(msgspec.Struct, frozen=True):
    game: str
    totals: Tally
    chapters: dict[str, Tally] = {}
    unplayed_rulesets: dict[str, int] = {}
    """The campaigns of ``totals.unplayed`` per ruleset, by name."""


class _Counter:
    __slots__ = (
        "attempts_lost",
        "attempts_won",
        "games",
        "known_luck",
        "known_luck_losses",
        "known_luck_wins",
        "length",
        "losses",
        "running",
        "unplayed",
        "wins",
    )

    def __init__(self) -> None:
        self.games = self.running = self.wins = self.losses = self.length = 0
        self.attempts_won = self.attempts_lost = self.known_luck = 0
        self.known_luck_wins = self.known_luck_losses = self.unplayed = 0

    def add(self, entry: CatalogEntry) -> None:
        self.games += 1
        if entry.status == "running":
            self.running += 1
            return
        if entry.status == "won":
            self.wins += 1
        else:
            self.losses += 1
        self.length += entry.version

    def tally(self) -> Tally:
        finished = self.wins + self.losses
        average = self.length / finished if finished else 0.0
        return Tally(
            self.games,
            self.running,
            self.wins,
            self.losses,
            round(average, 2),
            self.attempts_won,
            self.attempts_lost,
            self.known_luck,
            self.known_luck_wins,
            self.known_luck_losses,
            self.unplayed,
        )


def statistics(entries: Iterable[CatalogEntry]) -> list[GameStats]:
    """Per-game statistics, sorted by game name; chapters sorted by name."""
    totals: dict[str, _Counter] = {}
    chapters: dict[str, dict[str, _Counter]] = {}
    unplayed: dict[str, dict[str, int]] = {}
    for entry in entries:
        total = totals.setdefault(entry.game, _Counter())
        if not entry.played:
            total.unplayed += 1
            per_ruleset = unplayed.setdefault(entry.game, {})
            per_ruleset[entry.ruleset] = per_ruleset.get(entry.ruleset, 0) + 1
            continue
        if entry.known_luck:
            total.known_luck += 1
            total.known_luck_wins += entry.status == "won"
            total.known_luck_losses += entry.status == "lost"
            continue
        total.add(entry)
        total.attempts_won += entry.attempts_won
        total.attempts_lost += entry.attempts_lost
        per_game = chapters.setdefault(entry.game, {})
        if entry.chapter is not None:
            per_game.setdefault(entry.chapter, _Counter()).add(entry)
        for attempts in entry.attempts:
            counter = per_game.setdefault(attempts.chapter, _Counter())
            counter.attempts_won += attempts.won
            counter.attempts_lost += attempts.lost
    return [
        GameStats(
            game,
            totals[game].tally(),
            {name: c.tally() for name, c in sorted(chapters.get(game, {}).items())},
            dict(sorted(unplayed.get(game, {}).items())),
        )
        for game in sorted(totals)
    ]
