"""The areas beside the game board (Additional Rule 01) and the combat, as a seat sees them.

The Item & Support Area holds the acquired item and support cards and the dice; the Chapter
Element Area the chapter's unique elements: quiz decks (counts, the cards drawn and face up with
their questions and choices, never the answer key, and the cards turned over), the mine (face-up
tiles only, the token, the cover tokens), the markets' face-up cards and the trail's current
location card.
"""

from __future__ import annotations

import msgspec

from domain.eila.content import ContentPack
from domain.eila.rules.combat import combat_value, eila_value, enemy_value, face, green_value
from domain.eila.rules.combat import shields as combat_shields
from domain.eila.rules.labels import condition_text, option_label
from domain.eila.rules.mine import mine_of
from domain.eila.state import EilaState


class HeldCard(msgspec.Struct, frozen=True, gc=False):
    id: str
    name: str
    text: str


class ItemSupportArea(msgspec.Struct, frozen=True, gc=False):
    items: tuple[HeldCard, ...]
    supports: tuple[HeldCard, ...]
    dice: tuple[str, ...]
    """Eila's red die, and the green die once acquired."""


class Choice(msgspec.Struct, frozen=True, gc=False):
    letter: str
    text: str


class QuizView(msgspec.Struct, frozen=True, gc=False):
    id: str
    question: str
    choices: tuple[Choice, ...]
    reward: str


class DeckCount(msgspec.Struct, frozen=True, gc=False):
    name: str
    count: int


class GridView(msgspec.Struct, frozen=True, gc=False):
    x: int
    y: int
    location: str
    dark: bool
    shelter: bool
    covered: bool
    sides: tuple[str, ...]
    """North, east, south and west: open, wall, cliff or passage."""


class TileView(msgspec.Struct, frozen=True, gc=False):
    col: int
    row: int
    face_up: bool
    tile: str
    """The tile's id; ``""`` while it lies face down."""
    name: str


class MineView(msgspec.Struct, frozen=True, gc=False):
    columns: int
    rows: int
    token: tuple[int, int]
    tiles: tuple[TileView, ...]
    grids: tuple[GridView, ...]
    """The grids of face-up tiles only."""


class MarketView(msgspec.Struct, frozen=True, gc=False):
    name: str
    label: str
    price: tuple[tuple[str, int], ...]
    cards: tuple[HeldCard, ...]


class LocationView(msgspec.Struct, frozen=True, gc=False):
    number: str
    name: str
    text: str
    shelter: bool
    actions: tuple[str, ...]


class ElementArea(msgspec.Struct, frozen=True, gc=False):
    quiz_decks: tuple[DeckCount, ...]
    quizzes_open: tuple[QuizView, ...]
    quizzes_turned_over: tuple[str, ...]
    mine: MineView | None
    location_deck_count: int
    markets: tuple[MarketView, ...]
    location: LocationView | None
    """The current location card of the trail."""
    trail: tuple[str, ...]
    """Location cards revealed so far, the current one last."""


class DieView(msgspec.Struct, frozen=True, gc=False):
    die: str
    value: int
    shield: bool
    symbol: str


class CombatView(msgspec.Struct, frozen=True, gc=False):
    enemy: str
    enemy_name: str
    enemy_value: int
    """The enemy's combat value now, lowered when its weakness applies."""
    weakness: str
    rolled: tuple[DieView, ...]
    energy_spent: int
    spell_bonus: int
    eila_value: int
    green_value: int
    combat_value: int
    shields: int


def item_support_area(pack: ContentPack, state: EilaState) -> ItemSupportArea:
    items = tuple(HeldCard(i, pack.items[i].name, pack.items[i].text) for i in state.items)
    supports = tuple(
        HeldCard(s, pack.supports[s].name, pack.supports[s].text) for s in state.supports
    )
    dice = ("red", *state.dice) if pack.ruleset.dice else state.dice
    return ItemSupportArea(items, supports, dice)


def element_area(pack: ContentPack, state: EilaState) -> ElementArea:
    quizzes = tuple(
        QuizView(
            q.id,
            q.question,
            tuple(Choice(letter, text) for letter, text in q.choices),
            q.reward_text,
        )
        for q in (pack.quizzes[quiz] for quiz in state.quiz_open)
    )
    markets = tuple(
        MarketView(
            market.name,
            market.label,
            market.price,
            tuple(
                HeldCard(n, pack.cards[n].name, pack.cards[n].text)
                for n in dict(state.markets).get(market.name, ())
            ),
        )
        for market in pack.chapters[state.chapter].markets
        if state.phase != "setup"
    )
    location = None
    if state.trail:
        card = pack.card(state.trail[-1], state.mode)
        actions = tuple(option_label(pack, o) for o in card.options)
        location = LocationView(card.number, card.name, card.text, card.shelter, actions)
    return ElementArea(
        quiz_decks=tuple(DeckCount(deck, len(cards)) for deck, cards in state.quiz_decks),
        quizzes_open=quizzes,
        quizzes_turned_over=state.quiz_done,
        mine=_mine_view(pack, state),
        location_deck_count=len(state.location_deck),
        markets=markets,
        location=location,
        trail=state.trail,
    )


def _mine_view(pack: ContentPack, state: EilaState) -> MineView | None:
    mine = mine_of(pack, state)
    if mine is None or state.mine is None:
        return None
    tiles = []
    grids = []
    for index, slot in enumerate(mine.slots):
        up = index in state.mine.face_up
        tile = mine.tiles[state.mine.tiles[index]]
        tiles.append(
            TileView(slot.col, slot.row, up, tile.id if up else "", tile.name if up else "")
        )
        if not up:
            continue
        for n, grid in enumerate(tile.grids):
            grids.append(
                GridView(
                    2 * slot.col + n % 2,
                    2 * slot.row + n // 2,
                    grid.location,
                    grid.dark,
                    grid.shelter,
                    grid.location in state.mine.covered,
                    grid.sides,
                )
            )
    grids.sort(key=lambda g: (g.y, g.x))
    return MineView(mine.columns, mine.rows, state.mine.token, tuple(tiles), tuple(grids))


def combat_view(pack: ContentPack, state: EilaState) -> CombatView | None:
    combat = state.combat
    if combat is None:
        return None
    enemy = pack.enemies[combat.enemy]
    weakness = ""
    if enemy.weakness is not None:
        weakness = f"{enemy.weakness.value} if you have {condition_text(pack, enemy.weakness.when)}"
    rolled: list[DieView] = []
    if combat.rolled:
        red = face(pack, "red", combat.red)
        rolled.append(DieView("red", red.value, red.shield, red.symbol))
        if combat.green is not None:
            green = face(pack, "green", combat.green)
            rolled.append(DieView("green", green.value, green.shield, green.symbol))
    return CombatView(
        enemy=enemy.id,
        enemy_name=enemy.name,
        enemy_value=enemy_value(pack, state, combat.enemy),
        weakness=weakness,
        rolled=tuple(rolled),
        energy_spent=combat.energy,
        spell_bonus=combat.bonus,
        eila_value=eila_value(pack, state, combat),
        green_value=green_value(pack, state, combat),
        combat_value=combat_value(pack, state, combat),
        shields=combat_shields(pack, state, combat),
    )
