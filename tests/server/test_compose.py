"""docker-compose.yml against the Compose Specification's JSON schema, plus what the schema
cannot say: references that resolve, Redis with AOF, two servers on it behind the balancer,
Locust's file present. (HAProxy checks the balancer's own file: tests/server/test_balancer.py.)"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import yaml  # type: ignore[import-untyped]

from server.settings import Settings, environment_name

ROOT = Path(__file__).resolve().parents[2]
# The Compose Specification's schema as the check-jsonschema package ships it (a dev dependency).
SCHEMA = files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json"


def compose_schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return loaded


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def test_compose_file_matches_the_compose_specification() -> None:
    schema = compose_schema()
    jsonschema.Draft7Validator.check_schema(schema)
    errors = list(jsonschema.Draft7Validator(schema).iter_errors(compose()))
    assert errors == [], [e.message for e in errors]


def test_the_schema_check_catches_a_broken_file() -> None:
    schema = compose_schema()
    broken = compose()
    broken["services"]["redis"]["ports"] = "6379"  # must be a list
    assert list(jsonschema.Draft7Validator(schema).iter_errors(broken))


def test_references_resolve() -> None:
    spec = compose()
    services = spec["services"]
    for name, service in services.items():
        for needed in service.get("depends_on", {}):
            assert needed in services, (name, needed)
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if not source.startswith((".", "/")):
                assert source in spec["volumes"], (name, source)
            else:
                assert (ROOT / source).exists(), (name, source)
    assert "${" not in (ROOT / "docker-compose.yml").read_text()  # nothing left to interpolate


def test_redis_keeps_an_append_only_file_fsynced_every_second() -> None:
    command = compose()["services"]["redis"]["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--appendfsync") + 1] == "everysec"


def servers(services: dict[str, Any]) -> dict[str, Any]:
    return {
        name: service
        for name, service in services.items()
        if "tabletale serve" in " ".join(service.get("command", []))
    }


def test_two_servers_share_the_redis() -> None:
    found = servers(compose()["services"])
    assert sorted(found) == ["server-a", "server-b"]
    for server in found.values():
        assert server["environment"]["TABLETALE_REDIS_URL"].startswith("redis://redis:")
        assert server["depends_on"]["redis"]["condition"] == "service_healthy"


def test_users_and_locust_reach_the_servers_through_the_balancer_only() -> None:
    services = compose()["services"]
    balancer = services["balancer"]
    assert balancer["ports"] == ["8000:8000"]
    assert balancer["volumes"] == ["./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro"]
    assert set(balancer["depends_on"]) == set(servers(services))
    for server in servers(services).values():
        assert "ports" not in server  # one address for users: the balancer's
    # The balancer's defaults name the compose services and their port.
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    for name in servers(services):
        assert f"{name}:8000" in config
    assert "uri /readyz" in config
    locust = services["locust"]
    assert (ROOT / "loadtests" / "locustfile.py").exists()
    assert "--host http://balancer:8000" in " ".join(locust["command"])
    assert "TABLETALE_HOSTS" not in locust.get("environment", {})


def test_every_server_setting_in_the_file_is_one_the_server_reads() -> None:
    known = {environment_name(field) for field in Settings.__struct_fields__}
    for name in ("server-a", "server-b"):
        environment = compose()["services"][name]["environment"]
        variables = {k for k in environment if k.startswith("TABLETALE_")}
        assert {"TABLETALE_REDIS_URL", "TABLETALE_WORKERS"} <= variables <= known
