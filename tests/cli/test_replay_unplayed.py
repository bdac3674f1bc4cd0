"""``tabletale replay --verify`` and ``tabletale export`` on campaigns this server cannot play:
words for what was checked and what was not, and a raw file, never a traceback."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import msgspec
import pytest

from cli.main import main
from cli.replay import UNPLAYED
from server.store.opening import SQLITE_FILE
from server.store.sqlite import SqliteStore
from tests.support.unplayed import ABSENT, NEWER, store_unplayed


def stored(data_dir: Path, campaign_id: str, game: str, ruleset: str) -> None:
    async def write() -> None:
        store = SqliteStore(data_dir / SQLITE_FILE)
        try:
            await store_unplayed(store, campaign_id, game, ruleset, moves=4)
        finally:
            await store.close()

    asyncio.run(write())


@pytest.mark.parametrize(("game", "ruleset"), [NEWER, ABSENT])
def test_verify_says_what_it_checked_and_what_it_could_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, ruleset: str
) -> None:
    stored(tmp_path, "old", game, ruleset)
    assert main(["replay", "old", "--verify", "--store", f"sqlite:{tmp_path}"]) == UNPLAYED
    said = capsys.readouterr()
    assert "Traceback" not in said.err and said.err == ""
    checked, unchecked = said.out.splitlines()
    assert checked == (
        "old: checked: all 5 stored events are there, versions 1 to 5 in order, and each "
        "decodes as stored."
    )
    assert unchecked.startswith("old: not checked: the 5 stored state hashes")
    assert repr(ruleset) in unchecked and "which this server does not play" in unchecked
    assert main(["replay", "old", "--store", f"sqlite:{tmp_path}"]) == UNPLAYED
    assert "5 events stored, not replayed" in capsys.readouterr().out


def test_verify_names_a_damaged_stream_of_an_unplayed_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stored(tmp_path, "old", *NEWER)
    with sqlite3.connect(tmp_path / SQLITE_FILE) as db:
        db.execute("UPDATE events SET data = ? WHERE campaign = 'old' AND version = 3", (b"\xc1",))
    assert main(["replay", "old", "--verify", "--store", f"sqlite:{tmp_path}"]) == 1
    out = capsys.readouterr().out
    assert "the stream is damaged: version 3 does not decode" in out
    assert "(versions 1 to 2 are whole)" in out


def test_export_writes_a_raw_file_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stored(tmp_path, "old", *ABSENT)
    target = tmp_path / "old.jsonl"
    assert main(["export", "old", "--store", f"sqlite:{tmp_path}", "-o", str(target)]) == 0
    said = capsys.readouterr()
    assert "The file is raw" in said.err and repr(ABSENT[1]) in said.err
    lines = [msgspec.json.decode(line) for line in target.read_bytes().splitlines()]
    assert lines[0]["scope"] == "raw" and lines[1]["ruleset"] == ABSENT[1]
    assert [line["version"] for line in lines[2:-1]] == [1, 2, 3, 4, 5]
    assert main(["import", str(target), "--store", f"sqlite:{tmp_path / 'other'}"]) == 1
    assert "does not play lantern-keep" in capsys.readouterr().err


def test_migrate_copies_it_byte_for_byte_and_says_it_was_not_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "from", tmp_path / "to"
    source.mkdir()
    target.mkdir()
    stored(source, "newer", *NEWER)
    stored(source, "absent", *ABSENT)
    assert main(["migrate", "--from", f"sqlite:{source}", "--to", f"sqlite:{target}"]) == 0
    out = capsys.readouterr().out
    assert "2 campaigns stored" in out and "0 divergences" in out
    assert "2 campaigns recorded under a ruleset this server does not play" in out
    assert main(["replay", "newer", "--verify", "--store", f"sqlite:{target}"]) == UNPLAYED
