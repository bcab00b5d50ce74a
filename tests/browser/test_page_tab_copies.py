"""Tabs and their copies over one storage lose nothing and store each game once (issue 39, parts 3 and 4).

A duplicated tab (``window.open`` and the browser's "Duplicate tab" copy sessionStorage, the tab's id with it)
takes an id of its own, so its moves and its source's survive their reloads.  Thirty tabs opened one after
another on a long game, each closed after a move, leave one copy of the game and the finished games as they were.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pagekit import read_board, wait_settled
from storage_kit import saved_game

from app.games.saved_games import saved_form
from game2048.board import legal_moves
from game2048.game import Game
from game2048.game_link import record_from_link
from game2048.game_record import decision

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from bench_move_cost import KEYS, long_game_code  # noqa: E402
from browser import READY_SELECTOR, watch_page  # noqa: E402

GAMES_KEY = "game2048:games"
GAME_KEY = "game2048:game"


def _play(page, game: Game, count: int) -> None:
    """Press ``count`` legal moves of ``game`` (mirrored on it), turning through the legal ones."""
    for _ in range(count):
        moves = legal_moves(game.board)
        direction = moves[game.moves % len(moves)]
        game.play(direction)
        page.keyboard.press(KEYS[direction])
    wait_settled(page)


def _reload(page) -> None:
    page.reload()
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=90_000)


def test_a_duplicated_tabs_twenty_moves_and_its_sources_survive_their_reloads(open_page):
    run = open_page("seed=5")
    source = run.page
    source_game = Game.new(5)
    _play(source, source_game, 3)
    with run.context.expect_page() as opened:
        source.evaluate("window.open(location.href)")  # copies sessionStorage, as "Duplicate tab" does
    copy = opened.value
    watch_page(copy, [])
    copy.wait_for_selector(READY_SELECTOR, state="attached", timeout=90_000)
    assert read_board(copy) == read_board(source)  # the copy opens its source's game
    copy_game = Game.from_dict(source_game.to_dict())
    _play(copy, copy_game, 20)
    _play(source, source_game, 5)
    copy_board, source_board = read_board(copy), read_board(source)
    assert copy_board != source_board
    _reload(copy)
    assert read_board(copy) == copy_board, "the duplicated tab's 20 moves were lost"
    _reload(source)
    assert read_board(source) == source_board, "the source tab's moves were lost"
    assert run.errors == [] and copy.console_errors == []


def _long_game_items(moves: int, finished: int) -> dict[str, str]:
    """Storage with a long AI game in progress (about 20 characters a move) and ``finished`` finished games."""
    record = record_from_link(long_game_code())
    note = decision("expectimax", "learned", 3, 12.5)

    def played(count: int, started: float) -> Game:
        game = Game.new(record.seed)
        for direction in record.moves[:count]:
            if game.paused_at_win:
                game.continue_after_win()
            game.play(direction, note)
        game.started = started
        return game

    current = played(moves, 1_700_000_000_000.0)
    first = saved_form(played(700, 0.0))["record"]
    games = [dict(first, started=1_600_000_000_000.0 + n, ended=1_600_000_000_001.0 + n) for n in range(finished)]
    return {GAME_KEY: json.dumps(saved_form(current)), GAMES_KEY: json.dumps(games)}


def test_thirty_tabs_opened_and_closed_over_a_long_game_keep_the_finished_games(open_page):
    items = _long_game_items(7_000, 100)
    assert len(items[GAME_KEY]) > 120_000 and len(items[GAMES_KEY]) > 1_300_000
    run = open_page()
    run.page.evaluate("items => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }", items)
    run.page.close()
    record = record_from_link(long_game_code())
    for n in range(30):
        tab = run.new_tab()  # opens the game saved last, and plays its next move
        tab.keyboard.press(KEYS[record.moves[7_000 + n]])
        wait_settled(tab)
        errors = tab.console_errors
        tab.close()
        assert errors == [], f"tab {n + 1}: {errors}"
    last = run.new_tab()
    wait_settled(last)
    finished = json.loads(last.evaluate(f"localStorage.getItem('{GAMES_KEY}')") or "[]")
    assert len(finished) >= 95, f"{100 - len(finished)} of 100 finished games were dropped"
    moves = "".join(direction[0] for direction in record.moves[:7_030])
    assert saved_game(last)["record"]["moves"] == moves, "the long game lost a move"
    used = last.evaluate("() => Object.entries(localStorage).reduce((n, [k, v]) => n + k.length + v.length, 0)")
    assert used < 2_000_000, f"{used} characters stored"
