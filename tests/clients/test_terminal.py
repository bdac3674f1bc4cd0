"""``tabletale play`` in a pseudo-terminal: a whole Gil & Ennis journey typed number by number,
the end screen with the outcome, its reason and the revealed seed; and the address it tried when
no server answers."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest

from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, free_port, running

ROOT = Path(__file__).resolve().parents[2]
SEED = 7
MOST_ACTIONS = 1000
"""A journey is a few hundred actions at most; this only stops a runaway test."""
MOST_PAGES = 10
ACTION = re.compile(r"^\s+(\d+)\. ", re.MULTILINE)
LABELLED = re.compile(r"^\s+(\d+)\. (.+?)\r?$", re.MULTILINE)


def number_of(screen: str, label: str) -> str:
    """The number the screen gives the first action whose label contains ``label``."""
    actions = screen.rsplit("Actions:", 1)[-1]
    for number, text in LABELLED.findall(actions):
        if label in text:
            return str(number)
    raise AssertionError(f"No action labelled {label!r} on the screen: {actions!r}")


@pytest.fixture
def server() -> Iterator[Live]:
    with running(create_app(CampaignService(MemoryStore(), fresh=Reproducible()))) as live:
        yield live


def tabletale(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *args]


def spawn(*args: str, rows: int = 24, columns: int = 80) -> pexpect.spawn:
    """``tabletale`` in a pseudo-terminal of ``rows`` by ``columns``, without colour (NO_COLOR),
    so that the screens read as plain text."""
    command = tabletale(*args)
    return pexpect.spawn(
        command[0],
        command[1:],
        cwd=str(ROOT),
        env={**os.environ, "NO_COLOR": "1"},
        encoding="utf-8",
        timeout=60,
        dimensions=(rows, columns),
    )


def test_a_whole_journey_typed_in_a_terminal_ends_with_reason_and_seed(server: Live) -> None:
    child = spawn(
        "play",
        "--game",
        "gil-ennis",
        "--seed",
        str(SEED),
        "--server",
        server.http,
        rows=60,
        columns=120,
    )
    policy = random.Random(SEED)
    screens = 0
    try:
        for _ in range(MOST_ACTIONS):
            found = child.expect([r"\r\n> ", r"== The campaign is over: (\w+) =="])
            if found == 1:
                break
            screen = child.before.rsplit("Actions:", 1)[-1]
            numbers = [int(n) for n in ACTION.findall(screen)]
            assert numbers, f"a prompt without actions: {screen!r}"
            screens += 1
            child.sendline(str(policy.randint(1, max(numbers))))
        else:
            pytest.fail(f"The journey did not end within {MOST_ACTIONS} actions.")
        outcome = child.match.group(1)
        child.expect(pexpect.EOF)
        ending = child.before
    finally:
        child.close(force=True)
    assert outcome in ("won", "lost")
    assert screens > 10
    why = re.search(r"Why: (.+)", ending)
    assert why is not None and why.group(1).strip()
    assert re.search(
        rf"Seed: {SEED}( \(salt \w+\))?; its hash matches the one published at the start\.",
        ending,
    ), ending
    assert child.exitstatus == 0


def test_the_board_is_readable_not_a_dump(server: Live) -> None:
    child = spawn("play", "--game", "gil-ennis", "--seed", str(SEED), "--server", server.http)
    try:
        child.expect(r"\r\n> ")
        first = child.before
        child.sendline(number_of(first, "Pack Gil's dice"))
        child.expect(r"\r\n> ")
        packed = child.before
        child.sendline(number_of(packed, "Pack Ennis's dice"))
        child.expect(r"\r\n> ")
        child.sendline(number_of(child.before, "Hike to Hollow Creek"))
        child.expect(r"\r\n> ")
        after = child.before
        pages = []
        for _ in range(MOST_PAGES):  # the choices go on, a page at a time
            child.sendline("n")
            child.expect(r"\r\n> ")
            pages.append(child.before)
            if "Done for the day:" in child.before:
                break
        more = pages[-1]
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "So far:" in first and "The dream deck was shuffled (6 cards)" in first
    assert re.search(r"Map\s+@Willow Gate > Hollow Creek", first)
    # set-up: the rolled dice wait beside empty slots, to be packed by choice
    assert "setting out, setting up: pack each character's five rolled dice" in first
    assert re.search(r"Gil\s+HAND \[ \]  BACKPACK (\[ \]){3}  POCKET \[ \]", first)
    assert re.search(r"rolled (\[\d\]){5}: to pack, one in the HAND, one in the", first)
    assert "Worry     level 3 [3]" in first
    assert "What just happened:" in packed and "Gil packed HAND" in packed
    assert re.search(r"Gil\s+HAND \[\d\]  BACKPACK (\[\d\]){3}  POCKET \[\d\]", packed)
    assert "What just happened:" in after and "hiked to Hollow Creek" in after
    assert "@Hollow Creek" in after
    # PITCH's steps in order, the party at the first; the actions under those steps
    assert re.search(r"Pitch\s+\[i\. campsite action \(none here\)\] > ii\. abilities", after)
    assert re.search(r"^  ii\. Abilities and insights:\r?$", after, re.MULTILINE)
    assert re.search(r"^Actions: 1-\d+ of \d+ · n: more choices", after, re.MULTILINE)
    assert re.search(r"^  Done for the day:\r?$", more, re.MULTILINE)
    for screen in (first, packed, after, *pages):
        frame = screen[screen.index("== The Epic of Gil & Ennis") :].splitlines()
        assert len(frame) <= 23, frame  # and the prompt on the 24th row
        assert max(len(line) for line in frame) <= 80


def test_no_server_the_error_names_the_address_it_tried() -> None:
    base = f"http://127.0.0.1:{free_port()}"
    created = subprocess.run(
        tabletale("play", "--game", "eila", "--server", base),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert created.returncode == 2
    assert f"Cannot reach the server at {base}/api/campaigns" in created.stderr
    joined = subprocess.run(
        tabletale("play", "--campaign", "abc", "--server", base),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert joined.returncode == 2
    ws = base.replace("http", "ws", 1)
    assert f"Cannot reach the server at {ws}/ws/campaigns/abc" in joined.stderr
