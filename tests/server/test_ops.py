from __future__ import annotations

import httpx
from starlette.routing import Route, WebSocketRoute

from server.app import routes
from tests.server.conftest import auth


async def test_health_and_readiness(api: httpx.AsyncClient) -> None:
    assert (await api.get("/healthz")).status_code == 200
    assert (await api.get("/readyz")).status_code == 200


async def test_openapi_lists_every_route(api: httpx.AsyncClient) -> None:
    schema = (await api.get("/openapi.json")).json()
    assert schema["openapi"].startswith("3.")
    for route in routes():
        assert isinstance(route, Route | WebSocketRoute)
        assert route.path in schema["paths"], route.path
        if isinstance(route, Route):
            for method in route.methods or ():
                if method != "HEAD":
                    assert method.lower() in schema["paths"][route.path], (route.path, method)
    components = schema["components"]["schemas"]
    for name in ("CreateCampaign", "CreatedOut", "StateOut", "ErrorResponse", "Hello", "Welcome"):
        assert name in components
    created = schema["paths"]["/api/campaigns"]["post"]["requestBody"]
    assert created["content"]["application/json"]["schema"]["$ref"].endswith("CreateCampaign")


async def test_metrics_count_accepted_and_rejected_actions(api: httpx.AsyncClient) -> None:
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
