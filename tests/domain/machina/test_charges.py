"""Charges: count tokens on cards.

"When a card enters play, or you take or gain an item that contains a number of charges, place that
number of count tokens on that card. These charges stay on the card regardless if the item is
equipped or unequipped, and even if the item changes control. When the card is destroyed or
banished, remove the count tokens from the card."
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.machina import GAME
from domain.machina.actions import Attack, EndTurn, Equip, Explore, Give, Interact
from domain.machina.content_load import CONTENT
from domain.machina.events import (
    ChapterBegan,
    EndgameBegan,
    ExplorerOut,
    ItemBanished,
    ItemCharges,
    ItemDestroyed,
    ItemGained,
)
from domain.machina.state import CardCharges, Item, MachinaState, item
from tests.domain.machina.helpers import (
    DUO,
    SOLO,
    at,
    created,
    fresh,
    in_chapter,
    of_type,
    play,
    with_monster,
)


def _charged(card: str) -> int:
    return CONTENT.items[card].charges


def test_an_item_entering_play_gets_its_count_tokens() -> None:
    state = GAME.initial(created(DUO))
    gained = of_type(GAME.setup(state), ItemGained)
    pistol = next(g for g in gained if g.card == "lamp-pistol")
    assert (pistol.explorer, pistol.charges, pistol.source) == ("bram", 4, "start")
    assert all(g.charges == _charged(g.card) for g in gained)


def test_an_item_taken_from_the_item_deck_gets_its_count_tokens() -> None:
    state = at(fresh(SOLO), "ada", 1, 1)  # next to the Gatehouse Locker at 2,1
    state = replace(state, items=tuple(i for i in state.items if i.holder != "ada"))
    top = state.item_deck[0]
    state, events = play(state, "ada", Interact(2, 1))
    assert of_type(events, ItemGained) == [ItemGained("ada", top, _charged(top), False, "deck")]
    assert item(state, top).charges == _charged(top)


def test_a_chapter_card_and_the_endgame_cards_enter_play_with_their_count_tokens() -> None:
    state = at(in_chapter(fresh(SOLO), "heart"), "ada", 3, 1)
    state, events = play(state, "ada", Explore("e"))
    engine = next(c for c in CONTENT.scenario.endgame.cards if c.charges)
    assert of_type(events, EndgameBegan)[0].cards[0] == CardCharges(engine.id, engine.charges)
    assert state.card_charges == (CardCharges(engine.id, engine.charges),)
    clock = CONTENT.chapter("clock")
    assert GAME.evolve(state, ChapterBegan("clock", clock.charges)).card_charges == (
        CardCharges("clock", 2),
    )


def _bram_armed(state: MachinaState, pistol: int) -> MachinaState:
    others = tuple(i for i in state.items if i.holder != "bram" and i.holder != "ada")
    return replace(
        state,
        items=(
            *others,
            Item("spanner", "ada", True, 0),
            Item("lamp-pistol", "bram", True, pistol),
            Item("coal-hook", "bram", False, 0),
        ),
    )


def test_charges_stay_through_unequip_change_of_control_and_equip() -> None:
    state = _bram_armed(fresh(DUO), 4)
    state = at(at(state, "ada", 1, 1), "bram", 1, 2)

    state = with_monster(state, "cog-rat", 3, 2, health=5)
    state, _ = play(state, "bram", Attack("lamp-pistol", 1))
    assert item(state, "lamp-pistol").charges == 3
    state, _ = play(state, "bram", Equip("coal-hook", "lamp-pistol"))
    assert item(state, "lamp-pistol") == Item("lamp-pistol", "bram", False, 3)
    state, _ = play(state, "bram", Give("lamp-pistol", "ada"))
    assert item(state, "lamp-pistol") == Item("lamp-pistol", "ada", False, 3)
    state, _ = play(state, "ada", Equip("lamp-pistol", "spanner"))
    assert item(state, "lamp-pistol") == Item("lamp-pistol", "ada", True, 3)


def test_an_item_destroyed_loses_its_count_tokens() -> None:

    state = _bram_armed(fresh(DUO), 1)
    state = with_monster(at(state, "bram", 1, 2), "cog-rat", 3, 2, health=5)
    state, events = play(state, "bram", Attack("lamp-pistol", 1))
    assert of_type(events, ItemDestroyed) == [ItemDestroyed("lamp-pistol")]
    assert "lamp-pistol" not in [i.card for i in state.items]
    assert state.item_discard[-1] == "lamp-pistol"


def test_rust_takes_a_charge_from_every_item_and_destroys_those_left_with_none() -> None:
    state = in_chapter(_bram_armed(fresh(DUO), 1), "orrery", horror_rating=4, spawn_rating=6)
    state = replace(
        state,
        items=(*state.items, Item("tonic", "ada", False, 2)),
        horror_deck=("rust-bloom", *(h for h in state.horror_deck if h != "rust-bloom")),
    )
    for seat in DUO:
        state, events = play(state, seat, EndTurn())
    assert of_type(events, ItemCharges) == [ItemCharges("lamp-pistol", 0), ItemCharges("tonic", 1)]
    assert of_type(events, ItemDestroyed) == [ItemDestroyed("lamp-pistol")]
    assert item(state, "tonic").charges == 1


def test_the_items_of_an_explorer_who_falls_are_banished_count_tokens_and_all() -> None:
    state = in_chapter(_bram_armed(fresh(DUO), 4), "orrery", horror_rating=4, spawn_rating=6)
    state = replace(
        state,
        horror_deck=(
            "whispering-pipes",
            *(h for h in state.horror_deck if h != "whispering-pipes"),
        ),
    )

    state = with_monster(at(state, "bram", 1, 2, health=1), "cog-rat", 3, 3)
    for seat in DUO:
        state, events = play(state, seat, EndTurn())
    assert of_type(events, ExplorerOut) == [ExplorerOut("bram")]
    banished = [e.item for e in of_type(events, ItemBanished)]
    assert banished == ["lamp-pistol", "coal-hook"]
    assert all(i.holder != "bram" for i in state.items)
