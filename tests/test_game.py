"""Game flow: spawns, win, game over, the move trace a view animates, and the saved form."""

from __future__ import annotations

import json

import pytest
from board_helpers import rank_at, tile_sum
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import boards, directions

from game2048 import board as B
from game2048.game import MAX_SEED, Game, SavedStateError, points_for, trace_move
from game2048.mersenne import MersenneTwister

CHI2_15_DOF_P001 = 37.70  # chi-square critical value, 15 degrees of freedom, p = 0.001


def test_new_game_has_two_tiles_of_2_or_4() -> None:
    for seed in range(50):
        game = Game.new(seed)
        tiles = [v for row in B.to_rows(game.board) for v in row if v]
        assert len(tiles) == 2 and set(tiles) <= {2, 4}
        assert game.score == 0 and game.moves == 0 and not game.won


def test_spawn_distribution_is_90_10_and_uniform_over_cells() -> None:
    game = Game(rng=MersenneTwister(20_48))
    fours = 0
    per_cell = [0] * 16
    n = 20_000
    for _ in range(n):
        game.board = 0
        cell, rank = game.spawn()
        per_cell[cell] += 1
        fours += rank == 2
    # Binomial(20000, 0.1): sd ~ 42.4; four sd either side.
    assert abs(fours - 0.1 * n) < 4 * (n * 0.1 * 0.9) ** 0.5
    expected = n / 16
    chi2 = sum((c - expected) ** 2 / expected for c in per_cell)
    assert chi2 < CHI2_15_DOF_P001, per_cell


def test_spawn_lands_only_on_empty_cells_uniformly() -> None:
    game = Game(rng=MersenneTwister(7))
    base = B.from_rows([[2, 4, 8, 16], [0, 0, 32, 64], [2, 0, 4, 0], [8, 16, 32, 0]])
    empty = B.empty_cells(base)
    counts = {c: 0 for c in empty}
    for _ in range(6000):
        game.board = base
        cell, _ = game.spawn()
        counts[cell] += 1
    expected = 6000 / len(empty)
    assert all(abs(c - expected) < 5 * expected**0.5 for c in counts.values()), counts


def test_spawn_on_full_board_does_nothing() -> None:
    full = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    game = Game(board=full)
    assert game.spawn() is None and game.board == full


def test_seed_makes_the_game_reproducible() -> None:
    def play(seed: int) -> list[int]:
        game = Game.new(seed)
        boards = [game.board]
        for i in range(200):
            game.play(B.DIRECTIONS[i % 4])
            boards.append(game.board)
        return boards

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_illegal_move_spawns_nothing_and_scores_nothing() -> None:
    game = Game(board=B.from_rows([[2, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4]), rng=MersenneTwister(1))
    before = game.board
    outcome = game.play("up")
    assert not outcome.moved and outcome.spawn is None and game.board == before and game.moves == 0


def test_legal_move_spawns_exactly_one_tile_and_adds_points() -> None:
    game = Game(board=B.from_rows([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]), rng=MersenneTwister(1))
    outcome = game.play("left")
    assert outcome.moved and outcome.points == 4 and game.score == 4 and game.moves == 1
    cell, rank = outcome.spawn
    assert rank_at(game.board, cell // 4, cell % 4) == rank
    assert tile_sum(game.board) == 4 + (1 << rank)


def test_win_at_2048_then_keep_going() -> None:
    game = Game(board=B.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4]), rng=MersenneTwister(3))
    outcome = game.play("left")
    assert outcome.won_now and game.won and game.paused_at_win
    game.continue_after_win()
    assert not game.paused_at_win
    game.board = B.from_rows([[2048, 1024, 1024, 0], [0] * 4, [0] * 4, [0] * 4])
    assert not game.play("left").won_now  # the win is announced once


def test_game_over_reported_after_last_move() -> None:
    # One move left: merging the two 2s at the bottom right, then the spawn fills the board.
    start = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [8, 16, 2, 2]])
    game = Game(board=start, rng=MersenneTwister(0))
    outcome = game.play("left")
    assert outcome.moved
    assert outcome.over == B.is_game_over(game.board) == game.over


@given(boards(), directions)
def test_trace_agrees_with_move(board: int, direction) -> None:
    journeys, merged = trace_move(board, direction)
    rebuilt = 0
    for j in journeys:
        if j.dst in merged and any(k.dst == j.dst and k.merged for k in journeys) and not j.merged:
            continue  # the tile that stays and absorbs; its merged partner carries the result
        rank = j.rank + 1 if j.merged else j.rank
        rebuilt |= rank << (4 * j.dst)
    assert rebuilt == B.move(board, direction)[0]


def played_game(seed: int = 11, moves: int = 60) -> Game:
    game = Game.new(seed)
    for i in range(moves):
        game.play(B.DIRECTIONS[(i * 7) % 4])
    return game


def test_save_and_restore_round_trip_continues_identically() -> None:
    game = played_game()
    saved = json.loads(json.dumps(game.to_dict()))
    restored = Game.from_dict(saved)
    assert (restored.board, restored.score, restored.moves, restored.seed) == (
        game.board,
        game.score,
        game.moves,
        game.seed,
    )
    for d in ("left", "down", "right", "up") * 10:
        game.play(d)
        restored.play(d)
    assert restored.board == game.board and restored.score == game.score


def won_game() -> dict:
    """The saved form of a game on 2048 that the player chose to go on with."""
    game = Game.from_position(B.from_rows([[2048, 2, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4]), seed=5)
    game.continue_after_win()
    return json.loads(json.dumps(game.to_dict()))


def corrupt(edit) -> dict:
    data = json.loads(json.dumps(played_game().to_dict()))
    edit(data)
    return data


@pytest.mark.parametrize(
    "data, message",
    [
        ("not a dict", "not an object"),
        (None, "not an object"),
        (corrupt(lambda d: d.update(version=99)), "another version"),
        (corrupt(lambda d: d.pop("version")), "another version"),
        (corrupt(lambda d: d.update(rows=[[3, 0, 0, 0]] + [[0] * 4] * 3)), "not a 2048 board"),
        (corrupt(lambda d: d.update(rows="2,4,8")), "not a 2048 board"),
        (corrupt(lambda d: d.pop("rows")), "not a 2048 board"),
        (corrupt(lambda d: d.update(rows=[[2, 0, 0, 0]] + [[0] * 4] * 3)), "too few tiles"),
        (corrupt(lambda d: d.update(score=-4)), "score"),
        (corrupt(lambda d: d.update(score=7)), "odd"),
        (corrupt(lambda d: d.update(score="12")), "score"),
        (corrupt(lambda d: d.update(moves=1.5)), "moves"),
        (corrupt(lambda d: d.update(won="yes")), "win flags"),
        (won_game() | {"won": False, "keep_playing": False}, "not won"),
        (corrupt(lambda d: d.update(won=True)), "no tile reached 2048"),
        (corrupt(lambda d: d.update(keep_playing=True)), "keep going after a win it does not have"),
        (corrupt(lambda d: d.update(score=d["score"] + 1_000_000)), "does not match its tiles and moves"),
        (corrupt(lambda d: d.update(score=d["score"] + 4)), "does not match its tiles and moves"),
        (corrupt(lambda d: d.update(moves=d["moves"] * 5)), "cannot come from"),
        (corrupt(lambda d: d.update(moves=1)), "cannot come from"),
        (corrupt(lambda d: d.update(seed=-1)), "seed"),
        (corrupt(lambda d: d.update(seed=MAX_SEED + 1)), "seed"),
        (corrupt(lambda d: d.update(rng=[3, [0] * 625, None])), "all zero"),
        (corrupt(lambda d: d.update(rng=[3, [0] * 624 + [700], None])), "random generator"),
        (corrupt(lambda d: d.update(rng=[3, [2**32] + [1] * 624, None])), "random generator"),
        (corrupt(lambda d: d.update(rng=[3, [1.5] * 625, None])), "random generator"),
        (corrupt(lambda d: d.update(rng=[3, d["rng"][1], float("inf")])), "random generator"),
        (corrupt(lambda d: d.update(rng=[2, d["rng"][1], None])), "random generator"),
        (corrupt(lambda d: d.update(seed="abc")), "seed"),
        (corrupt(lambda d: d.update(rng=[3, [1, 2], None])), "random generator"),
        (corrupt(lambda d: d.pop("rng")), "random generator"),
        (corrupt(lambda d: d.update(start_score=d["score"] + 2)), "starting score"),
        (corrupt(lambda d: d.update(start_score=-2)), "starting score"),
        (corrupt(lambda d: d.update(start_score=True)), "starting score"),
    ],
)
def test_corrupt_saved_state_is_refused_with_a_reason(data, message: str) -> None:
    with pytest.raises(SavedStateError, match=message):
        Game.from_dict(data)


@given(st.integers(min_value=0, max_value=10_000), st.lists(directions, min_size=0, max_size=300))
def test_every_played_game_is_accepted_and_its_score_follows_from_tiles_and_moves(seed, moves) -> None:
    game = Game.new(seed)
    for direction in moves:
        if game.paused_at_win:
            game.continue_after_win()
        game.play(direction)
        assert game.score == points_for(game.board, game.moves)
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.to_dict() == game.to_dict()


def test_a_won_game_that_goes_on_is_accepted() -> None:
    data = won_game()
    assert Game.from_dict(data).keep_playing and Game.from_dict(data | {"keep_playing": False}).paused_at_win


@given(boards(min_tiles=2))
def test_a_position_set_up_by_hand_is_a_game_the_checks_accept(board) -> None:
    game = Game.from_position(board, seed=1)
    assert game.board == board and Game.from_dict(game.to_dict()).to_dict() == game.to_dict()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    choices=st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=60),
    back=st.integers(min_value=1, max_value=60),
)
def test_undo_takes_moves_back_and_redo_or_the_same_moves_bring_the_same_tiles(seed, choices, back):
    def state(game: Game) -> tuple:
        return (game.board, game.score, game.moves, game.won)

    game = Game.new(seed)
    seen, played = [state(game)], []
    for choice in choices:
        legal = B.legal_moves(game.board)
        if not legal:
            break
        played.append(legal[choice % len(legal)])
        game.play(played[-1])
        seen.append(state(game))
    back = min(back, len(played))
    assert [game.undo() for _ in range(back)] == played[::-1][:back]
    assert state(game) == seen[-1 - back] and game.undos == back
    for i in range(back):  # redo: the same positions, tile for tile
        assert game.redo().moved and state(game) == seen[len(seen) - back + i]
    assert game.redo() is None
    for _ in range(back):
        game.undo()
    for direction in played[len(played) - back :]:  # the same moves played again: the same tiles too
        game.play(direction)
    assert state(game) == seen[-1] and game.undos == 2 * back


def test_a_new_move_after_undo_drops_what_redo_would_play_and_undo_reopens_a_lost_game():
    game = Game.from_position(B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 0]]), seed=3)
    outcome = game.play("right")
    assert outcome.moved
    before_end = game.board
    while not game.over:
        game.play(B.legal_moves(game.board)[0])
    assert game.over
    while game.board != before_end:
        game.undo()
    assert not game.over
    game.undo()
    assert game.redo().moved and game.board == before_end
    game.undo()
    game.play(B.legal_moves(game.board)[-1])
    assert game.redo() is None and game.undos >= 2


def test_a_set_up_position_earns_only_what_its_moves_score_and_keeps_that_across_a_save() -> None:
    board = B.from_rows([[2048, 1024, 512, 256], [0] * 4, [0] * 4, [0, 0, 2, 2]])
    game = Game.from_position(board, seed=3)
    assert game.start_score == game.score > 30_000 and game.earned == 0
    game.play("left")
    assert game.earned == 4
    again = Game.from_dict(game.to_dict())
    assert (again.start_score, again.earned) == (game.start_score, 4)
    assert "start_score" not in Game.new(5).to_dict()  # a game from a seed saves as before
    assert Game.new(5).earned == 0


def test_a_set_up_position_counts_only_the_moves_played_on_it_and_keeps_that_across_a_save() -> None:
    board = B.from_rows([[2048, 1024, 512, 256], [0] * 4, [0] * 4, [0, 0, 2, 2]])
    game = Game.from_position(board, seed=3)
    # the position: score 35,584 and 1,920 moves made up to match the tiles, "1921 moves" after one
    assert game.set_up and game.start_moves == game.moves == 1920 and game.played == 0 and game.score == 35_584
    game.play("left")
    again = Game.from_dict(game.to_dict())
    assert (again.moves, again.start_moves, again.played, again.set_up) == (1921, 1920, 1, True)
    fresh = Game.new(5)
    fresh.play(B.legal_moves(fresh.board)[0])
    assert not fresh.set_up and fresh.played == 1 and "start_moves" not in fresh.to_dict()
    older = game.to_dict()
    del older["start_moves"]  # saved before the count was kept apart: how many moves were played is not known
    assert Game.from_dict(older).played is None and Game.from_dict(older).set_up
    for bad in (-1, 1922, True, 2.0, "1", None):
        with pytest.raises(SavedStateError, match="starting move count"):
            Game.from_dict(game.to_dict() | {"start_moves": bad})
