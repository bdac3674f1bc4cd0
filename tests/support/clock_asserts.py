"""Finding the asserts that hold a clock against a constant.

A test that asserts ``took < 5`` passes or fails by how busy the machine is, not by what the code
does: on a shared CI host it blocks a correct change. What such a test protects belongs in a
benchmark script that prints its figure, or in a test of the property behind the number (a count,
an order, a ratio of two figures measured side by side in the same run).

This module reads a test file's syntax tree, without running it, and names every ``assert`` that
compares a *timed* value with an untimed one as an upper bound. A value is timed when it is

- a reading of a clock (``time.monotonic()``, ``time.perf_counter()``, ``time.time()``,
  ``time.process_time()``, their ``_ns`` forms, an event loop's ``loop.time()``), or
- a name (a local, or an attribute of ``self``) assigned from, or appended with, a timed value, or
- a figure a measuring script printed, looked up by a key that names a unit of time
  (``figures["healthz_max_ms"]``, ``report.decision_ms_p50``).

Allowed, because a slower host cannot make them fail:

- a lower bound (``waited >= TIMEOUT_S``: a timeout was honoured, a delay kept), and
- a comparison of two timed values (``round_trips[-1] < searched / 4``: a ratio measured in the
  same run).

A wait that gives up after a generous timeout is no assert: it raises (``tests.support.polling``),
naming what it waited for.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

CLOCKS = frozenset(
    {
        "monotonic",
        "monotonic_ns",
        "perf_counter",
        "perf_counter_ns",
        "process_time",
        "process_time_ns",
        "thread_time",
        "time",
        "time_ns",
    }
)
"""Functions of :mod:`time` that read a clock; ``loop.time()`` is matched as ``time`` too."""

TIMED_KEY = re.compile(r"(^|_)(ms|us|seconds|secs|took|elapsed|latency|wall|cpu)(_|$)|_s(_|$)")
"""A figure's key or attribute that names a unit of time (``healthz_max_ms``, ``took``)."""

_UPPER = (ast.Lt, ast.LtE)
_LOWER = (ast.Gt, ast.GtE)


@dataclass(frozen=True)
class ClockAssert:
    """One ``assert`` that holds a timed value under an untimed bound."""

    path: Path
    line: int
    source: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.source}"


def _is_clock_call(node: ast.AST, timed_calls: frozenset[str] = frozenset()) -> bool:
    """A reading of a clock, or a call of a function of the module that returns a timed value."""
    if not isinstance(node, ast.Call):
        return False
    function = node.func
    if isinstance(function, ast.Attribute) and function.attr in CLOCKS:
        # time.monotonic(), loop.time(), asyncio.get_running_loop().time()
        return not node.args and not node.keywords
    if isinstance(function, ast.Name):
        return function.id in CLOCKS - {"time"} or function.id in timed_calls
    return False


def _target_name(node: ast.AST) -> str | None:
    """``took`` for ``took``, ``self.took`` for ``self.took``; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _named_as_time(node: ast.AST) -> bool:
    """A name, key or attribute that says it holds a time (``took``, ``figures["wall_s"]``)."""
    if isinstance(node, ast.Name):
        return TIMED_KEY.search(node.id) is not None
    if isinstance(node, ast.Subscript):
        key = node.slice
        return (
            isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and TIMED_KEY.search(key.value) is not None
        )
    if isinstance(node, ast.Attribute):
        of_time_module = isinstance(node.value, ast.Name) and node.value.id == "time"
        return not of_time_module and TIMED_KEY.search(node.attr) is not None
    return False


def _walk_values(node: ast.AST) -> list[ast.AST]:
    """``node`` and what it is computed from, leaving out the insides of ``len(...)``."""
    found: list[ast.AST] = []
    stack = [node]
    while stack:
        inner = stack.pop()
        found.append(inner)
        counted = isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
        if counted and inner.func.id == "len":  # type: ignore[attr-defined]
            continue
        stack.extend(ast.iter_child_nodes(inner))
    return found


def _names_in(target: ast.AST) -> list[str]:
    return [name for element in ast.walk(target) if (name := _target_name(element)) is not None]


class _Timed:
    """The names of one scope (a function, or the module's top) that hold timed values, found by
    repeated passes until no new one appears (``started = time.monotonic()``, then
    ``took = now - started``, then ``median = statistics.median(took)``).

    A *reversed* name holds a timed value with its sign turned (``remaining = deadline - now``):
    a lower bound on it is an upper bound on the time."""

    def __init__(self, scope: ast.AST, timed_calls: frozenset[str]) -> None:
        self.timed_calls = timed_calls
        self.names: set[str] = set()
        self.reversed: set[str] = set()
        nodes = list(ast.walk(scope))
        assignments = [
            n for n in nodes if isinstance(n, ast.Assign | ast.AnnAssign | ast.AugAssign)
        ]
        appends = [
            n
            for n in nodes
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in {"append", "extend", "add"}
        ]
        while True:
            before = len(self.names) + len(self.reversed)
            for assignment in assignments:
                value = assignment.value
                if value is None:
                    continue
                targets = (
                    assignment.targets
                    if isinstance(assignment, ast.Assign)
                    else [assignment.target]
                )
                into = self.reversed if self.turned(value) else self.names
                if into is self.reversed or self.holds(value):
                    for target in targets:
                        into.update(_names_in(target))
            for call in appends:
                assert isinstance(call.func, ast.Attribute)
                name = _target_name(call.func.value)
                if name is not None and any(self.holds(argument) for argument in call.args):
                    self.names.add(name)
            if len(self.names) + len(self.reversed) == before:
                return

    def turned(self, node: ast.AST) -> bool:
        """``deadline - now``: a clock subtracted from something."""
        return (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Sub)
            and self.holds(node.right)
            and any(_is_clock_call(inner, self.timed_calls) for inner in ast.walk(node.right))
        )

    def holds(self, node: ast.AST) -> bool:
        """Whether the expression ``node`` carries a timed value (``len(took)`` is a count)."""
        for inner in _walk_values(node):
            if _is_clock_call(inner, self.timed_calls):
                return True
            name = _target_name(inner)
            if name is not None and (name in self.names or name in self.reversed):
                return True
            if _named_as_time(inner):
                return True
        return False

    def reads_clock(self, node: ast.AST) -> bool:
        return any(_is_clock_call(inner, self.timed_calls) for inner in ast.walk(node))

    def is_reversed(self, node: ast.AST) -> bool:
        return self.turned(node) or any(
            (name := _target_name(inner)) is not None and name in self.reversed
            for inner in ast.walk(node)
        )


def _upper_bounds(compare: ast.Compare, timed: _Timed) -> bool:
    """Whether ``compare`` holds a timed operand under an untimed one (or a clock's reading under
    a deadline)."""
    operands = [compare.left, *compare.comparators]
    for left, operator, right in zip(operands, compare.ops, operands[1:], strict=False):
        if not isinstance(operator, _UPPER + _LOWER):
            continue
        smaller, larger = (left, right) if isinstance(operator, _UPPER) else (right, left)
        if timed.reads_clock(smaller) and not timed.reads_clock(larger):
            return True  # now < deadline, now - started < LIMIT
        if timed.is_reversed(larger) and not timed.holds(smaller):
            return True  # deadline - now > 0
        if timed.holds(smaller) and not timed.holds(larger) and not timed.is_reversed(smaller):
            return True  # took < LIMIT
    return False


def _scopes(tree: ast.Module) -> list[ast.AST]:
    """The module's functions (each with what it nests) and, as one more scope, the module."""
    functions = [
        node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    top = [
        statement
        for statement in tree.body
        if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    ]
    return [*functions, ast.Module(body=top, type_ignores=[])]


def _timed_calls(tree: ast.Module) -> frozenset[str]:
    """The module's functions whose return value is timed (``return response, now - started``)."""
    found: set[str] = set()
    while True:
        before = len(found)
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            timed = _Timed(node, frozenset(found))
            if any(
                isinstance(inner, ast.Return)
                and inner.value is not None
                and timed.holds(inner.value)
                for inner in ast.walk(node)
            ):
                found.add(node.name)
        if len(found) == before:
            return frozenset(found)


def clock_asserts(path: Path, text: str | None = None) -> list[ClockAssert]:
    """Every assert of the module at ``path`` that holds a timed value under a constant."""
    source = path.read_text() if text is None else text
    tree = ast.parse(source, filename=str(path))
    timed_calls = _timed_calls(tree)
    found: dict[int, ClockAssert] = {}
    for scope in _scopes(tree):
        timed = _Timed(scope, timed_calls)
        for node in ast.walk(scope):
            if not isinstance(node, ast.Assert) or node.lineno in found:
                continue
            if any(
                isinstance(inner, ast.Compare) and _upper_bounds(inner, timed)
                for inner in ast.walk(node.test)
            ):
                found[node.lineno] = ClockAssert(path, node.lineno, ast.unparse(node.test))
    return [found[line] for line in sorted(found)]
