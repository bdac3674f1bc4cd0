"""The few HTTP calls a client makes, blocking (:mod:`clients.http_async` has them for asyncio).

An error answer raises :class:`~clients.replica.ProtocolError` with the server's code and
sentence; a server that cannot be reached raises :class:`Unreachable`, which names the URL.
Seeds travel as decimal strings both ways (:func:`seed_field`), so that no JSON reader rounds them.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote

from clients.replica import Message, ProtocolError

TIMEOUT_S = 30.0


class Unreachable(OSError):
    """Nothing answered at ``url``."""

    def __init__(self, url: str, reason: object) -> None:
        super().__init__(f"Cannot reach the server at {url}: {reason}.")
        self.url = url


def seed_field(seed: int | str) -> str:
    """A seed as a request carries it: decimal digits (docs/protocol.md, "Numbers and their
    bounds"). A seed past 2**53 would be rounded by a reader that takes JSON numbers as doubles."""
    text = str(seed)
    if not (text.isascii() and text.isdigit()) or (len(text) > 1 and text.startswith("0")):
        raise ValueError(
            f"A seed is a whole number from 0 to 2**64 - 1 without leading zeros, not {seed!r}."
        )
    return text


def _send(request: urllib.request.Request) -> Any:
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise ProtocolError(json.loads(error.read() or b"{}").get("error", {})) from None
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        reason = getattr(error, "reason", error)
        raise Unreachable(request.full_url, reason) from None


def request_headers(token: str | None) -> dict[str, str]:
    """What every call asks for: JSON, with the seat's token when there is one."""
    headers = {"Accept": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def get(url: str, *, token: str | None = None) -> Any:
    """A JSON ``GET``."""
    return _send(urllib.request.Request(url, headers=request_headers(token)))


def post(url: str, body: Message, *, token: str | None = None) -> Message:
    """A JSON ``POST``."""
    headers = {**request_headers(token), "Content-Type": "application/json"}
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    answer: Message = _send(request)
    return answer


def campaign_url(base: str, campaign: str, tail: str = "") -> str:
    return f"{base.rstrip('/')}/api/campaigns/{quote(campaign)}{tail}"


def content_url(base: str, game: str) -> str:
    return f"{base.rstrip('/')}/api/games/{quote(game)}/content"
