"""What the page says when something goes wrong: a rejected action (here a stale version, forced
by acting through HTTP behind the page's back while its socket's updates are held), and a dropped
connection, which it resumes from the last version it saw."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.server.conftest import Live
from tests.web.conftest import act_over_http, at_version, click_action, create, open_as

PLAY_SOCKET = re.compile(r"/ws/campaigns/[0-9a-f]+$")


class Gate:
    """Stands between the page and the server on the play socket: can hold the server's updates
    back, drop the connection, and refuse new ones."""

    def __init__(self) -> None:
        self.hold_updates = False
        self.refuse = False
        self.sent: list[dict[str, Any]] = []
        self.open: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def route(self, page_side: WebSocketRoute) -> None:
        if self.refuse:
            page_side.close(code=1012, reason="restarting")
            return
        server_side = page_side.connect_to_server()
        self.open.append((page_side, server_side))

        def upstream(message: str | bytes) -> None:
            self.sent.append(json.loads(message))
            server_side.send(message)

        def downstream(message: str | bytes) -> None:
            if self.hold_updates and json.loads(message)["type"] == "update":
                return  # this page never hears of it
            page_side.send(message)

        page_side.on_message(upstream)
        server_side.on_message(downstream)

    def drop(self) -> None:
        for page_side, server_side in self.open:
            server_side.close(code=1001, reason="going away")
            page_side.close(code=1006, reason="dropped")
        self.open.clear()


def test_a_stale_action_is_refused_with_its_message_and_the_board_refreshes(
    server: Live, page: Page
) -> None:
    gate = Gate()
    page.route_web_socket(PLAY_SOCKET, gate.route)
    created = create(server, "gil-ennis", seed=5)
    cid, token = created["id"], created["seats"]["player"]
    open_as(page, server, cid, "player", token)
    at_version(page, created["version"])

    gate.hold_updates = True
    behind_its_back = act_over_http(server, cid, token, label="Pack Gil's dice")
    click_action(page, "Pack Gil's dice")  # still on screen: the page missed the update

    notice = page.locator(".notice-warn")
    expect(notice).to_contain_text("Somebody acted first, so that action was not taken.")
    expect(notice).to_contain_text(f"not at the expected {created['version']}")
    at_version(page, behind_its_back)  # refreshed by a sync
    assert {"type": "sync"} in gate.sent
    expect(page.locator(".character-gil .packing")).to_have_count(0)  # packed behind its back
    expect(page.locator('[data-die="gil.hand.0"]')).not_to_have_attribute("data-value", "0")

    gate.hold_updates = False
    page.locator(".notice-warn button.close").click()
    expect(page.locator(".notice")).to_have_count(0)
    click_action(page, "Pack Ennis's dice")
    at_version(page, behind_its_back + 1)


def test_a_dropped_connection_reconnects_and_resumes_from_the_last_version(
    server: Live, page: Page
) -> None:
    gate = Gate()
    page.route_web_socket(PLAY_SOCKET, gate.route)
    created = create(server, "gil-ennis", seed=6)
    cid, token = created["id"], created["seats"]["player"]
    open_as(page, server, cid, "player", token)
    at_version(page, created["version"])

    gate.refuse = True
    gate.drop()
    expect(page.locator('[data-notice="connection"]')).to_contain_text(
        "The connection dropped. Reconnecting in"
    )
    missed = act_over_http(server, cid, token, label="Pack Gil's dice")
    gate.refuse = False

    expect(page.locator('[data-notice="connection"]')).to_have_count(0)
    at_version(page, missed)
    expect(page.locator(".recent li.new")).to_contain_text("Gil packed HAND")
    hellos = [m for m in gate.sent if m["type"] == "hello"]
    assert hellos[0].get("since") is None
    assert hellos[-1]["since"] == created["version"], "it resumed from the last version seen"
    click_action(page, "Pack Ennis's dice")
    at_version(page, missed + 1)
