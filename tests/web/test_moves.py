"""Moves counted as players count them, at a phone's and a laptop's size: a solo journey of eight
actions (each of several events) says "Move 8" at the top, numbers "What just happened" by move
without gaps, and opens its timeline at "move 8 of 8"; a version stays in the data only."""

from __future__ import annotations

from itertools import pairwise

import pytest
from playwright.sync_api import Browser, expect

from tests.server.conftest import Live
from tests.web.conftest import Problems, act_over_http, at_version, create, open_as
from tests.web.test_timeline import JOURNEY

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("size", list(SIZES))
def test_moves_are_the_actions_taken_not_the_events_recorded(
    server: Live, browser: Browser, problems: Problems, size: str
) -> None:
    created = create(server, "gil-ennis", seed=11)
    cid, token = created["id"], created["seats"]["player"]
    for label in JOURNEY:
        head = act_over_http(server, cid, token, label=label)
    assert head > len(JOURNEY) + created["version"], "the actions recorded more events than moves"
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        open_as(page, server, cid, "player", token)
        at_version(page, head)
        status = page.locator(".campaign-status")
        expect(status).to_contain_text(f"Move {len(JOURNEY)} ·")
        expect(status).to_have_attribute("data-move", str(len(JOURNEY)))
        labels = page.locator(".recent li .v").all_inner_texts()
        numbers = [int(text.split()[1]) for text in labels if text.startswith("move ")]
        assert numbers == sorted(numbers), labels
        assert all(b - a <= 1 for a, b in pairwise(numbers)), labels
        assert numbers[-1] == len(JOURNEY)
        page.get_by_role("button", name="Timeline").click()
        position = page.locator(".timeline .position")
        expect(position).to_have_text(f"move {len(JOURNEY)} of {len(JOURNEY)}")
        expect(position).to_have_attribute("data-version", str(head))
        expect(page.locator(".timeline .scrubber")).to_have_attribute(
            "aria-valuetext", f"move {len(JOURNEY)} of {len(JOURNEY)}"
        )
    finally:
        context.close()
