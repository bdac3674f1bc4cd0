from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.core.errors import ContentError
from domain.eila.content import DEFAULT_PACK, check_pack, load_pack
from tests.domain.eila.helpers import Json, chapter, chapter_zero, option, write_pack


def test_shipped_content_has_no_errors() -> None:
    assert check_pack(DEFAULT_PACK) == []


def test_shipped_content_covers_chapters_zero_to_five() -> None:
    pack = load_pack()
    assert pack.chapter_numbers == (0, 1, 2, 3, 4, 5)
    zero, one = pack.chapters[0], pack.chapters[1]
    assert zero.green == ("001", "002", "003", "004", "005")
    assert zero.blue == ("006", "007", "008") and zero.red == ("009", "010", "011")
    assert zero.normal.submit == (("food", 2),)
    assert 20 <= len(zero.green + zero.blue + zero.red) + 9 <= 30 + 9
    assert 20 <= len(one.green + one.blue + one.red) <= 30
    assert pack.habits == tuple(f"H{n}" for n in range(1, 8))
    # Items unlock options in chapter 1.
    assert any(
        o.requires_items for c in one.green + one.blue + one.red for o in pack.cards[c].options
    )


def test_shipped_content_has_the_rulebooks_components() -> None:
    """32 item cards, 14 support cards (S01-S14), 7 habit cards; chapter 2's quiz decks and
    chapter 3's 11 map tiles with location events 340-352."""
    pack = load_pack()
    assert sorted(pack.items) == [f"I{n:02d}" for n in range(1, 33)]
    assert sorted(pack.supports) == [f"S{n:02d}" for n in range(1, 15)]
    assert len(pack.habits) == 7
    two, three = pack.chapters[2], pack.chapters[3]
    assert {deck: len(cards) for deck, cards in two.quizzes.items()} == {"AQ": 5, "EQ": 5}
    assert all(number.startswith("2") for number in two.green + two.blue + two.red)
    assert three.mine is not None and len(three.mine.tiles) == 11 and len(three.mine.slots) == 9
    assert three.locations == tuple(str(n) for n in range(340, 353))
    groups = [slot.group for slot in three.mine.slots]
    assert groups.count("MC") == 1
    assert sum(tile.group == "MC" for tile in three.mine.tiles.values()) == 3
    kinds = {trait for item in pack.items.values() for trait in item.traits}
    assert {"pocket_watch", "flower", "rope", "magnifier", "gem"} <= kinds
    assert any(item.needs for item in pack.items.values())  # a combination item
    assert pack.supports["S01"].spell is not None  # a Fireball-like spell
    assert pack.supports["S02"].spell is not None and pack.supports["S02"].spell.gives.hp
    assert pack.supports["S14"].double_green


def test_shipped_content_has_chapter_four_and_five_elements() -> None:
    """Chapter 4's contracts C01-C09 and privileges P01-P09, 5 of each drawn; chapter 5's
    location cards L01-L10, L01 first; the 22 advanced event cards of the rulebook's table."""
    pack = load_pack()
    four, five = pack.chapters[4], pack.chapters[5]
    assert [(m.name, m.cards, m.draw, m.price) for m in four.markets] == [
        ("contracts", tuple(f"C0{n}" for n in range(1, 10)), 5, (("knowledge", 1),)),
        ("privileges", tuple(f"P0{n}" for n in range(1, 10)), 5, (("coin", 3),)),
    ]
    assert five.trail == tuple(f"L{n:02d}" for n in range(1, 11))
    assert five.night and five.night[0].kind == "pay_or_hp"
    assert any(pack.cards[n].shelter for n in five.trail)
    for number in (4, 5):
        chapter = pack.chapters[number]
        assert all(n.startswith(str(number)) for n in chapter.green + chapter.blue + chapter.red)
        assert chapter.advanced.hearts < chapter.normal.hearts
        assert sum(dict(chapter.advanced.submit).values()) > sum(
            dict(chapter.normal.submit).values()
        )
    replaced = "216 227 236 240 242 331 346 349 351 403 418 430"
    replaced += " 533 535 536 537 538 539 540 545 546 547"
    assert sorted(pack.advanced) == replaced.split()
    assert all(pack.advanced[n].colour == pack.cards[n].colour for n in pack.advanced)


def test_broken_pack_reports_every_error_with_file_card_and_field(tmp_path: Path) -> None:
    zero = chapter_zero(
        {
            "001": [option("A", [{"gain": "gold", "max": 1}]), option("B", [{"teleport": 1}])],
            "002": [option("A", [{"blue": "099"}])],
            "003": [option("A", [{"item": ["I99"]}], destination="sideways")],
        }
    )
    zero["cards"][5]["colour"] = "red"  # 006 must be blue
    zero["cards"][6]["number"] = "001"  # a duplicate
    del zero["cards"][7]["name"]  # 008 misses a field
    errors = check_pack(write_pack(tmp_path, [zero]))
    found = {(e.file, e.card, e.field) for e in errors}
    assert ("chapter0.json", "001", "options[0].effects[0].gain") in found
    assert ("chapter0.json", "001", "options[1].effects[0]") in found
    assert ("chapter0.json", "002", "option A.effects[0]") in found
    assert ("chapter0.json", "003", "options[0].destination") in found
    assert ("chapter0.json", "006", "colour") in found
    assert ("chapter0.json", "001", "number") in found
    assert ("chapter0.json", "008", "name") in found
    assert ("chapter0.json", "007", None) in found  # missing from chapter 0
    assert all(str(e).startswith(e.file) for e in errors)


def test_unknown_item_reference_is_reported(tmp_path: Path) -> None:
    zero = chapter_zero(
        {"004": [option("A", [{"item": ["I99"]}]), option("B", [], requires={"items": ["I42"]})]}
    )
    errors = check_pack(write_pack(tmp_path, [zero]))
    assert {(e.card, e.field) for e in errors} == {
        ("004", "option A.effects[0]"),
        ("004", "option B.requires"),
    }


def test_a_card_must_always_have_an_open_option(tmp_path: Path) -> None:
    zero = chapter_zero({"001": [option("A", [{"lose": "coin", "amount": 1}])]})
    errors = check_pack(write_pack(tmp_path, [zero]))
    assert [(e.card, e.field) for e in errors] == [("001", "options")]


def test_load_pack_refuses_a_broken_pack(tmp_path: Path) -> None:
    root = write_pack(tmp_path, [chapter_zero()])
    (root / "ruleset.json").write_text("{not json")
    with pytest.raises(ContentError, match=r"ruleset\.json"):
        load_pack(root)


def test_missing_manifest_is_reported(tmp_path: Path) -> None:
    assert [e.file for e in check_pack(tmp_path)] == ["pack.json"]


def test_ruleset_keeps_storage_and_night_limits_as_data(tmp_path: Path) -> None:
    root = write_pack(tmp_path, [chapter_zero()])
    ruleset = json.loads((root / "ruleset.json").read_text())
    ruleset["storage"]["tangible"] = 5
    (root / "ruleset.json").write_text(json.dumps(ruleset))
    assert load_pack(root).ruleset.tangible_capacity == 5
    assert load_pack(DEFAULT_PACK).ruleset.submission_limit(1) == 2
    assert load_pack(DEFAULT_PACK).ruleset.time_track == 7


def test_unreachable_items_habits_supports_and_options_are_reported(tmp_path: Path) -> None:
    from tests.domain.eila.helpers import dice, face, habit
    from tests.domain.eila.kit import ITEMS, SUPPORTS

    def each(kind: str, ids: list[str]) -> list[Json]:
        return [option(chr(ord("A") + n), [{kind: i}]) for n, i in enumerate(ids)]

    zero = chapter_zero(
        {
            "001": [option("A", [{"habit": "H1"}, {"blue": "006"}, {"blue": "007"}])],
            "002": [option("A", [{"red": "009"}, {"red": "010"}, {"red": "011"}])],
            "003": [
                option(chr(ord("A") + n), [{"item": [i["id"]]}]) for n, i in enumerate(ITEMS[1:])
            ],
            "004": each("support", [s["id"] for s in SUPPORTS[1:]]),
            "005": [option("A", []), option("B", [], requires={"items": ["I01"]})],
        }
    )
    root = write_pack(
        tmp_path,
        [zero],
        habits=[habit("H1"), habit("H2")],
        ruleset=dice([face(3)]),
        items=ITEMS,
        supports=SUPPORTS,
    )
    found = {(e.file, e.card, e.field) for e in check_pack(root)}
    assert found == {
        ("items.json", "I01", None),
        ("habits.json", "H2", None),
        ("supports.json", "S01", None),
        ("chapter0.json", "008", None),
        ("chapter0.json", "005", "option B.requires"),
    }
    assert check_pack(root, reachability=False) == []


def test_fighting_on_needs_a_lost_option_that_costs_hp(tmp_path: Path) -> None:
    from tests.domain.eila.helpers import dice, face
    from tests.domain.eila.kit import ENEMIES

    fight = {"fight": "E01", "won": [], "lost": [{"gain": "fear", "max": 1}], "fight_on": True}
    zero = chapter_zero({"001": [option("A", [fight])]})
    root = write_pack(tmp_path, [zero], ruleset=dice([face(3)]), enemies=ENEMIES)
    errors = check_pack(root, reachability=False)
    assert [(e.card, e.field) for e in errors] == [("001", "options[0].effects[0].lost")]


def test_an_advanced_card_replaces_a_card_of_the_same_number_and_colour(tmp_path: Path) -> None:
    from tests.domain.eila.helpers import card

    zero = chapter_zero()
    root = write_pack(tmp_path, [zero], advanced=[card("001", "blue"), card("099", "green")])
    errors = check_pack(root, reachability=False)
    assert [(e.file, e.card, e.field) for e in errors] == [
        ("advanced.json", "001", "colour"),
        ("advanced.json", "099", "number"),
    ]


def test_an_advanced_card_is_judged_among_the_packs_own_cards(tmp_path: Path) -> None:
    """A replacement may name a blue card, a shelter or an onward location of its chapter: it is
    played among the chapter's cards, not among the other replacements."""
    from tests.domain.eila.helpers import card

    trail = [
        {**card("L01", "trail", option("A", [{"onward": "L02"}])), "shelter": True},
        card("L02", "trail", option("A", [])),
    ]
    five = chapter(5, [[option("A", [{"location_action": True}])]])
    five["cards"] += [card("513", "blue"), card("531", "red"), *trail]
    five["trail"] = "L01"
    hard = card(
        "531",
        "red",
        option("A", [{"blue": "513"}, {"onward": "L02"}], requires={"shelter": True}),
        option("B", [{"red": "501"}]),
    )
    errors = check_pack(write_pack(tmp_path, [five], advanced=[hard]), reachability=False)
    assert [(e.file, e.card, e.field, e.problem) for e in errors] == [
        ("advanced.json", "531", "option B.effects[0]", "Card 501 is green, not red.")
    ]


def test_mine_tiles_must_agree_about_the_sides_between_their_grids(tmp_path: Path) -> None:
    from tests.domain.eila.test_mine import MINE, _table

    _table(tmp_path / "ok")  # the test mine is fine
    broken = json.loads(json.dumps(MINE))
    broken["tiles"][0]["grids"][0]["east"] = "wall"  # its neighbour's west side is open
    broken["start"] = [2, 0]  # a face-down tile
    three = chapter(3, [[option("A", [])]])
    three["mine"] = broken
    three["cards"] += [
        {
            "number": n,
            "colour": "location",
            "name": n,
            "text": ".",
            "options": [option("A", [])],
        }
        for n in ("341", "342", "343")
    ]
    errors = check_pack(write_pack(tmp_path / "broken", [three]), reachability=False)
    assert {(e.card, e.field) for e in errors} == {("M1", "grids"), (None, "mine.start")}


def test_the_check_finds_what_chapter_one_once_made_unreachable(tmp_path: Path) -> None:
    """Before card 102 lent the basket, 115 led to 118 and 110 fetched H5: item I02 could never
    be acquired (so 102 B and 118 A could never be chosen) and habit H5 was never fetched."""
    import shutil

    pack = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK, pack)
    one = json.loads((pack / "chapter1.json").read_text())
    cards = {c["number"]: c for c in one["cards"]}
    cards["102"]["options"][0]["effects"] = [{"gain": "food", "max": 2}]
    cards["110"]["options"][1]["effects"] = cards["110"]["options"][1]["effects"][:-1]
    cards["115"]["options"][1]["effects"] = [{"gain": "food", "max": 1}]
    cards["112"]["options"][0]["effects"].append({"blue": "118"})  # 118 in play, 118 A not
    (pack / "chapter1.json").write_text(json.dumps(one))
    found = {(e.file, e.card, e.field) for e in check_pack(pack)}
    assert found == {
        ("items.json", "I02", None),
        ("habits.json", "H5", None),
        ("chapter1.json", "102", "option B.requires"),
        ("chapter1.json", "118", "option A.requires"),
    }
