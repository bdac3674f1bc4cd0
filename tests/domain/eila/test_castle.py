"""Chapter 4, the castle, on the shipped content: contracts and privileges, the "Opportunities"
event, gems sold at any time, the cards bought coming up from the Future, ending B and the
advanced cards."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.eila import GAME, chapter_outcome
from domain.eila.events import BuyingEnded, CardBought, ChapterWon, MarketDrawn
from tests.domain.eila.helpers import Table

CONTRACTS = tuple(f"C0{n}" for n in range(1, 10))
PRIVILEGES = tuple(f"P0{n}" for n in range(1, 10))


def _castle(seed: int = 1, mode: str = "normal", **state: Any) -> Table:
    table = Table(GAME, seed=seed, chapter=4, mode=mode)
    table.state = replace(table.state, **state)
    return table


def _at(table: Table, number: str) -> None:
    """Put card ``number`` in the Present, to set a scene (not a rule)."""
    upcoming = tuple(c for c in table.state.upcoming if c != number)
    table.state = replace(table.state, present=number, upcoming=upcoming)


def _offered(table: Table, market: str) -> tuple[str, ...]:
    return dict(table.state.markets)[market]


def test_set_up_draws_5_contracts_and_5_privileges_face_up_the_rest_out_of_play() -> None:
    table = _castle()
    drawn = [e for e in table.events if isinstance(e, MarketDrawn)]
    assert [(e.market, len(e.cards)) for e in drawn] == [("contracts", 5), ("privileges", 5)]
    assert set(_offered(table, "contracts")) < set(CONTRACTS)
    assert set(_offered(table, "privileges")) < set(PRIVILEGES)
    area = GAME.view(table.state, "player").chapter_element_area
    assert [(m.label, len(m.cards)) for m in area.markets] == [("Contracts", 5), ("Privileges", 5)]
    # Drawn at random from the campaign's seed: the same seed, the same cards.
    assert _castle().state.markets == table.state.markets
    assert len({_castle(seed).state.markets for seed in range(8)}) > 1


def test_opportunities_option_a_buys_any_number_of_contracts_at_1_knowledge_each() -> None:
    table = _castle()
    table.give(knowledge=3)
    _at(table, "405")
    assert GAME.pack.cards["405"].name == "Opportunities"
    table.do("A: Take on contracts")
    offered = _offered(table, "contracts")
    assert [label for label in table.labels() if label.startswith("Buy")] == [
        f"Buy {n} ({GAME.pack.cards[n].name})" for n in offered
    ]
    assert table.do(f"Buy {offered[0]}") == [CardBought(offered[0])]
    table.do(f"Buy {offered[1]}")
    table.do("Stop buying")
    assert table.state.resources.knowledge == 1
    assert table.state.future == (offered[0], offered[1], "405")
    assert _offered(table, "contracts") == offered[2:]


def test_opportunities_option_b_buys_privileges_at_3_coin_each() -> None:
    table = _castle()
    table.give(coin=7)
    _at(table, "405")
    table.do("B: Buy privileges")
    offered = _offered(table, "privileges")
    table.do(f"Buy {offered[0]}")
    events = table.do(f"Buy {offered[1]}")
    # 1 Coin left is not the price of a privilege: buying ends on its own.
    assert BuyingEnded() in events and table.state.resources.coin == 1
    assert table.state.future == (offered[0], offered[1], "405")


def test_cards_returned_to_the_box_at_set_up_can_never_be_bought() -> None:
    table = _castle()
    table.give(knowledge=8)
    _at(table, "405")
    table.do("A: Take on contracts")
    out_of_play = set(CONTRACTS) - set(_offered(table, "contracts"))
    assert len(out_of_play) == 4
    assert not any(label.startswith(f"Buy {n}") for n in out_of_play for label in table.labels())


def test_a_bought_card_joins_the_upcoming_deck_with_the_future_at_night() -> None:
    table = _castle(upcoming=())
    table.give(knowledge=1, energy=1)
    _at(table, "405")
    table.do("A: Take on contracts")
    contract = _offered(table, "contracts")[0]
    table.do(f"Buy {contract}")
    assert table.state.phase == "night"
    table.do("End the night's submissions")
    assert table.state.day == 2
    assert contract in (table.state.present, *table.state.upcoming)


def test_a_bought_contract_is_resolved_when_it_comes_up_from_the_future() -> None:
    table = _castle()
    table.give(energy=2)
    _at(table, "C01")
    assert table.labels()[0] == "A: Deliver the letters (-1 Energy, +3 Coin, card to the Past)"
    table.do("A: Deliver the letters")
    table.do("Take 3")
    assert table.state.resources.coin == 3 and table.state.past[-1] == "C01"


def test_a_contract_returned_to_its_deck_goes_back_to_the_chapter_element_area() -> None:
    table = _castle()
    offered = _offered(table, "contracts")
    _at(table, "C08")
    table.do("A: Muck out and renew")
    table.do("Take 2")
    assert "C08" in _offered(table, "contracts") and set(offered) < set(
        _offered(table, "contracts")
    )


def test_gem_items_can_be_sold_at_any_time() -> None:
    """Chapter 4's remark: gems have no other use after chapter 3; sell them at any time."""
    table = _castle(items=("I15", "I17"))
    table.give()
    assert {GAME.pack.items[i].traits for i in ("I15", "I16", "I17")} == {("gem",)}
    table.do("Use Ruby")
    assert table.state.resources.coin == 3 and table.state.items == ("I17",)
    table.do("B: Pay the toll")  # in the middle of an option, between two effects
    assert table.resolving and any(label.startswith("Use Emerald") for label in table.labels())


def test_the_magpies_nest_with_a_rope_wins_the_chapter_with_ending_b() -> None:
    """Rule 05: an event card wins the chapter with its own ending, recorded for later."""
    table = _castle(items=("I04",))
    _at(table, "436")
    table.do("A: Lasso the nest")
    events = table.do("Take 2")
    assert ChapterWon(4, "B") in events
    assert chapter_outcome(table.state) == "won" and "4B" in table.state.endings


def test_advanced_mode_replaces_403_418_430_and_uses_the_goals_advanced_side() -> None:
    normal, advanced = _castle(), _castle(mode="advanced")
    four = GAME.pack.chapters[4]
    assert (normal.state.max_hp, advanced.state.max_hp) == (
        four.normal.hearts,
        four.advanced.hearts,
    )
    assert advanced.state.max_hp < normal.state.max_hp
    for number in ("403", "418", "430"):
        assert GAME.pack.card(number, "advanced") is GAME.pack.advanced[number]
        _at(normal, number)
        _at(advanced, number)
        assert normal.labels() != advanced.labels()
