"""Several AI workers on one expectimax decision: how many, who searches what, and the merged answer.

``AiTeam`` stands where the page used one ``AiClient``: the first worker
(``primary``) does everything it did (explanations, the walk, the network's
download), and for an expectimax decision the helpers each search a share of
the root's moves (``game2048.search.decide_part``: every move to its
``SHARED_DEPTH``, then its own).  ``game2048.search.split_merge.merge`` takes, from all the parts, the
deepest depth at which every legal move has a value, so a helper that fails,
or answers late, costs depth, never the answer: the primary's part alone
covers every move at the shared depths.  A timed decision waits for a helper
until its budget is spent (a part stops deepening on its own estimate, so a
helper may rightly take its whole budget where the primary stopped early),
and a grace after.  A helper that raises is dropped; one
late ``LATE_STRIKES`` times in a row rests (``REST_DECISIONS``, longer each
time) and rejoins, so a moment's load costs a few decisions' depth, not the
rest of a long game; the AI goes on with the others meanwhile.  A
fixed-depth decision waits for every part (each call keeps its own time limit).
Alpha-beta stays in one worker (its cutoffs need one tree).

Plain Python that MicroPython runs (the page's main thread).
"""

import asyncio

from app.ai.client import AiClient
from app.browser.clock import monotonic, sleep
from app.browser.outside_data import BadData, read_int
from app.browser.url_query import query_params
from game2048.search.split_merge import merge

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

MAX_WORKERS = 4
"""The most workers the page starts, whatever the cores: each holds the evaluation's tables."""
GB_PER_WORKER = 1.0
"""A worker for each this many GB the browser reports (``navigator.deviceMemory``): with the learned network a
worker's heap is about 280 MB, and the page, the browser and the system need the rest."""
HELPER_GRACE_MS = 15.0
"""How long the merge waits for a helper's part past the later of the primary's part and the decision's budget;
at least this, or a tenth of the budget."""
LATE_STRIKES = 3
"""A helper late this many decisions in a row rests (the machine cannot give it a core just now)."""
REST_DECISIONS = 32
"""The expectimax decisions a helper sits out the first time it rests; twice as many each time after."""
MAX_REST_DECISIONS = 2048
"""The longest rest: a helper the machine keeps starving is asked again about every few minutes of autoplay."""
HELPER_NAME = "ai-help-{}"


def worker_count(cores: "Any", memory_gb: "Any" = None) -> int:
    """Workers for a device with ``cores`` logical cores and ``memory_gb`` of memory (None: not reported).

    One where there is one core (or the browser does not say); at most ``MAX_WORKERS``; at most one per
    ``GB_PER_WORKER`` of memory.
    """
    try:
        count = max(1, min(MAX_WORKERS, int(cores)))
    except (TypeError, ValueError, OverflowError):  # not a number, NaN, infinite
        count = 1
    try:
        if memory_gb is not None and float(memory_gb) > 0:
            count = max(1, min(count, int(float(memory_gb) / GB_PER_WORKER)))
    except (TypeError, ValueError, OverflowError):
        pass  # a memory the browser cannot say limits nothing
    return count


def team_size(query: str, navigator: "Any") -> "tuple[int, str | None]":
    """The page's workers: ``?workers=N`` (1 to ``MAX_WORKERS``) if the address asks, else ``worker_count``
    of what the browser reports; and a notice when the address asked for something else."""
    cores = memory = None
    try:
        cores = navigator.hardwareConcurrency
        memory = navigator.deviceMemory
    except Exception:  # noqa: BLE001 - a browser that reports neither gets one worker
        pass
    count = worker_count(cores, memory if isinstance(memory, (int, float)) else None)
    asked = [value for name, value in query_params(query) if name == "workers"]
    if not asked:
        return count, None
    try:
        return read_int(asked[-1], 1, MAX_WORKERS), None
    except BadData as exc:
        plural = "s" if count > 1 else ""
        return count, f"Ignored ?workers= ({exc}); the AI uses {count} worker{plural}, as this device allows."


async def _heap_bytes(client: AiClient) -> int:
    """A worker's memory in bytes (its ``heap_bytes``), or 0 when it does not say."""
    answer = await client.call("heap_bytes", {}, 1000)
    return int(answer.get("bytes") or 0) if answer.get("ok") else 0


class Helper:
    """One helper worker's client and how it has done: ``network`` once it holds the learned network."""

    def __init__(self, client: AiClient) -> None:
        self.client = client
        self.busy = False
        self.late = 0  # decisions in a row it answered late
        self.late_ms = 0.0  # the most any of its parts came after the merge went on (ms)
        self.rest = 0  # expectimax decisions it still sits out
        self.rests = 0  # times it was rested: each rest is twice the last
        self.network = False
        self.heap_bytes = 0

    def tire(self) -> None:
        """Late ``LATE_STRIKES`` times in a row: rest ``REST_DECISIONS``, doubled each time, at most the maximum."""
        self.late = 0
        self.rest = min(MAX_REST_DECISIONS, REST_DECISIONS << min(self.rests, 16))
        self.rests += 1


class AiTeam:
    """The primary worker's client (every call but an expectimax decision or a review batch goes to it alone) and
    its helpers.

    Reads like ``AiClient`` (``ready``, ``error``, ``presets``, ``connect``, ``think``, ``call``...), so the
    page's parts take either.  ``count`` workers in all; the helpers start with the first expectimax
    decision or a review's second batch in hand, in the background (alpha-beta, the default, never needs
    them: no Pyodide started for nothing), and join each decision once ready (and, for ``learned``, once
    they hold the network).
    """

    def __init__(self, start_worker: "Callable[..., Any]", count: int) -> None:
        """``start_worker(attempt)`` starts the primary, ``start_worker(attempt, name)`` a helper (``main.py``)."""
        self.count = max(1, count)
        self.primary = AiClient(start_worker)
        self._start_worker = start_worker
        self.helpers: list[Helper] = []
        self.dropped: list[str] = []  # why each dropped helper was dropped
        self._network_base: str | None = None
        self.listeners: list[Callable[[], None]] = []  # told when the team changes (a helper up, dropped)
        self.primary_heap = 0  # the primary's memory in bytes, once measured (several workers only)
        self.started = False  # the helpers start with the first expectimax decision or parallel review batch
        self._primary_reviews = 0  # review batches the primary grades now

    # -- AiClient's face ----------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        return self.primary.ready

    @property
    def error(self) -> "str | None":
        return self.primary.error

    @property
    def needs_restart(self) -> bool:
        return self.primary.needs_restart

    @property
    def presets(self) -> "list[dict[str, Any]]":
        return self.primary.presets

    @property
    def stage(self) -> str:
        return self.primary.stage

    @property
    def attempts(self) -> int:
        return self.primary.attempts

    @property
    def working(self) -> int:
        """Workers searching now: the primary and the helpers that are up and not resting."""
        return 1 + sum(1 for helper in self.helpers if not helper.rest)

    async def connect(self) -> bool:
        connected = await self.primary.connect()
        if connected and self.count > 1:
            asyncio.create_task(self._measure_primary())
        return connected

    async def _measure_primary(self) -> None:
        self.primary_heap = await _heap_bytes(self.primary) or self.primary_heap
        self._changed()

    async def restart(self) -> bool:
        return await self.primary.restart()

    async def explain(self, request: "dict[str, Any]") -> "dict[str, Any]":
        return await self.primary.explain(request)

    async def call(self, function: str, request: "dict[str, Any]", budget_ms: "float | None") -> "dict[str, Any]":
        """The primary's ``function`` (a ``review`` batch: the free worker ``review`` picks); once the primary has
        loaded the learned network, the helpers load it too."""
        if function == "review":
            return await self.review(request, budget_ms)
        answer = await self.primary.call(function, request, budget_ms)
        if function == "load_network" and answer.get("ok"):
            self._network_base = str(request.get("base"))
            if self.count > 1:
                asyncio.create_task(self._measure_primary())
            for helper in self.helpers:
                if not helper.network:
                    asyncio.create_task(self._load_network(helper))
        return answer

    async def review(self, request: "dict[str, Any]", budget_ms: "float | None") -> "dict[str, Any]":
        """A batch of a game's moves graded (the worker's ``review``) by a free worker: the primary unless it
        grades a batch already, then a helper that is up, not busy and, for ``learned``, holds the network.

        A long game's review sends ``review_lanes`` batches at once, so each worker grades its own and the
        game takes about 1/n of the time (grades are seeded per move: any worker gives the same).  A batch
        asked while the primary grades one starts the helpers, as an expectimax decision does; the coach, one
        batch at a time, never does.  A helper that fails a batch is dropped and the batch graded again by
        another worker; the primary's own failure is the answer, as without helpers.
        """
        if self._primary_reviews:
            self._start_helpers_once()
        free = self._free_helpers(request, resting_too=True)
        if not self._primary_reviews or not free:
            self._primary_reviews += 1
            try:
                return await self.primary.call("review", request, budget_ms)
            finally:
                self._primary_reviews -= 1
        helper = free[0]
        helper.busy = True
        try:
            answer = await helper.client.call("review", request, budget_ms)
        finally:
            helper.busy = False
        if answer.get("ok"):
            return answer
        self._drop(helper, f"it failed to grade a review batch: {answer.get('error')}")
        return await self.review(request, budget_ms)

    @property
    def review_lanes(self) -> int:
        """Review batches worth sending at once: one a worker the team may have."""
        return self.count

    # -- helpers ------------------------------------------------------------------------------
    async def start_helpers(self) -> None:
        """Start the helpers one after another (each builds its tables: a core's work for seconds).

        The first expectimax decision calls it; the bench page calls it at once."""
        self.started = True
        for k in range(1, self.count):
            client = AiClient(self._helper_starter(HELPER_NAME.format(k)))
            if not await client.connect():
                self.dropped.append(f"helper {k} did not start: {client.error}")
                self._changed()
                continue
            helper = Helper(client)
            self.helpers.append(helper)
            await self._measure(helper)
            if self._network_base is not None:
                await self._load_network(helper)
            self._changed()

    def _start_helpers_once(self) -> None:
        """The helpers started in the background, once, when the team has any and the primary is up."""
        if not self.started and self.count > 1 and self.primary.ready:
            asyncio.create_task(self.start_helpers())

    def _free_helpers(self, request: "dict[str, Any]", resting_too: bool) -> "list[Helper]":
        """The helpers that may take a part of ``request`` now: up, not busy, holding the network for
        ``learned``; and not resting unless ``resting_too`` (a review batch has no deadline to be late for)."""
        learned = request.get("preset") == "learned"
        return [h for h in self.helpers if not h.busy and (resting_too or not h.rest) and (h.network or not learned)]

    def _helper_starter(self, name: str) -> "Callable[[int], Any]":
        """Helper ``name``'s ``start_worker(attempt)``, as its ``AiClient`` calls it."""

        def start(attempt: int) -> "Any":
            return self._start_worker(attempt, name)

        return start

    async def _load_network(self, helper: Helper) -> None:
        answer = await helper.client.call("load_network", {"base": self._network_base}, None)
        if answer.get("ok"):
            helper.network = True
            await self._measure(helper)
        else:
            self._drop(helper, f"it could not load the learned network: {answer.get('error')}")
        self._changed()

    async def _measure(self, helper: Helper) -> None:
        helper.heap_bytes = await _heap_bytes(helper.client) or helper.heap_bytes

    def _drop(self, helper: Helper, why: str) -> None:
        if helper in self.helpers:
            self.helpers.remove(helper)
            self.dropped.append(why)
            self._changed()

    def _changed(self) -> None:
        for listener in self.listeners:
            listener()

    # -- deciding -----------------------------------------------------------------------------
    async def think(self, request: "dict[str, Any]") -> "dict[str, Any]":
        """One decision: split among the free helpers for expectimax, else the primary's ``think``."""
        expectimax = request.get("algorithm") == "expectimax"
        if expectimax:
            self._start_helpers_once()
            self._rest_one_decision()
        team = self._free_helpers(request, resting_too=False)
        if not expectimax or not team or not self.primary.ready:
            return await self.primary.think(request)
        parts = len(team) + 1
        budget = float(request.get("think_ms") or 100)
        results: dict[int, dict[str, Any]] = {}

        async def ask(k: int, client: AiClient) -> None:
            asked = dict(request)
            asked["part"], asked["parts"] = k, parts
            results[k] = await client.call("think_part", asked, budget)

        sent = monotonic()
        tasks = [asyncio.create_task(ask(k, helper.client)) for k, helper in enumerate(team, 1)]
        for helper in team:
            helper.busy = True
        await ask(0, self.primary)
        # A helper's part ends by its budget: it may go a depth further than the primary on its share.
        closes = max(monotonic(), sent + budget / 1000.0) + max(HELPER_GRACE_MS, budget / 10.0) / 1000.0
        fixed = request.get("depth") is not None  # every part is needed; each call has its own time limit
        while len(results) < parts and (fixed or monotonic() < closes):
            await sleep(0.002)
        for k, helper in enumerate(team, 1):
            self._settle(helper, tasks[k - 1], results, k, closes)
        primary = results.get(0) or {}
        if not primary.get("ok"):
            return primary if primary.get("restart") else await self.primary.think(request)
        answered = [results[k] for k in sorted(results) if results[k].get("ok")]
        merged = merge(answered, request)
        return merged if merged is not None else await self.primary.think(request)

    def _settle(self, helper: Helper, task: "Any", results: "dict[int, dict[str, Any]]", k: int, closed: float) -> None:
        """Count helper ``k``'s part: on time, late (its task frees it when it ends; resting after
        ``LATE_STRIKES`` in a row), or failed (dropped)."""
        answer = results.get(k)
        if answer is None:
            helper.late += 1
            if helper.late >= LATE_STRIKES:
                helper.tire()
                self._changed()

            async def free() -> None:
                try:
                    await task
                finally:
                    helper.busy = False
                    helper.late_ms = max(helper.late_ms, (monotonic() - closed) * 1000.0)
                late = results.get(k) or {}
                if not late.get("ok") and late.get("restart"):
                    self._drop(helper, f"it stopped working ({late.get('error')})")

            asyncio.create_task(free())
            return
        helper.busy = False
        if not answer.get("ok") and answer.get("restart"):
            self._drop(helper, f"it stopped working ({answer.get('error')})")
        elif answer.get("ok"):
            helper.late = 0

    def _rest_one_decision(self) -> None:
        """One expectimax decision passes: each resting helper is a decision nearer to rejoining."""
        back = False
        for helper in self.helpers:
            if helper.rest:
                helper.rest -= 1
                back = back or not helper.rest
        if back:
            self._changed()

    def describe(self) -> str:
        """The team for the AI panel: how many workers search, and each helper's memory where known."""
        if self.count <= 1:
            return "The AI searches in 1 worker (this device gets one)."
        if not self.started:
            return f"Expectimax will share its decisions among {self.count} workers, started when it first plays."
        text = f"The AI searches expectimax in {self.working} of {self.count} workers"
        resting = [helper for helper in self.helpers if helper.rest]
        starting = self.count - self.working - len(resting) - len(self.dropped)
        if starting > 0:
            text += f" ({starting} starting)"
        if resting:
            text += (
                f" ({len(resting)} resting after answering late {LATE_STRIKES} times in a row"
                f" (by up to {max(h.late_ms for h in resting):.0f} ms),"
                f" back within {max(h.rest for h in resting)} decisions)"
            )
        sizes = [size for size in [self.primary_heap] + [h.heap_bytes for h in self.helpers] if size]
        if sizes:
            text += f", each using up to {max(sizes) // 1_000_000} MB of memory"
        text += "."
        if self.dropped:
            text += " Dropped: " + "; ".join(self.dropped) + "."
        return text
