"""Stores for the transfer tests: Redis (single or Cluster) under a key prefix of the test's own,
deleted after; and export files as bytes."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec

from server.campaigns.service import CampaignService
from server.export.format import EndLine, encode_line, new_digest
from server.export.writing import export_lines
from server.store.redis_store import RedisStore
from tests.redis_support import delete_prefix


@contextlib.asynccontextmanager
async def redis_store(url: str) -> AsyncIterator[RedisStore]:
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    store = RedisStore.from_url(url, prefix=prefix)
    try:
        yield store
    finally:
        await store.close()
        await delete_prefix(url, prefix)


async def exported(
    service: CampaignService, campaign_id: str, *, partial_for: str | None = None
) -> bytes:
    lines = export_lines(service, campaign_id, taken_ms=1_800_000_000_000, partial_for=partial_for)
    return b"".join([line async for line in lines])


def lines_of(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def rewritten(data: bytes, change: Callable[[list[dict[str, Any]]], None]) -> bytes:
    """``data`` with its lines' contents changed by ``change`` and every sum and the digest
    made again: a file edited by someone who knows the format."""
    lines: list[dict[str, Any]] = []
    for raw in lines_of(data):
        line = msgspec.json.decode(raw)
        del line["sum"]
        lines.append(line)
    change(lines)
    digest = new_digest()
    out: list[bytes] = []
    for line in lines[:-1]:
        encoded = encode_line(line)
        digest.update(encoded)
        out.append(encoded)
    out.append(encode_line(EndLine(len(out), lines[-1]["events"], digest.hexdigest())))
    return b"".join(out)
