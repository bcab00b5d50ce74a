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
from game2048.search.stepwise import compact, evaluator, trace, variants
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
    assert traced["move"] is None and traced["counts"] == {"leaves": 1, "nodes": 1, "cuts": 0}


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
#     node 12 (2 there), window (3, +inf): only right and left move, each leaves 3 empty cells: 3.
#            Min node 2: β = 3, and α = 3 (from "right" at the root) ≥ β = 3: CUT, the 4 is pruned.
#            Had the root not raised α after "right", α would be -inf here and nothing would be cut.
#   left:  32 4 32 . and 2 16 . .; placements 2 at r3 c4 and 2 at r4 c3.
#     node 16 (2 at r3 c4), window (3, +inf): right and down each leave 2 empty cells: 2 (≤ α: an upper bound).
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
GOLDEN_BOUNDS = {0: "exact", 1: "exact", 2: "upper", 3: "upper", 4: "exact", 5: "lower", 12: "upper", 16: "upper"}


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
    assert (traced["value"], traced["move"]) == (3, "right")
    assert traced["counts"] == {"leaves": 8, "nodes": 16, "cuts": 3}
    assert reference.best_moves(board, 2, count_empty) == (3, {DIRECTIONS[1]})
    minimax = trace(board, 2, count_empty, ordering=False, pruning=False)
    assert minimax["counts"] == {"leaves": 14, "nodes": 24, "cuts": 0} and minimax["value"] == 3


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
