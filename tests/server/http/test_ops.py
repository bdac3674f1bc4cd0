from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.routing import Route, WebSocketRoute

from server.app import routes
from server.ops import phases
from server.ops.phases import PHASES
from tests.server.conftest import auth


async def test_health_and_readiness(api: httpx.AsyncClient) -> None:
    assert (await api.get("/healthz")).status_code == 200
    assert (await api.get("/readyz")).status_code == 200


def refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


async def test_openapi_lists_every_route(api: httpx.AsyncClient) -> None:
    schema = (await api.get("/openapi.json")).json()
    assert schema["openapi"].startswith("3.")
    components = schema["components"]["schemas"]
    error = {"$ref": "#/components/schemas/ErrorResponse"}
    for route in routes():
        assert isinstance(route, Route | WebSocketRoute)
        assert route.path in schema["paths"], route.path
        if isinstance(route, WebSocketRoute):
            socket = schema["paths"][route.path]["get"]
            assert "101" in socket["responses"]
            assert socket["x-client-messages"]["anyOf"] and socket["x-server-messages"]["anyOf"]
            continue
        for method in route.methods or ():
            if method == "HEAD":
                continue
            op = schema["paths"][route.path][method.lower()]
            (ok,) = {"200", "201", "202"} & op["responses"].keys()
            (body,) = op["responses"][ok]["content"].values()
            assert body["schema"], (route.path, method)
            assert op["responses"]["default"]["content"]["application/json"]["schema"] == error
            params = {p["name"] for p in op["parameters"] if p["in"] == "path"}
            assert params == set(route.param_convertors), route.path
    for name in ("CreateCampaign", "CreatedOut", "StateOut", "ErrorResponse", "Hello", "Welcome"):
        assert name in components
    for ref in refs(schema):
        assert ref.removeprefix("#/components/schemas/") in components, ref
    created = schema["paths"]["/api/campaigns"]["post"]
    assert created["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "CreateCampaign"
    )
    assert created["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "CreatedOut"
    )
    state = schema["paths"]["/api/campaigns/{id}/state"]["get"]
    assert [p["name"] for p in state["parameters"]] == ["id", "at"]
    assert state["security"] == [{}, {"seatToken": []}]


async def test_metrics_count_accepted_and_rejected_actions(
    api: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(phases, "SAMPLE_EVERY", 1)  # every action timed, this one included
    created = (await api.post("/api/campaigns", json={"game": "dice-race"})).json()
    cid, token = created["id"], created["seats"]["player"]
    for version in (2, 2):  # the second is stale
        await api.post(
            f"/api/campaigns/{cid}/actions",
            json={"action": "hold", "expected_version": version},
            headers=auth(token),
        )
    text = (await api.get("/metrics")).text
    assert "tabletale_actions_accepted_total 1" in text
    assert 'tabletale_actions_rejected_total{code="stale_version"} 1' in text
    assert "tabletale_append_seconds_count 1" in text
    assert "tabletale_sockets_connected 0" in text
    assert "tabletale_campaigns_cached 1" in text
    # The accepted action's time, phase by phase (server/ops/phases.py): every phase once.
    spent = {
        sample.labels["phase"]: sample.value
        for family in text_string_to_metric_families(text)
        if family.name == "tabletale_action_phase_seconds"
        for sample in family.samples
        if sample.name.endswith("_sum")
    }
    counted = [line for line in text.splitlines() if "tabletale_action_phase_seconds_count" in line]
    assert sorted(spent) == sorted(PHASES)
    assert all(line.endswith(" 1.0") for line in counted), counted
    assert spent["store"] > 0 and spent["rules"] > 0
