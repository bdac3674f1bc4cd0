from __future__ import annotations

from pathlib import Path

from domain.bots.eila_greedy import greedy_choice
from domain.eila import GAME, chapter_outcome
from tests.domain.eila.helpers import Table, chapter, chapter_zero, dice, face, make_game, option
from tests.domain.eila.kit import ENEMIES, ITEMS


def _greedy_attempt(seed: int, **options: object) -> Table:
    table = Table(GAME, seed=seed, **options)
    for _ in range(2000):
        if chapter_outcome(table.state) != "running":
            break
        legal = table.legal()
        choice = greedy_choice(GAME.pack, table.state, legal)
        assert choice in legal
        table.apply(GAME.decide(table.state, "player", choice.action))
    return table


def test_greedy_bot_wins_chapter_zero() -> None:
    for seed in range(5):
        assert chapter_outcome(_greedy_attempt(seed).state) == "won"


def test_greedy_bot_finishes_a_chapter_one_attempt() -> None:
    table = _greedy_attempt(3, chapter=1)
    assert chapter_outcome(table.state) in ("won", "lost")


def test_greedy_bot_takes_resources_in_full_and_submits() -> None:
    table = Table(GAME)
    table.do("A:")  # 001 A: +1 Food
    assert greedy_choice(GAME.pack, table.state, table.legal()).label == "Take 1 Food (of +1)"
    table.give(food=2, energy=1)
    while table.state.phase != "night":
        choice = greedy_choice(GAME.pack, table.state, table.legal())
        table.apply(GAME.decide(table.state, "player", choice.action))
    assert greedy_choice(GAME.pack, table.state, table.legal()).label.startswith("Submit 1 Food")


def _choose(table: Table) -> str:
    return greedy_choice(table.game.pack, table.state, table.legal()).label


def test_greedy_bot_finishes_attempts_at_chapters_two_and_three_in_both_modes() -> None:
    for number in (2, 3):
        for mode in ("normal", "advanced"):
            table = _greedy_attempt(5, chapter=number, mode=mode)
            assert chapter_outcome(table.state) in ("won", "lost")


def test_greedy_bot_never_abandons() -> None:
    table = Table(GAME)
    table.do("Abandon the campaign")
    assert _choose(table) == "No, keep playing"


def test_greedy_bot_rolls_then_spends_energy_only_to_turn_a_loss_into_a_win(
    tmp_path: Path,
) -> None:
    fight = {"fight": "E01", "won": [{"gain": "coin", "max": 1}], "lost": [{"broken_heart": 1}]}
    zero = chapter_zero({"001": [option("A", [fight]), option("B", [])]})
    game = make_game(tmp_path, [zero], ruleset=dice([face(3)]), enemies=ENEMIES, items=ITEMS)
    table = Table(game)
    table.give(energy=3)
    table.do("A:")
    assert _choose(table) == "Roll the combat dice"
    table.do("Roll")
    assert _choose(table) == "Spend 1 Energy for +2 combat value"
    table.do("Spend 1 Energy")
    assert _choose(table) == "Fight with combat value 5 against 5 (win)"


def test_greedy_bot_answers_a_quiz_once_a_card_it_met_shows_the_answer(tmp_path: Path) -> None:
    from tests.domain.eila.test_quiz import quiz

    two = chapter(2, [[option("A", [{"quiz": "EQ"}])], [option("A", [])], [option("A", [])]])
    two["cards"][2]["text"] = "Everyone here is called Charlie."
    two["quizzes"] = [quiz("EQ-1", "c", [])]
    table = Table(make_game(tmp_path, [two]), chapter=2)
    table.do("A:")
    assert _choose(table).startswith("A:")  # no hint met yet: it waits
    table.do("A:")
    assert _choose(table) == "Answer EQ-1 with c: Charlie"


def test_greedy_bot_walks_to_a_location_event_it_can_see(tmp_path: Path) -> None:
    from tests.domain.eila.test_mine import _table

    table = _table(tmp_path, {"move": 2}, {"trigger": "location"})
    table.do("A:")
    assert _choose(table) == "Move east"  # 341 is one grid east
    table.do("Move east")
    assert _choose(table) == "Stop moving here"


def test_greedy_bot_finishes_attempts_at_chapters_four_and_five_in_both_modes() -> None:
    for number in (4, 5):
        for mode in ("normal", "advanced"):
            table = _greedy_attempt(5, chapter=number, mode=mode)
            assert chapter_outcome(table.state) in ("won", "lost")


def test_greedy_bot_buys_market_cards_worth_their_price(tmp_path: Path) -> None:
    from tests.domain.eila.test_later_chapters import _castle

    table = _castle(tmp_path)
    table.give(knowledge=8)
    assert _choose(table).startswith("A:")  # contracts give Coin, for 1 Knowledge each
    table.do("A:")
    offered = dict(table.state.markets)["contracts"]
    while table.resolving:
        assert _choose(table).startswith("Buy")
        table.do(_choose(table))
    # Every contract bought, each into the Future.
    assert set(offered) <= set(table.state.future) and table.state.resources.knowledge == 5


def test_greedy_bot_stops_buying_what_is_not_worth_its_price(tmp_path: Path) -> None:
    from tests.domain.eila.test_later_chapters import _castle

    table = _castle(tmp_path)
    table.give(coin=8)  # a privilege gives 1 Food for 3 Coin
    table.do("B:")
    assert _choose(table) == "Stop buying"


def test_greedy_bot_climbs_onward_to_a_new_location(tmp_path: Path) -> None:
    from tests.domain.eila.test_later_chapters import _mountain

    table = _mountain(tmp_path)
    table.do("A:")
    assert _choose(table).startswith("Location action B")  # onward to L02, face down


def test_greedy_bot_does_not_fight_on_when_it_cannot_win(tmp_path: Path) -> None:
    fight = {"fight": "E01", "won": [], "lost": [{"broken_heart": 1}], "fight_on": True}
    run = option("B", [{"broken_heart": 2}, {"gain": "fear", "max": 1}])
    zero = chapter_zero({"001": [option("A", [fight]), run]}, hearts=5)
    game = make_game(tmp_path, [zero], ruleset=dice([face(1)]), enemies=ENEMIES, items=ITEMS)
    assert _choose(Table(game)).startswith("B:")  # 1 against 5, again and again


def test_the_greedy_bot_plays_a_whole_campaign_from_chapter_zero_to_five_in_one_stream() -> None:
    table = Table(GAME, seed=11)
    at_five = None
    for _ in range(60_000):
        if GAME.outcome(table.state) != "running":
            break
        choice = greedy_choice(GAME.pack, table.state, table.legal())
        table.apply(GAME.decide(table.state, "player", choice.action))
        if at_five is None and table.state.chapter == 5 and table.state.phase == "day":
            at_five = table.state
    assert GAME.outcome(table.state) == "won"
    won = [chapter for chapter, result in table.state.record if result == "won"]
    assert won == [0, 1, 2, 3, 4, 5]
    # Chapter 5's first day begins with the items, support cards and habit cards won before it.
    assert at_five is not None and at_five.items and at_five.supports
    assert at_five.items == at_five.saved_items and at_five.supports == at_five.saved_supports
    assert at_five.saved_habits
    assert set(at_five.saved_habits) <= set(at_five.upcoming) | {at_five.present}
    assert table.events[0].seed == 11 and len({type(e).__name__ for e in table.events}) > 20
