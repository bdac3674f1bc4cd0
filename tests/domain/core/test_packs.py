from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from domain.core.game import GameInfo
from domain.core.packs import InPlay, PlayedWith

PACK = InPlay("test pack", "newest")
INFO = GameInfo(
    name="t",
    title="T",
    ruleset="t/1+content.1",
    seat_layouts=(("a",),),
    hidden_information=False,
    chance=False,
)


class Reader:
    """A game whose rules read the pack in play."""

    info = INFO
    options_type = dict

    def read(self) -> str:
        return PACK.get()

    def fails(self) -> None:
        raise ValueError(PACK.get())


def test_an_older_rulesets_game_reads_its_pack_only_during_its_calls() -> None:
    old: Any = PlayedWith(Reader(), INFO, PACK, "old", Path("packs/1"))
    assert old.read() == "old"
    assert PACK.get() == "newest"
    assert Reader().read() == "newest"
    with pytest.raises(ValueError, match="old"):
        old.fails()
    assert PACK.get() == "newest"  # put back after a raise too
    assert old.options_type is dict and old.info is INFO and old.folder == Path("packs/1")


def test_threads_playing_other_packs_at_once_each_read_their_own() -> None:
    games: list[Any] = [PlayedWith(Reader(), INFO, PACK, f"pack {n}", Path(".")) for n in range(4)]
    barrier = threading.Barrier(len(games))
    seen: dict[int, set[str]] = {n: set() for n in range(len(games))}

    def play(n: int) -> None:
        barrier.wait()
        for _ in range(2_000):
            seen[n].add(games[n].read())

    threads = [threading.Thread(target=play, args=(n,)) for n in range(len(games))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {n: {f"pack {n}"} for n in range(len(games))}
