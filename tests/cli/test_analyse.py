"""``tabletale analyse``: asks a real server, follows the progress and prints a table, or the
server's answer as JSON; refusals are said in a sentence with exit status 2."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cli.main import main
from server.app import create_app
from server.campaigns.service import CampaignService
from server.settings import BotSettings
from server.store.opening import SQLITE_FILE
from server.store.sqlite import SqliteStore
from tests.server.conftest import Live, Reproducible, auth, running

pytestmark = pytest.mark.slow


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    service = CampaignService(SqliteStore(tmp_path / SQLITE_FILE), fresh=Reproducible())
    # Normal priority: at idle, beside the parallel phase's workers, the worker waited for a free
    # core most of its time (how workers stand back: tests/server/bots/test_bots.py).
    settings = BotSettings(pace_ms=0, workers=1, poll_s=0.2, priority="normal")
    with running(create_app(service, close_store=True, bot_settings=settings)) as server:
        yield server


def started(live: Live, moves: int) -> tuple[str, dict[str, str]]:
    """A Gil & Ennis campaign with ``moves`` moves made at random."""
    chooser = random.Random(6)
    with httpx.Client(base_url=live.http, timeout=30.0) as api:
        created = api.post(
            "/api/campaigns", json={"game": "gil-ennis", "seats": ["gil", "ennis"], "seed": "45"}
        ).json()
        cid, tokens = created["id"], created["seats"]
        for step in range(moves):
            for token in tokens.values():
                state = api.get(f"/api/campaigns/{cid}/state", headers=auth(token)).json()
                if state["legal_actions"]:
                    break
            action = chooser.choice(state["legal_actions"])["id"]
            body = {"action": action, "expected_version": state["version"], "command_id": str(step)}
            answer = api.post(f"/api/campaigns/{cid}/actions", json=body, headers=auth(token))
            assert answer.status_code == 200, answer.text
    return cid, tokens


def test_a_seat_analyses_its_moves_as_json_and_as_a_table(
    live: Live, capsys: pytest.CaptureFixture[str]
) -> None:
    cid, tokens = started(live, 8)
    args = ["analyse", cid, "--server", live.http, "--level", "1", "--token", tokens["gil"]]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"] == "done" and out["seat"] == "gil"
    assert out["done"] == out["total"] == len(out["analysis"]["points"]) > 0
    # The second time is read from what the server kept: a table of the same points.
    assert main(args) == 0
    table = capsys.readouterr().out
    for point in out["analysis"]["points"]:
        assert point["played"]["label"] in table
    assert "Turning points:" in table or "No turning point." in table


def test_a_spectator_of_a_running_campaign_is_told_no(
    live: Live, capsys: pytest.CaptureFixture[str]
) -> None:
    cid, _ = started(live, 2)
    assert main(["analyse", cid, "--server", live.http]) == 2
    assert "forbidden" in capsys.readouterr().err
