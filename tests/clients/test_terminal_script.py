"""The terminal client with its typed lines scripted and its screen collected: move numbers, not
versions, that go up; a line that is no action answered with the help; the person, not the seat
id, in the header."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from clients.terminal import HELP, play, start
from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, running


@pytest.fixture
def server() -> Iterator[Live]:
    with running(create_app(CampaignService(MemoryStore(), fresh=Reproducible()))) as live:
        yield live


async def test_typed_numbers_move_the_campaign_on_and_the_header_counts_moves(
    server: Live,
) -> None:
    screen: list[str] = []
    campaign, token = await start(server.http, "eila", seed=4, options={}, write=screen.append)
    typed = iter(["9", "x", "1", "1", "q"])
    status = await play(
        server.http, campaign, token, read=lambda _: next(typed), write=screen.append
    )
    assert status == 0
    headers = [line for line in screen if line.startswith("== Eila and Something Shiny · ")]
    moves = [moved(line) for line in headers]
    assert moves == sorted(moves) and moves[-1] > moves[0]
    assert all("· you play Eila" in line for line in headers)
    assert not any("version" in line or "playing as" in line for line in screen)
    said = " ".join(" ".join(screen).split())  # the client's own lines wrap between words
    assert f"'9' is not one of the actions. {HELP}" in said
    assert f"'x' is not one of the actions. {HELP}" in said
    assert any(line.startswith("   1. A: ") for line in screen)
    assert any(line.startswith("Your move, Eila: ") for line in screen)


def moved(header: str) -> int:
    """The moves a header says were made: "· move 3 ·", or "· setting up ·" before any."""
    found = re.search(r"· move (\d+) ·", header)
    if found is None:
        assert "· setting up ·" in header, header
        return 0
    return int(found[1])
