"""The terminal at 80 by 24: a hint wraps between words, the way back to the seat (the campaign
id and the token) stays at the foot of every screen and is said again on quitting, ``?`` lists
every key, and ``t`` shows the timeline in moves as players count them."""

from __future__ import annotations

import re

import httpx
import pexpect  # type: ignore[import-untyped]

from tests.clients.test_terminal import number_of, server, spawn  # noqa: F401 (a fixture)
from tests.server.conftest import Live

PROMPT = r"\r\n> "
WIDTH = 80
BACK = re.compile(
    r"To come back: tabletale play --campaign (\w+) \\\r\n    --token (\S+) --server (\S+)"
)


def lines_of(text: str) -> list[str]:
    return [line for line in text.replace("\r", "").split("\n")]


def test_the_keys_the_way_back_a_wrapped_hint_and_the_timeline(server: Live) -> None:  # noqa: F811
    child = spawn("play", "--game", "gil-ennis", "--seed", "7", "--server", server.http)
    try:
        child.expect(PROMPT)
        first = child.before
        found = BACK.search(first)
        assert found, first[-600:]
        campaign, token, base = found.groups()
        assert base == server.http
        child.sendline(number_of(first, "Pack Gil's dice"))
        child.expect(PROMPT)
        assert BACK.search(child.before), "the way back stays on every screen"
        child.sendline("?")
        child.expect(PROMPT)
        keys = child.before
        child.sendline("h")
        child.expect(r"Hint: ")
        child.expect(PROMPT)
        hint = "Hint: " + child.before
        child.sendline("t")
        child.expect(PROMPT)
        timeline = child.before
        child.sendline("q")
        child.expect(pexpect.EOF)
        goodbye = child.before
    finally:
        child.close(force=True)
    for key in ("1, 2, ...", "h ", "t ", "n, p", "b ", "r, Enter", "?", "q "):
        assert f"\n  {key}" in keys.replace("\r", ""), (key, keys)

    # the hint, wrapped between words: no line wider than the terminal, and the words joined
    # again are the hint the server gives for the same move
    said = [line for line in lines_of(hint) if line.strip()]
    assert all(len(line) <= WIDTH for line in said), said
    asked = httpx.post(
        f"{server.http}/api/campaigns/{campaign}/hint",
        json={},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    ).json()["reason"]
    assert " ".join(" ".join(said).split()) == " ".join(f"Hint: {asked}".split())
    assert len(said) > 1, "a hint longer than a line is wrapped"

    # the timeline: every line so far, the moves as players count them
    told = lines_of(timeline)
    assert any(line.startswith("The timeline (") and "1 moves)" in line for line in told), told
    began = r"  set-up +A campaign of The Epic of Gil & Ennis began"
    assert any(re.match(began, line) for line in told), told
    assert any(re.match(r"  move 1 +Gil packed", line) for line in told), told

    assert "The campaign stays on the server." in goodbye
    assert BACK.search(goodbye), goodbye
