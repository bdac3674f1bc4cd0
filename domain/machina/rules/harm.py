"""Explorers falling: at 0 health an explorer is out (their items are banished, count tokens and
all); when every explorer is out the scenario is lost, and when the ones left standing have all
exited, the last surviving explorer has exited."""

from __future__ import annotations

from domain.machina.events import ExplorerOut, ItemBanished, ScenarioEnded
from domain.machina.rules.chapters import last_explorer_exited
from domain.machina.rules.emitter import Emitter
from domain.machina.state import held, on_map, surviving


def check_outs(out: Emitter) -> None:
    for who in out.state.seats:
        fallen = next(e for e in out.state.explorers if e.id == who)
        if fallen.status == "map" and fallen.health <= 0:
            out.emit(ExplorerOut(who))
            for gone in held(out.state, who):
                out.emit(ItemBanished(gone.card))
    if not surviving(out.state):
        out.emit(ScenarioEnded("lost", "fallen"))
    elif not on_map(out.state):
        last_explorer_exited(out)
