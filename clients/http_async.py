"""The client's HTTP calls for asyncio callers, made on the event loop itself.

:mod:`clients.http` is blocking, and an asyncio caller used to run it in a thread
(``asyncio.to_thread``). Under load that thread is where a new campaign waited: the default pool
has a handful of threads, every call queued behind the others, and each step of a blocking call
(connect, send, read, parse) had to win the interpreter lock back from a busy event loop. With
200 sessions of churn in one load generator, creating a campaign took 863 ms at the median, of
which 641 ms were spent queued for a thread and the server answered in a fraction of the rest
(``docs/performance.md``, "Fair admission"). Here a call is a coroutine: one connection, one
request (``Connection: close``), the answer read whole, no thread.

Errors are those of :mod:`clients.http`: an error answer raises
:class:`~clients.replica.ProtocolError` with the server's code and sentence; a server that cannot
be reached (or does not answer within the timeout) raises :class:`~clients.http.Unreachable`.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from typing import Any
from urllib.parse import urlsplit

from clients.http import TIMEOUT_S, Unreachable, request_headers
from clients.replica import Message, ProtocolError


async def get(url: str, *, token: str | None = None, timeout: float = TIMEOUT_S) -> Any:
    """A JSON ``GET``."""
    return await _request("GET", url, None, token, timeout)


async def post(
    url: str, body: Message, *, token: str | None = None, timeout: float = TIMEOUT_S
) -> Any:
    """A JSON ``POST``."""
    return await _request("POST", url, body, token, timeout)


async def _request(
    method: str, url: str, body: Message | None, token: str | None, timeout: float
) -> Any:
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    host = parts.hostname or "localhost"
    port = parts.port or (443 if secure else 80)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    data = b"" if body is None else json.dumps(body).encode()
    headers = {"Host": parts.netloc, **request_headers(token), "Connection": "close"}
    if body is not None:
        headers |= {"Content-Type": "application/json", "Content-Length": str(len(data))}
    head = f"{method} {target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(
                host, port, ssl=ssl.create_default_context() if secure else None
            )
            try:
                writer.write(head.encode("latin-1") + b"\r\n" + data)
                status, answer = await _answer(reader)
            finally:
                writer.close()
    except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
        raise Unreachable(url, error) from None
    if status >= 400:
        raise ProtocolError(json.loads(answer or b"{}").get("error", {}))
    return json.loads(answer)


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """The status and the whole body of an HTTP/1.1 answer on a connection that closes after
    it: a ``Content-Length`` body, a chunked one, or everything up to the close."""
    status_line = await reader.readuntil(b"\r\n")
    status = int(status_line.split(b" ", 2)[1])
    length: int | None = None
    chunked = False
    while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
        name, _, value = line.decode("latin-1").partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value.strip())
        elif name == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    if chunked:
        pieces = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            pieces.append(await reader.readexactly(size))
            await reader.readexactly(2)  # the CRLF after each chunk
        return status, b"".join(pieces)
    if length is not None:
        return status, await reader.readexactly(length)
    return status, await reader.read()
