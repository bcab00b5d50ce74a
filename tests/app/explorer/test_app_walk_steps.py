"""app.explorer.walk_steps: the walk's steps replayed and put into words, on the hand-checked board of
tests/test_stepwise.py."""

from app.explorer import walk_steps
from app.explorer.walk_steps import walk_state
from game2048.board import count_empty, from_rows
from game2048.search import stepwise

# With "empty cells" as the evaluation, 3 cuts at depth 2.
GOLDEN = [[16, 8, 16, 2], [2, 32, 2, 16], [16, 16, 4, 32], [2, 8, 0, 8]]


def test_walk_state_replays_the_golden_steps() -> None:
    trace = stepwise.compact(stepwise.trace(from_rows(GOLDEN), 2, count_empty, ordering=False, pruning=True))
    cut_at = next(i for i, s in enumerate(trace["steps"]) if s["event"] == "cut")
    state = walk_state(trace, cut_at - 1)
    assert state[5] == {"status": "active", "best": 3, "last": 9, "alpha": 3, "beta": 3}
    assert 10 not in state and 11 not in state
    state = walk_state(trace, cut_at)
    assert state[10] == state[11] == {"status": "pruned", "alpha": 3, "beta": 3}
    assert walk_steps.value_text(state[10]) == "pruned: \u03b1 \u2265 \u03b2 (\u03b1 = 3, \u03b2 = 3)"
    end = walk_state(trace, len(trace["steps"]) - 1)
    assert (end[0]["value"], end[2]["bound"], end[5]["bound"]) == (3, "upper", "lower")
    assert walk_steps.value_text(end[2]) == "value \u2264 3" and walk_steps.value_text(end[5]) == "value \u2265 3"
    assert walk_steps.window_text(walk_state(trace, 0)[0]) == "\u03b1 = \u2212\u221e, \u03b2 = +\u221e"


def test_the_tree_so_far_lists_the_reached_nodes_with_pruned_ones_greyed_and_the_cut() -> None:
    trace = stepwise.compact(stepwise.trace(from_rows(GOLDEN), 2, count_empty, ordering=False, pruning=True))
    cut_at = next(i for i, s in enumerate(trace["steps"]) if s["event"] == "cut")
    state = walk_state(trace, cut_at)
    html = walk_steps.outline_html(trace, state, trace["steps"][cut_at]["node"])
    assert html.count('class="tw-o ') == len(state)  # every node reached, no other
    assert html.count("tw-o-pruned") == 2 and "pruned: \u03b1 \u2265 \u03b2 (\u03b1 = 3, \u03b2 = 3)" in html
    assert html.count("tw-o-here") == 1
    assert walk_steps.outline_html(trace, walk_state(trace, 0), 0).count('class="tw-o ') == 1  # the root alone
