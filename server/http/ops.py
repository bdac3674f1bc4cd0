"""Operational endpoints: liveness, readiness (the store answers, and how many stored campaigns
are on rulesets this server does not play), metrics and the schema."""

from __future__ import annotations

from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST
from starlette import status
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from server.campaigns.census import Census
from server.campaigns.played import played_rulesets
from server.context import context
from server.errors import ErrorBody, classify
from server.http.respond import endpoint, error_response, json
from server.protocol.openapi import operation
from server.protocol.ready import ReadyOut


@operation("The process is up.", str, media_type="text/plain")
@endpoint
async def healthz(request: Request) -> Response:
    return PlainTextResponse("ok\n")


@operation(
    "The store answers (503 when not); and how many stored campaigns are on rulesets this "
    "server does not play, which it still answers 200 with.",
    ReadyOut,
)
@endpoint
async def readyz(request: Request) -> Response:
    try:
        await context(request).service.ping()
    except Exception as error:
        known = classify(error) or ErrorBody("unavailable", f"The store did not answer: {error}.")
        return error_response(ErrorBody("unavailable", known.message))
    census: Census = request.app.state.census
    played = played_rulesets()
    count = census.last
    if count is None:
        words = "Ready; the stored campaigns' rulesets are still being counted."
        return json(ReadyOut(True, False, 0, 0, {}, played, words))
    out = ReadyOut(
        True, True, count.campaigns, count.unplayed, count.rulesets, played, count.words()
    )
    return json(out)


@operation("Prometheus metrics of every worker.", str, media_type="text/plain")
@endpoint
async def metrics(request: Request) -> Response:
    return Response(context(request).metrics.render(), media_type=CONTENT_TYPE_LATEST)


@operation("This document.", dict[str, Any])
@endpoint
async def openapi(request: Request) -> Response:
    schema = request.app.state.openapi
    return json(schema, status.HTTP_200_OK)
