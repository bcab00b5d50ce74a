"""The AI worker: the page's searches run here, in a PyScript named worker, never on the main thread.

``index.html`` declares it (``app.ai.worker_start`` any others) and the page
calls its exported functions through ``await workers["ai"]``.  Requests and
answers are JSON strings, not Python or JS objects, so nothing depends on how
PyScript converts values across the worker boundary.  A bad request never
raises into the page: the answer is ``{"ok": false, "error": message}``, the
message says what was wrong, and a request's ``id`` is echoed back.

This module is deliberately thin: it parses a request, calls
``game2048.search`` and turns the result (or the error) into JSON.  Its
browser imports sit inside the functions that need them, so the tests run it
in CPython exactly as the worker runs it.

Exported: ``think`` (a decision), ``think_part`` (one worker's share of a
decision), ``explain`` (a decision and its explanation), ``compare`` (alpha-beta
beside expectimax on one board), ``trace`` (alpha-beta
step by step), ``review`` (a batch of a game's moves graded), ``presets``, ``ready`` and
``prepare_other_presets`` (tables and warm-up), ``load_network`` and ``network_progress`` (the learned network's
download), ``evaluation_speed`` and ``heap_bytes`` (for ``tools/bench.py``).
Each request and answer in full: docs/worker.md.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from typing import Any

from game2048.board import Board, from_rows, is_board
from game2048.evaluation import network_stages
from game2048.evaluation import presets as preset_registry
from game2048.search import DEFAULT_PRESETS, SearchOptions, best_move, decide, decide_part, stepwise
from game2048.search.comparison import COMPARE_ANALYSIS_MS, COMPARE_DEPTH
from game2048.search.comparison import compare as compare_searches
from game2048.search.explanation import DEFAULT_ANALYSIS_MS, explain_decision

REQUEST_FIELDS = ("rows", "think_ms", "depth", "algorithm", "preset", "weights", "id")
EXPLAIN_FIELDS = (*REQUEST_FIELDS, "exact_root", "analysis_ms")
TRACE_FIELDS = ("rows", "depth", "algorithm", "preset", "weights", "ordering", "pruning", "id")
COMPARE_FIELDS = ("rows", "depth", "algorithm", "preset", "weights", "analysis_ms", "id")
REVIEW_FIELDS = ("boards", "played", "by_ai", "first", "depth", "preset", "weights", "id")
REVIEW_BATCH_MAX = 200
"""The most moves one ``review`` request grades: the page sends a few at a time, so that Cancel and a hint asked
meanwhile wait for one short batch, never for a whole game."""


def _search(request: dict[str, Any]) -> tuple[Board, SearchOptions]:
    """The request's board and search; ``ValueError`` with a readable message otherwise."""
    board = from_rows(request["rows"])
    given = {key: request[key] for key in ("think_ms", "depth", "algorithm", "preset") if request.get(key) is not None}
    return board, SearchOptions(**given, weights=request.get("weights") or None)


def _answer(request_json: str, fields: tuple[str, ...], compute: Callable[[dict[str, Any]], dict[str, Any]]) -> str:
    """``compute(request)`` plus ``"ok": true``, or ``ok`` false and why, as JSON with the request's ``id``.

    Every exported function answers through here, so none raises into the
    page: a bad request gets its message, a bug its type and message.
    """
    request_id = _request_id(request_json)
    try:
        answer = {**compute(_json_object(request_json, fields)), "ok": True}
    except ValueError as exc:
        answer = {"ok": False, "error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - a bug must reach the page as a message, not kill the worker
        answer = {"ok": False, "error": f"the AI failed: {type(exc).__name__}: {exc}"}
    if request_id is not None:
        answer["id"] = request_id
    return json.dumps(answer, ensure_ascii=False)


def think(request_json: str) -> str:
    """Search the requested board; the answer is JSON with ``ok`` true and the result, or ``ok`` false and why."""
    return _answer(request_json, REQUEST_FIELDS, lambda request: decide(*_search(request)).to_dict())


PART_FIELDS = (*REQUEST_FIELDS, "part", "parts")


def think_part(request_json: str) -> str:
    """One worker's share of an expectimax decision searched by several (``search.decide_part``), as JSON.

    Request: ``think``'s plus ``part`` and ``parts``; answer ``{"ok": true, "iterations", "exhausted",
    "nodes", "cutoffs", "elapsed_ms"}`` (``game2048.search.split_merge.merge`` makes the decision), or ``ok``
    false and why.
    """

    def compute(request: dict[str, Any]) -> dict[str, Any]:
        board, options = _search(request)
        return decide_part(board, options, request.get("part", 0), request.get("parts", 1))

    return _answer(request_json, PART_FIELDS, compute)


def trace(request_json: str) -> str:
    """Alpha-beta step by step on the requested board (``stepwise.variants``), as JSON with ``ok``; never raises."""

    def compute(request: dict[str, Any]) -> dict[str, Any]:
        depth = request.get("depth", 2)
        switches = {name: request.get(name, True) for name in ("ordering", "pruning")}
        for name, value in switches.items():
            if not isinstance(value, bool):
                raise ValueError(f"{name} is true or false, got {value!r}")
        options = SearchOptions(preset=request.get("preset"), weights=request.get("weights") or None)
        traced = stepwise.variants(from_rows(request["rows"]), depth, options.evaluator(), **switches)
        return {**traced, "preset": options.preset_name}

    return _answer(request_json, TRACE_FIELDS, compute)


def explain(request_json: str) -> str:
    """``think`` with the search's explanation (``game2048.search.explain``), for the page's explorer; never raises.

    The answer is ``think``'s (the decision's fields, so the page plays or
    hints it the same way) plus ``"explanation"``.  Extra request fields:
    ``exact_root`` (bool) and ``analysis_ms`` (the explanation's own time).
    """

    def compute(request: dict[str, Any]) -> dict[str, Any]:
        exact_root = request.get("exact_root", False)
        if not isinstance(exact_root, bool):
            raise ValueError(f"exact_root is true or false, got {exact_root!r}")
        analysis_ms = request.get("analysis_ms", DEFAULT_ANALYSIS_MS)
        explanation = explain_decision(*_search(request), exact_root=exact_root, analysis_ms=analysis_ms)
        return {**explanation["decision"], "explanation": explanation}

    return _answer(request_json, EXPLAIN_FIELDS, compute)


def compare(request_json: str) -> str:
    """Alpha-beta beside expectimax on the requested board, same preset, same depth (``search.comparison``).

    Request: ``rows``, ``depth`` (null: ``COMPARE_DEPTH``), ``preset`` and ``weights`` (``preset`` null:
    ``algorithm``'s own, as the explained decision had it), ``analysis_ms``; the answer is the comparison
    with ``ok``; never raises.
    """

    def compute(request: dict[str, Any]) -> dict[str, Any]:
        options = SearchOptions(request.get("algorithm") or "alphabeta", preset=request.get("preset"))
        depth = request.get("depth")
        return compare_searches(
            from_rows(request["rows"]),
            options.preset_name,
            depth if depth is not None else COMPARE_DEPTH,
            weights=request.get("weights") or None,
            analysis_ms=request.get("analysis_ms", COMPARE_ANALYSIS_MS),
        )

    return _answer(request_json, COMPARE_FIELDS, compute)


def review(request_json: str) -> str:
    """A batch of a game's moves graded (``search.review.grade_move``, with ``playouts_for`` the preset), as JSON;
    never raises.

    Request: ``boards`` (each move's board before it, 16 hex digits), ``played`` (the moves), ``by_ai`` (the AI
    chose it), ``first`` (the first move's number), ``depth`` (null: ``REVIEW_DEPTH``), ``preset`` and ``weights``;
    answer ``{"ok": true, "moves": [MoveReview.to_dict()], "preset", "points", "grades", "bounds"}`` where
    ``points`` says the values are in points (the learned network) and ``grades``/``bounds`` are the review's
    own, so the page never copies them.
    """
    from game2048.search import review as grading

    def compute(request: dict[str, Any]) -> dict[str, Any]:
        boards, played = request.get("boards"), request.get("played")
        by_ai = request.get("by_ai") or [False] * len(played or ())
        if not isinstance(boards, list) or not isinstance(played, list) or not isinstance(by_ai, list):
            raise ValueError("boards, played and by_ai are lists, one item a move")
        if not len(boards) == len(played) == len(by_ai) or len(boards) > REVIEW_BATCH_MAX:
            raise ValueError(f"boards, played and by_ai have the same length, at most {REVIEW_BATCH_MAX}")
        first = request.get("first", 1)
        depth = request.get("depth") or grading.REVIEW_DEPTH
        if not isinstance(first, int) or not isinstance(depth, int) or not 1 <= depth <= 4:
            raise ValueError("first is a move number and depth a whole number from 1 to 4")
        options = SearchOptions("expectimax", preset=request.get("preset"), weights=request.get("weights") or None)
        evaluate = options.evaluator()
        name = options.preset_name
        playouts = grading.playouts_for(name)
        moves = [
            grading.grade_move(first + k, _board(text), str(move), evaluate, depth, bool(ai), playouts).to_dict()
            for k, (text, move, ai) in enumerate(zip(boards, played, by_ai))
        ]
        return {
            "moves": moves,
            "preset": name,
            "points": name == "learned",
            "grades": list(grading.GRADES),
            "bounds": list(grading.GRADE_BOUNDS),
        }

    return _answer(request_json, REVIEW_FIELDS, compute)


def _board(text: Any) -> Board:
    """A board from its 16 hex digits; ``ValueError`` otherwise."""
    if not isinstance(text, str) or len(text) != 16 or text.strip("0123456789abcdefABCDEF"):
        raise ValueError(f"a board is 16 hex digits, got {text!r}")
    return int(text, 16)


def _json_object(request_json: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """The request as a dict with only known ``fields`` (and ``rows`` if it is one); ``ValueError`` otherwise."""
    try:
        request = json.loads(request_json)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the request is not JSON: {exc}") from None
    if not isinstance(request, dict):
        raise ValueError(f"the request is a JSON object, got {type(request).__name__}")
    unknown = sorted(set(request) - set(fields))
    if unknown:
        raise ValueError(f"unknown request field(s) {unknown}; known: {list(fields)}")
    if "rows" in fields and "rows" not in request:
        raise ValueError("the request has no 'rows' (the board as 4 lists of 4 tile values)")
    return request


def _request_id(request_json: str) -> Any:
    """The request's ``id``, if it has one that can be read, so even an error answer can be matched to it."""
    try:
        request = json.loads(request_json)
    except (TypeError, ValueError):
        return None
    return request.get("id") if isinstance(request, dict) else None


def presets() -> str:
    """Every evaluation preset the searches accept, with its description and default weights, as JSON.

    ``weight_names`` gives the weights' order, which a JSON object loses in MicroPython.
    """
    return json.dumps(
        [
            {
                "name": p.name,
                "description": p.description,
                "default_weights": dict(p.default_weights),
                "weight_names": list(p.default_weights),
                "download": p.needs_download,
            }
            for p in preset_registry.PRESETS.values()
        ]
    )


def ready() -> str:
    """Build the default evaluations' tables, run each algorithm a little, freeze the heap, then answer ``"ok"``.

    The searches are warm-up, not checks: in the browser the first searches
    after the worker starts run slowly (WebAssembly still being optimised) and
    overrun their budget, so they are better spent here, while the page loads,
    than on the player's first hint.  The other presets' tables come next, in
    ``prepare_other_presets``, which the page asks for once this has answered.
    """
    for name in sorted(set(DEFAULT_PRESETS.values())):
        preset_registry.get(name).make()(0x1)
    middle_game = from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    for algorithm, depth in (("alphabeta", 5), ("expectimax", 2)):
        best_move(middle_game, depth=depth, algorithm=algorithm)
    explain_decision(middle_game, SearchOptions(depth=3), analysis_ms=20)
    _freeze()
    return "ok"


def prepare_other_presets() -> str:
    """Build the tables of every preset ``ready`` left out, then answer ``"ok"``.

    Apart from ``ready`` so that the AI is ready sooner: a request that comes
    meanwhile waits for this (a few tenths of a second in the browser); its
    search's clock starts when it runs.
    """
    for preset in preset_registry.PRESETS.values():
        if not preset.needs_download:  # the learned network comes when a player asks for it
            preset.make()(0x1)
    _freeze()
    return "ok"


_loader: Any = None  # evaluation.network_loader.NetworkLoader, made (and imported) on the first download


async def load_network(request_json: str) -> str:
    """Download, check and install the learned network (``evaluation.network_loader``); JSON with ``ok``.

    Never raises: whatever fails is the answer's ``error``, and the worker keeps the network it had."""
    global _loader
    from game2048.evaluation.network_loader import NetworkLoader
    from game2048.evaluation.ntuple_file import NetworkError

    if _loader is None:
        _loader = NetworkLoader()
    try:
        request = json.loads(request_json)
        base = request.get("base") if isinstance(request, dict) else None
        if not isinstance(base, str) or not base.endswith("/"):
            raise NetworkError(f"load_network needs the page's folder as 'base', ending in '/'; got {base!r}")
        answer = {**(await _loader.load(base, _browser_fetch(), _browser_store())), "ok": True}
    except NetworkError as exc:
        answer = {"ok": False, "error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - a bug reaches the page as a message, the worker lives on
        answer = {"ok": False, "error": f"the network could not be loaded: {type(exc).__name__}: {exc}"}
    if answer["ok"]:
        _freeze()
    return json.dumps(answer)


NETWORK_CACHE = "2048-network"
"""The Cache Storage the learned network is kept in once checked (one file: the last one, and its decoded copy),
for offline play and a load without decoding."""


def _browser_fetch() -> Callable[[str, dict[str, str]], Any]:
    """The browser's ``fetch`` as the loader calls it: ``(url, headers)``, never from the HTTP cache (the checked
    file is kept in ``NETWORK_CACHE``; a range of a stale copy must not mix with a new one)."""
    from js import Object, fetch  # the browser's, in the worker
    from pyodide.ffi import to_js

    def range_fetch(url: str, headers: dict[str, str]) -> Any:
        options = {"headers": headers, "cache": "no-store"}
        return fetch(url, to_js(options, dict_converter=Object.fromEntries))

    return range_fetch


class _CacheStore:
    """``NETWORK_CACHE`` as the loader's store: ``read`` (a Response or None), ``keep`` (replaces all),
    ``keep_beside`` (the decoded copy, beside the file), ``drop``."""

    def __init__(self, caches: Any) -> None:
        self.caches = caches

    async def read(self, url: str) -> Any:
        cache = await self.caches.open(NETWORK_CACHE)
        return (await cache.match(url)) or None

    async def keep(self, url: str, data: bytearray) -> None:
        cache = await self.caches.open(NETWORK_CACHE)
        for key in await cache.keys():
            await cache.delete(key)
        await cache.put(url, _response([data]))

    async def keep_beside(self, url: str, parts: list[Any]) -> None:
        """Keep ``parts`` as ``url`` beside what is kept, written in the background: the network is ready
        without waiting for the disk."""
        cache = await self.caches.open(NETWORK_CACHE)
        written = cache.put(url, _response(parts))
        written.catch(lambda _error: None)  # written by the browser while the AI plays; a full disk keeps nothing

    async def drop(self, url: str) -> None:
        cache = await self.caches.open(NETWORK_CACHE)
        await cache.delete(url)


def _response(parts: list[Any]) -> Any:
    """A Response of ``parts`` (bytes and views, one after another), assembled in the browser's memory, not in
    Python's (the decoded network is 134 MB; the worker's own heap never shrinks)."""
    from js import Object, Response, Uint8Array
    from pyodide.ffi import to_js

    total = sum(len(part) for part in parts)
    body = Uint8Array.new(total)
    at = 0
    for part in parts:
        body.subarray(at, at + len(part)).assign(part)
        at += len(part)
    headers = {"Content-Type": "application/octet-stream", "Content-Length": str(total)}
    return Response.new(body, to_js({"headers": headers}, dict_converter=Object.fromEntries))


def _browser_store() -> Any:
    """The worker's ``NETWORK_CACHE``, or None where the browser has no Cache Storage (the file is not kept)."""
    try:
        from js import caches
    except ImportError:
        return None
    return _CacheStore(caches) if caches is not None else None


def evaluation_speed(request_json: str) -> str:
    """Evaluations per second of ``preset`` over ``boards`` (64-bit ints), for ``tools/bench.py``.

    Request ``{"preset", "boards", "seconds"}``; answer ``{"ok", "preset", "evaluations", "per_second"}``.
    """

    def compute(request: dict[str, Any]) -> dict[str, Any]:
        import time

        evaluate = SearchOptions(preset=request.get("preset")).evaluator()
        boards = request.get("boards") or []
        if not boards or not all(is_board(b) for b in boards):
            raise ValueError("boards is a non-empty list of boards as 64-bit ints")
        seconds = float(request.get("seconds") or 1.0)
        count = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            for board in boards:
                evaluate(board)
            count += len(boards)
        elapsed = time.perf_counter() - started
        return {"preset": request.get("preset"), "evaluations": count, "per_second": count / elapsed}

    return _answer(request_json, ("preset", "boards", "seconds", "id"), compute)


def heap_bytes(_request_json: str = "{}") -> str:
    """The worker's memory as JSON ``{"ok", "bytes"}``: Pyodide's WebAssembly heap, or this process's peak RSS.

    For ``tools/bench.py``: the learned network's cost in the worker is the heap after its download minus before.
    """
    try:
        import pyodide_js  # only in the browser

        size = int(pyodide_js._module.HEAPU8.length)
    except ImportError:
        import resource

        size = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return json.dumps({"ok": True, "bytes": size})


def network_progress(_request_json: str = "{}") -> str:
    """Where ``load_network`` stands: ``{"ok": true, "stage", "loaded", "total", "rate", "left_s", "resumed"}``
    (bytes, bytes a second, seconds; ``left_s`` -1 while unknown), as JSON."""
    progress = _loader.progress if _loader is not None else {"stage": network_stages.IDLE, "loaded": 0, "total": 0}
    return json.dumps({**progress, "ok": True})


def _freeze() -> None:
    """Move the tables (millions of objects that live as long as the worker) out of the collector's sight.

    Otherwise every full collection, run between searches, walks them all
    again, which delayed answers after searches that had finished on time
    (docs/results.md).
    """
    gc.collect()
    gc.freeze()


__export__ = [
    "think",
    "think_part",
    "explain",
    "compare",
    "trace",
    "review",
    "presets",
    "ready",
    "prepare_other_presets",
    "load_network",
    "network_progress",
    "evaluation_speed",
    "heap_bytes",
]
