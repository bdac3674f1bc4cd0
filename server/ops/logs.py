"""Logging, configured once, with the campaign and the command on every line logged for them.

Whoever handles a request, a socket message or a command binds the ids in :data:`campaign_id` and
:data:`command_id` (the HTTP endpoint wrapper, the socket session, the action handlers); the one
handler's :class:`CampaignIds` filter copies them onto every record that passes, whichever logger
made it (ours, uvicorn's, a library's). Lines are plain text by default and JSON objects, one per
line, with the setting ``log_format = "json"`` (``TABLETALE_LOG_FORMAT=json``).
"""

from __future__ import annotations

import datetime
import logging
import logging.config
import sys
from contextvars import ContextVar
from typing import IO, Any, Literal

import msgspec

LogFormat = Literal["plain", "json"]

campaign_id: ContextVar[str | None] = ContextVar("campaign_id", default=None)
command_id: ContextVar[str | None] = ContextVar("command_id", default=None)

_encode = msgspec.json.Encoder().encode


class CampaignIds(logging.Filter):
    """Adds ``campaign_id`` and ``command_id`` to a record, unless it was logged with its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "campaign_id"):
            record.campaign_id = campaign_id.get()
        if not hasattr(record, "command_id"):
            record.command_id = command_id.get()
        return True


class PlainFormatter(logging.Formatter):
    """``LEVEL logger [campaign=… command=…]: message``, the brackets only when there are ids."""

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s%(ids)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        ids = [
            f"{name}={value}"
            for name, value in (
                ("campaign", getattr(record, "campaign_id", None)),
                ("command", getattr(record, "command_id", None)),
            )
            if value is not None
        ]
        record.ids = f" [{' '.join(ids)}]" if ids else ""
        return super().format(record)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC), level, logger, message, the ids, any exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in ("campaign_id", "command_id"):
            value = getattr(record, field, None)
            if value is not None:
                line[field] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return _encode(line).decode()


def handler(log_format: LogFormat = "plain", stream: IO[str] | None = None) -> logging.Handler:
    """The one handler: to ``stream`` (default: standard error), ids added, in ``log_format``."""
    out = logging.StreamHandler(sys.stderr if stream is None else stream)
    out.addFilter(CampaignIds())
    out.setFormatter(JsonFormatter() if log_format == "json" else PlainFormatter())
    return out


def config(log_format: LogFormat = "plain") -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of a server process; uvicorn applies it in each worker,
    and its own loggers (``uvicorn.error``, ``uvicorn.access``) pass through the same handler."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"main": {"()": "server.ops.logs.handler", "log_format": log_format}},
        "root": {"handlers": ["main"], "level": "INFO"},
    }


def configure(log_format: LogFormat = "plain") -> None:
    logging.config.dictConfig(config(log_format))
