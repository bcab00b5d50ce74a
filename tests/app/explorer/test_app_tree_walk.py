"""TreeWalk in CPython: a fake DOM, a fake client answering with the real stepwise engine, keys and buttons."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from app_async import run_async

from app.explorer import tree_walk
from app.explorer.tree_walk import TreeWalk
from game2048.board import count_empty, from_rows
from game2048.search import stepwise

# The hand-checked board of tests/test_stepwise.py: with "empty cells" as the evaluation, 3 cuts at depth 2.
GOLDEN = [[16, 8, 16, 2], [2, 32, 2, 16], [16, 16, 4, 32], [2, 8, 0, 8]]


class FakeElement:
    def __init__(self, tag: str, element_id: str = "") -> None:
        self.tagName = tag.upper()
        self.id = element_id
        self.children: list[FakeElement] = []
        self.attributes: dict[str, str] = {}
        self.listeners: dict[str, list] = {}
        self.textContent = ""
        self.className = ""
        self.hidden = False
        self.disabled = False
        self.value = ""
        self.checked = False
        self.title = ""
        self.type = ""
        self.scrolled = 0  # scrollIntoView calls

    def scrollIntoView(self, *_options):  # noqa: N802
        self.scrolled += 1

    def setAttribute(self, name, value):  # noqa: N802 - the DOM's names
        self.attributes[name] = str(value)
        if name == "id":
            self.id = str(value)
        elif name == "hidden":
            self.hidden = True
        elif name == "type":
            self.type = str(value)

    def getAttribute(self, name):  # noqa: N802
        return self.attributes.get(name)

    def appendChild(self, child):  # noqa: N802
        self.children.append(child)
        return child

    def append(self, *children):
        self.children.extend(children)

    def replaceChildren(self, *children):  # noqa: N802
        self.children = list(children)

    def addEventListener(self, event, handler):  # noqa: N802
        self.listeners.setdefault(event, []).append(handler)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def find(self, element_id: str) -> FakeElement:
        return next(e for e in self.walk() if e.id == element_id)

    def text(self) -> str:
        return " ".join(t for t in (e.textContent for e in self.walk()) if t)


class FakeDocument:
    def __init__(self) -> None:
        self.section = FakeElement("section", "tree-walk")
        self.algorithm = FakeElement("select", "ai-algorithm")  # the AI panel's, outside the walk

    def createElement(self, tag):  # noqa: N802
        return FakeElement(tag)

    def getElementById(self, element_id):  # noqa: N802
        if element_id == "tree-walk":
            return self.section
        if element_id == "ai-algorithm":
            return self.algorithm
        return next((e for e in self.section.walk() if e.id == element_id), None)


class FakeKey:
    def __init__(self, key: str, target: FakeElement) -> None:
        self.key, self.target = key, target
        self.ctrlKey = self.altKey = self.metaKey = False
        self.stopped = self.prevented = False

    def stopPropagation(self):  # noqa: N802
        self.stopped = True

    def preventDefault(self):  # noqa: N802
        self.prevented = True


class EngineClient:
    """Answers ``trace`` with ``stepwise.variants`` over "empty cells", so the values can be checked by hand."""

    def __init__(self, ready: bool = True, answer: dict | None = None) -> None:
        self.ready = ready
        self.error = None
        self.answer = answer
        self.calls: list[tuple[str, dict, float]] = []

    async def call(self, function, request, budget_ms):
        self.calls.append((function, request, budget_ms))
        await asyncio.sleep(0)
        if self.answer is not None:
            return self.answer
        board = from_rows(request["rows"])
        return {
            "ok": True,
            **stepwise.variants(
                board, request["depth"], count_empty, ordering=request["ordering"], pruning=request["pruning"]
            ),
        }


def _walk(client=None, rows=GOLDEN, **kwargs) -> tuple[TreeWalk, FakeDocument]:
    document = FakeDocument()
    session = SimpleNamespace(game=SimpleNamespace(board=from_rows(rows)))
    walk = TreeWalk(document, client or EngineClient(), session, lambda f: f, **kwargs)
    return walk, document


def _off(button: FakeElement) -> bool:
    return button.getAttribute("aria-disabled") == "true"


def _fire(element: FakeElement, event: str, payload=None) -> None:
    for handler in element.listeners.get(event, []):
        handler(payload)


async def _settle(walk: TreeWalk) -> None:
    while walk._wiring.tasks:
        await asyncio.gather(*list(walk._wiring.tasks))


def _built(ordering: bool = False, **kwargs) -> TreeWalk:
    async def scenario():
        walk, _ = _walk(**kwargs)
        walk.ordering_box.checked = ordering
        walk.build()
        await _settle(walk)
        return walk

    return run_async(scenario)


def test_the_build_button_waits_for_the_ai() -> None:
    client = EngineClient(ready=False)
    walk, document = _walk(client)
    assert walk.build_button.disabled and "loading" in walk.status.textContent
    walk.build()
    assert client.calls == [] and "loading" in walk.status.textContent
    client.ready = True
    walk.refresh()
    assert not walk.build_button.disabled and walk.status.textContent.startswith("Build the tree")
    assert _off(walk.step_buttons["next"]) and document.section.find("tw-tree").hidden


def test_build_asks_the_worker_with_the_switches_and_the_ai_settings() -> None:
    client = EngineClient()
    evaluation = {"algorithm": "alphabeta", "preset": "snake", "weights": {"empty": 2}, "think_ms": 100}
    walk = _built(client=client, evaluation=lambda: evaluation)
    (function, request, budget), *_ = client.calls
    assert function == "trace" and budget == tree_walk.BUDGET_MS
    assert request == {
        "algorithm": "alphabeta",
        "preset": "snake",
        "weights": {"empty": 2},
        "rows": GOLDEN,
        "depth": None,  # the smallest depth that prunes, unless one is chosen
        "ordering": False,
        "pruning": True,
    }
    assert walk.position.textContent == f"Step 1 of {len(walk.trace['steps'])}"
    assert walk.explain.textContent.startswith("Player to move (max) at the root")
    counts = walk.counts.text()
    assert "Alpha-beta, natural order 8 16 3" in counts and "Minimax (no pruning) 14 24 0" in counts
    assert walk.trace["depth"] == 2 and walk.section.getAttribute("data-depth") == "2"
    assert walk.depth_note.textContent == "Depth 2: the smallest at which alpha-beta prunes on this board."


def test_the_walks_keys_step_and_never_move_tiles_and_every_other_key_is_the_pages() -> None:
    walk = _built()
    section = walk.section
    button = walk.step_buttons["next"]
    for key, expected in (("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("End", None), ("Home", 0)):
        event = FakeKey(key, button)
        _fire(section, "keydown", event)
        assert event.stopped and event.prevented
        assert walk.index == (len(walk.trace["steps"]) - 1 if expected is None else expected)
    for key in ("ArrowUp", "ArrowDown"):
        held = FakeKey(key, button)
        _fire(section, "keydown", held)
        assert held.stopped and not held.prevented and walk.index == 0  # no tile moves; the page may scroll
    for key in ("e", "n", "p", "Escape", "Tab", "Enter", " "):
        other = FakeKey(key, button)
        _fire(section, "keydown", other)
        assert not other.stopped and not other.prevented  # the page's shortcuts work from here too
    undo = FakeKey("ArrowLeft", button)
    undo.ctrlKey = True
    _fire(section, "keydown", undo)
    assert not undo.stopped and walk.index == 0
    on_select = FakeKey("ArrowRight", walk.depth_select)
    _fire(section, "keydown", on_select)
    assert not on_select.prevented and walk.index == 0  # the select keeps its arrows


def test_buttons_walk_forward_and_back_and_stop_at_the_ends() -> None:
    walk = _built()
    assert _off(walk.step_buttons["back"]) and not _off(walk.step_buttons["next"])
    _fire(walk.step_buttons["back"], "click")
    assert walk.index == 0
    for _ in range(3):
        _fire(walk.step_buttons["next"], "click")
    assert walk.index == 3 and walk.section.getAttribute("data-event") == "leaf"
    _fire(walk.step_buttons["end"], "click")
    assert _off(walk.step_buttons["next"]) and walk.explain.textContent == "The root returns 3: play right."
    _fire(walk.step_buttons["next"], "click")
    assert walk.index == len(walk.trace["steps"]) - 1
    _fire(walk.step_buttons["start"], "click")
    assert walk.index == 0
    nav = walk.tree.children[0]
    assert [child.id for child in nav.children] == ["tw-start", "tw-back", "tw-next", "tw-end", "tw-position"]
    assert walk.kids_title.textContent == "This board: its moves, in the order tried"


def test_the_path_alpha_beta_and_a_pruned_branch_are_drawn() -> None:
    walk = _built()
    cut_at = next(i for i, s in enumerate(walk.trace["steps"]) if s["event"] == "cut")
    walk.index = cut_at
    walk.render()
    path = walk.path.children
    assert [item.getAttribute("data-id") for item in path] == ["0", "1", "5"]
    assert path[-1].getAttribute("aria-current") == "step"
    assert "\u03b1 = 3, \u03b2 = 3" in path[-1].text() and "\u03b1 = \u2212\u221e, \u03b2 = 3" in path[1].text()
    board = path[-1].children[0]  # the explorer's small board, named for the node
    assert board.className == "tw-board" and board.innerHTML.count('class="mini-cell') == 16
    assert 'aria-label="After ' in board.innerHTML
    kids = walk.kids.children
    assert [k.getAttribute("data-status") for k in kids] == ["done", "pruned", "pruned"]
    assert "pruned: \u03b1 \u2265 \u03b2 (\u03b1 = 3, \u03b2 = 3)" in kids[1].text()
    assert "tw-pruned" in kids[1].className
    assert walk.explain.textContent.startswith("Cut: \u03b1 \u2265 \u03b2 (\u03b1 = 3, \u03b2 = 3)")


def test_a_leaf_shows_its_siblings_and_minimax_has_no_window() -> None:
    walk = _built()
    walk.index = 3  # the first leaf
    walk.render()
    kids = walk.kids.children
    assert "tw-here" in kids[0].className and [k.getAttribute("data-status") for k in kids] == [
        "done",
        "pending",
        "pending",
    ]

    async def scenario():
        walk.pruning_box.checked = False
        _fire(walk.pruning_box, "change")
        await _settle(walk)

    run_async(scenario)
    assert walk.trace["pruning"] is False and walk.index == 0
    assert "\u03b1" not in walk.path.text()
    assert walk.counts.text().count("Minimax") == 1


def test_switches_rebuild_the_same_board_even_after_the_game_moved_on() -> None:
    client = EngineClient()
    walk = _built(client=client)
    walk.session.game.board = 0x1

    async def scenario():
        walk.depth_select.value = "3"
        _fire(walk.depth_select, "change")
        await _settle(walk)

    run_async(scenario)
    assert client.calls[-1][1]["rows"] == GOLDEN and client.calls[-1][1]["depth"] == 3
    assert walk.trace["depth"] == 3


def test_a_failed_answer_is_said_and_a_dead_worker_is_reported() -> None:
    failures = []
    answer = {"ok": False, "error": "the AI stopped working (boom)", "restart": True}
    walk = _built(client=EngineClient(answer=answer), on_worker_failed=failures.append)
    assert walk.status.textContent == "The tree could not be built: the AI stopped working (boom)"
    assert walk.status.className == "tw-status error" and failures == [answer] and walk.trace is None


@pytest.mark.parametrize("rows", [[[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]])
def test_a_lost_board_is_one_step(rows) -> None:
    walk = _built(rows=rows)
    assert len(walk.trace["steps"]) == 1 and walk.trace["move"] is None
    assert _off(walk.step_buttons["next"]) and "none (lost)" in walk.status.textContent


def test_the_tree_is_built_for_the_board_the_explorer_explains_whatever_the_game_did_since() -> None:
    client = EngineClient()
    explained = from_rows(GOLDEN)
    _built(client=client, rows=[[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]], explained_board=lambda: explained)
    assert client.calls[-1][1]["rows"] == GOLDEN
    # Before any explanation, the board in play.
    in_play = [[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]]
    unexplained = _built(client=EngineClient(), rows=in_play, explained_board=lambda: None)
    assert unexplained.rows == in_play


def test_the_step_sentence_is_drawn_inside_the_current_node_and_each_step_keeps_it_in_view() -> None:
    walk = _built()
    assert walk.here_item.scrolled == 0  # a tree just built leaves the page where it is
    for _ in range(5):
        _fire(walk.step_buttons["next"], "click")
        here = walk.path.children[-1]
        assert here is walk.here_item and here.getAttribute("aria-current") == "step"
        assert walk.explain in here.children and here.scrolled == 1
        assert walk.said.textContent == f"Step {walk.index + 1}: {walk.trace['steps'][walk.index]['text']}"
    ancestors = walk.path.children[:-1]
    assert ancestors and all(len(item.children) == 1 for item in ancestors)  # one line each: no board
    _fire(walk.step_buttons["end"], "click")
    _fire(walk.step_buttons["next"], "click")  # at the end: nothing to draw, the node is brought back into view
    assert walk.here_item.scrolled == 2


def _rebuilding(monkeypatch, busy: list[bool]):
    monkeypatch.setattr(tree_walk, "REBUILD_DELAY_S", 0)
    client = EngineClient()
    walk, _ = _walk(client, busy=lambda: busy[0])
    return walk, client


def test_a_newly_explained_board_is_walked_once_the_ai_is_idle(monkeypatch) -> None:
    busy = [False]
    walk, client = _rebuilding(monkeypatch, busy)
    newer = [[16, 8, 16, 2], [2, 32, 2, 16], [16, 16, 4, 32], [2, 8, 2, 8]]
    newer[3][2] = 0
    newer[0][3] = 4
    settings = {"algorithm": "alphabeta", "preset": "classic", "weights": {}}

    async def scenario():
        walk.explained(from_rows(newer), settings)  # never built: nothing to follow yet
        await _settle(walk)
        assert client.calls == []
        walk.build()
        await _settle(walk)
        assert walk.section.getAttribute("data-root") == tree_walk.rows_text(GOLDEN)
        busy[0] = True  # autoplay: the worker is the AI's
        walk.explained(from_rows(newer), settings)
        assert walk.section.getAttribute("data-stale") == "true" and "newer board" in walk.status.textContent
        for _ in range(5):
            await asyncio.sleep(0)
        assert len(client.calls) == 1
        busy[0] = False
        await _settle(walk)

    run_async(scenario)
    assert len(client.calls) == 2 and client.calls[-1][1]["rows"] == newer
    assert client.calls[-1][1]["preset"] == "classic"
    assert walk.section.getAttribute("data-root") == tree_walk.rows_text(newer)
    assert walk.section.getAttribute("data-stale") == "false" and walk.index == 0

    async def again():
        busy[0] = True
        walk.explained(from_rows(GOLDEN), settings)  # another board while the AI is busy: stale for now
        assert walk.section.getAttribute("data-stale") == "true"
        walk.explained(from_rows(newer), settings)  # back to the board and evaluation shown: the walk stays
        await _settle(walk)

    status = walk.status.textContent
    run_async(again)
    assert len(client.calls) == 2 and walk.section.getAttribute("data-stale") == "false"
    assert walk.status.textContent == status


def test_of_several_explanations_only_the_last_is_walked(monkeypatch) -> None:
    busy = [True]
    walk, client = _rebuilding(monkeypatch, busy)
    boards = [from_rows([[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, value]]) for value in (2, 4, 8)]

    async def scenario():
        walk.build()
        await _settle(walk)
        for board in boards:
            walk.explained(board, {})
            await asyncio.sleep(0)
        busy[0] = False
        await _settle(walk)

    run_async(scenario)
    assert [call[1]["rows"] for call in client.calls] == [GOLDEN, [[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 8]]]


def test_with_expectimax_chosen_the_walk_says_plainly_that_it_shows_alpha_beta_and_why() -> None:
    walk = _built(evaluation=lambda: {"algorithm": "expectimax", "preset": "rows"})
    note = walk.algorithm_note.textContent
    assert not walk.algorithm_note.hidden
    assert note.startswith("The AI plays expectimax, but this walk shows alpha-beta, with the reduction")
    assert "average every 2 and every 4" in note and "may differ from the one expectimax chose" in note
    assert "Iterations table above is expectimax" in walk.counts_note.textContent
    plain = _built(evaluation=lambda: {"algorithm": "alphabeta"})
    assert plain.algorithm_note.hidden and plain.algorithm_note.textContent == ""


def test_the_counts_say_how_they_compare_with_the_ais_own_search() -> None:
    walk = _built()  # natural order: the AI's order at depth 2 on this board (right is its depth-1 best)
    row = next(r for r in walk.counts.children if r.getAttribute("data-variant") == "search")
    search = walk.search
    assert (search["depth"], search["nodes"], search["cutoffs"]) == (2, 15, 3)
    assert row.text().endswith("\u2013 15 3")
    note = walk.counts_note.textContent
    assert (
        "It agrees with this walk\u2019s alpha-beta (natural order): its 15 nodes are these 16 without the root" in note
    )
    assert "and 0 windows closed at a last child, where nothing was left to prune." in note


def test_a_board_where_depth_2_prunes_nothing_is_walked_at_depth_3_and_says_why_its_counts_differ() -> None:
    from game2048.bench_positions import POSITIONS
    from game2048.board import to_rows

    classic = stepwise.evaluator()
    quiet = next(
        p.board for p in POSITIONS if stepwise.trace(p.board, 2, classic, ordering=True, pruning=True)["no_cut"]
    )

    class ClassicClient(EngineClient):
        async def call(self, function, request, budget_ms):
            self.calls.append((function, request, budget_ms))
            board = from_rows(request["rows"])
            return {"ok": True, **stepwise.variants(board, request["depth"], classic, ordering=True, pruning=True)}

    walk = _built(client=ClassicClient(), rows=to_rows(quiet), ordering=True)
    assert walk.trace["depth"] == 3 and "at depth 3" in walk.status.textContent
    assert walk.depth_note.textContent.startswith(
        "At depth 2 alpha-beta prunes nothing on this board. Nothing was pruned: alpha-beta prunes only when"
    )
    counts, search = walk.trace["counts"], walk.search
    # The AI searches in its own order, with a table: here it tries fewer nodes.
    assert (counts["cuts"] + counts["closed_at_last"], counts["nodes"] - 1) != (search["cutoffs"], search["nodes"])
    note = walk.counts_note.textContent
    assert note.startswith("The last row is the explorer\u2019s Iterations table\u2019s row for depth 3. It differs")
    assert f"(moves ordered: {counts['cuts']} cut" in note and f"(here {counts['closed_at_last']} windows" in note
    assert note.endswith("and keeps a transposition table.")


def test_another_algorithm_chosen_builds_the_walk_again_with_it(monkeypatch) -> None:
    busy = [False]
    walk, client = _rebuilding(monkeypatch, busy)
    settings = {"algorithm": "alphabeta", "preset": "classic"}
    walk.evaluation = lambda: settings

    async def scenario():
        _fire(walk.document.algorithm, "change")  # before any tree: nothing to build
        await _settle(walk)
        assert client.calls == []
        walk.build()
        await _settle(walk)
        assert walk.algorithm_note.hidden
        settings.update(algorithm="expectimax", preset="rows")
        _fire(walk.document.algorithm, "change")
        assert walk.section.getAttribute("data-stale") == "true"
        await _settle(walk)

    run_async(scenario)
    assert [call[1].get("algorithm") for call in client.calls] == ["alphabeta", "expectimax"]
    assert client.calls[-1][1]["rows"] == GOLDEN and client.calls[-1][1]["preset"] == "rows"
    assert not walk.algorithm_note.hidden and walk.section.getAttribute("data-stale") == "false"
