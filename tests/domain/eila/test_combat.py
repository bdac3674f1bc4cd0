"""Additional Rules 03 (enemy cards and combats), 04 (support cards) and 06 (the green die), and
the Appendix's entries on spells, shields on support cards and S14."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msgspec.structs import replace

from domain.eila import GAME
from domain.eila.events import CombatResolved, CombatRolled, HeartBroken
from tests.domain.eila.helpers import Json, Table, chapter_zero, dice, face, make_game, option
from tests.domain.eila.kit import ENEMIES, ITEMS, SUPPORTS, fight

PAW = face(1, symbol="paw")
SHIELD = face(2, shield=True, symbol="shield")
THREE = face(3)


def _table(
    tmp_path: Path,
    *effects: Json,
    red: list[Json] | None = None,
    green: list[Json] | None = None,
    requires: Json | None = None,
    **state: Any,
) -> Table:
    extra = {"requires": requires} if requires else {}
    zero = chapter_zero({"001": [option("A", list(effects), **extra), option("B", [])]})
    game = make_game(
        tmp_path,
        [zero],
        ruleset=dice(red or [THREE], green),
        items=ITEMS,
        supports=SUPPORTS,
        enemies=ENEMIES,
    )
    table = Table(game)
    table.state = replace(table.state, **state)
    return table


def _hound(tmp_path: Path, **kw: Any) -> Table:
    won = [{"gain": "coin", "max": 2}]
    lost = [{"broken_heart": 2}]
    return _table(tmp_path, fight("E01", won, lost), **kw)


def test_rule_03_roll_eilas_die_then_spend_energy_for_two_each(tmp_path: Path) -> None:
    table = _hound(tmp_path, hp=3)
    table.give(energy=2)
    table.do("A:")
    assert table.state.combat is not None and table.state.combat.enemy == "E01"
    assert table.labels()[0] == "Roll the combat dice"
    table.do("Roll the combat dice")
    assert table.labels()[:2] == [
        "Fight with combat value 3 against 5 (lose)",
        "Spend 1 Energy for +2 combat value",
    ]
    table.do("Spend 1 Energy")
    events = table.do("Fight with combat value 5 against 5 (win)")
    assert CombatResolved(True, 5, 5, 0) in events
    assert table.labels()[0] == "Take 2 Coin (of +2)"  # the winning option runs
    assert table.state.resources.energy == 1


def test_rule_03_a_lower_value_executes_the_losing_option(tmp_path: Path) -> None:
    table = _hound(tmp_path, hp=3)
    table.do("A:")
    table.do("Roll")
    events = table.do("Fight")
    assert CombatResolved(False, 3, 5, 0) in events
    assert HeartBroken(2) in events and table.state.hp == 1


def test_rule_03_the_paw_face_is_1_and_the_shield_face_is_2_and_cancels_1_hp_loss(
    tmp_path: Path,
) -> None:
    table = _hound(tmp_path, red=[PAW], hp=3)
    table.do("A:")
    table.do("Roll")
    assert table.labels()[0] == "Fight with combat value 1 against 5 (lose)"
    table = _hound(tmp_path / "shield", red=[SHIELD], hp=3)
    table.do("A:")
    table.do("Roll")
    events = table.do("Fight with combat value 2 against 5 (lose)")
    assert HeartBroken(1, prevented=1) in events and table.state.hp == 2


def test_rule_03_the_shipped_red_die() -> None:
    faces = GAME.pack.ruleset.dice["red"].faces
    by_symbol = {f.symbol: f for f in faces}
    assert (by_symbol["paw"].value, by_symbol["paw"].shield) == (1, False)
    assert (by_symbol["shield"].value, by_symbol["shield"].shield) == (2, True)
    assert max(f.value for f in faces) == 6 and len(faces) == 6


def test_rule_03_a_met_weakness_lowers_the_enemy_value(tmp_path: Path) -> None:
    table = _table(tmp_path, fight("E02", [], [{"broken_heart": 1}]))
    table.do("A:")
    table.do("Roll")
    assert table.labels()[0] == "Fight with combat value 3 against 2 (win)"
    table = _table(tmp_path / "afraid", fight("E02", [], [{"broken_heart": 1}]))
    table.give(fear=1)
    table.do("A:")
    table.do("Roll")
    assert table.labels()[0] == "Fight with combat value 3 against 6 (lose)"


def test_rule_03_rolls_are_recorded_and_replay(tmp_path: Path) -> None:
    table = _hound(tmp_path, red=[PAW, SHIELD, THREE, face(4), face(5), face(6)])
    table.do("A:")
    (rolled,) = [e for e in table.do("Roll") if isinstance(e, CombatRolled)]
    assert 0 <= rolled.red < 6 and rolled.green is None
    assert table.state.rng.draws == rolled.draws > 0


def test_rule_04_a_support_card_is_acquired_by_number(tmp_path: Path) -> None:
    table = _table(tmp_path, {"support": "S01"})
    table.do("A:")
    assert table.state.supports == ("S01",)
    area = table.game.view(table.state, "player").item_support_area
    assert [s.name for s in area.supports] == ["Fireball"]


def test_rule_04_a_spell_only_at_its_timing_and_again_while_its_cost_is_paid(
    tmp_path: Path,
) -> None:
    table = _hound(tmp_path, supports=("S01",), hp=3)
    table.give(stone=2)
    assert "Cast Fireball" not in table.labels()  # only in combat
    table.do("A:")
    table.do("Cast Fireball")  # before the roll
    table.do("Roll")
    table.do("Cast Fireball")  # after it, again
    assert "Cast Fireball" not in table.labels()  # no Magical Stone left
    assert table.labels()[0] == "Fight with combat value 23 against 5 (win)"


def test_appendix_spells_can_win_a_combat_after_a_bad_roll(tmp_path: Path) -> None:
    table = _hound(tmp_path, red=[PAW], supports=("S01",))
    table.give(stone=1)
    table.do("A:")
    table.do("Roll")
    assert table.labels()[0].endswith("(lose)")
    table.do("Cast Fireball")
    assert table.labels()[0] == "Fight with combat value 11 against 5 (win)"


def test_rule_04_an_option_requiring_a_support_does_not_charge_its_spell(tmp_path: Path) -> None:
    table = _table(tmp_path, {"gain": "coin", "max": 1}, requires={"supports": ["S01"]})
    assert not any(label.startswith("A:") for label in table.labels())
    table.state = replace(table.state, supports=("S01",))
    table.do("A:")  # no Magical Stone in storage, none paid
    assert table.state.resources.stone == 0


def test_rule_06_the_green_die_adds_its_value_and_each_shield_prevents_one_hp(
    tmp_path: Path,
) -> None:
    table = _hound(tmp_path, red=[SHIELD], green=[face(1, shield=True)], dice=("green",), hp=3)
    table.do("A:")
    rolled = table.do("Roll")
    assert isinstance(rolled[0], CombatRolled) and rolled[0].green == 0
    events = table.do("Fight with combat value 3 against 5 (lose)")
    assert HeartBroken(0, prevented=2) in events and table.state.hp == 3


def test_rule_06_items_and_supports_touch_only_eilas_die_and_s14_doubles_the_green_value(
    tmp_path: Path,
) -> None:
    green = [face(2, shield=True)]
    table = _hound(
        tmp_path, green=green, dice=("green",), supports=("S08", "S14"), items=("I05", "I06")
    )
    table.do("A:")
    table.do("Roll")
    combat = table.game.view(table.state, "player").combat
    assert combat is not None
    # Eila: 3 + 1 (S08) + 2 (bow and arrows); green: 2 doubled by S14.
    assert (combat.eila_value, combat.green_value, combat.combat_value) == (6, 4, 10)
    assert combat.shields == 1  # S14 doubles the value, not the shield


def test_appendix_a_support_showing_a_shield_prevents_two_hp_loss_in_total(
    tmp_path: Path,
) -> None:
    lost = [{"broken_heart": 1}, {"broken_heart": 2}]
    table = _table(tmp_path, fight("E01", [], lost), supports=("S03",), hp=4)
    table.do("A:")
    table.do("Roll")
    events = table.do("Fight")
    assert [e for e in events if isinstance(e, HeartBroken)] == [
        HeartBroken(0, prevented=1),
        HeartBroken(1, prevented=1),
    ]
    assert table.state.hp == 3


def test_appendix_a_combination_item_needs_all_its_parts(tmp_path: Path) -> None:
    table = _hound(tmp_path, items=("I05",))
    table.do("A:")
    table.do("Roll")
    assert table.labels()[0] == "Fight with combat value 3 against 5 (lose)"
    table = _hound(tmp_path / "both", items=("I05", "I06"))
    table.do("A:")
    table.do("Roll")
    assert table.labels()[0] == "Fight with combat value 5 against 5 (win)"


def test_no_conversion_once_the_dice_are_rolled(tmp_path: Path) -> None:
    table = _hound(tmp_path)
    table.give(food=2)
    table.do("A:")
    assert "Convert 2 Food into 1 Energy" in table.labels()  # before the fight begins
    table.do("Roll")
    assert "Convert 2 Food into 1 Energy" not in table.labels()


def test_fight_on_despite_injuries_repeats_the_combat_afresh_until_won(tmp_path: Path) -> None:
    won = [{"gain": "coin", "max": 1}]
    table = _table(tmp_path, fight("E01", won, [{"broken_heart": 1}], fight_on=True), hp=3)
    table.give(energy=1)
    table.do("A:")
    table.do("Roll")
    table.do("Spend 1 Energy")
    table.do("Fight with combat value 5 against 5 (win)")
    assert table.labels()[0] == "Take 1 Coin (of +1)"
    table = _table(tmp_path / "again", fight("E01", won, [{"broken_heart": 1}], fight_on=True))
    table.state = replace(table.state, hp=3)
    table.give(energy=2)
    table.do("A:")
    table.do("Roll")
    table.do("Fight with combat value 3 against 5 (lose)")
    assert table.state.hp == 2
    # The combat starts again: nothing rolled, no Energy spent carried over.
    assert table.state.combat is not None and not table.state.combat.rolled
    assert table.labels()[0] == "Roll the combat dice"
    table.do("Roll")
    table.do("Spend 1 Energy")
    assert table.labels()[0] == "Fight with combat value 5 against 5 (win)"
