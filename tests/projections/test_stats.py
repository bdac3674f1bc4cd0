from __future__ import annotations

from typing import Any

from domain.core.events import CampaignCreated
from domain.games import get_game
from projections.catalog import CatalogEntry, catalog_entry
from projections.stats import GameStats, Tally, statistics


def entry(game: str, status: str, version: int, chapter: str | None = None) -> CatalogEntry:
    return CatalogEntry(
        id=f"{game}-{status}-{version}",
        game=game,
        status=status,  # type: ignore[arg-type]
        version=version,
        created_ms=0,
        updated_ms=0,
        chapter=chapter,
    )


def test_wins_losses_and_average_length_count_only_finished_games() -> None:
    stats = statistics(
        [
            entry("b", "won", 10),
            entry("b", "lost", 20),
            entry("b", "running", 99),
            entry("a", "won", 3),
        ]
    )
    assert stats == [
        GameStats("a", Tally(1, 0, 1, 0, 3.0)),
        GameStats("b", Tally(3, 1, 1, 1, 15.0)),
    ]


def test_games_with_chapters_get_a_tally_per_chapter() -> None:
    (stats,) = statistics(
        [entry("e", "won", 10, "1"), entry("e", "lost", 30, "2"), entry("e", "won", 20, "1")]
    )
    assert stats.totals == Tally(3, 0, 2, 1, 20.0)
    assert stats.chapters == {"1": Tally(2, 0, 2, 0, 15.0), "2": Tally(1, 0, 0, 1, 30.0)}


def test_the_catalog_reads_chapter_and_day_through_the_game_contract() -> None:
    eila, gil_ennis = get_game("eila"), get_game("gil-ennis")
    eila_state = eila.initial(CampaignCreated("eila", "r", 1, "s", ("player",), {"chapter": 1}))
    ge_state = gil_ennis.initial(CampaignCreated("gil-ennis", "r", 1, "s", ("player",), {}))
    entry_of: dict[str, Any] = {"campaign_id": "c", "version": 1, "created_ms": 0, "updated_ms": 0}
    eila_entry = catalog_entry(eila, eila_state, **entry_of)
    assert (eila_entry.chapter, eila_entry.day) == ("1", eila.progress(eila_state).day)
    ge_entry = catalog_entry(gil_ennis, ge_state, **entry_of)
    assert (ge_entry.chapter, ge_entry.day) == (None, 0)


def test_chapter_attempts_won_and_lost_are_counted_per_chapter() -> None:
    from domain.core.game import ChapterAttempts

    first = entry("e", "lost", 40, "1")
    first = CatalogEntry(
        **{
            **{f: getattr(first, f) for f in first.__struct_fields__},
            "attempts_won": 1,
            "attempts_lost": 3,
            "attempts": (ChapterAttempts("0", won=1, lost=1), ChapterAttempts("1", lost=2)),
        }
    )
    (stats,) = statistics([first, entry("e", "running", 5, "0")])
    assert (stats.totals.attempts_won, stats.totals.attempts_lost) == (1, 3)
    assert stats.chapters["0"] == Tally(1, 1, 0, 0, 0.0, attempts_won=1, attempts_lost=1)
    assert stats.chapters["1"] == Tally(1, 0, 0, 1, 40.0, attempts_won=0, attempts_lost=2)


def test_the_catalog_counts_an_abandoned_eila_campaign_as_lost_with_its_attempts() -> None:
    eila = get_game("eila")
    created = CampaignCreated("eila", "r", 1, "s", ("player",), {})
    state = eila.initial(created)
    for event in eila.setup(state):
        state = eila.evolve(state, event)
    for label in ("Abandon the campaign", "Yes, abandon"):
        (action,) = [la for la in eila.legal_actions(state, "player") if la.label.startswith(label)]
        for event in eila.decide(state, "player", action.action):
            state = eila.evolve(state, event)
    entry_of: dict[str, Any] = {"campaign_id": "c", "version": 9, "created_ms": 0, "updated_ms": 0}
    found = catalog_entry(eila, state, **entry_of)
    assert (found.status, found.attempts_won, found.attempts_lost) == ("lost", 0, 1)
