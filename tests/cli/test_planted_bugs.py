"""``tabletale check-game FOLDER`` on copies of Lighthouse Watch, each with one mistake a game
author makes planted by a small edit of its source: the kit fails on every one and names the
promise it breaks (with the seed and the version), and passes on the clean copy."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cli.main import main
from tests.examples.lighthouse import FOLDER

Edit = tuple[str, str, str]
"""A file of the package (``rules.py``), the text to replace, and what replaces it."""


def copy_of_lighthouse(into: Path, *edits: Edit) -> Path:
    """A copy of the example's package folder in ``into`` with ``edits`` made."""
    folder = into / "lighthouse"
    shutil.copytree(
        FOLDER,
        folder,
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", ".*"),
    )
    for name, old, new in edits:
        path = folder / "lighthouse_watch" / name
        text = path.read_text()
        assert text.count(old) == 1, f"{old!r} is not once in {name}"
        path.write_text(text.replace(old, new))
    return folder


def check(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["check-game", str(folder), "--playthroughs", "12"])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def promises(text: str) -> set[str]:
    found = r"Broken promise '([a-z-]+)' \(lighthouse/1\+content\.1, seed \d+, seats isla, tom"
    return set(re.findall(found, text))


def broken(tmp_path: Path, capsys: pytest.CaptureFixture[str], *edits: Edit) -> str:
    status, text = check(copy_of_lighthouse(tmp_path, *edits), capsys)
    assert status == 1, text
    assert "Traceback" not in text
    return text


def test_the_clean_copy_keeps_every_promise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text = check(copy_of_lighthouse(tmp_path), capsys)
    assert status == 0, text
    assert "12 playthroughs (seeds 1-12, up to 20 moves each, its longest)" in text
    assert "broken" not in text


def test_a_view_that_shows_another_seats_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = broken(
        tmp_path,
        capsys,
        (
            "game.py",
            "mine = hand_of(state, seat) if seat is not None else ()",
            "mine = tuple(lamp for hand in state.hands for lamp in hand) if seat else ()",
        ),
    )
    assert promises(text) == {"views-hide"}
    assert re.search(r"version \d+\): .*The view channel: the view of seat '\w+' changed", text)
    assert "field your_lamps" in text


def test_a_redact_that_leaves_another_seats_drawn_lamp_in_the_events(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = broken(
        tmp_path,
        capsys,
        (
            "game.py",
            "if isinstance(event, Drew) and event.seat != seat:",
            "if isinstance(event, Drew) and seat is None:",
        ),
    )
    assert promises(text) == {"events-hide"}
    assert re.search(
        r"version \d+\): .*The event channel: seat '(isla|tom)' receives Drew as "
        r'\{"type":"lighthouse/drew","seat":"(tom|isla)","lamp":"[a-z]+-\d+"\}',
        text,
    )
    assert "(field lamp differs)" in text


def test_a_describe_that_names_the_lamp_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = broken(
        tmp_path,
        capsys,
        (
            "game.py",
            "            case Shuffled():\n",
            "            case Drew(seat=seat, lamp=lamp):\n"
            '                return f"{SEAT_NAMES[seat]} draws the {_lamp(lamp)}."\n'
            "            case Shuffled():\n",
        ),
    )
    assert promises(text) == {"timeline-hides"}
    assert re.search(
        r"The timeline channel: the line for Drew reads '(Isla|Tom) draws the \w+ \(\d\)\.'; "
        r"with what (seat '\w+'|the spectator) cannot see permuted it reads",
        text,
    )


SETUP = """        chance = Chance(state.rng)
        lamps = chance.shuffled(sorted(CONTENT.lamps))
        storms = chance.shuffled(sorted(CONTENT.storms))
        return [Shuffled(lamps, storms, chance.draws)]
"""
IMPORT_RANDOM = (
    "game.py",
    "from typing import Annotated, Any\n",
    "import random\nfrom typing import Annotated, Any\n",
)


def test_chance_from_pythons_random_module_unseeded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = broken(
        tmp_path,
        capsys,
        IMPORT_RANDOM,
        ("game.py", "chance = Chance(state.rng)", "chance = Chance(Rng(random.getrandbits(63)))"),
    )
    assert "deterministic" in promises(text)
    assert re.search(
        r"Broken promise 'deterministic' .*version 2\): .*Played again, version 2", text
    )


def test_chance_from_a_random_random_of_the_seed_bypassing_the_generator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shuffle = """        deal = random.Random(state.rng.seed)
        lamps = sorted(CONTENT.lamps)
        storms = sorted(CONTENT.storms)
        deal.shuffle(lamps)
        deal.shuffle(storms)
        return [Shuffled(tuple(lamps), tuple(storms), 0)]
"""
    text = broken(tmp_path, capsys, IMPORT_RANDOM, ("game.py", SETUP, shuffle))
    assert promises(text) == {"chance-from-the-generator"}
    assert "Reseeded with another salt (the same seed) at the set-up and at every decision" in text
    assert "its chance does not come from the campaign's generator" in text


def test_a_set_that_orders_the_lamps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = broken(
        tmp_path,
        capsys,
        (
            "game.py",
            "chance.shuffled(sorted(CONTENT.lamps))",
            "chance.shuffled(list(set(CONTENT.lamps)))",
        ),
    )
    assert promises(text) == {"same-in-every-process"}
    assert re.search(r"In another process \(PYTHONHASHSEED=\d, the playthroughs in reverse", text)
    assert "the game depends on the order of a set or a dict of strings" in text


def test_a_listed_action_that_decide_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refuse = (
        '        raise IllegalAction(f"There is no lamp {action.lamp!r} in your hand.")\n'
        '    if action.lamp.startswith("beacon"):\n'
        '        raise IllegalAction("Beacons are not lit on these nights.")\n'
    )
    text = broken(
        tmp_path,
        capsys,
        (
            "rules.py",
            '        raise IllegalAction(f"There is no lamp {action.lamp!r} in your hand.")\n',
            refuse,
        ),
    )
    assert "legal-actions-apply" in promises(text)
    assert re.search(r"'(isla|tom)' took the listed action 'light:beacon-\d' and play raised", text)
    assert "Beacons are not lit on these nights." in text


def test_a_reducer_that_changes_the_state_it_was_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = broken(
        tmp_path,
        capsys,
        (
            "rules.py",
            "    lit: tuple[str, ...] = ()\n",
            "    lit: list[str] = msgspec.field(default_factory=list)\n",
        ),
        (
            "rules.py",
            "            return replace(state, hands=hands, lit=(*state.lit, lamp))\n",
            "            state.lit.append(lamp)\n"
            "            return replace(state, hands=hands, lit=state.lit)\n",
        ),
        ("rules.py", "                lit=(),\n", "                lit=[],\n"),
    )
    assert "no-mutation" in promises(text)
    assert re.search(
        r"Broken promise 'no-mutation' .*play changed the state it was given "
        r"\('(isla|tom)' taking 'light:[a-z]+-\d+'\): field lit\.",
        text,
    )


def test_a_tuple_in_a_field_typed_any(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = broken(
        tmp_path,
        capsys,
        (
            "rules.py",
            "from typing import Literal, assert_never",
            "from typing import Any, Literal, assert_never",
        ),
        ("rules.py", "    lit: tuple[str, ...] = ()\n", "    lit: Any = ()\n"),
    )
    assert promises(text) == {"snapshot"}
    assert re.search(
        r"version \d+\): .*Read back from a snapshot, field lit: a tuple came back as a list\.",
        text,
    )


def test_a_plain_python_object_in_the_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keeper = '''class Keeper:
    """The keeper on watch, kept as a plain object."""

    def __init__(self, seat: str) -> None:
        self.seat = seat


class LighthouseState(msgspec.Struct, frozen=True):
'''
    text = broken(
        tmp_path,
        capsys,
        (
            "rules.py",
            "from typing import Literal, assert_never",
            "from typing import Any, Literal, assert_never",
        ),
        ("rules.py", "class LighthouseState(msgspec.Struct, frozen=True):\n", keeper),
        (
            "rules.py",
            '    result: Result = "running"\n',
            '    result: Result = "running"\n    keeper: Any = None\n',
        ),
        (
            "rules.py",
            "                night=1,\n",
            "                night=1,\n                keeper=Keeper(state.seats[0]),\n",
        ),
    )
    assert "snapshot" in promises(text)
    assert re.search(
        r"Broken promise 'snapshot' \(lighthouse/1\+content\.1, seed 1, seats isla, tom, "
        r"version 2\): .*The state after Shuffled cannot be encoded in MessagePack, as a snapshot "
        r"and its hash are: Encoding objects of type Keeper is unsupported",
        text,
    )


def test_a_watch_that_never_ends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    endings = """    if lost >= state.ships:
        return [*events, WatchEnded("lost")]
    if state.night >= state.nights:
        return [*events, WatchEnded("won")]
"""
    text = broken(
        tmp_path,
        capsys,
        ("rules.py", endings, ""),
        # The storm met goes back under its deck, and the lamps lit under theirs.
        (
            "rules.py",
            "                storms=state.storms[1:],\n                lit=(),\n",
            "                storms=(*state.storms[1:], state.storm),\n"
            "                lamps=(*state.lamps, *state.lit),\n                lit=(),\n",
        ),
    )
    assert promises(text) == {"ends"}
    assert (
        "A random playthrough is still running after 20 moves, the longest campaign the game "
        "declares (GameInfo.longest): it may never end." in text
    )
