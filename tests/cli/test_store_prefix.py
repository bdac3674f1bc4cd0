"""One way to name a store: the ``TABLETALE_*`` settings apply to the commands' store URLs, a
prefix in the URL wins, and a command that finds no campaign says where it looked."""

from __future__ import annotations

import httpx
import pytest

from cli.main import main
from server.export.store_url import StoreUrl
from server.settings import load
from tests.server.conftest import on_redis


def test_a_url_takes_the_prefix_setting_unless_it_names_its_own() -> None:
    settings = load({"TABLETALE_REDIS_PREFIX": "p", "TABLETALE_REDIS_MAX_CONNECTIONS": "3"})
    named = StoreUrl("redis://127.0.0.1:6379/0", settings=settings)
    assert named.prefix == "p" and "(key prefix 'p')" in named.describe()
    assert StoreUrl("redis://127.0.0.1:6379/0?prefix=q", settings=settings).prefix == "q"
    assert StoreUrl("redis://127.0.0.1:6379/0", settings=load({})).prefix == "tt"


def test_replay_finds_a_campaign_a_server_wrote_under_the_prefix_setting(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with on_redis(redis_url, None) as live:
        assert live.prefix is not None
        with httpx.Client(base_url=live.http, timeout=10.0) as http:
            response = http.post("/api/campaigns", json={"game": "dice-race"})
            assert response.status_code == 201, response.text
            cid = response.json()["id"]
        replay_under_settings(live.redis_url or redis_url, live.prefix, cid, monkeypatch, capsys)


def replay_under_settings(
    url: str,
    prefix: str,
    cid: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("TABLETALE_STORE", raising=False)
    monkeypatch.delenv("TABLETALE_REDIS_PREFIX", raising=False)
    assert main(["replay", cid, "--verify", "--store", url]) == 2
    assert "(key prefix 'tt')" in capsys.readouterr().err
    monkeypatch.setenv("TABLETALE_REDIS_PREFIX", prefix)
    assert main(["replay", cid, "--verify", "--redis-url", url]) == 0
    assert "every state hash matches" in capsys.readouterr().out
    assert main(["replay", cid, "--verify", "--store", url]) == 0
    capsys.readouterr()
    # A prefix in the URL wins over the setting; the refusal says where it looked.
    elsewhere = f"{url}?prefix={prefix}-not"
    assert main(["replay", cid, "--verify", "--store", elsewhere]) == 2
    err = capsys.readouterr().err
    assert f"There is no campaign {cid!r} in the Redis store at " in err
    assert f"(key prefix '{prefix}-not')" in err
    assert main(["export", cid, "--store", elsewhere]) == 2
    assert f"(key prefix '{prefix}-not')" in capsys.readouterr().err
