"""The browser client's files at ``/``: cache headers, revalidation, gzip for HTTP only."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from server.app import create_app
from server.campaigns.service import CampaignService
from server.http.static import ASSET_CACHE, PAGE_CACHE, WEB_ROOT
from server.store.memory import MemoryStore
from tests.server.conftest import Live, running

SCRIPT = "export const greeting = 'hello';\n" * 40  # well over the gzip threshold


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Live]:
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>")
    (tmp_path / "app.js").write_text(SCRIPT)
    app = create_app(CampaignService(MemoryStore()), web_root=tmp_path)
    with running(app) as live:
        yield live


def test_the_shipped_client_has_a_page_to_open() -> None:
    assert (WEB_ROOT / "index.html").is_file()


def test_the_root_answers_the_page_and_it_is_always_revalidated(site: Live) -> None:
    with httpx.Client(base_url=site.http) as http:
        page = http.get("/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert page.headers["cache-control"] == PAGE_CACHE
        etag = page.headers["etag"]
        assert page.headers["last-modified"]
        again = http.get("/", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""


def test_assets_are_cached_briefly_and_gzipped_when_asked(site: Live) -> None:
    with httpx.Client(base_url=site.http) as http:
        plain = http.get("/app.js", headers={"Accept-Encoding": "identity"})
        asked = http.build_request("GET", "/app.js", headers={"Accept-Encoding": "gzip"})
        zipped = http.send(asked, stream=True)
        compressed = b"".join(zipped.iter_raw())
        zipped.close()
    assert plain.headers["cache-control"] == ASSET_CACHE
    assert "content-encoding" not in plain.headers and plain.text == SCRIPT
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.headers["content-type"].startswith("text/javascript")
    assert len(compressed) < len(SCRIPT) // 4
    assert gzip.decompress(compressed).decode() == SCRIPT


def test_api_routes_win_over_the_files_and_unknown_paths_are_404(site: Live) -> None:
    with httpx.Client(base_url=site.http) as http:
        assert http.get("/api/games").json()["games"]
        assert http.get("/nothing-here.js").status_code == 404


async def test_sockets_pass_the_gzip_middleware_untouched(site: Live) -> None:
    created = httpx.post(f"{site.http}/api/campaigns", json={"game": "dice-race"}).json()
    async with connect(
        f"{site.ws}/ws/campaigns/{created['id']}",
        additional_headers={"Accept-Encoding": "gzip"},
        open_timeout=10,
    ) as socket:
        await socket.send('{"type": "hello"}')
        welcome = await socket.recv()
    assert '"type":"welcome"' in str(welcome)


async def test_a_socket_to_a_path_without_a_socket_route_is_refused(site: Live) -> None:
    with pytest.raises((InvalidStatus, ConnectionClosed)):
        async with connect(f"{site.ws}/nowhere", open_timeout=10) as socket:
            await socket.recv()
