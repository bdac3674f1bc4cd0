"""The generic mechanisms chapters 4 and 5 are built from, on test-only content: a chapter's card
market (contracts and privileges bought into the Future), location cards with location actions
and onward actions (and shelters), and a night that first asks for 1 Food or 1 HP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msgspec.structs import replace

from domain.eila.events import CardBought, HeartBroken, MarketDrawn, ResourcePaid, TrailAdvanced
from tests.domain.eila.helpers import Json, Table, card, make_game, option


def _chapter(number: int, cards: list[Json], **more: Any) -> Json:
    return {
        "chapter": number,
        "title": f"Test chapter {number}",
        "prologue": None,
        "goal": {
            "normal": {"submit": {"food": 3}, "hearts": 3},
            "advanced": {"submit": {"food": 3}, "hearts": 3},
        },
        "cards": cards,
        **more,
    }


def _castle(tmp_path: Path, seed: int = 1) -> Table:
    contracts = [
        card(f"C0{n}", "market", option("A", [{"gain": "coin", "max": n}])) for n in range(1, 6)
    ]
    privileges = [
        card(f"P0{n}", "market", option("A", [{"gain": "food", "max": 1}])) for n in range(1, 4)
    ]
    opportunities = card(
        "401",
        "green",
        option("A", [{"market": "contracts"}], "future"),
        option("B", [{"market": "privileges"}], "future"),
        option("C", []),
    )
    four = _chapter(
        4,
        [opportunities, card("402", "green"), *contracts, *privileges],
        markets=[
            {
                "name": "contracts",
                "label": "Contracts",
                "cards": [c["number"] for c in contracts],
                "draw": 3,
                "price": {"knowledge": 1},
            },
            {
                "name": "privileges",
                "label": "Privileges",
                "cards": [c["number"] for c in privileges],
                "draw": 2,
                "price": {"coin": 3},
            },
        ],
    )
    return Table(make_game(tmp_path, [four]), seed=seed, chapter=4)


def test_a_market_draws_its_cards_face_up_at_set_up(tmp_path: Path) -> None:
    table = _castle(tmp_path)
    drawn = [e for e in table.events if isinstance(e, MarketDrawn)]
    assert [(e.market, len(e.cards)) for e in drawn] == [("contracts", 3), ("privileges", 2)]
    markets = table.game.view(table.state, "player").chapter_element_area.markets
    assert [len(m.cards) for m in markets] == [3, 2]
    # Seeded: the same seed draws the same cards.
    assert drawn == [e for e in _castle(tmp_path / "c").events if isinstance(e, MarketDrawn)]


def test_buying_any_number_of_market_cards_into_the_future_at_their_price(tmp_path: Path) -> None:
    table = _castle(tmp_path)
    table.give(knowledge=2)
    offered = dict(table.state.markets)["contracts"]
    table.do("A:")
    buys = [label for label in table.labels() if label.startswith("Buy")]
    assert buys == [f"Buy {n} (Card {n})" for n in offered]
    assert table.do(f"Buy {offered[0]}") == [CardBought(offered[0])]
    table.do(f"Buy {offered[1]}")
    # Out of Knowledge: buying ends on its own, and the card goes to the Future.
    assert table.state.resources.knowledge == 0
    assert table.state.future == (offered[0], offered[1], "401")
    assert dict(table.state.markets)["contracts"] == offered[2:]


def test_buying_may_stop_at_none(tmp_path: Path) -> None:
    table = _castle(tmp_path)
    table.give(coin=8)
    table.do("B:")
    table.do("Stop buying")
    assert table.state.resources.coin == 8 and table.state.future == ("401",)


def _mountain(tmp_path: Path, **state: Any) -> Table:
    locations = [
        card(
            "L01",
            "trail",
            option("A", [{"gain": "knowledge", "max": 1}]),
            option("B", [{"onward": "L02"}]),
        ),
        {
            **card(
                "L02",
                "trail",
                option("A", [{"heart": 1}], requires={"shelter": True}),
                option("B", [{"onward": "L03"}]),
            ),
            "shelter": True,
        },
        card("L03", "trail", option("A", [])),
    ]
    climb = card("501", "green", option("A", [{"location_action": True}]), option("B", []))
    five = _chapter(
        5,
        [climb, card("502", "green", option("A", [{"location_action": True}])), *locations],
        trail="L01",
        night=[{"pay_or_hp": "food", "amount": 1}],
    )
    table = Table(make_game(tmp_path, [five]), chapter=5)
    table.state = replace(table.state, **state)
    return table


def test_location_cards_l01_revealed_then_onward_actions_lead_on(tmp_path: Path) -> None:
    table = _mountain(tmp_path)
    area = table.game.view(table.state, "player").chapter_element_area
    assert area.location is not None and area.location.number == "L01"
    assert area.trail == ("L01",)
    table.do("A:")
    assert [label for label in table.labels() if label.startswith(("Location", "Take no"))] == [
        "Location action A: Option A (+1 Knowledge, card to the Past)",
        "Location action B: Option B (go on to location L02, card to the Past)",
        "Take no location action",
    ]
    events = table.do("Location action B")
    assert TrailAdvanced("L02") in events
    assert table.state.trail == ("L01", "L02")


def test_a_shelter_location_opens_options_that_need_one(tmp_path: Path) -> None:
    table = _mountain(tmp_path, trail=("L01", "L02"), trail_deck=("L03",), hp=2)
    table.do("A:")
    table.do("Location action A")
    assert table.state.hp == 3


def test_at_the_start_of_each_night_lose_1_food_or_1_hp(tmp_path: Path) -> None:
    table = _mountain(tmp_path)
    table.give(food=1)
    table.do("B:")
    table.do("A:")
    table.do("Take no location action")
    assert table.state.phase == "night" and table.labels()[:2] == [
        "Pay 1 Food",
        "Lose 1 HP instead",
    ]
    assert not any(label.startswith("Submit") for label in table.labels())
    assert table.do("Pay 1 Food")[0] == ResourcePaid("food", 1)
    assert table.state.resources.food == 0 and table.state.hp == 3
    assert table.labels()[0] == "End the night's submissions"


def test_without_food_the_night_costs_1_hp(tmp_path: Path) -> None:
    table = _mountain(tmp_path)
    table.do("B:")
    table.do("A:")
    events = table.do("Take no location action")
    assert HeartBroken(1) in events and table.state.hp == 2
