"""The search bot decides from what its seat may see, the same way for the same seed."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.bots import make_bot, make_policy
from domain.bots.eila_greedy import EilaGreedy
from domain.bots.gil_ennis_heuristic import best_move
from domain.bots.knowledge import GIL_ENNIS as GIL_ENNIS_KNOWLEDGE
from domain.bots.knowledge import knowledge_of
from domain.bots.machina_heuristic import best_move as machina_best_move
from domain.bots.search import Level, Move, Node, _choice, legal_moves, search
from domain.bots.search_bot import SearchBot
from domain.core.errors import InvalidOptions
from domain.core.game import Game, LegalAction, UnlabelledActions
from domain.core.rng import Chance, Rng
from domain.eila.game import GAME as EILA
from domain.eila.state import EilaState
from domain.gil_ennis.actions import EndClimb
from domain.gil_ennis.content import CONTENT
from domain.gil_ennis.game import GilEnnisGame
from domain.machina.game import MachinaGame
from tests.domain.bots.worlds import fresh, played
from tests.domain.gil_ennis.helpers import build, card

GIL_ENNIS = GilEnnisGame()
MACHINA = MachinaGame()
TABLES: list[tuple[Game, tuple[str, ...], dict[str, Any]]] = [
    (GIL_ENNIS, ("player",), {}),
    (GIL_ENNIS, ("gil", "ennis"), {}),
    (MACHINA, ("ada",), {}),
    (MACHINA, ("ada", "bram", "cyra"), {}),
    (EILA, ("player",), {"chapter": 2}),
    (EILA, ("player",), {"chapter": 3, "mode": "advanced"}),
]


def _secrets_swapped(state: Any, key: int, cut: int) -> Any:
    """The same table with other secrets: every face-down pile cut at ``cut`` and another key
    for the campaign's generator."""

    def cut_at(cards: tuple[str, ...]) -> tuple[str, ...]:
        at = cut % len(cards) if cards else 0
        return (*cards[at:], *cards[:at])

    changes: dict[str, Any] = {"rng": Rng(key, state.rng.draws, "elsewhere")}
    for name in ("deck", "map_deck", "monster_deck", "horror_deck", "item_deck", "future", "past"):
        if name in state.__struct_fields__:
            changes[name] = cut_at(getattr(state, name))
    if isinstance(state, EilaState):
        top, bottom = state.known_on_top, len(state.upcoming) - state.known_at_bottom
        middle = cut_at(state.upcoming[top:bottom])
        changes["upcoming"] = (*state.upcoming[:top], *middle, *state.upcoming[bottom:])
    return msgspec.structs.replace(state, **changes)


@settings(max_examples=12, deadline=None)
@given(
    table=st.sampled_from(range(len(TABLES))),
    campaign=st.integers(0, 2**32),
    moves=st.integers(0, 30),
    key=st.integers(0, 2**63),
    cut=st.integers(1, 40),
    bot_seed=st.integers(0, 2**32),
)
def test_what_the_seat_cannot_see_does_not_change_the_choice(
    table: int, campaign: int, moves: int, key: int, cut: int, bot_seed: int
) -> None:
    game, seats, options = TABLES[table]
    state = played(game, fresh(game, seats, campaign, options), moves, seed=campaign)
    other = _secrets_swapped(state, key, cut)
    seat = game.to_act(state)[0]
    assert game.view(other, seat) == game.view(state, seat)
    first = make_policy(game, bot_seed, level=1).decide(game, state, seat)
    second = make_policy(game, bot_seed, level=1).decide(game, other, seat)
    assert first == second
    assert first in game.legal_actions(state, seat)


def test_the_future_dice_differ_between_the_swapped_tables() -> None:
    state = fresh(GIL_ENNIS, ("player",), 3)
    other = _secrets_swapped(state, 99, 2)
    assert other.rng != state.rng and other.deck != state.deck


@pytest.mark.parametrize(("game", "seats", "options"), TABLES)
def test_the_search_bot_plays_a_legal_move_for_a_seat_that_may_act(
    game: Game, seats: tuple[str, ...], options: dict[str, Any]
) -> None:
    state = played(game, fresh(game, seats, 21, options), 8, seed=4)
    seat, choice = make_bot("search", game, 5, level=1).choose(game, state)
    assert seat in game.to_act(state)
    assert choice in game.legal_actions(state, seat)


def test_the_same_seed_gives_the_same_choices_and_others_may_differ() -> None:
    state = played(GIL_ENNIS, fresh(GIL_ENNIS, ("player",), 40), 6, seed=1)
    choices = {
        seed: SearchBot(GIL_ENNIS, seed, 1).decide(GIL_ENNIS, state, "player").id
        for seed in range(6)
    }
    again = {
        seed: SearchBot(GIL_ENNIS, seed, 1).decide(GIL_ENNIS, state, "player").id
        for seed in range(6)
    }
    assert choices == again


def test_on_mount_humbaba_the_bot_climbs_on_rather_than_turn_back() -> None:
    valley = min(CONTENT.map.paths, key=lambda p: len(p.campsites)).id
    state = build(
        ("player",),
        phase="final_night",
        day=len(CONTENT.map.route(valley)) + 1,
        path=valley,
        challenge=(5, 2),
        placed=(0, 0),
        gil=card(5, (3,), 2),
        ennis=card(6, (1,), 4),
    )
    legal = GIL_ENNIS.legal_actions(state, "player")
    assert any(isinstance(la.action, EndClimb) for la in legal)
    for seed in range(3):
        chosen = SearchBot(GIL_ENNIS, seed, 1).decide(GIL_ENNIS, state, "player")
        assert not isinstance(chosen.action, EndClimb)


def test_levels_are_numbered_and_only_the_search_bot_has_them() -> None:
    with pytest.raises(InvalidOptions, match="level"):
        make_bot("search", MACHINA, 1, level=9)
    with pytest.raises(InvalidOptions, match="levels"):
        make_bot("random", MACHINA, 1, level=2)
    assert isinstance(make_bot("search", EILA, 1), SearchBot)


# The root decision rule: the policy's own first move unless another is clearly better.


def _node(visits: int, mean: float) -> Node:
    return Node(visits=visits, total=visits * mean, offered=visits)


def _root(children: dict[str, Node]) -> tuple[Node, list[Move]]:
    root = Node(children={("player", key): child for key, child in children.items()})
    first = [("player", LegalAction(key, key, None)) for key in children]
    return root, first


LEVEL = Level(iterations=40, playout=0, trust=4, margin=0.05)


def test_the_policy_s_move_is_kept_against_a_better_mean_seen_too_seldom() -> None:
    root, first = _root({"kept": _node(10, 0.40), "lucky": _node(3, 0.95)})
    chosen = _choice(root, first, ("player", "kept"), 40, LEVEL)
    assert chosen.action.id == "kept" and chosen.why == "seldom"


def test_the_policy_s_move_is_kept_against_a_mean_within_the_margin() -> None:
    root, first = _root({"kept": _node(10, 0.40), "close": _node(20, 0.44)})
    chosen = _choice(root, first, ("player", "kept"), 40, LEVEL)
    assert chosen.action.id == "kept" and chosen.why == "close"


def test_another_move_is_chosen_on_enough_visits_and_a_clear_margin() -> None:
    root, first = _root({"kept": _node(10, 0.40), "better": _node(8, 0.50), "best": _node(5, 0.60)})
    chosen = _choice(root, first, ("player", "kept"), 40, LEVEL)
    assert chosen.action.id == "best" and chosen.why == "best"
    # The runner-up is the next best figure, not the most visited move.
    assert chosen.runner_up is not None and chosen.runner_up.id == "better"
    assert chosen.runner_up_rate == pytest.approx(0.50) and chosen.runner_up_visits == 8


def test_the_best_line_judges_a_move_by_its_best_child_not_its_mean() -> None:
    deep = _node(4, 0.8)
    poor = _node(6, 0.1)
    branching = Node(visits=11, total=0.3 + 4 * 0.8 + 6 * 0.1, children={("p", "a"): deep})
    branching.children[("p", "b")] = poor
    root, first = _root({"kept": _node(10, 0.45), "branching": branching})
    by_mean = _choice(root, first, ("player", "kept"), 40, LEVEL)
    by_line = _choice(root, first, ("player", "kept"), 40, Level(40, 0, best_line=True))
    assert by_mean.action.id == "kept"
    assert by_line.action.id == "branching" and by_line.win_rate == pytest.approx(0.8)


@pytest.mark.parametrize(("game", "seats", "options"), TABLES)
def test_with_few_iterations_the_search_plays_its_policy_s_move(
    game: Game, seats: tuple[str, ...], options: dict[str, Any]
) -> None:
    """Fewer iterations than ``trust``: the search has no evidence against its policy."""
    for campaign in range(3):
        state = played(game, fresh(game, seats, 30 + campaign, options), 5 + 4 * campaign, seed=2)
        seat = game.to_act(state)[0]
        knowledge = knowledge_of(game)
        level = Level(iterations=3, playout=4, trust=3)
        chosen = search(game, knowledge, state, (seat,), level, Chance(Rng(campaign, 0, "t")))
        if isinstance(game, GilEnnisGame):
            policy = best_move(game, state, (seat,), Chance(Rng(campaign, 0, "t")))[1]
        elif isinstance(game, MachinaGame):
            legal = [(seat, la) for la in game.legal_actions(state, seat)]
            policy = machina_best_move(state, legal)[1]
        else:
            policy = EilaGreedy(game).choose(game, state)[1]
        assert chosen.action == policy


def test_a_gil_ennis_journey_is_valued_by_the_heuristic_score_between_lost_and_won() -> None:
    valley = min(CONTENT.map.paths, key=lambda p: len(p.campsites)).id
    day = len(CONTENT.map.route(valley)) + 1
    hopeful = build(
        ("player",),
        phase="final_night",
        day=day,
        path=valley,
        challenge=(5, 2),
        placed=(0, 0),
        gil=card(5, (3,), 2),
        ennis=card(6, (1,), 4),
    )
    hopeless = msgspec.structs.replace(
        hopeful, challenge=(6, 6), gil=card(2, (), 0), ennis=card(3, (), 0)
    )
    won = msgspec.structs.replace(hopeful, result="won")
    lost = msgspec.structs.replace(hopeful, result="lost")
    value = GIL_ENNIS_KNOWLEDGE.value
    assert value(GIL_ENNIS, won) == 1.0 and value(GIL_ENNIS, lost) == 0.0
    assert 0.0 < value(GIL_ENNIS, hopeless) < value(GIL_ENNIS, hopeful) < 1.0


@pytest.mark.parametrize(("game", "seats", "options"), TABLES)
def test_the_search_s_own_worlds_list_moves_without_labels_where_the_game_can(
    game: Game, seats: tuple[str, ...], options: dict[str, Any]
) -> None:
    state = played(game, fresh(game, seats, seed=11, options=options), moves=30, seed=3)
    labelled = legal_moves(game, state)
    unlabelled = legal_moves(game, state, labelled=False)
    assert labelled and all(legal.label for _, legal in labelled)
    assert [(s, m.id, m.action) for s, m in unlabelled] == [
        (s, m.id, m.action) for s, m in labelled
    ]
    written = {legal.label for _, legal in unlabelled}
    if isinstance(game, UnlabelledActions):
        assert written == {""}
    else:
        assert "" not in written  # the game's own labelled listing, unchanged
