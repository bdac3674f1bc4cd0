"""Ruleset names: the version of a game's rules code and of its shipped content, in one string.

A campaign records the ruleset that created it (``campaign/created``), and the engine refuses to
replay one recorded under another ruleset, so both numbers must move when a change would make an
old stream mean something else: the rules number with the code, the content number (the
``version.json`` beside the content files) with the data.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from domain.core.errors import ContentError

VERSION_FILE = "version.json"


class ContentVersion(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    version: int


def content_version(folder: Path) -> int:
    """The content version declared in ``folder/version.json``."""
    try:
        found = msgspec.json.decode((folder / VERSION_FILE).read_bytes(), type=ContentVersion)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as error:
        raise ContentError(VERSION_FILE, None, "version", f"cannot be read: {error}") from None
    if found.version < 1:
        raise ContentError(VERSION_FILE, None, "version", "must be a whole number from 1.")
    return found.version


def ruleset_name(game: str, rules: int, content: int) -> str:
    """``gil-ennis/2+content.1``: the rules version, then the content version."""
    return f"{game}/{rules}+content.{content}"
