from __future__ import annotations

import argparse
import asyncio
import sqlite3
from pathlib import Path

import msgspec
import pytest

from cli.main import build_parser, main
from domain.bots.uniform_random import UniformRandom
from server.campaigns.service import CampaignService
from server.settings import load
from server.store.opening import SQLITE_FILE, open_store


async def stored_campaign(data_dir: Path) -> str:
    """A finished solo Gil & Ennis campaign in the SQLite store under ``data_dir``."""
    store = open_store(load(redis_url=None, data_dir=str(data_dir)))
    try:
        service = CampaignService(store)
        created = await service.create("gil-ennis", seed=12)
        game = await service.game_of(created.id)
        bot = UniformRandom(3)
        version, state = await service.state_at(created.id)
        while game.outcome(state) == "running":
            seat, choice = bot.choose(game, state)
            await service.act(created.id, seat, choice.id, expected_version=version)
            version, state = await service.state_at(created.id)
        return created.id
    finally:
        await store.close()


def test_replay_verify_accepts_an_untouched_campaign(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = asyncio.run(stored_campaign(tmp_path))
    assert main(["replay", campaign, "--verify", "--store", f"sqlite:{tmp_path}"]) == 0
    assert "every state hash matches" in capsys.readouterr().out


def test_replay_takes_the_store_as_export_import_and_migrate_do_and_the_old_flags_still_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = asyncio.run(stored_campaign(tmp_path))
    assert main(["replay", campaign, "--store", f"sqlite:{tmp_path}"]) == 0
    said = capsys.readouterr()
    assert said.out.startswith(f"{campaign}: version ") and "deprecated" not in said.err
    assert main(["replay", campaign, "--data-dir", str(tmp_path)]) == 0
    said = capsys.readouterr()
    assert said.out.startswith(f"{campaign}: version ")
    assert "--data-dir is deprecated; use --store sqlite:PATH" in said.err
    for command in ("replay", "export", "import"):
        flags = [action.option_strings for action in subparser(command)._actions]
        assert ["--store"] in flags, command


def test_replay_verify_names_the_first_divergent_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = asyncio.run(stored_campaign(tmp_path))
    with sqlite3.connect(tmp_path / SQLITE_FILE) as db:
        (data,) = db.execute(
            "SELECT data FROM events WHERE campaign = ? AND version = 5", (campaign,)
        ).fetchone()
        envelope = msgspec.msgpack.decode(data)
        envelope[1] = "f" * 32  # the stored state hash of version 5
        db.execute(
            "UPDATE events SET data = ? WHERE campaign = ? AND version = 5",
            (msgspec.msgpack.encode(envelope), campaign),
        )
    assert main(["replay", campaign, "--verify", "--store", f"sqlite:{tmp_path}"]) == 1
    assert "diverges at version 5" in capsys.readouterr().out


def test_replay_prints_the_spectator_view_of_the_head(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = asyncio.run(stored_campaign(tmp_path))
    assert main(["replay", campaign, "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{campaign}: version ")
    assert "seed" not in out


def test_replay_of_an_unknown_campaign_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "nope", "--verify", "--store", f"sqlite:{tmp_path}"]) == 2
    assert "There is no campaign 'nope'" in capsys.readouterr().err


def subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: argparse.ArgumentParser = commands.choices[command]
    return found
