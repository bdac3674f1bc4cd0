"""A few Prometheus metrics in the text exposition format, without a client library."""

from __future__ import annotations

import math
from collections.abc import Callable

_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Counter:
    def __init__(self, name: str, help: str, label: str | None = None) -> None:
        self.name, self.help, self.label = name, help, label
        self.values: dict[str, float] = {}

    def inc(self, label_value: str = "", amount: float = 1.0) -> None:
        self.values[label_value] = self.values.get(label_value, 0.0) + amount

    def render(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} counter"]
        if self.label is None:
            lines.append(f"{self.name} {self.values.get('', 0.0):g}")
        for value, count in sorted(self.values.items()):
            if self.label is not None:
                lines.append(f'{self.name}{{{self.label}="{value}"}} {count:g}')
        return lines


class Gauge:
    def __init__(self, name: str, help: str, read: Callable[[], float]) -> None:
        self.name, self.help, self.read = name, help, read

    def render(self) -> list[str]:
        return [
            f"# HELP {self.name} {self.help}",
            f"# TYPE {self.name} gauge",
            f"{self.name} {self.read():g}",
        ]


class Histogram:
    def __init__(self, name: str, help: str, buckets: tuple[float, ...] = _BUCKETS) -> None:
        self.name, self.help, self.buckets = name, help, buckets
        self.counts = [0] * len(buckets)
        self.total = 0
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.total += 1
        self.sum += value
        for index, bound in enumerate(self.buckets):
            if value <= bound:
                self.counts[index] += 1

    def render(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        for bound, count in zip(self.buckets, self.counts, strict=True):
            lines.append(f'{self.name}_bucket{{le="{bound:g}"}} {count}')
        lines.append(f'{self.name}_bucket{{le="+Inf"}} {self.total}')
        lines.append(f"{self.name}_sum {0.0 if math.isnan(self.sum) else self.sum:g}")
        lines.append(f"{self.name}_count {self.total}")
        return lines


class Metrics:
    """The server's metrics; gauges read live values through callables set by the app."""

    def __init__(self) -> None:
        self.sockets = 0
        self.campaigns_cached: Callable[[], float] = lambda: 0.0
        self.accepted = Counter("tabletale_actions_accepted_total", "Actions accepted.")
        self.rejected = Counter(
            "tabletale_actions_rejected_total", "Actions rejected, by error code.", "code"
        )
        self.append_seconds = Histogram(
            "tabletale_append_seconds", "Time to decide and append one command."
        )

    def render(self) -> str:
        gauges = [
            Gauge("tabletale_sockets_connected", "Open WebSocket sessions.", lambda: self.sockets),
            Gauge(
                "tabletale_campaigns_cached",
                "Campaign head states cached in this process.",
                self.campaigns_cached,
            ),
        ]
        metrics: list[Counter | Gauge | Histogram] = [
            self.accepted,
            self.rejected,
            self.append_seconds,
            *gauges,
        ]
        lines: list[str] = []
        for metric in metrics:
            lines.extend(metric.render())
        return "\n".join(lines) + "\n"
