"""Files that import refuses, before it stores anything: one changed byte, an event changed by
someone who made every sum again, a cut-short file, a ruleset this server does not play, a
partial file, and a campaign the target holds with other events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from server.campaigns.service import CampaignService
from server.export.errors import (
    DamagedExport,
    DifferentCampaign,
    DivergentReplay,
    PartialExport,
    TruncatedExport,
    UnplayedRuleset,
)
from server.export.importing import import_export
from server.export.reading import played as rulesets_played
from server.export.reading import read_export
from server.store.base import UnknownCampaign
from server.store.sqlite import SqliteStore
from tests.server.export.campaigns import play_on, played
from tests.server.export.stores import exported, lines_of, rewritten

TAMPERED = 7
"""The version whose line the tests change."""


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[CampaignService]:
    store = SqliteStore(tmp_path / "source.sqlite3")
    yield CampaignService(store)
    await store.close()


@pytest.fixture
async def finished(service: CampaignService) -> tuple[str, bytes]:
    campaign_id, _ = await played(service, "gil-ennis", seed=31)
    return campaign_id, await exported(service, campaign_id)


def one_byte_changed(data: bytes, version: int) -> bytes:
    """``data`` with one digit of version ``version``'s state hash changed."""
    lines = lines_of(data)
    line = lines[version + 1]
    at = line.index(b'"hash":"') + len(b'"hash":"')
    lines[version + 1] = line[:at] + (b"1" if line[at : at + 1] != b"1" else b"2") + line[at + 1 :]
    changed = b"".join(lines)
    assert sum(a != b for a, b in zip(changed, data, strict=True)) == 1
    return changed


async def refused_import(tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``tabletale import`` on ``data`` into an empty store; it must refuse (status 1) and
    store nothing. Returns what it said."""
    path = tmp_path / "campaign.jsonl"
    path.write_bytes(data)
    target = tmp_path / "cli-target.sqlite3"
    command = ["import", str(path), "--store", f"sqlite:{target}"]
    assert await asyncio.to_thread(main, command) == 1
    store = SqliteStore(target)
    try:
        assert await store.list_campaigns() == []
    finally:
        await store.close()
    return capsys.readouterr().err


async def test_one_byte_changed_in_an_event_is_refused_naming_its_version(
    finished: tuple[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, data = finished
    damaged = one_byte_changed(data, TAMPERED)
    with pytest.raises(DamagedExport) as refused:
        read_export(lines_of(damaged))
    assert refused.value.version == TAMPERED
    said = await refused_import(tmp_path, damaged, capsys)
    assert f"version {TAMPERED}" in said and "changed" in said


async def test_an_event_changed_with_every_sum_made_again_fails_its_replay(
    finished: tuple[str, bytes], tmp_path: Path
) -> None:
    campaign_id, data = finished
    originals = read_export(lines_of(data)).events
    # The first dice drawn: the same event with other faces, as a forger would record them.
    version = next(e.version for e in originals if type(e.event).__name__ == "DiceDrawn")

    def other_faces(lines: list[dict[str, Any]]) -> None:
        event = lines[version + 1]["event"]
        event["faces"] = [1 if face != 1 else 2 for face in event["faces"]]

    with pytest.raises(DivergentReplay) as refused:
        read_export(lines_of(rewritten(data, other_faces)))
    assert (refused.value.campaign_id, refused.value.version) == (campaign_id, version)
    assert f"version {version} (DiceDrawn)" in str(refused.value)


async def test_a_line_moved_out_of_its_place_is_refused_in_the_files_own_words(
    finished: tuple[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, data = finished
    lines = lines_of(data)
    # every line keeps its own sum: only the order tells them apart
    event_again = b"".join([*lines[:-1], lines[2], lines[-1]])
    campaign_later = b"".join([lines[0], lines[2], lines[1], *lines[3:]])
    with pytest.raises(DamagedExport) as refused:
        read_export(lines_of(event_again))
    where = len(lines)
    assert str(refused.value) == f'The file\'s line {where} holds an "event" line out of its place.'
    said = await refused_import(tmp_path, campaign_later, capsys)
    assert 'line 2 holds an "event" line out of its place' in said
    assert "EventLine" not in said


async def test_a_file_cut_short_is_refused(
    finished: tuple[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, data = finished
    lines = lines_of(data)
    in_a_line = b"".join(lines[:9]) + lines[9][:30]
    at_a_line = b"".join(lines[:-1])
    for cut in (in_a_line, at_a_line, b""):
        with pytest.raises(TruncatedExport):
            read_export(lines_of(cut))
    with pytest.raises(TruncatedExport, match="ends in the middle of line 10"):
        read_export(lines_of(in_a_line))
    said = await refused_import(tmp_path, at_a_line, capsys)
    assert "without its closing line: it was cut short" in said


async def test_a_ruleset_this_server_does_not_play_is_refused_naming_those_it_plays(
    finished: tuple[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, data = finished

    def future_rules(lines: list[dict[str, Any]]) -> None:
        lines[1]["ruleset"] = "gil-ennis/99+content.1"
        lines[2]["event"]["ruleset"] = "gil-ennis/99+content.1"

    with pytest.raises(UnplayedRuleset) as refused:
        read_export(lines_of(rewritten(data, future_rules)))
    said = str(refused.value)
    assert "gil-ennis by the ruleset 'gil-ennis/99+content.1'" in said
    assert all(ruleset in said for ruleset in rulesets_played())
    assert "gil-ennis/99" in await refused_import(tmp_path, rewritten(data, future_rules), capsys)


async def test_a_partial_file_is_refused_with_what_to_do(
    service: CampaignService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign_id, _ = await played(service, "machina", seed=3, moves=5)
    seat = (await service.facts(campaign_id)).seats[0]
    partial = await exported(service, campaign_id, partial_for=seat)
    with pytest.raises(
        PartialExport, match="taken while the campaign \\(or one it was forked from\\) ran"
    ):
        read_export(lines_of(partial))
    said = await refused_import(tmp_path, partial, capsys)
    assert "export it again once they have ended" in said


async def test_a_campaign_held_with_other_events_is_refused_naming_the_first_that_differs(
    service: CampaignService, tmp_path: Path
) -> None:
    campaign_id, _ = await played(service, "gil-ennis", seed=41, moves=3)
    early = await exported(service, campaign_id)
    target = SqliteStore(tmp_path / "target.sqlite3")
    try:
        await import_export(target, read_export(lines_of(early)))
        held = CampaignService(target)
        # The two copies go on with other choices: the target's with one bot, the source's with
        # another, so they part at the first action the bots choose differently.
        await play_on(held, campaign_id, seed=1, moves=6)
        await play_on(service, campaign_id, seed=2, moves=6)
        theirs = await held.events(campaign_id)
        later = read_export(lines_of(await exported(service, campaign_id)))
        first = next(
            mine.version
            for mine, other in zip(later.events, theirs, strict=False)
            if (mine.event, mine.hash) != (other.event, other.hash)
        )
        head_before = (await target.info(campaign_id)).head
        with pytest.raises(DifferentCampaign) as refused:
            await import_export(target, later)
        assert (refused.value.campaign_id, refused.value.version) == (campaign_id, first)
        assert f"from version {first} on" in str(refused.value)
        assert (await target.info(campaign_id)).head == head_before
    finally:
        await target.close()


async def test_nothing_is_stored_from_a_refused_file(
    finished: tuple[str, bytes], tmp_path: Path
) -> None:
    campaign_id, data = finished
    target = SqliteStore(tmp_path / "target.sqlite3")
    try:
        with pytest.raises(DamagedExport):
            await import_export(target, read_export(lines_of(one_byte_changed(data, TAMPERED))))
        with pytest.raises(UnknownCampaign):
            await target.info(campaign_id)
    finally:
        await target.close()
