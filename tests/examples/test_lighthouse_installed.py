"""A game of one's own, as a newcomer builds it: the guide (``docs/games.md``) followed from an
empty folder, the game and tabletale installed into a fresh virtual environment, the game's own
tests run there, then a server that plays a campaign of it to the end over the API, forks it,
gives a hint and exports it. Nothing of tabletale names the game: it arrives through its entry
point alone."""

from __future__ import annotations

import os
import random
import subprocess
import threading
import venv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.examples.guide import write_guide_files
from tests.server.conftest import auth, free_port, wait_ready
from tests.support.polling import Deadline

ROOT = Path(__file__).resolve().parents[2]
MOST_ACTIONS = 200

pytestmark = [pytest.mark.slow, pytest.mark.serial]


@pytest.fixture(scope="module")
def game_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty folder with the guide followed into it."""
    folder = tmp_path_factory.mktemp("fresh") / "lighthouse"
    folder.mkdir()
    write_guide_files(folder)
    return folder


@pytest.fixture(scope="module")
def environment(game_folder: Path) -> Path:
    """A fresh virtual environment with tabletale, the game and pytest installed (from the
    package index this machine is configured with; no network is needed where it is local)."""
    folder = game_folder / ".venv"
    venv.create(folder, with_pip=True)
    pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    packages = [str(ROOT), "-e", str(game_folder), "pytest"]
    run = subprocess.run(
        [*pip, *packages], capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return folder


def tabletale(environment: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(environment / "bin" / "tabletale"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=environment.parent,
    )


@pytest.fixture(scope="module")
def server(environment: Path) -> Iterator[str]:
    port = free_port()
    data = environment.parent / "data"
    data.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "TABLETALE_REDIS_URL"}
    command = [str(environment / "bin" / "tabletale"), "serve", "--port", str(port)]
    with (environment.parent / "server.log").open("ab") as log:
        process = subprocess.Popen(
            [*command, "--data-dir", str(data)], env=env, stdout=log, stderr=log
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_the_installed_game_is_listed_and_keeps_its_promises(environment: Path) -> None:
    listed = tabletale(environment, "games")
    assert listed.returncode == 0, listed.stderr
    assert "lighthouse   Lighthouse Watch (lighthouse/1+content.1), from lighthouse_watch:GAME" in (
        listed.stdout
    )
    checked = tabletale(environment, "check-game", "lighthouse")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "broken" not in checked.stdout


def test_the_games_own_tests_pass_through_the_kits_plugin(
    environment: Path, game_folder: Path
) -> None:
    run = subprocess.run(
        [str(environment / "bin" / "pytest"), "-q", "-p", "no:cacheprovider"],
        cwd=game_folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def _state(client: httpx.Client, cid: str, token: str) -> Any:
    response = client.get(f"/api/campaigns/{cid}/state", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def test_a_campaign_is_played_to_the_end_forked_hinted_exported_and_imported(
    server: str, environment: Path
) -> None:
    chooser = random.Random(3)
    with httpx.Client(base_url=server, timeout=30) as client:
        games = client.get("/api/games").json()["games"]
        card = next(g for g in games if g["info"]["name"] == "lighthouse")
        assert card["info"]["title"] == "Lighthouse Watch"
        nights = card["options"]["properties"]["nights"]
        assert nights["description"].startswith("How many stormy nights")

        created = client.post("/api/campaigns", json={"game": "lighthouse", "seed": 11})
        assert created.status_code == 201, created.text
        cid, tokens = created.json()["id"], created.json()["seats"]
        assert set(tokens) == {"isla", "tom"}
        first_decision = None
        for _ in range(MOST_ACTIONS):
            views = {seat: _state(client, cid, token) for seat, token in tokens.items()}
            if next(iter(views.values()))["outcome"] != "running":
                break
            seat, seen = next((s, v) for s, v in views.items() if v["legal_actions"])
            first_decision = first_decision or seen["version"]
            # A keeper sees its own lamps, never the other's.
            other = views["tom" if seat == "isla" else "isla"]
            assert seen["view"]["your_lamps"] and seen["view"]["your_lamps"] not in str(other)
            action = chooser.choice(seen["legal_actions"])["id"]
            body = {"action": action, "expected_version": seen["version"]}
            acted = client.post(
                f"/api/campaigns/{cid}/actions", json=body, headers=auth(tokens[seat])
            )
            assert acted.status_code == 200, acted.text
        ended = _state(client, cid, tokens["isla"])
        assert ended["outcome"] in ("won", "lost")
        assert ended["seed"] is not None  # the luck is revealed at the end

        assert first_decision is not None
        forked = client.post(
            f"/api/campaigns/{cid}/fork", json={"at": first_decision}, headers=auth(tokens["isla"])
        )
        assert forked.status_code == 201, forked.text
        fork = forked.json()
        assert fork["version"] == first_decision

        hinted = {}
        for token in fork["seats"].values():
            seen = _state(client, fork["id"], token)
            if seen["legal_actions"]:
                response = client.post(f"/api/campaigns/{fork['id']}/hint", headers=auth(token))
                assert response.status_code == 200, response.text
                hinted = response.json()
                assert hinted["action"]["id"] in {a["id"] for a in seen["legal_actions"]}
                assert hinted["reason"].startswith("Light the ")
        assert hinted, "nobody was to act in the fork"

        # The fork plays on, is rewound to where it began, and its family shows both.
        fid = fork["id"]
        token = next(t for t in fork["seats"].values() if _state(client, fid, t)["legal_actions"])
        began = _state(client, fid, token)
        body = {"action": hinted["action"]["id"], "expected_version": began["version"]}
        acted = client.post(f"/api/campaigns/{fid}/actions", json=body, headers=auth(token))
        assert acted.status_code == 200, acted.text
        # Two keepers at the table: the rewind is a proposal the other keepers agree to.
        rewind = {"to": first_decision}
        asked = client.post(f"/api/campaigns/{fid}/proposals", json=rewind, headers=auth(token))
        assert asked.status_code == 200, asked.text
        proposal = asked.json()["proposal"]
        if proposal is not None:  # not a move the asker may take back alone
            others = [t for seat, t in fork["seats"].items() if seat in proposal["asked"]]
            for other in others:
                answer = {"id": proposal["id"], "accept": True}
                agreed = client.post(
                    f"/api/campaigns/{fid}/proposal/answer", json=answer, headers=auth(other)
                )
                assert agreed.status_code == 200, agreed.text
            assert agreed.json()["rewound"] is not None, agreed.text
        assert _state(client, fid, token)["view"] == began["view"]
        family = client.get(f"/api/campaigns/{fid}/lineage", params={"limit": 500}).json()
        assert family["root"] == cid
        kinds = {branch["kind"] for branch in family["branches"]}
        assert kinds == {"root", "fork", "undone"}, family

        timeline = client.get(f"/api/campaigns/{cid}/timeline", headers=auth(tokens["tom"]))
        assert timeline.status_code == 200, timeline.text
        lines = [line["text"] for line in timeline.json()["lines"]]
        assert any(" lights the " in text for text in lines), lines
        assert lines[-1] in ("Dawn: the watch has held.", "The watch has failed.")

        exported = client.get(f"/api/campaigns/{cid}/export", headers=auth(tokens["tom"]))
        assert exported.status_code == 200, exported.text
        header, campaign, *_, end = exported.content.splitlines()
        assert b'"complete"' in header and b"lighthouse" in campaign
        assert b'"events":' in end
    # The file restores the campaign into another store, every state hash replayed.
    other = environment.parent / "other"
    other.mkdir()
    saved = environment.parent / "campaign.tabletale"
    saved.write_bytes(exported.content)
    store = f"sqlite:{other}/tabletale.sqlite3"
    imported = tabletale(environment, "import", str(saved), "--store", store)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    assert "every state hash replayed" in imported.stdout
    replayed = tabletale(environment, "replay", cid, "--verify", "--data-dir", str(other))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "every state hash matches" in replayed.stdout


BOT_PATIENCE_S = 60.0


def test_a_bot_seat_keeps_the_watch_with_a_person(server: str) -> None:
    """Tom is the search bot, thinking in a process of its own that finds the game, too, through
    its entry point."""
    with httpx.Client(base_url=server, timeout=30) as client:
        created = client.post(
            "/api/campaigns",
            json={"game": "lighthouse", "seed": 5, "bots": {"tom": {"bot": "search", "level": 1}}},
        )
        assert created.status_code == 201, created.text
        cid, token = created.json()["id"], created.json()["seats"]["isla"]
        bot_moves = 0
        for _ in range(MOST_ACTIONS):
            seen = _state(client, cid, token)
            if seen["outcome"] != "running":
                break
            if seen["legal_actions"]:
                body = {
                    "action": seen["legal_actions"][0]["id"],
                    "expected_version": seen["version"],
                }
                acted = client.post(f"/api/campaigns/{cid}/actions", json=body, headers=auth(token))
                assert acted.status_code == 200, acted.text
                continue
            deadline = Deadline("the bot to move", BOT_PATIENCE_S)
            while _state(client, cid, token)["version"] == seen["version"]:
                deadline.check(f"version {seen['version']}")
                threading.Event().wait(0.05)  # a polling interval, not a wait for an outcome
            bot_moves += 1
        assert _state(client, cid, token)["outcome"] in ("won", "lost")
        assert bot_moves >= 3
