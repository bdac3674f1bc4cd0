"""Today's server opens the data folders that earlier releases wrote (``tests/releases/corpus/``,
made by ``make_corpus.py``): one campaign per ruleset main has had, each recorded by the server of
the last commit at which its ruleset was in force.

Each entry's folder is copied and served by today's app on the embedded SQLite store, as an
operator who upgrades would do. Its campaign is listed and counted, readable at its head and at
every version, its events and timeline read, it replays to its end with every stored state hash
reproduced, it exports, and one more move is accepted on it, under the ruleset it was created
with; the export file that its own release wrote imports into a fresh store.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from cli.replay import replay
from domain.games import rulesets_of
from server.app import create_app
from server.campaigns.service import CampaignService
from server.export.importing import import_export
from server.export.reading import read_export
from server.export.verification import replay_divergence
from server.export.writing import export_lines
from server.store.sqlite import SqliteStore
from server.store.sqlite_copies import copy_name
from server.store.sqlite_schema import SCHEMA_VERSION
from tests.server.conftest import Live, auth, running

CORPUS = Path(__file__).resolve().parent / "corpus"
SQLITE_FILE = "tabletale.sqlite3"
FOLDERS = sorted(path.parent for path in CORPUS.glob("*/made.json"))
EXPORTED = [folder for folder in FOLDERS if (folder / "export.jsonl").exists()]
TAKEN_MS = 1_800_000_000_000  # when the test's own export says it was taken: any fixed instant


def schema_of(file: Path) -> int:
    with contextlib.closing(sqlite3.connect(file)) as db:
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
        return version


def events_in(file: Path) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(file)) as db:
        return sorted(db.execute("SELECT * FROM events"))


def made_of(folder: Path) -> dict[str, Any]:
    made: dict[str, Any] = json.loads((folder / "made.json").read_text())
    return made


@dataclass(frozen=True)
class Opened:
    made: dict[str, Any]
    folder: Path
    live: Live
    served: Path
    """The copy of the data folder today's server runs on."""
    pristine: Path
    """Another copy, as the old server left it, for checks that read the file itself."""

    @property
    def campaign(self) -> str:
        return str(self.made["campaign"])

    @property
    def head(self) -> int:
        return int(self.made["head"])


def test_every_ruleset_a_game_released_has_a_corpus_entry() -> None:
    kept: dict[str, set[str]] = {}
    for folder in FOLDERS:
        made = made_of(folder)
        kept.setdefault(made["game"], set()).add(made["ruleset"])
    assert set(kept) == {"gil-ennis", "eila", "machina"}
    # A bump adds an entry (tests/releases/make_corpus.py): the ruleset it retires stays here.
    assert {game: set(rulesets_of(game)) for game in kept} == kept


@contextlib.contextmanager
def serving(folder: Path, served: Path) -> Iterator[Live]:
    """Today's server on a copy of the entry's data folder at ``served``, until the block ends."""
    shutil.copytree(folder / "data", served, dirs_exist_ok=True)
    service = CampaignService(SqliteStore(served / SQLITE_FILE))
    with running(create_app(service, close_store=True, web_root=None)) as live:
        yield live


@pytest.fixture(scope="module", params=FOLDERS, ids=lambda folder: folder.name)
def opened(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Opened]:
    """One server per entry for the checks that only read (a move has a server of its own)."""
    folder: Path = request.param
    served = tmp_path_factory.mktemp(f"{folder.name}-served")
    pristine = tmp_path_factory.mktemp(f"{folder.name}-pristine")
    shutil.copytree(folder / "data", pristine, dirs_exist_ok=True)
    with serving(folder, served) as live:
        yield Opened(made_of(folder), folder, live, served, pristine)


@pytest.fixture
def api(opened: Opened) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=opened.live.http, timeout=30.0) as client:
        yield client


def test_the_campaign_is_listed_with_its_ruleset_and_counted(
    opened: Opened, api: httpx.Client
) -> None:
    page = api.get("/api/campaigns", params={"limit": 100}).raise_for_status().json()
    entries = {entry["id"]: entry for entry in page["campaigns"]}
    assert set(entries) == {opened.campaign}
    entry = entries[opened.campaign]
    assert (entry["game"], entry["ruleset"], entry["version"]) == (
        opened.made["game"],
        opened.made["ruleset"],
        opened.head,
    )
    assert entry["played"] is True, entry["unplayed"]
    stats = {
        each["game"]: each for each in api.get("/api/stats").raise_for_status().json()["games"]
    }
    totals = stats[opened.made["game"]]["totals"]
    # Counted once: with the games, or apart on known luck when its release kept chosen seeds so.
    assert (totals["games"] + totals["known_luck"], totals["unplayed"]) == (1, 0)


def test_an_older_store_format_is_kept_as_a_copy_before_it_is_migrated(opened: Opened) -> None:
    written = opened.folder / "data" / SQLITE_FILE
    found = schema_of(written)
    copy = copy_name(opened.served / SQLITE_FILE, found)
    assert schema_of(opened.served / SQLITE_FILE) == SCHEMA_VERSION
    if found == SCHEMA_VERSION:
        assert not copy.exists()
        return
    # A rollback to the release that wrote it finds the file as that release left it.
    assert schema_of(copy) == found
    assert events_in(copy) == events_in(written)


def test_the_campaign_reads_at_its_head_and_at_every_version(
    opened: Opened, api: httpx.Client
) -> None:
    base = f"/api/campaigns/{opened.campaign}"
    meta = api.get(base)
    assert meta.status_code == 200, meta.text
    assert meta.json()["entry"]["version"] == opened.head
    for seat, token in opened.made["tokens"].items():
        head = api.get(base + "/state", headers=auth(token))
        assert head.status_code == 200, head.text
        assert (head.json()["version"], head.json()["seat"]) == (opened.head, seat)
    for version in range(1, opened.head + 1):
        state = api.get(base + "/state", params={"at": version})
        assert state.status_code == 200, f"version {version}: {state.text}"
        assert state.json()["version"] == version


def test_the_events_and_the_timeline_read(opened: Opened, api: httpx.Client) -> None:
    base = f"/api/campaigns/{opened.campaign}"
    events = api.get(base + "/events", params={"after": 0, "limit": 1000})
    assert events.status_code == 200, events.text
    listed = events.json()["events"]
    assert [each["version"] for each in listed] == list(range(1, opened.head + 1))
    assert listed[0]["event"]["type"] == "campaign/created"
    timeline = api.get(base + "/timeline")
    assert timeline.status_code == 200, timeline.text
    assert timeline.json()["head"] == opened.head
    assert timeline.json()["lines"][0]["version"] == 1


async def test_the_campaign_replays_to_its_end_with_every_stored_hash(
    opened: Opened, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SqliteStore(opened.pristine / SQLITE_FILE)
    try:
        report = await CampaignService(store).verify(opened.campaign)
        assert report.ok, report.first_divergence
        assert report.events == opened.head
        info = await store.info(opened.campaign)
        assert await replay_divergence(store, info) == (opened.head, None)
    finally:
        await store.close()
    url = f"sqlite:{opened.pristine / SQLITE_FILE}"
    assert await replay(opened.campaign, url, verify=True) == 0
    said = capsys.readouterr().out
    assert f"{opened.head} events, every state hash matches" in said


async def test_the_campaign_exports_and_the_file_imports(opened: Opened, tmp_path: Path) -> None:
    source = SqliteStore(opened.pristine / SQLITE_FILE)
    try:
        lines = [
            line
            async for line in export_lines(
                CampaignService(source), opened.campaign, taken_ms=TAKEN_MS
            )
        ]
    finally:
        await source.close()
    exported = read_export(lines)
    assert (exported.campaign.ruleset, exported.campaign.head) == (
        opened.made["ruleset"],
        opened.head,
    )
    await imports_verified(exported, tmp_path / "imported.sqlite3", opened.made)


def test_a_seat_exports_its_own_file_over_http(opened: Opened, api: httpx.Client) -> None:
    seat, token = next(iter(opened.made["tokens"].items()))
    answer = api.get(f"/api/campaigns/{opened.campaign}/export", headers=auth(token))
    assert answer.status_code == 200, answer.text
    header = json.loads(answer.content.splitlines()[0])
    assert (header["kind"], header["seat"]) == ("header", seat)
    assert len(answer.content.splitlines()) == opened.head + 3  # header, campaign, events, end


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda folder: folder.name)
async def test_one_more_move_is_accepted_under_its_own_ruleset(
    folder: Path, tmp_path: Path
) -> None:
    made = made_of(folder)
    base = f"/api/campaigns/{made['campaign']}"
    with (
        serving(folder, tmp_path) as live,
        httpx.Client(base_url=live.http, timeout=30.0) as api,
    ):
        answer = None
        for token in made["tokens"].values():
            state = api.get(base + "/state", headers=auth(token)).raise_for_status().json()
            if state["legal_actions"]:
                answer = api.post(
                    base + "/actions",
                    headers=auth(token),
                    json={
                        "action": state["legal_actions"][0]["id"],
                        "expected_version": state["version"],
                        "command_id": "corpus-one-more",
                    },
                )
                break
        assert answer is not None, "no seat has a move"
        assert answer.status_code == 200, answer.text
        assert answer.json()["first"] == made["head"] + 1
        head = api.get(base).raise_for_status().json()["entry"]
    assert head["version"] > made["head"]
    assert head["ruleset"] == made["ruleset"]
    # The move was decided under the campaign's own ruleset: the stream, with it, still replays.
    store = SqliteStore(tmp_path / SQLITE_FILE)
    try:
        report = await CampaignService(store).verify(made["campaign"])
    finally:
        await store.close()
    assert report.ok, report.first_divergence
    assert report.events == head["version"]


@pytest.mark.parametrize("folder", EXPORTED, ids=lambda folder: folder.name)
async def test_the_export_file_its_release_wrote_imports(folder: Path, tmp_path: Path) -> None:
    made = made_of(folder)
    with (folder / "export.jsonl").open("rb") as file:
        exported = read_export(file)
    assert (exported.campaign.id, exported.campaign.ruleset) == (made["campaign"], made["ruleset"])
    await imports_verified(exported, tmp_path / "imported.sqlite3", made)


async def imports_verified(exported: Any, file: Path, made: dict[str, Any]) -> None:
    """``exported`` imports into a fresh store at ``file``, and replays there to its hashes."""
    store = SqliteStore(file)
    try:
        imported = await import_export(store, exported)
        assert imported.campaign == made["campaign"]
        info = await store.info(made["campaign"])
        assert info.head == made["head"]
        report = await CampaignService(store).verify(made["campaign"])
        assert report.ok, report.first_divergence
    finally:
        await store.close()
