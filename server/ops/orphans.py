"""A child process that ends with the process that started it.

The server starts processes of its own: uvicorn's workers under ``--workers N`` and the bots'
thinking workers. Each is started with ``multiprocessing`` and waits for its parent's work on
pipes whose both ends it holds, so when the parent is killed without a shutdown (SIGKILL, the
kernel's out-of-memory killer) nothing tells it: a worker would go on serving the port with no
supervisor (and a restarted server could not bind it), a thinking worker would wait for a
decision forever. :func:`end_with_parent` watches the parent's sentinel, which the kernel closes
when the parent dies, from a thread of the child's own.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import threading
from collections.abc import Callable


def end_with_parent(end: Callable[[], object]) -> bool:
    """Call ``end()`` in a watcher thread once this process's ``multiprocessing`` parent has
    gone; False (and nothing watched) in a process that ``multiprocessing`` did not start."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return False

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        end()

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    return True
