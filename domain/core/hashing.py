"""Canonical state hash: BLAKE2b over the MessagePack encoding of the state.

States are frozen Structs of tuples, ints and strings, so their encoding is canonical: fields go out
in declaration order and no dict or set ordering is involved.
"""

from __future__ import annotations

from hashlib import blake2b, sha256

import msgspec

_encoder = msgspec.msgpack.Encoder()


def state_hash(state: msgspec.Struct) -> str:
    """A 128-bit hex digest that names one state exactly."""
    return blake2b(_encoder.encode(state), digest_size=16).hexdigest()


def seed_commitment(seed: int, salt: str) -> str:
    """The published hash of a campaign's seed; revealing ``seed`` and ``salt`` proves it."""
    return sha256(f"tabletale-seed:{salt}:{seed}".encode()).hexdigest()
