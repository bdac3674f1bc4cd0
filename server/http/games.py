"""The games this server hosts: their facts and their options, for lobbies and clients."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from domain.core.game import Game
from domain.games import GAMES
from server.http.respond import endpoint, json
from server.messages import GameOut, GamesOut
from server.openapi import operation


def options_schema(game: Game) -> dict[str, Any]:
    """The JSON Schema of ``game``'s options Struct, with its definition inlined."""
    (reference,), components = msgspec.json.schema_components([game.options_type])
    name = reference["$ref"].rsplit("/", 1)[-1]
    schema: dict[str, Any] = components[name]
    return schema


@operation("The games hosted: facts and options.", GamesOut)
@endpoint
async def list_games(request: Request) -> Response:
    games = [GameOut(game.info, options_schema(game)) for _, game in sorted(GAMES.items())]
    return json(GamesOut(games))
