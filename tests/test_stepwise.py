"""Alpha-beta step by step: the traced tree equals the reference minimax, its cuts are real, and one is hand-checked."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from strategies import boards

from game2048 import reference
from game2048.bench_positions import POSITIONS
from game2048.board import DIRECTIONS, Board, count_empty, from_rows, is_game_over, move
from game2048.game import Game
from game2048.search.stepwise import compact, evaluator, search_counts, trace, variants
from game2048.values import WIN_SCORE, format_value

CLASSIC = evaluator()
SWITCHES = [(ordering, pruning) for pruning in (True, False) for ordering in (True, False)]


def _played_positions(count: int, seed: int = 14) -> list[Board]:
    """Boards from seeded random games, at random moments (early, crowded, near the end)."""
    rng = random.Random(seed)
    found = []
    for game_seed in range(count):
        game = Game.new(game_seed + 100)
        stop = rng.randrange(5, 400)
        for _ in range(stop):
            if game.over:
                break
            legal = [d for d in DIRECTIONS if move(game.board, d)[0] != game.board]
            game.play(rng.choice(legal))
        found.append(game.board)
    return found


POSITION_BOARDS = [p.board for p in POSITIONS] + _played_positions(24)


def _window_checks(traced: dict) -> None:
    """Every cut happened at α ≥ β, pruned exactly the children after the one that caused it, and nothing else."""
    nodes = traced["nodes"]
    pruned_by_cuts = set()
    for index, step in enumerate(traced["steps"]):
        if step["event"] != "cut":
            continue
        alpha = -float("inf") if step["alpha"] is None else step["alpha"]
        beta = float("inf") if step["beta"] is None else step["beta"]
        assert alpha >= beta, step
        before = traced["steps"][index - 1]
        assert before["event"] == "backup" and before["node"] == step["node"]
        assert (before["alpha"], before["beta"]) == (step["alpha"], step["beta"])
        siblings = nodes[step["node"]]["children"]
        assert step["pruned"] == siblings[siblings.index(before["child"]) + 1 :]
        for child in step["pruned"]:
            assert nodes[child]["pruned"] == {"alpha": step["alpha"], "beta": step["beta"]}
            assert not nodes[child]["visited"] and nodes[child]["value"] is None
        pruned_by_cuts.update(step["pruned"])
    assert pruned_by_cuts == {n["id"] for n in nodes if n["pruned"]}
    # A node is visited iff its parent was entered and it was not pruned; pruned nodes have no subtree.
    for node in nodes:
        if node["parent"] is not None:
            parent = nodes[node["parent"]]
            assert node["visited"] == (parent["visited"] and not node["pruned"])
            assert parent["visited"]


@pytest.mark.parametrize("depth", [2, 3])
def test_the_root_value_and_move_equal_the_reference_on_bench_and_played_positions(depth: int) -> None:
    for board in POSITION_BOARDS:
        if is_game_over(board):
            continue
        expected = reference.root_values(board, depth, CLASSIC)
        best_value, best_moves = reference.best_moves(board, depth, CLASSIC)
        counts = {}
        for ordering, pruning in SWITCHES:
            traced = trace(board, depth, CLASSIC, ordering=ordering, pruning=pruning)
            assert traced["value"] == best_value
            assert traced["move"] in set(best_moves)
            root = traced["nodes"][0]
            children = {traced["nodes"][c]["label"]: traced["nodes"][c] for c in root["children"]}
            assert set(children) == set(expected)
            if not pruning:
                assert {label: c["value"] for label, c in children.items()} == dict(expected)
                assert all(n["visited"] and n["bound"] == "exact" for n in traced["nodes"])
                assert traced["counts"]["cuts"] == 0
            else:
                _window_checks(traced)
                for label, child in children.items():  # fail-soft: a cut child's value is a true bound
                    true = expected[label]
                    if child["bound"] == "upper":
                        assert true <= child["value"]
                    elif child["visited"]:
                        assert child["bound"] == "exact" and child["value"] == true
            counts[ordering, pruning] = traced["counts"]
        for ordering in (True, False):
            assert counts[ordering, True]["leaves"] <= counts[ordering, False]["leaves"]
        assert counts[True, False] == counts[False, False]


@settings(max_examples=60)
@given(boards(min_tiles=11))
def test_any_board_traces_to_the_reference_value(board: Board) -> None:
    best_value, best_moves = reference.best_moves(board, 2, CLASSIC)
    for ordering, pruning in SWITCHES:
        traced = trace(board, 2, CLASSIC, ordering=ordering, pruning=pruning)
        if not best_moves:
            assert traced["move"] is None and traced["nodes"][0]["kind"] == "lost"
            assert traced["value"] == -(WIN_SCORE + 2)
            continue
        assert traced["value"] == best_value and traced["move"] in set(best_moves)
        if pruning:
            _window_checks(traced)


def test_ordering_changes_the_counts_somewhere_but_never_the_value() -> None:
    changed = 0
    for board in POSITION_BOARDS[:24]:
        ordered = trace(board, 3, CLASSIC, ordering=True, pruning=True)
        natural = trace(board, 3, CLASSIC, ordering=False, pruning=True)
        assert ordered["value"] == natural["value"]
        changed += ordered["counts"] != natural["counts"]
    assert changed >= 5


def test_ordering_tries_the_best_afterstate_first_and_the_natural_order_is_up_right_down_left() -> None:
    board = POSITIONS[8].board
    natural = trace(board, 2, CLASSIC, ordering=False, pruning=False)
    labels = [natural["nodes"][c]["label"] for c in natural["nodes"][0]["children"]]
    assert labels == [d for d in DIRECTIONS if move(board, d)[0] != board]
    ordered = trace(board, 2, CLASSIC, ordering=True, pruning=False)
    scores = [CLASSIC(move(board, ordered["nodes"][c]["label"])[0]) for c in ordered["nodes"][0]["children"]]
    assert scores == sorted(scores, reverse=True)


def test_wins_and_losses_score_as_in_the_reference() -> None:
    near_win = from_rows([[1024, 1024, 2, 4], [4, 2, 8, 16], [2, 8, 4, 2], [8, 4, 2, 0]])
    traced = trace(near_win, 2, CLASSIC, ordering=False, pruning=True)
    assert traced["value"] == WIN_SCORE + 2 == max(reference.root_values(near_win, 2, CLASSIC).values())
    assert any(n["kind"] == "won" for n in traced["nodes"])
    lost = from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    traced = trace(lost, 2, CLASSIC, ordering=True, pruning=True)
    assert traced["move"] is None and traced["counts"] == {"leaves": 1, "nodes": 1, "cuts": 0, "closed_at_last": 0}
    assert traced["no_cut"] is None  # a lost root has nothing to prune, and says so in its one step


@pytest.mark.parametrize("depth", [0, 1, 4, True, "2"])
def test_only_depth_2_or_3_is_drawn(depth) -> None:
    with pytest.raises(ValueError, match="depth 2 or 3"):
        trace(POSITIONS[0].board, depth, CLASSIC, ordering=True, pruning=True)


def test_the_steps_tell_a_person_what_happens() -> None:
    traced = trace(POSITIONS[10].board, 2, CLASSIC, ordering=False, pruning=True)
    assert all(step["text"] and step["text"][-1] == "." for step in traced["steps"])
    cut = next(step for step in traced["steps"] if step["event"] == "cut")
    assert cut["reason"] == "\u03b1 \u2265 \u03b2" and cut["text"].startswith("Cut: \u03b1 \u2265 \u03b2 (\u03b1 = ")
    assert traced["steps"][-1]["text"].startswith("The root returns")
    json.dumps(traced, allow_nan=False)  # JSON-ready: no infinities


def test_the_compact_trace_for_the_page_keeps_everything_but_derivable_fields() -> None:
    board = POSITIONS[10].board
    answer = variants(board, 3, CLASSIC, ordering=False, pruning=True)
    full = trace(board, 3, CLASSIC, ordering=False, pruning=True)
    assert answer["trace"] == compact(full)
    node = answer["trace"]["nodes"][0]
    assert len(node["ranks"]) == 16 and "rows" not in node and "children" not in node
    assert (
        from_rows([[1 << int(c, 16) if c != "0" else 0 for c in node["ranks"][r * 4 : r * 4 + 4]] for r in range(4)])
        == board
    )
    assert [(v["ordering"], v["pruning"]) for v in answer["variants"]] == SWITCHES
    assert all(v["value"] == full["value"] for v in answer["variants"])


def test_format_value() -> None:
    assert [format_value(v) for v in (None, float("inf"), -float("inf"), WIN_SCORE + 2, -(WIN_SCORE + 1))] == [
        "\u2013",
        "+\u221e",
        "\u2212\u221e",
        "win",
        "loss",
    ]
    assert [format_value(v) for v in (3, -13.133746820596105, 0.5, 12345.6, 1524388.17)] == [
        "3",
        "\u221213.13",
        "0.5",
        "12.35k",
        "1.524M",
    ]


# -- the hand-checked golden example ------------------------------------------------------------------------------
#
# The board (one empty cell), depth 2, natural order, and an evaluation a person can do by hand:
# the number of empty cells.
#
#      16   8  16   2
#       2  32   2  16
#      16  16   4  32
#       2   8   .   8
#
# Up changes nothing (no column merges, the hole is at the bottom), so the root tries right, down, left.
#   right: 16 16 4 32 -> . 32 4 32 and 2 8 . 8 -> . . 2 16.  The computer's most annoying placements
#          (reference.placements agrees) are a 4 at row 3, column 1 and a 4 at row 4, column 2.
#     node 4 (4 at r3 c1), window (-inf, +inf): up merges the 32s of column 2 (3 empty cells), down too
#            (3), left slides the last row (2).  Max = 3; α rises to 3 on the first leaf, no cut (β = +inf).
#            Back in the min node 1, β = 3.
#     node 5 (4 at r4 c2), window (-inf, 3): up merges the 32s (3 empty).  α = 3 ≥ β = 3: CUT, down and
#            left are pruned (the computer already holds "right" to 3 with node 4, and this placement is
#            worth at least 3 to the player).  A cut on α > β would search them.  Node 5 returns 3, a
#            lower bound; node 1 = min(3, 3) = 3 exact, and the root's α becomes 3.
#   down:  one empty cell left, row 1 column 3; the 2 and the 4 there are equally annoying.
#     node 12 (2 there), window (3, +inf): only right and left move, each leaves 3 empty cells: 3, exact
#            (both moves searched: nothing below it was cut, though 3 ≤ α).
#            Min node 2: β = 3, and α = 3 (from "right" at the root) ≥ β = 3: CUT, the 4 is pruned.
#            Had the root not raised α after "right", α would be -inf here and nothing would be cut.
#   left:  32 4 32 . and 2 16 . .; placements 2 at r3 c4 and 2 at r4 c3.
#     node 16 (2 at r3 c4), window (3, +inf): right and down each leave 2 empty cells: 2, exact (≤ α, but both
#            moves were searched: no cut at or below it).
#            Min node 3: β = 2 < α = 3: CUT, 2 at r4 c3 pruned.
# Root = max(3, ≤3, ≤2) = 3: play right, as the reference's minimax says (right 3, down 2, left 2).
# Leaves: 3 + 1 + 2 + 2 = 8 evaluated with pruning, 14 without.
GOLDEN_BOARD = [[16, 8, 16, 2], [2, 32, 2, 16], [16, 16, 4, 32], [2, 8, 0, 8]]
INF = None  # α = −∞ / β = +∞ in a trace
GOLDEN_LABELS = {
    0: "this board",
    1: "right",
    2: "down",
    3: "left",
    4: "4 at row 3, column 1",
    5: "4 at row 4, column 2",
    12: "2 at row 1, column 3",
    13: "4 at row 1, column 3",
    16: "2 at row 3, column 4",
    17: "2 at row 4, column 3",
}
# (node, event, α, β, value): α and β after the step (entry window for enter/leaf), value of a leaf, the child
# value backed up, or the value returned.
GOLDEN_STEPS = [
    (0, "enter", INF, INF, None),
    (1, "enter", INF, INF, None),
    (4, "enter", INF, INF, None),
    (6, "leaf", INF, INF, 3),  # up
    (4, "backup", 3, INF, 3),
    (7, "leaf", 3, INF, 3),  # down
    (4, "backup", 3, INF, 3),
    (8, "leaf", 3, INF, 2),  # left
    (4, "backup", 3, INF, 2),
    (4, "return", None, None, 3),
    (1, "backup", INF, 3, 3),
    (5, "enter", INF, 3, None),
    (9, "leaf", INF, 3, 3),  # up
    (5, "backup", 3, 3, 3),
    (5, "cut", 3, 3, None),  # prunes 10 (down) and 11 (left)
    (5, "return", None, None, 3),
    (1, "backup", INF, 3, 3),
    (1, "return", None, None, 3),
    (0, "backup", 3, INF, 3),
    (2, "enter", 3, INF, None),
    (12, "enter", 3, INF, None),
    (14, "leaf", 3, INF, 3),  # right
    (12, "backup", 3, INF, 3),
    (15, "leaf", 3, INF, 3),  # left
    (12, "backup", 3, INF, 3),
    (12, "return", None, None, 3),
    (2, "backup", 3, 3, 3),
    (2, "cut", 3, 3, None),  # prunes 13 (the 4)
    (2, "return", None, None, 3),
    (0, "backup", 3, INF, 3),
    (3, "enter", 3, INF, None),
    (16, "enter", 3, INF, None),
    (18, "leaf", 3, INF, 2),  # right
    (16, "backup", 3, INF, 2),
    (19, "leaf", 3, INF, 2),  # down
    (16, "backup", 3, INF, 2),
    (16, "return", None, None, 2),
    (3, "backup", 3, 2, 2),
    (3, "cut", 3, 2, None),  # prunes 17
    (3, "return", None, None, 2),
    (0, "backup", 3, INF, 2),
    (0, "return", None, None, 3),
]
GOLDEN_PRUNED = {10: (3, 3), 11: (3, 3), 13: (3, 3), 17: (3, 2)}
GOLDEN_BOUNDS = {0: "exact", 1: "exact", 2: "upper", 3: "upper", 4: "exact", 5: "lower", 12: "exact", 16: "exact"}
GOLDEN_RETURNS = {
    4: "4 at row 3, column 1 returns 3, its exact value: nothing below it was pruned.",
    5: "4 at row 4, column 2 returns 3, a lower bound (worth at least 3): a cut here skipped branches that could "
    "only raise it.",
    1: "right returns 3, its exact value: a cut below it skipped only branches that could not change it.",
    12: "2 at row 1, column 3 returns 3, its exact value: nothing below it was pruned.",
    2: "down returns 3, an upper bound (worth at most 3): a cut here skipped branches that could only lower it.",
    16: "2 at row 3, column 4 returns 2, its exact value: nothing below it was pruned.",
    3: "left returns 2, an upper bound (worth at most 2): a cut here skipped branches that could only lower it.",
    0: "The root returns 3: play right.",
}


def test_golden_alpha_beta_walk_checked_by_hand() -> None:
    board = from_rows(GOLDEN_BOARD)
    traced = trace(board, 2, count_empty, ordering=False, pruning=True)
    nodes = traced["nodes"]
    assert {i: nodes[i]["label"] for i in GOLDEN_LABELS} == GOLDEN_LABELS
    # The tree is the reference's: its placements are reference.placements'.
    for min_node in (1, 2, 3):
        after = move(board, nodes[min_node]["label"])[0]
        assert [from_rows(nodes[c]["rows"]) for c in nodes[min_node]["children"]] == reference.placements(after)
    seen = [
        (s["node"], s["event"], s.get("alpha"), s.get("beta"), s.get("value"))
        if s["event"] != "return"
        else (s["node"], "return", None, None, s["value"])
        for s in traced["steps"]
    ]
    assert seen == GOLDEN_STEPS
    assert {n["id"]: (n["pruned"]["alpha"], n["pruned"]["beta"]) for n in nodes if n["pruned"]} == GOLDEN_PRUNED
    assert {n["id"]: n["bound"] for n in nodes if n["kind"] in ("max", "min") and n["visited"]} == GOLDEN_BOUNDS
    returns = {s["node"]: s["text"] for s in traced["steps"] if s["event"] == "return" and s["node"] in GOLDEN_RETURNS}
    assert returns == GOLDEN_RETURNS
    assert {n["id"]: n["cuts"] for n in nodes if n["id"] in GOLDEN_RETURNS} == {
        0: 3,
        1: 1,
        2: 1,
        3: 1,
        4: 0,
        5: 1,
        12: 0,
        16: 0,
    }
    assert (traced["value"], traced["move"]) == (3, "right")
    assert traced["counts"] == {"leaves": 8, "nodes": 16, "cuts": 3, "closed_at_last": 0}
    assert traced["no_cut"] is None
    assert reference.best_moves(board, 2, count_empty) == (3, {DIRECTIONS[1]})
    minimax = trace(board, 2, count_empty, ordering=False, pruning=False)
    assert minimax["counts"] == {"leaves": 14, "nodes": 24, "cuts": 0, "closed_at_last": 0} and minimax["value"] == 3
    assert minimax["no_cut"] is None  # minimax prunes nothing by design: no reason to give


def test_the_same_search_without_the_reduction_tries_every_placement_and_stops_counting_at_its_limit():
    from game2048.search import stepwise

    board = from_rows([[0, 0, 2, 0], [0, 0, 0, 0], [256, 32, 16, 0], [2, 4, 4, 8]])
    evaluate = evaluator()
    reduced = trace(board, 2, evaluate, ordering=True, pruning=True)["counts"]
    full = variants(board, 2, evaluate, ordering=True, pruning=True)["unreduced"]
    assert full["over"] is None and full["nodes"] > reduced["nodes"] and full["leaves"] > reduced["leaves"]
    empty = count_empty(board)
    assert len(stepwise.every_placement(board)) == 2 * empty
    # Minimax over every placement of an opening board at depth 3 visits about 55,000 nodes: only "over" is said.
    opening = from_rows([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0]])
    big = stepwise.unreduced(opening, 3, evaluate, ordering=False, pruning=False)
    assert big["over"] == stepwise.UNREDUCED_LIMIT and big["nodes"] is None


@settings(max_examples=40, deadline=None)
@given(boards(min_tiles=10))
def test_no_step_counts_one_child_in_the_plural(board: Board) -> None:
    for step in trace(board, 2, count_empty, ordering=True, pruning=True)["steps"]:
        assert ": 1 moves " not in step["text"] and ": 1 most annoying placements " not in step["text"], step


def test_a_node_with_one_child_says_it_in_the_singular() -> None:
    board = from_rows([[2, 4, 2, 2], [2, 16, 2, 0], [4, 32, 8, 0], [32, 16, 4, 2]])  # from a random game
    texts = [step["text"] for step in trace(board, 2, count_empty, ordering=True, pruning=True)["steps"]]
    assert any(text.endswith(": 1 most annoying placement to try.") for text in texts), texts


# -- a walk that tells the truth (#41) ----------------------------------------------------------------------------


def _paths(traced: dict) -> dict[tuple[str, ...], dict]:
    """Each visited node by its path of labels from the root (the same in a pruned and an unpruned trace)."""
    nodes = traced["nodes"]
    found = {}
    for node in nodes:
        if not node["visited"]:
            continue
        path, at = [], node
        while at["parent"] is not None:
            path.append(at["label"])
            at = nodes[at["parent"]]
        found[tuple(reversed(path))] = node
    return found


@pytest.mark.parametrize("depth", [2, 3])
def test_a_node_with_no_cut_at_or_below_it_is_exact_and_every_bound_is_true(depth: int) -> None:
    exact_outside_window = 0
    for board in POSITION_BOARDS[:30]:
        for ordering in (True, False):
            pruned = trace(board, depth, CLASSIC, ordering=ordering, pruning=True)
            true = {
                path: node["value"]
                for path, node in _paths(trace(board, depth, CLASSIC, ordering=ordering, pruning=False)).items()
            }
            nodes = pruned["nodes"]
            for path, node in _paths(pruned).items():
                below = sum(
                    1
                    for s in pruned["steps"]
                    if s["event"] == "cut" and path == _path_of(nodes, s["node"])[: len(path)]
                )
                assert node["cuts"] == below
                if node["cuts"] == 0:
                    assert node["bound"] == "exact" and node["value"] == true[path], (path, node)
                elif node["bound"] == "upper":
                    assert true[path] <= node["value"]
                elif node["bound"] == "lower":
                    assert true[path] >= node["value"]
                else:
                    assert node["value"] == true[path]
            exact_outside_window += sum(
                1
                for s in pruned["steps"]
                if s["event"] == "return"
                and s["bound"] == "exact"
                and nodes[s["node"]]["cuts"] == 0
                and nodes[s["node"]]["parent"] is not None
            )
    assert exact_outside_window > 0


def _path_of(nodes: list[dict], node_id: int) -> tuple[str, ...]:
    path, at = [], nodes[node_id]
    while at["parent"] is not None:
        path.append(at["label"])
        at = nodes[at["parent"]]
    return tuple(reversed(path))


@pytest.mark.parametrize("depth", [2, 3])
def test_a_sentence_says_cut_only_where_a_branch_was_pruned(depth: int) -> None:
    for board in POSITION_BOARDS[:30]:
        for ordering, pruning in SWITCHES:
            traced = trace(board, depth, CLASSIC, ordering=ordering, pruning=pruning)
            nodes = traced["nodes"]
            for step in traced["steps"]:
                says_cut = "cut" in step["text"].lower()
                if step["event"] == "cut":
                    assert says_cut and step["pruned"]
                elif step["event"] == "return" and nodes[step["node"]]["parent"] is not None:
                    assert says_cut == (nodes[step["node"]]["cuts"] > 0), step
                else:
                    assert not says_cut, step
            if traced["counts"]["cuts"] == 0:
                assert not any(n["pruned"] for n in nodes)


def test_a_window_closed_at_a_last_child_is_said_and_counted_but_is_no_cut() -> None:
    closed = 0
    for board in POSITION_BOARDS[:24]:
        traced = trace(board, 3, CLASSIC, ordering=True, pruning=True)
        said = [s for s in traced["steps"] if s["text"].endswith("nothing is left to prune.")]
        assert len(said) == traced["counts"]["closed_at_last"]
        for step in said:
            assert step["event"] == "backup"
            siblings = traced["nodes"][step["node"]]["children"]
            assert step["child"] == siblings[-1]
        closed += len(said)
    assert closed > 0


def test_a_tree_without_a_cut_says_so_and_why() -> None:
    quiet = [p.board for p in POSITIONS if trace(p.board, 2, CLASSIC, ordering=True, pruning=True)["no_cut"]]
    assert len(quiet) >= 3  # depth 2 often prunes nothing: most computer nodes have one most annoying placement
    for board in quiet:
        traced = trace(board, 2, CLASSIC, ordering=True, pruning=True)
        assert traced["counts"]["cuts"] == 0 and not any(n["pruned"] for n in traced["nodes"])
        why = traced["no_cut"]
        assert why.startswith("Nothing was pruned: alpha-beta prunes only when \u03b1 \u2265 \u03b2 while a node")
        assert traced["steps"][-1]["text"].endswith(why)
        computer = [n for n in traced["nodes"] if n["kind"] == "min" and n["visited"]]
        single = sum(1 for n in computer if len(n["children"]) == 1)
        assert f"Of its {len(computer)} computer nodes: " in why
        if single:
            assert f"{single} had a single most annoying placement, so nothing was left to prune" in why
    # With a cut, no such sentence; without pruning, none either.
    assert trace(POSITIONS[0].board, 2, CLASSIC, ordering=True, pruning=True)["no_cut"] is None
    assert trace(quiet[0], 2, CLASSIC, ordering=True, pruning=False)["no_cut"] is None


def test_without_a_depth_the_walk_is_drawn_at_the_smallest_depth_that_prunes() -> None:
    pruning_at_2 = POSITIONS[0].board
    answer = variants(pruning_at_2, None, CLASSIC, ordering=True, pruning=True)
    assert answer["trace"]["depth"] == 2 and answer["smallest"] == {"skipped": []}
    quiet = next(p.board for p in POSITIONS if trace(p.board, 2, CLASSIC, ordering=True, pruning=True)["no_cut"])
    answer = variants(quiet, None, CLASSIC, ordering=True, pruning=True)
    assert answer["trace"]["depth"] == 3
    assert answer["smallest"] == {
        "skipped": [{"depth": 2, "no_cut": trace(quiet, 2, CLASSIC, ordering=True, pruning=True)["no_cut"]}]
    }
    assert variants(quiet, 2, CLASSIC, ordering=True, pruning=True)["smallest"] is None


def test_the_ais_own_count_agrees_with_the_walk_when_both_search_in_the_same_order() -> None:
    """At depth 2 the AI's search tries the depth-1 best move first, then every move and placement in the natural
    order, with no table to consult: where that best move is the first legal one, it is the walk's natural order,
    and its cutoffs are the walk's cuts plus its windows closed at a last child, its nodes the walk's but the root."""
    compared = 0
    for board in POSITION_BOARDS:
        if is_game_over(board):
            continue
        afterstates = [move(board, d)[0] for d in DIRECTIONS if move(board, d)[0] != board]
        scores = [CLASSIC(child) for child in afterstates]
        if scores.index(max(scores)) != 0:
            continue
        walk = trace(board, 2, CLASSIC, ordering=False, pruning=True)
        counted = search_counts(board, 2, CLASSIC)
        assert counted is not None and counted["depth"] == 2 and counted["value"] == walk["value"]
        assert counted["cutoffs"] == walk["counts"]["cuts"] + walk["counts"]["closed_at_last"]
        assert counted["nodes"] == walk["counts"]["nodes"] - 1
        compared += 1
    assert compared >= 5
    lost = from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert search_counts(lost, 2, CLASSIC) is None
