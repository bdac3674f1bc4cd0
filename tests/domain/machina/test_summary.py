"""An expedition's events tally the Eternity rules that fired; many tallies make a report."""

from __future__ import annotations

from domain.bots import make_bot
from domain.machina import GAME
from domain.machina.events import (
    ChapterBegan,
    EffectsCancelled,
    EndgameBegan,
    MachinaEvent,
    PhaseBegan,
    RatingsLowered,
    RoundBegan,
    SpawnRatingReset,
)
from domain.machina.summary import RULES, EternityTally, eternity_report, tally
from tests.domain.machina.helpers import DUO, created


def test_slider_rules_fire_when_their_phase_begins_at_the_rating() -> None:
    stream: list[MachinaEvent] = [
        ChapterBegan("orrery", 0),  # an Eternity chapter: spawn 6, horror 6
        RoundBegan(1),
        RatingsLowered(1, 2),
        PhaseBegan("spawn"),
        SpawnRatingReset(6),
        PhaseBegan("horror"),
        RatingsLowered(5, 1),
        RoundBegan(2),
        PhaseBegan("spawn"),  # at 5: nothing
        PhaseBegan("horror"),  # at 1
        EffectsCancelled("horror"),
        RoundBegan(3),
        PhaseBegan("horror"),  # still 1: the horror rating never resets
    ]
    counted = tally(stream)
    assert counted.rounds == 3
    assert counted.fired["spawn_rating_1"] == 1
    assert counted.fired["horror_rating_2"] == 1
    assert counted.fired["horror_rating_1"] == 2
    assert counted.fired["ratings_lowered"] == 2
    assert counted.fired["horror_effects_cancelled"] == 1


def test_a_chapters_listed_effects_count_at_their_rating() -> None:
    # The endgame lists a scope hit at horror 2, besides the sheet's hit cost at 2.
    stream: list[MachinaEvent] = [EndgameBegan("eternity", ()), RatingsLowered(3, 2)]
    counted = tally([*stream, PhaseBegan("horror")])
    assert counted.fired["horror_rating_2"] == 1
    assert counted.fired["horror_effects_resolved"] == 1


def test_regular_chapters_fire_no_slider_rule() -> None:
    stream: list[MachinaEvent] = [ChapterBegan("gates", 0), RatingsLowered(1, 1)]
    counted = tally([*stream, PhaseBegan("spawn"), EffectsCancelled("spawn"), PhaseBegan("horror")])
    assert counted.fired["spawn_rating_1"] == counted.fired["horror_rating_1"] == 0
    assert counted.fired["spawn_effects_cancelled"] == 0


def test_a_played_expedition_tallies_what_its_stream_shows() -> None:
    state = GAME.initial(created(DUO, 5))
    stream: list[MachinaEvent] = []
    for event in GAME.setup(state):
        stream.append(event)
        state = GAME.evolve(state, event)
    bot = make_bot("heuristic", GAME, 5)
    while GAME.outcome(state) == "running":
        seat, choice = bot.choose(GAME, state)
        for event in GAME.decide(state, seat, choice.action):
            stream.append(event)
            state = GAME.evolve(state, event)
    counted = tally(stream)
    assert counted.rounds == state.round
    resets = sum(isinstance(e, SpawnRatingReset) for e in stream)
    assert counted.fired["spawn_rating_1"] == resets
    assert counted.fired["chapter_tiles_placed"] >= 2  # the Orrery Hall and the Gear Bridge


def _tally(rounds: int, **fired: int) -> EternityTally:
    return EternityTally(rounds, dict.fromkeys(RULES, 0) | fired)


def test_the_report_gives_shares_of_expeditions_and_rounds() -> None:
    tallies = [
        _tally(4),
        _tally(9, spawn_rating_1=2, horror_rating_2=1),
        _tally(12, spawn_rating_1=1, horror_rating_2=1, horror_rating_1=3),
        _tally(20, horror_rating_2=1),
    ]
    report = eternity_report(tallies)
    assert report is not None
    assert (report.games, report.rounds_median, report.rounds_mean) == (4, 9, 11.25)
    assert (report.rounds_min, report.rounds_max) == (4, 20)
    assert report.reached == {
        "spawn_rating_1": 0.5,
        "horror_rating_2": 0.75,
        "horror_rating_1": 0.25,
    }
    assert report.fired["spawn_rating_1"] == 3 and report.games_fired["spawn_rating_1"] == 2
    assert eternity_report([]) is None
