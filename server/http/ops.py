"""Operational endpoints: liveness, readiness (the store answers), metrics and the schema."""

from __future__ import annotations

from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST
from starlette import status
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from server.context import context
from server.errors import ErrorBody, classify
from server.http.respond import endpoint, error_response, json
from server.protocol.openapi import operation


@operation("The process is up.", str, media_type="text/plain")
@endpoint
async def healthz(request: Request) -> Response:
    return PlainTextResponse("ok\n")


@operation("The store answers.", str, media_type="text/plain")
@endpoint
async def readyz(request: Request) -> Response:
    try:
        await context(request).service.ping()
    except Exception as error:
        known = classify(error) or ErrorBody("unavailable", f"The store did not answer: {error}.")
        return error_response(ErrorBody("unavailable", known.message))
    return PlainTextResponse("ready\n")


@operation("Prometheus metrics of every worker.", str, media_type="text/plain")
@endpoint
async def metrics(request: Request) -> Response:
    return Response(context(request).metrics.render(), media_type=CONTENT_TYPE_LATEST)


@operation("This document.", dict[str, Any])
@endpoint
async def openapi(request: Request) -> Response:
    schema = request.app.state.openapi
    return json(schema, status.HTTP_200_OK)
