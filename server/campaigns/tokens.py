"""Seat tokens: one secret per seat, handed out once and stored only as a SHA-256 hash.

A request with no token is a spectator's (read-only, spectator view), unless the campaign was
created private. A token that matches no seat is refused rather than downgraded to a spectator.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping, Sequence
from hashlib import sha256

from server.errors import ApiError
from server.store.base import PRIVATE_ATTR

PRIVATE = PRIVATE_ATTR
"""The attribute (``"1"``) that makes a campaign private: seats only, and out of the catalog
(the store also reads it, for campaigns stored before it kept ``listed``)."""
TOKEN_PREFIX = "token:"


def new_tokens(seats: Sequence[str]) -> dict[str, str]:
    return {seat: new_token() for seat in seats}


def new_token() -> str:
    """A fresh seat token: 24 random bytes, URL-safe, never starting with ``-``.

    A token is passed on command lines (``tabletale play --token T``); one that started with
    ``-`` (1 draw in 64) would be read there as an option and refused, so such draws are redrawn.
    """
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith("-"):
            return token


def token_hash(token: str) -> str:
    return sha256(token.encode()).hexdigest()


def token_attrs(tokens: Mapping[str, str]) -> dict[str, str]:
    """The campaign attributes that remember ``tokens`` (hashes only)."""
    return {TOKEN_PREFIX + seat: token_hash(token) for seat, token in tokens.items()}


def is_private(attrs: Mapping[str, str]) -> bool:
    return attrs.get(PRIVATE) == "1"


def seat_for(attrs: Mapping[str, str], token: str | None) -> str | None:
    """The seat ``token`` opens, None for a spectator; raises ApiError when refused."""
    if token is None:
        if is_private(attrs):
            raise ApiError("forbidden", "This campaign is private; present a seat token.")
        return None
    digest = token_hash(token)
    for key, stored in sorted(attrs.items()):
        if key.startswith(TOKEN_PREFIX) and hmac.compare_digest(stored, digest):
            return key.removeprefix(TOKEN_PREFIX)
    raise ApiError("unauthorized", "The token does not open any seat of this campaign.")


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("unauthorized", "The Authorization header must be 'Bearer <seat token>'.")
    return token.strip()
