"""``search.explain``: what it calls exact is the plain minimax's value, its bounds hold, its line is one line.

Each claim is held against ``game2048.reference`` (which shares nothing with
the search but the rules of the tree) on 200+ positions from seeded games at
depths 1–3, and the explanation's decision against ``best_move``'s.
"""

from __future__ import annotations

import json
import math
from functools import cache

import pytest
from strategies import game_positions

from game2048 import board as B
from game2048 import reference
from game2048.evaluation import presets
from game2048.search import best_move, explain
from game2048.search.placements import make_placements
from game2048.values import WIN_SCORE

DEPTHS = (1, 2, 3)
NO_LIMIT_MS = 600_000.0
CLASSIC = presets.get("classic").make()


@cache
def reference_values(board: int, depth: int) -> dict[str, float]:
    return {d: v for d, v in reference.root_values(board, depth, CLASSIC).items()}


def playable() -> list[int]:
    return [board for board in game_positions() if B.legal_moves(board)]


def root_by_move(explanation: dict) -> dict[str, dict]:
    return {entry["move"]: entry for entry in explanation["root"]}


@pytest.mark.parametrize("depth", DEPTHS)
def test_exact_values_are_the_minimax_values_and_bounds_hold(depth: int) -> None:
    positions = game_positions()
    assert len(positions) >= 200
    bounds = 0
    for board in positions:
        explanation = explain(board, depth=depth, rescue=False, analysis_ms=0)
        expected = reference_values(board, depth)
        root = root_by_move(explanation)
        assert {m for m, e in root.items() if e["legal"]} == set(expected), hex(board)
        for move, entry in root.items():
            if not entry["legal"]:
                assert entry["value"] is None
                continue
            if entry["exact"]:
                assert entry["value"] == expected[move], (hex(board), depth, move)
            else:
                bounds += 1
                assert entry["bound"] == "upper"
                assert entry["value"] >= expected[move], (hex(board), depth, move)
        chosen = [m for m, e in root.items() if e["chosen"]]
        assert chosen == [] if not expected else expected[chosen[0]] == max(expected.values())
    if depth > 1:
        assert bounds > 0  # alpha-beta proved some moves worse without their exact values


@pytest.mark.parametrize("depth", DEPTHS)
def test_exact_root_gives_every_legal_move_its_minimax_value(depth: int) -> None:
    for board in game_positions():
        explanation = explain(board, depth=depth, rescue=False, exact_root=True, analysis_ms=NO_LIMIT_MS)
        expected = reference_values(board, depth)
        root = root_by_move(explanation)
        for move, value in expected.items():
            assert root[move]["exact"] and root[move]["value"] == value, (hex(board), depth, move)
        assert "exact_root" not in explanation["analysis"]["unfinished"]


@pytest.mark.parametrize("depth", (2, 3, 5))
def test_the_decision_is_best_moves_and_the_iterations_add_up(depth: int) -> None:
    for board in game_positions()[::7]:
        if not B.legal_moves(board):
            continue
        explanation = explain(board, depth=depth, rescue=False, analysis_ms=0)
        result = best_move(board, depth=depth, rescue=False)
        decision = explanation["decision"]
        assert (decision["move"], decision["depth"], decision["score"], decision["nodes"]) == (
            result.move,
            result.depth,
            result.score,
            result.nodes,
        )
        iterations = explanation["iterations"]
        assert [it["depth"] for it in iterations] == list(range(1, result.depth + 1))
        assert all(it["completed"] for it in iterations)
        assert sum(it["nodes"] for it in iterations) == result.nodes
        assert iterations[-1]["value"] == result.score


def _follow(board: int, plies: list[dict]) -> int:
    """The board at the end of the line, checking each ply is legal from the one before."""
    for ply in plies:
        after = B.from_rows(ply["rows"])
        if ply["kind"] == "move":
            assert B.move(board, ply["move"])[0] == after != board
        else:
            assert B.empty_cells(board) and after == B.place(board, ply["cell"], {2: 1, 4: 2}[ply["tile"]])
            assert ply["label"].startswith(f"{ply['tile']} at row {ply['cell'] // 4 + 1}, column {ply['cell'] % 4 + 1}")
        board = after
    return board


@pytest.mark.parametrize("depth", (2, 3, 4, 6))
def test_the_principal_variation_is_a_line_that_reaches_the_root_value(depth: int) -> None:
    for board in playable()[::5]:
        explanation = explain(board, depth=depth, rescue=False, analysis_ms=NO_LIMIT_MS)
        pv = explanation["pv"]
        assert pv["complete"], (hex(board), pv["end"])
        plies = pv["plies"]
        assert plies[0]["move"] == explanation["decision"]["move"]
        leaf = _follow(board, plies)
        if pv["end"] == "horizon":
            assert len(plies) == 2 * depth - 1
            assert CLASSIC(leaf) == pv["value"] == explanation["decision"]["score"]
        elif pv["end"] == "win":
            assert B.max_rank(leaf) >= B.WIN_RANK and pv["value"] >= WIN_SCORE
        else:
            assert pv["end"] == "loss" and not B.legal_moves(leaf) and pv["value"] <= -WIN_SCORE
        # Each placement on the line is one the reduction keeps.
        for before, ply in zip(plies, plies[1:]):
            if ply["kind"] == "place":
                assert B.from_rows(ply["rows"]) in make_placements()(B.from_rows(before["rows"]))


def test_the_heat_map_scores_every_placement_and_marks_the_kept_ones() -> None:
    for board in playable()[::11]:
        explanation = explain(board, depth=2, analysis_ms=0)
        heat = explanation["placements"]
        after = B.from_rows(heat["rows"])
        assert after == B.move(board, explanation["decision"]["move"])[0]
        assert heat["possible"] == 2 * len(B.empty_cells(after)) == len(heat["cells"])
        kept = sorted(B.place(after, c["cell"], {2: 1, 4: 2}[c["tile"]]) for c in heat["cells"] if c["kept"])
        assert kept == sorted(reference.placements(after)) and heat["kept"] == len(kept)
        for cell in heat["cells"]:
            child = B.place(after, cell["cell"], {2: 1, 4: 2}[cell["tile"]])
            assert cell["annoyance"] == reference.annoyance(child)


def _minimax_nodes(board: int, depth: int) -> int:
    """Nodes of the reduced tree, walked one by one (each player move and each kept placement)."""
    win_possible = B.max_rank(board) < B.WIN_RANK

    def below_player(node: int, remaining: int) -> int:
        total = 0
        for direction in B.DIRECTIONS:
            child = B.move(node, direction)[0]
            if child == node:
                continue
            total += 1
            if remaining > 1 and not (win_possible and B.max_rank(child) >= B.WIN_RANK):
                total += sum(1 + below_player(p, remaining - 1) for p in reference.placements(child))
        return total

    return below_player(board, depth)


def test_the_minimax_count_is_the_tree_walked_node_by_node() -> None:
    for board in game_positions()[::20]:
        for depth in (1, 2, 3):
            pruning = explain(board, depth=depth, rescue=False, analysis_ms=NO_LIMIT_MS)["pruning"]
            assert pruning["minimax_exact"] and pruning["minimax_nodes"] == _minimax_nodes(board, depth)
            assert pruning["search_nodes"] <= pruning["minimax_nodes"]
            for key in ("without_table", "without_ordering"):
                assert pruning[key]["depth"] == depth and pruning[key]["with"] == pruning["search_nodes_all_depths"]


def test_expectimax_explains_its_own_values() -> None:
    for board in playable()[::15]:
        explanation = explain(board, depth=3, algorithm="expectimax", analysis_ms=NO_LIMIT_MS)
        result = best_move(board, depth=3, algorithm="expectimax")
        root = [e for e in explanation["root"] if e["legal"]]
        assert all(e["exact"] for e in root)
        chosen = next(e for e in root if e["chosen"])
        assert chosen["move"] == result.move and chosen["value"] == result.score == max(e["value"] for e in root)
        assert explanation["pruning"] is None
        pv = explanation["pv"]
        _follow(board, pv["plies"])
        assert pv["end"] in ("horizon", "loss")


def test_a_lost_board_is_explained_as_lost() -> None:
    lost = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    explanation = explain(lost, think_ms=10)
    assert explanation["decision"]["move"] is None
    assert not any(e["legal"] for e in explanation["root"])
    assert explanation["pv"] is None and explanation["iterations"] == []


def test_the_explanation_is_json_and_refuses_what_it_cannot_explain() -> None:
    board = game_positions()[30]
    text = json.dumps(explain(board, think_ms=20, exact_root=True, analysis_ms=50), allow_nan=False)
    assert json.loads(text)["rows"] == B.to_rows(board)
    with pytest.raises(ValueError, match="late-move reductions"):
        from game2048.search.explanation import explain_decision
        from game2048.search.options import SearchOptions

        explain_decision(board, SearchOptions(reductions=True))
    with pytest.raises(ValueError, match="analysis_ms"):
        explain(board, analysis_ms=-1)
    with pytest.raises(ValueError, match="algorithm"):
        explain(board, algorithm="mcts")


def test_the_learned_evaluation_explains_the_chosen_afterstate_cell_by_cell() -> None:
    from test_ntuple import NETWORK, VALUE

    from game2048.evaluation import learned
    from game2048.evaluation.ntuple_shapes import score_of_tiles
    from game2048.move_tables import afterstates

    board = B.from_rows([[0, 2, 4, 8], [0, 0, 2, 16], [0, 0, 0, 4], [0, 0, 0, 2]])
    learned.install(NETWORK)
    try:
        explanation = explain(board, depth=2, algorithm="expectimax", preset="learned")
    finally:
        learned.install(None)
    patterns = explanation["patterns"]
    after = afterstates(board)[B.DIRECTIONS.index(explanation["decision"]["move"])]
    assert patterns["move"] == explanation["decision"]["move"] and patterns["rows"] == B.to_rows(after)
    assert sum(patterns["cells"]) == pytest.approx(VALUE(after), abs=0.1 * 16)
    assert patterns["value"] == pytest.approx(VALUE(after), abs=0.1) and patterns["tiles"] == score_of_tiles(after)
    assert len(patterns["top"]) == 3 and patterns["top"][0]["value"] >= patterns["top"][-1]["value"]
    assert explain(board, depth=2, algorithm="expectimax")["patterns"] is None  # other presets have none


def test_why_compares_the_chosen_line_with_the_runner_up_term_by_term():
    from game2048.evaluation.terms import weighted_terms

    board = B.from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    out = explain(board, depth=3, exact_root=True, analysis_ms=10_000)
    why = out["why"]
    values = {e["move"]: e["value"] for e in out["root"] if e["legal"]}
    chosen = out["decision"]["move"]
    assert why["chosen"]["move"] == chosen
    assert why["runner_up"]["move"] == max((v, m) for m, v in values.items() if m != chosen)[1]
    assert why["margin"] == pytest.approx(values[chosen] - values[why["runner_up"]["move"]])
    for line in (why["chosen"], why["runner_up"]):
        terms = weighted_terms("classic", B.from_rows(line["rows"]))
        assert [t[1] for t in line["terms"]] == pytest.approx([v for _, v in terms], abs=1e-3)
    assert why["deciding"] == max(why["differences"], key=lambda d: d[1])
    assert why["chosen"]["rows"] == out["pv"]["plies"][-1]["rows"]  # the end of the line the search expects


def test_expectimax_explains_its_chance_node_whose_mean_is_the_moves_value():
    board = B.from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    out = explain(board, depth=3, algorithm="expectimax", analysis_ms=10_000)
    chance = out["chance"]
    chosen = next(e for e in out["root"] if e["chosen"])
    after = B.move(board, chosen["move"])[0]
    empty = [c for c in range(16) if not (after >> (4 * c)) & 0xF]
    assert sorted(c["cell"] for c in chance["cells"]) == empty
    assert sum(c["p_two"] + c["p_four"] for c in chance["cells"]) == pytest.approx(1.0)
    assert chance["value"] == pytest.approx(chosen["value"], rel=1e-9)
    assert out["analysis"]["unfinished"] == {}
    assert explain(board, depth=1, algorithm="expectimax")["chance"] is None  # a leaf has no chance node


def test_expectimax_s_line_follows_a_typical_2_never_assuming_the_worst_tile() -> None:
    """Each placement of the line is a 2, in the cell whose value is nearest its chance node's expectation."""
    from game2048.evaluation import rows
    from game2048.search import expectimax

    evaluate = rows.make_evaluator()
    checked = 0
    for board in playable()[::15]:
        out = explain(board, depth=3, algorithm="expectimax", analysis_ms=NO_LIMIT_MS)
        pv = out["pv"]
        assert pv["tiles"] == "typical"
        plies = pv["plies"]
        for before, placed in zip(plies, plies[1:], strict=False):
            if placed["kind"] != "place":
                continue
            assert placed["tile"] == 2
            node, remaining = B.from_rows(before["rows"]), placed["remaining"]
            empties = [cell for cell in range(16) if not (node >> (4 * cell)) & 0xF]
            searcher = expectimax._Searcher(evaluate, None, 0.0, 0.0, use_cache=False)  # no cutoff: exact values
            two = {cell: searcher.player(node | (1 << (4 * cell)), remaining, 1.0) for cell in empties}
            four = {cell: searcher.player(node | (2 << (4 * cell)), remaining, 1.0) for cell in empties}
            average = sum(0.9 * two[c] + 0.1 * four[c] for c in empties) / len(empties)
            nearest = min(abs(two[c] - average) for c in empties)
            worst = min(two.values())
            assert abs(two[placed["cell"]] - average) <= nearest + 1e-6 * abs(average)
            if abs(two[placed["cell"]] - worst) > 1e-9 and nearest < abs(worst - average):
                checked += 1  # a board where the typical tile is not the worst one
    assert checked > 0


@pytest.mark.parametrize("preset", ["rows", "classic", "snake"])
def test_expectimax_s_why_is_its_values_split_into_expected_terms(preset) -> None:
    """E[Σ terms] = Σ E[terms]: each move's expected terms add up to its value, the deciding one favours it."""
    seen = 0
    for board in playable()[::20]:
        out = explain(board, depth=3, algorithm="expectimax", preset=preset, analysis_ms=NO_LIMIT_MS)
        why = out["why"]
        if why is None:
            continue
        seen += 1
        assert why["kind"] == "expected" and why["exact"] and why["depth"] == 3
        for line in (why["chosen"], why["runner_up"]):
            assert sum(value for _, value in line["terms"]) == pytest.approx(line["value"], rel=1e-6, abs=1e-3)
        differences = [d for _, d in why["differences"]]
        assert sum(differences) == pytest.approx(why["margin"], rel=1e-6, abs=1e-3)
        if why["margin"] > 0:
            assert why["deciding"][1] > 0 and why["deciding"][1] == max(differences)
            assert why["share"] == pytest.approx(why["deciding"][1] / why["margin"])
        assert all(d < 0 for _, d in why["against"])
        assert sorted(d for d in differences if d < 0) == [d for _, d in why["against"]]
    assert seen >= 3


def test_expectimax_s_why_counts_lost_lines_as_a_term_of_their_own() -> None:
    board = B.from_rows([[2, 4, 128, 2], [32, 8, 4, 16], [2, 16, 8, 2], [4, 64, 4, 0]])  # a random game's end
    out = explain(board, depth=3, algorithm="expectimax", analysis_ms=NO_LIMIT_MS)
    why = out["why"]
    assert why is not None and why["exact"]
    names = [name for name, _ in why["chosen"]["terms"]]
    assert "lost boards" in names


def test_each_term_of_the_why_is_its_weight_times_a_count_of_the_line_s_end_board():
    """Alpha-beta's why: a term's raw value is what the end board gives (its empty cells, its largest rank)."""
    board = B.from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    why = explain(board, depth=3, exact_root=True, analysis_ms=10_000)["why"]
    for line in (why["chosen"], why["runner_up"]):
        end = B.from_rows(line["rows"])
        parts = {part["term"]: part for part in line["weighted"]}
        assert [p["term"] for p in line["weighted"]] == [name for name, _ in line["terms"]]
        assert [p["value"] for p in line["weighted"]] == [value for _, value in line["terms"]]
        empty = parts["empty cells"]
        assert empty["raw"] == B.count_empty(end) and empty["unit"] == "empty cells" and empty["form"] == "ln"
        assert empty["value"] == pytest.approx(2.7 * math.log(empty["raw"]), abs=1e-4)
        assert parts["largest tile"]["raw"] == B.max_rank(end)
        for part in line["weighted"]:
            assert part["value"] == pytest.approx(part["weight"] * part["factor"], abs=1e-3)
            assert not part["expected"]


def test_expectimax_s_terms_are_weights_times_averages_and_at_depth_1_the_afterstate_s_counts():
    board = B.from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    why = explain(board, depth=1, algorithm="expectimax", preset="snake", analysis_ms=10_000)["why"]
    for line in (why["chosen"], why["runner_up"]):
        after = B.move(board, line["move"])[0]
        parts = {part["term"]: part for part in line["weighted"]}
        assert parts["empty cells"]["raw"] == B.count_empty(after)  # one board: the average is its count
    for preset in ("classic", "rows"):
        why = explain(board, depth=3, algorithm="expectimax", preset=preset, analysis_ms=NO_LIMIT_MS)["why"]
        for line in (why["chosen"], why["runner_up"]):
            for part in line["weighted"]:
                assert part["expected"]
                assert part["value"] == pytest.approx(part["weight"] * part["factor"], rel=1e-6, abs=1e-3)
            empty = next(p for p in line["weighted"] if p["term"] == "empty cells")
            limit = 32 if preset == "rows" else 16  # rows counts each empty cell in its row and its column
            assert 0 < empty["raw"] <= limit
            if preset == "classic":  # the average of ln(count), at most ln of the average count (Jensen)
                assert empty["factor"] <= math.log(empty["raw"]) + 1e-9


def test_a_lost_line_s_term_is_the_lost_value_times_its_probability() -> None:
    board = B.from_rows([[2, 4, 128, 2], [32, 8, 4, 16], [2, 16, 8, 2], [4, 64, 4, 0]])
    why = explain(board, depth=3, algorithm="expectimax", analysis_ms=NO_LIMIT_MS)["why"]
    lost = [
        next(p for p in line["weighted"] if p["term"] == "lost boards") for line in (why["chosen"], why["runner_up"])
    ]
    assert max(p["raw"] for p in lost) > 0  # a line that may end lost
    for part in lost:
        assert 0 <= part["raw"] <= 1 and part["unit"] == "probability of a lost board"
        assert part["value"] == pytest.approx(part["weight"] * part["raw"], abs=1e-6)


def test_the_pruning_comparison_says_each_depth_s_nodes_and_a_table_without_hits_saves_nothing() -> None:
    for board in game_positions()[::25]:
        out = explain(board, depth=6, rescue=False, analysis_ms=NO_LIMIT_MS)
        own = [it["nodes"] for it in out["iterations"] if it["completed"]]
        hits = [it["table_hits"] for it in out["iterations"] if it["completed"]]
        for key in ("without_table", "without_ordering"):
            compared = out["pruning"][key]
            depths = [d for d, _, _ in compared["by_depth"]]
            assert depths == list(range(1, compared["depth"] + 1)) and compared["searched"] == 6
            assert [w for _, w, _ in compared["by_depth"]] == own[: compared["depth"]]
            assert compared["at_depth"] == compared["by_depth"][-1][1:]
            assert compared["with"] == sum(w for _, w, _ in compared["by_depth"])
            assert compared["without"] == sum(n for _, _, n in compared["by_depth"])
        for depth, with_table, without in out["pruning"]["without_table"]["by_depth"]:
            if not any(hits[:depth]):  # what the page says: no board met twice yet, nothing saved
                assert with_table == without, (hex(board), depth)


def test_the_network_s_heat_map_says_how_many_images_read_each_cell_and_the_board_s_evaluation() -> None:
    from test_ntuple import NETWORK

    from game2048.evaluation import learned

    board = B.from_rows([[0, 2, 4, 8], [0, 0, 2, 16], [0, 0, 0, 4], [0, 0, 0, 2]])
    learned.install(NETWORK)
    try:
        out = explain(board, depth=2, algorithm="expectimax", preset="learned")
        evaluate = presets.get("learned").make()
    finally:
        learned.install(None)
    patterns = out["patterns"]
    shapes = patterns["shapes"]
    assert sum(patterns["reads"]) == 8 * sum(len(cells) for cells in shapes)  # each pattern on 8 images
    assert patterns["evaluation"] == pytest.approx(evaluate(B.from_rows(patterns["rows"])))
    assert patterns["evaluation"] == pytest.approx(patterns["value"] + patterns["tiles"], abs=0.1)


def test_every_move_explained_gives_alpha_beta_s_line_and_expectimax_s_chance_node_for_each() -> None:
    from game2048.search.explanation import explain_every_move
    from game2048.search.options import SearchOptions

    board = B.from_rows([[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]])
    values = reference_values(board, 3)
    out = explain_every_move(board, SearchOptions(depth=3, rescue=False), analysis_ms=NO_LIMIT_MS)
    for entry in out["root"]:
        if not entry["legal"]:
            assert entry["line"] is None
            continue
        assert entry["exact"] and entry["value"] == values[entry["move"]]
        assert entry["line"]["plies"][0]["move"] == entry["move"] and entry["line"]["complete"]
    ex = explain_every_move(board, SearchOptions("expectimax", depth=3), analysis_ms=NO_LIMIT_MS)
    for entry in ex["root"]:
        if entry["legal"]:
            assert entry["chance"]["move"] == entry["move"]
            assert entry["chance"]["value"] == pytest.approx(entry["value"], rel=1e-9)
