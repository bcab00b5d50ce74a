"""Tasks on a Dask cluster, taken as they finish: each result once, reports from inside tasks, workers lost.

Each task's key holds the batch's token and the task's name, so the scheduler's ``remove-worker`` event says
which of ours a lost worker was running: the scheduler runs those again elsewhere (up to its
``allowed-failures``, 3), and their futures still finish once, so each result is taken, and written, once.
Finished futures, reports and the scheduler's events all arrive through one queue (done-callbacks and
subscribed topics), so the caller waits on one condition and never polls.  Leaving a batch early (Ctrl-C, a
failed task) cancels what is left; a running task learns it was cancelled at its next report and stops.
"""

from __future__ import annotations

import queue
import time
import uuid
from collections.abc import Callable, Hashable, Iterator
from types import TracebackType
from typing import Any

from .cluster import Cluster, ClusterError

REPORT_EVERY_S = 0.5
"""Shortest interval between two reports a task sends (the scheduler keeps a bounded log of them)."""
TICK_S = 1.0
"""How often a batch's ``on_tick`` runs while nothing arrives (the progress line's count of workers)."""


class TaskCancelled(Exception):
    """Raised inside a task whose result nobody wants any more (the command was interrupted)."""


class TaskBatch:
    """Tasks submitted under one token; ``results()`` yields ``(name, result)`` as each finishes.

    Use as a context manager: entering subscribes to the batch's reports and the scheduler's events, leaving
    cancels every task whose result was not taken.
    """

    def __init__(self, cluster: Cluster, prefix: str) -> None:
        self.cluster = cluster
        self.prefix = prefix
        self.topic = f"game2048-lab-{uuid.uuid4().hex[:12]}"
        """The topic a task's ``reporter`` sends to; pass it to the task."""
        self._events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._futures: dict[str, Any] = {}
        self._names: dict[str, Hashable] = {}

    def __enter__(self) -> TaskBatch:
        client = self.cluster.client
        client.subscribe_topic(self.topic, lambda event: self._events.put(("report", event[1])))
        client.subscribe_topic("all", lambda event: self._events.put(("scheduler", event[1])))
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        client = self.cluster.client
        if self._futures:
            client.cancel(list(self._futures.values()))
            self._futures.clear()
        for topic in (self.topic, "all"):
            client.unsubscribe_topic(topic)

    def submit(
        self, name: Hashable, function: Callable[..., Any], *args: Any, resources: dict[str, int] | None = None
    ) -> None:
        """Run ``function(*args)`` on the cluster as the task ``name`` (unique in the batch)."""
        key = f"{self.prefix}-{name}-{self.topic}"
        future = self.cluster.client.submit(function, *args, key=key, pure=False, resources=resources)
        self._futures[key] = future
        self._names[key] = name
        future.add_done_callback(lambda done: self._events.put(("done", done.key)))

    def results(
        self,
        on_report: Callable[[Any], None],
        on_lost: Callable[[str, list[Hashable]], None] | None = None,
        on_tick: Callable[[], None] | None = None,
    ) -> Iterator[tuple[Any, Any]]:
        """``(name, result)`` of each task in the order they finish; ``on_report(msg)`` for each report,
        ``on_lost(worker, names)`` when a worker leaves holding some of them, ``on_tick()`` every ``TICK_S``.

        A task that raised re-raises here; one whose workers kept dying is a ``ClusterError``.
        """
        last_tick = time.perf_counter()
        while self._futures:
            try:
                kind, data = self._events.get(timeout=TICK_S)
            except queue.Empty:
                kind, data = "tick", None
            if kind == "done" and data in self._futures:
                yield self._take(data)
            elif kind == "report":
                on_report(data)
            elif kind == "scheduler" and on_lost is not None and data.get("action") == "remove-worker":
                held = [self._names[key] for key in data.get("processing-tasks", ()) if key in self._names]
                if held:
                    on_lost(str(data.get("worker", "a worker")), held)
            if on_tick is not None and time.perf_counter() - last_tick >= TICK_S:
                on_tick()
                last_tick = time.perf_counter()

    def _take(self, key: str) -> tuple[Any, Any]:
        from distributed.scheduler import KilledWorker

        future = self._futures[key]
        name = self._names[key]
        try:
            result = future.result()
        except KilledWorker:
            raise ClusterError(
                f"{self.prefix} {name} was running on every worker that died under it (Dask's KilledWorker); "
                "the workers' logs say why (out of memory?)"
            ) from None
        del self._futures[key], self._names[key]
        future.release()
        return name, result


def reporter(topic: str) -> Callable[[Any], None]:
    """Inside a task: a function that sends its message to ``topic`` at most every ``REPORT_EVERY_S``, and raises
    ``TaskCancelled`` once the task is cancelled (checked as often)."""
    from distributed import get_worker

    worker = get_worker()
    key = worker.get_current_task()
    last = 0.0

    def report(message: Any) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last < REPORT_EVERY_S:
            return
        last = now
        task = worker.state.tasks.get(key)
        if task is None or task.state == "cancelled":
            raise TaskCancelled(key)
        worker.log_event(topic, message)

    return report
