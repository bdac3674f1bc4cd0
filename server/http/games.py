"""The games this server hosts: their facts and their options, for lobbies and clients, and the
public content their boards look up by the ids a view shows."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from domain.core.game import Game, PublicContent
from domain.games import GAMES
from server.errors import ApiError
from server.http.respond import endpoint, json
from server.protocol.messages import GameOut, GamesOut
from server.protocol.openapi import operation


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


CONTENT_CACHE = "public, max-age=300"


@operation("A game's public content, in the game's own shape: what boards look up.", dict[str, Any])
@endpoint
async def game_content(request: Request) -> Response:
    name = request.path_params["name"]
    game = GAMES.get(name)
    if game is None:
        raise ApiError("not_found", f"There is no game called {name!r}.")
    content: object = game.public_content() if isinstance(game, PublicContent) else {}
    response = json(content)
    response.headers["Cache-Control"] = CONTENT_CACHE
    return response
