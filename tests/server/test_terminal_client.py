"""The terminal client against the real server, with typed input scripted."""

from __future__ import annotations

import asyncio
import re
import threading

from clients.terminal import HELP, play, start
from tests.server.conftest import Live


async def test_a_player_types_numbers_and_the_campaign_moves_on(live: Live) -> None:
    screen: list[str] = []
    campaign, token = await start(live.http, "eila", seed=4, options={}, write=screen.append)
    typed = iter(["9", "x", "1", "1", "q"])
    status = await play(live.http, campaign, token, read=lambda _: next(typed), write=screen.append)
    assert status == 0
    headers = [line for line in screen if line.startswith("== Eila and Something Shiny · ")]
    # moves as players count them: "setting up" before the first
    moves = [
        int(found[1]) if (found := re.search(r"· move (\d+) ·", line)) else 0 for line in headers
    ]
    assert moves == sorted(moves) and moves[-1] > moves[0]
    said = " ".join(" ".join(screen).split())  # the client's own lines wrap between words
    assert f"'9' is not one of the actions. {HELP}" in said
    assert f"'x' is not one of the actions. {HELP}" in said
    assert any(line.startswith("   1. A: ") for line in screen)


async def test_a_spectator_sees_the_view_and_waits_without_actions(live: Live) -> None:
    campaign, _ = await start(live.http, "gil-ennis", seed=4, options={}, write=lambda _: None)
    screen: list[str] = []
    waiting = asyncio.Event()
    loop = asyncio.get_running_loop()

    def write(line: str) -> None:
        screen.append(line)
        if line.startswith("Waiting"):
            loop.call_soon_threadsafe(waiting.set)

    quit_typed = threading.Event()

    def read(_: str) -> str:
        quit_typed.wait(timeout=30)  # the spectator types nothing until the test says so
        return "q"

    task = asyncio.create_task(play(live.http, campaign, None, read=read, write=write))
    await asyncio.wait_for(waiting.wait(), timeout=10)
    assert not task.done(), "a spectator with nothing to do waits for events"
    quit_typed.set()
    assert await asyncio.wait_for(task, timeout=10) == 0
    assert any("spectator" in line for line in screen)
    assert not any(line.startswith("Actions:") for line in screen)
