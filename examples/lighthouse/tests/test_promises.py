"""Lighthouse Watch keeps every promise the server relies on (tabletale's game kit)."""

from __future__ import annotations

from cli.pytest_kit import Check

from lighthouse_watch import GAME


def test_the_game_keeps_its_promises(keeps_promises: Check) -> None:
    keeps_promises(GAME, playthroughs=40)


def test_a_short_watch_keeps_them_too(keeps_promises: Check) -> None:
    keeps_promises(GAME, playthroughs=10, options={"nights": 3, "ships": 1})
