"""Prometheus metrics of one server node, in a registry of their own (served at /metrics)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

#: (kind, outcome) of `mp_signals_total` (v1.2 signals of turn-based games, server.node.signals): an e-mail, a
#: webhook or a web push (one per browser) sent, failed (refused by its server, timed out, unreachable) or refused (a
#: webhook or push endpoint leading to a private address at send time); a push subscription gone (its push service
#: answered 404 or 410: dropped); a turn claimed by another node (duplicate) or over the node's bound of waiting signals
SIGNAL_OUTCOMES = (
    ("email", "sent"), ("email", "failed"), ("webhook", "sent"), ("webhook", "failed"), ("webhook", "refused"),
    ("push", "sent"), ("push", "failed"), ("push", "refused"), ("push", "gone"),
    ("turn", "duplicate"), ("turn", "dropped"),
)  # fmt: skip


class Metrics:
    """All the node's metrics; a fresh instance per server so tests do not share counters."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.connections = Gauge("mp_connections", "Open WebSocket connections", registry=r)
        self.rooms = Gauge("mp_rooms", "Rooms held by this node", ["game", "status"], registry=r)
        self.messages_in = Counter("mp_messages_in", "Frames received, by message type", ["type"], registry=r)
        self.messages_out = Counter("mp_messages_out", "Frames sent, by message type", ["type"], registry=r)
        self.bytes_out = Counter("mp_bytes_out", "Bytes sent to clients", registry=r)
        self.errors = Counter("mp_errors", "Error answers, by code", ["code"], registry=r)
        self.move_latency = Histogram(
            "mp_move_latency_seconds",
            "From a move frame's arrival to its ok (stored, patches queued)",
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
            registry=r,
        )
        self.store_latency = Histogram(
            "mp_store_latency_seconds",
            "Store operation latency, by operation",
            ["op"],
            buckets=(0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2),
            registry=r,
        )

        self.store_settles = Counter(
            "mp_store_settles", "Writes of unknown outcome settled by re-fencing and reading back", registry=r
        )
        self.rooms_fenced = Counter(
            "mp_rooms_fenced", "Rooms dropped here because another node took their lease", registry=r
        )
        self.takeovers = Counter("mp_takeovers", "Rooms this node took over from another node", registry=r)
        self.auth_failures = Counter(
            "mp_auth_failures", "Failed sign-ins and sign-ups, by reason (never by name or address)", ["reason"],
            registry=r,
        )
        self.accounts = Counter("mp_account_actions", "Sign-ups, sign-ins and sign-outs", ["action"], registry=r)
        self.reports = Counter("mp_reports", "Reports players filed", registry=r)
        self.admin_actions = Counter("mp_admin_actions", "Administrators' actions, by kind", ["action"], registry=r)
        self.store_refused = Counter(
            "mp_store_refused_writes", "Room writes the store refused outright (disk full, out of memory, read-only)",
            registry=r,
        )
        self.relay_timeouts = Counter(
            "mp_relay_timeouts", "Requests forwarded to another node that this node answered itself at their deadline",
            registry=r,
        )
        self.relay_frames = Counter(
            "mp_relay_frames",
            "Frames for a client that crossed Redis: `out`, published here for a socket on another node (the room runs"
            " here); `in`, received here from the room's node and written to a socket here",
            ["direction"], registry=r,
        )
        self.handovers = Counter(
            "mp_room_handovers",
            "Rooms this node handed to the node holding most of the sockets that named them (routing by room)",
            registry=r,
        )
        #: relayed frames since the last scrape (plain ints on the hot path, like `sent`)
        self.relayed_in = 0
        #: functions giving the frames relayed out since they were last asked (the cluster's count)
        self.relayed_out: list[Callable[[], int]] = []
        self.signals = Counter(
            "mp_signals", "Signals of turn-based games (e-mail, webhook, web push), by kind and outcome",
            ["kind", "outcome"], registry=r,
        )
        for kind, outcome in SIGNAL_OUTCOMES:  # every series exists from the start (rates need a first sample)
            self.signals.labels(kind, outcome)

        self._out: dict[tuple[int, str], Any] = {}
        #: frames and bytes sent since the last scrape, by type: plain ints on the hot path (a Prometheus
        #: counter takes a lock per `inc`), added to `messages_out` / `bytes_out` when they are read
        self._sent: dict[str, int] = {}
        self._sent_bytes = 0
        #: called before every scrape (gauges that are cheaper to count then than on every change)
        self.before_render: list[Callable[[], None]] = [self._flush_sent, self._flush_relayed, self._count_tasks]
        # what a leak would grow (sampled by `make soak`): the event loop's tasks and the node's own tables
        self.tasks = Gauge("mp_asyncio_tasks", "Asyncio tasks alive in the node's event loop", registry=r)
        self.tables = Gauge(
            "mp_node_table_entries", "Entries of the node's long-lived tables, by table", ["table"], registry=r
        )
        #: functions giving {table: entries} at each render (the hub's and the app's tables)
        self.table_sizes: list[Callable[[], dict[str, int]]] = []

    def sent(self, t: str, size: int) -> None:
        """One frame of type `t` and `size` bytes went out (counted in `messages_out` and `bytes_out`)."""
        self._sent[t] = self._sent.get(t, 0) + 1
        self._sent_bytes += size

    def _flush_sent(self) -> None:
        sent, size = self._sent, self._sent_bytes
        self._sent, self._sent_bytes = {}, 0
        for t, n in sent.items():
            self.out(t).inc(n)
        if size:
            self.bytes_out.inc(size)

    def _flush_relayed(self) -> None:
        n, self.relayed_in = self.relayed_in, 0
        self.relay_frames.labels("in").inc(n)
        self.relay_frames.labels("out").inc(sum(count() for count in self.relayed_out))

    def out(self, t: str) -> Any:
        """The `messages_out` counter of type `t` (looked up once per type, not per frame)."""
        return self._child(self.messages_out, t)

    def into(self, t: str) -> Any:
        """The `messages_in` counter of type `t`."""
        return self._child(self.messages_in, t)

    def store_op(self, op: str) -> Any:
        """The `store_latency` histogram of operation `op`."""
        return self._child(self.store_latency, op)

    def _child(self, metric: Any, label: str) -> Any:
        key = (id(metric), label)
        child = self._out.get(key)
        if child is None:
            child = self._out[key] = metric.labels(label)
        return child

    def _count_tasks(self) -> None:
        try:
            self.tasks.set(len(asyncio.all_tasks()))
        except RuntimeError:  # rendered outside the loop (a test): nothing to count
            pass
        for sizes in self.table_sizes:
            for table, n in sizes().items():
                self.tables.labels(table).set(n)

    def render(self) -> bytes:
        """The text exposition format."""
        for hook in self.before_render:
            hook()
        return generate_latest(self.registry)
