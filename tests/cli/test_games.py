from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli.games import list_games
from cli.main import main
from domain.games import Registry

ROOT = Path(__file__).resolve().parents[2]


def test_every_installed_game_is_listed_with_its_ruleset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "machina      Machina Arcana: To Eternity (machina/" in out
    assert "from domain.gil_ennis:GAME" in out
    assert "eila" in out
    assert "and campaigns started under gil-ennis/1, gil-ennis/2+content.1\n" in out


def test_a_game_set_aside_is_named_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    registry = Registry(failed={"broken": "broken:GAME could not be imported: ImportError: no."})
    assert list_games(registry) == 1
    captured = capsys.readouterr()
    assert "none" in captured.out
    assert "the game 'broken' cannot be served. broken:GAME could not be imported" in captured.err


def _installed_beside(site: Path, name: str, target: str, module: str, source: str) -> None:
    """A package as pip leaves it in site-packages: its module, and a dist-info folder whose
    entry points name ``target`` in the group tabletale.games."""
    info = site / f"{module}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tabletale.games]\n{name} = {target}\n")
    (site / f"{module}.py").write_text(source)


def test_a_package_that_fails_to_load_is_named_and_the_others_still_serve(tmp_path: Path) -> None:
    _installed_beside(
        tmp_path,
        "tides",
        "tides_game:GAME",
        "tides_game",
        'raise ImportError("Tides needs the moon package, which is not installed.")\n',
    )
    _installed_beside(
        tmp_path,
        "future",
        "future_game:GAME",
        "future_game",
        "from domain.gil_ennis.game import GilEnnisGame\n\n\n"
        "class FutureGame(GilEnnisGame):\n    contract = 2\n\n\nGAME = FutureGame()\n",
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    listed = subprocess.run(
        [sys.executable, "-m", "cli.main", "games"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert listed.returncode == 1
    assert "gil-ennis    The Epic of Gil & Ennis" in listed.stdout
    assert "machina      Machina Arcana" in listed.stdout
    assert (
        "the game 'tides' cannot be served. tides_game:GAME could not be imported: ImportError: "
        "Tides needs the moon package, which is not installed." in listed.stderr
    )
    assert (
        "the game 'future' cannot be served. future_game:GAME: It was written for version 2 of "
        "the game contract, and this tabletale implements version 1." in listed.stderr
    )
    checked = subprocess.run(
        [sys.executable, "-m", "cli.main", "check-game", "gil-ennis", "--playthroughs", "2"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
