"""The AI in the page: Hint, AI step, Autoplay/Stop, responsiveness, worker failure, settings."""

from __future__ import annotations

import json

from pagekit import (
    decisions,
    engine_rows,
    heard,
    listen_to_live_region,
    read_board,
    replay,
    wait_ai_ready,
    wait_decisions,
    wait_settled,
)

from game2048 import board as B
from game2048.board import to_rows
from game2048.evaluation import snake
from game2048.game import Game

SETTINGS_KEY = "game2048:settings"


def _set_slider(page, selector: str, key: str) -> None:
    """Move a range input with the keyboard, as a person would (Home = minimum, End = maximum)."""
    page.focus(selector)
    page.keyboard.press(key)
    page.locator(selector).blur()


def _open_saved(open_page, seed: int, rows: list[list[int]]):
    """The page over a saved game with this board (a position no seed reaches quickly), the AI ready."""
    game = Game.from_position(B.from_rows(rows), seed)
    run = open_page(storage={"game2048:game": json.dumps(game.to_dict())})
    wait_ai_ready(run.page)
    return run


def test_ai_waits_for_its_worker_then_hint_shows_an_arrow_and_leaves_the_board(open_page):
    run = open_page("seed=31")
    page = run.page
    # The game is playable before the AI: the buttons say so and are disabled.
    assert page.is_disabled("#ai-hint") or "AI ready" in page.text_content("#ai-status")
    page.keyboard.press("ArrowLeft")
    assert read_board(page) == engine_rows(31, ["left"])
    wait_ai_ready(page)
    before = read_board(page)
    page.click("#ai-hint")
    wait_decisions(page, 1)
    page.wait_for_selector("#hint-arrow", state="visible")
    direction = page.get_attribute("#hint-arrow", "data-direction")
    assert direction in ("up", "right", "down", "left")
    assert B.move(B.from_rows(before), direction)[0] != B.from_rows(before), "the hint is not a legal move"
    assert page.text_content("#readout-move") == direction
    page.wait_for_timeout(300)
    assert read_board(page) == before
    page.keyboard.press("ArrowUp")  # a move hides the hint
    page.wait_for_selector("#hint-arrow", state="hidden")
    assert run.errors == []


def test_while_the_ai_loads_it_says_how_far_it_is_and_a_step_asked_meanwhile_is_played_once_ready(open_page):
    run = open_page("seed=32")
    page = run.page
    assert "MicroPython" in page.text_content("#runtime-line")  # the board's interpreter, playable already
    listen_to_live_region(page)
    # The worker needs seconds: its status names the step it is at and counts them.
    page.wait_for_function(
        "/AI loading, step [12] of 2: .*\\d+ s/.test(document.getElementById('ai-status').textContent)"
    )
    assert "AI ready" not in page.text_content("#ai-status")
    page.keyboard.press("n")  # one AI move, asked before the AI is ready
    wait_ai_ready(page)
    wait_decisions(page, 1)
    wait_settled(page)
    assert read_board(page) != engine_rows(32), "the step asked while loading was not played"
    loading = [text for text in heard(page) if "AI loading" in text]
    assert len(loading) <= 2 and not any(text.endswith(" s") for text in loading)  # each step said once, no count
    assert run.errors == []


def test_autoplay_asked_while_the_ai_loads_starts_once_it_is_ready_and_escape_cancels_it(open_page):
    run = open_page("seed=33")
    page = run.page
    page.keyboard.press("p")  # before the AI is ready
    page.wait_for_function("/autoplay comes when it is/.test(document.getElementById('ai-status').textContent)")
    page.wait_for_function("document.body.dataset.autoplay === 'on'", timeout=120_000)  # once the AI is ready
    wait_decisions(page, 3)
    page.keyboard.press("Escape")
    page.wait_for_function("document.body.dataset.autoplay === 'off'")
    page.reload()
    page.wait_for_selector('body[data-ready="true"]', state="attached", timeout=30_000)
    page.keyboard.press("p")
    page.keyboard.press("Escape")  # asked, then taken back before the AI is ready
    page.wait_for_function("/Autoplay will not start/.test(document.getElementById('ai-status').textContent)")
    wait_ai_ready(page)
    page.wait_for_timeout(500)
    assert page.evaluate("document.body.dataset.autoplay") == "off"
    assert run.errors == []


def test_a_page_held_back_longer_than_a_thinks_limit_does_not_take_its_worker_for_dead(open_page):
    # A background tab or a busy machine holds the main thread: the worker answers meanwhile, and its
    # answer is read when the thread is free again, though the limit (3.5 s at 100 ms) is past by then.
    run = open_page("seed=40", storage={SETTINGS_KEY: json.dumps({"ai": {"think_ms": 100, "pause_ms": 0}})})
    page = run.page
    wait_ai_ready(page)
    for n in range(1, 4):
        page.keyboard.press("n")
        page.evaluate("() => { const until = Date.now() + 5000; while (Date.now() < until) {} }")
        wait_decisions(page, n)
        assert "restart" not in page.text_content("#ai-status").lower()
        assert not page.is_visible("#notice"), page.text_content("#notice")
    wait_settled(page)
    assert read_board(page) != engine_rows(40) and run.errors == []


def test_a_move_chosen_by_the_rescue_search_says_so_in_the_readout(open_page):
    # A saved game a few moves from its end (tests/test_alphabeta_rescue.py): at 100 ms alpha-beta proves the loss
    # and its rescue search, against 2s only, picks the move; the readout says so after the depth.
    run = _open_saved(open_page, 12, [[2, 32, 128, 1024], [2, 64, 256, 512], [2, 8, 128, 64], [4, 8, 4, 2]])
    page = run.page
    page.click("#ai-hint")
    wait_decisions(page, 1)
    assert page.get_attribute("#ai-readout", "data-rescued") == "true"
    depth = page.text_content("#readout-depth")
    assert depth.endswith(", vs 2s") and int(depth.split(",")[0]) >= 5
    assert run.errors == []


def test_ai_step_plays_exactly_one_move(open_page):
    run = open_page("seed=32")
    page = run.page
    wait_ai_ready(page)
    game = Game.new(32)
    page.keyboard.press("n")
    wait_decisions(page, 1)
    move = page.text_content("#readout-move")
    replay(game, [move])
    assert read_board(page) == to_rows(game.board)
    page.wait_for_timeout(500)
    assert read_board(page) == to_rows(game.board) and decisions(page) == 1
    for field in ("depth", "nodes", "cutoffs", "time", "nps"):
        assert page.text_content(f"#readout-{field}").strip() not in ("", "\u2013")
    assert int(page.text_content("#readout-depth")) >= 1
    assert run.errors == []


def test_autoplay_runs_and_stop_stops_before_the_next_move(open_page):
    run = open_page("seed=33")
    page = run.page
    wait_ai_ready(page)
    _set_slider(page, "#ai-think", "Home")
    assert page.text_content("#ai-think-value") == "10 ms"
    _set_slider(page, "#ai-pause", "Home")
    assert read_board(page) == engine_rows(33), "arrow/Home keys on a slider must not move the board"
    page.click("#ai-autoplay")
    assert page.text_content("#ai-autoplay") == "Stop"
    wait_decisions(page, 8)
    page.click("#ai-autoplay")
    assert page.get_attribute("body", "data-autoplay") == "off"
    assert page.text_content("#ai-autoplay") == "Autoplay"
    stopped = read_board(page)
    stopped_score = int(page.text_content("#score"))
    page.wait_for_timeout(800)
    assert read_board(page) == stopped and int(page.text_content("#score")) == stopped_score
    assert sum(v for row in stopped for v in row) > 4, "autoplay did not play"
    # A manual move stops autoplay too.
    page.keyboard.press("p")
    assert page.get_attribute("body", "data-autoplay") == "on"
    wait_decisions(page, decisions(page) + 2)
    page.keyboard.press("ArrowDown")
    page.wait_for_function("document.body.dataset.autoplay === 'off'")
    wait_settled(page)
    assert run.errors == []


def test_autoplay_leaves_no_long_task_on_the_main_thread(open_page):
    run = open_page("seed=34")
    page = run.page
    wait_ai_ready(page)
    page.evaluate("""() => {
        window.__longTasks = [];
        new PerformanceObserver(list => {
            for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
        }).observe({type: 'longtask'});
    }""")
    page.keyboard.press("p")
    wait_decisions(page, 15, timeout_ms=60_000)
    page.keyboard.press("Escape")
    wait_settled(page)
    long_tasks = page.evaluate("window.__longTasks")
    assert [d for d in long_tasks if d > 100] == [], f"main-thread tasks over 100 ms: {long_tasks}"


def test_a_failed_worker_is_reported_autoplay_stops_and_the_game_is_kept(open_page):
    run = open_page("seed=35")
    page = run.page
    wait_ai_ready(page)
    _set_slider(page, "#ai-think", "Home")
    page.keyboard.press("p")
    wait_decisions(page, 3)
    # The worker dies (as after running out of memory): it never answers again.
    page.evaluate("document.querySelector('script[name=\"ai\"]').xworker.terminate()")
    page.wait_for_selector("#ai-status.error", timeout=30_000)
    assert "restarting" in page.text_content("#ai-status")
    assert page.is_visible("#notice") and "AI error" in page.text_content("#notice")
    assert page.get_attribute("body", "data-autoplay") == "off"
    kept = read_board(page)
    assert sum(v > 0 for row in kept for v in row) >= 2
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    after = read_board(page)
    assert B.from_rows(after) != B.from_rows(kept) or not B.legal_moves(B.from_rows(kept))


def test_algorithm_preset_and_weights_reach_the_worker_and_persist(open_page):
    run = open_page("seed=36")
    page = run.page
    wait_ai_ready(page)
    page.select_option("#ai-algorithm", "expectimax")
    assert page.input_value("#ai-preset") == "rows"
    page.click("#ai-hint")
    wait_decisions(page, 1)
    assert page.get_attribute("#ai-readout", "data-algorithm") == "expectimax"
    assert page.get_attribute("#ai-readout", "data-preset") == "rows"
    assert page.text_content("#readout-algorithm") == "Expectimax"

    page.click("#weights-panel summary")
    page.select_option("#ai-preset", "snake")
    sliders = page.locator("#ai-weights input[type=range]")
    assert sliders.count() == 6
    # In the preset's own order (the worker lists it: MicroPython's dicts do not keep it).
    assert [s.get_attribute("data-weight") for s in sliders.all()] == list(snake.DEFAULT_WEIGHTS)
    first = page.locator("#ai-weights input[type=range]").first
    name = first.get_attribute("data-weight")
    default = float(first.input_value())
    first.focus()
    page.keyboard.press("End")
    raised = float(first.input_value())
    assert raised > default
    page.click("#ai-hint")
    wait_decisions(page, 2)
    assert page.get_attribute("#ai-readout", "data-preset") == "snake"
    assert page.get_attribute("#ai-readout", "data-algorithm") == "expectimax"

    saved = json.loads(page.evaluate("localStorage.getItem('game2048:settings')"))["ai"]
    assert saved["algorithm"] == "expectimax" and saved["preset"] == "snake"
    assert saved["weights"]["snake"][name] == raised

    run.reload()
    wait_ai_ready(page)
    assert page.input_value("#ai-algorithm") == "expectimax"
    assert page.input_value("#ai-preset") == "snake"
    page.click("#weights-panel summary")
    assert float(page.locator(f'#ai-weights input[data-weight="{name}"]').input_value()) == raised
    page.click("#ai-weights-reset")
    assert float(page.locator(f'#ai-weights input[data-weight="{name}"]').input_value()) == default
    page.select_option("#ai-algorithm", "alphabeta")
    assert page.input_value("#ai-preset") == "classic"
    page.click("#ai-hint")
    wait_decisions(page, 1)
    assert page.get_attribute("#ai-readout", "data-algorithm") == "alphabeta"
    assert page.get_attribute("#ai-readout", "data-preset") == "classic"
    assert run.errors == []


def test_the_weights_sliders_are_made_when_their_panel_is_first_opened(open_page):
    """A start makes none of them, the AI ready or not; opening the panel makes the playing preset's, with its
    words explained, and they follow a change of preset as before."""
    run = open_page("seed=36")
    page = run.page
    wait_ai_ready(page)
    assert page.locator("#ai-weights *").count() == 0
    assert page.get_attribute("#ai-preset", "title")  # the playing preset is described without its sliders
    page.click("#weights-panel summary")
    page.wait_for_selector("#ai-weights input[type=range]")  # the details' toggle event comes a task later
    sliders = page.locator("#ai-weights input[type=range]")
    assert sliders.count() >= 3 and page.is_visible("#ai-weights-note")
    assert page.text_content("#ai-weights-note").startswith(page.input_value("#ai-preset") + ":")
    page.click("#weights-panel summary")  # closed and opened again: the same sliders, not made twice
    page.click("#weights-panel summary")
    page.wait_for_timeout(200)
    assert page.locator("#ai-weights input[type=range]").count() == sliders.count()
    page.select_option("#ai-preset", "snake")
    assert [s.get_attribute("data-weight") for s in sliders.all()] == list(snake.DEFAULT_WEIGHTS)
    assert run.errors == []


def test_autoplay_pauses_at_the_win_and_keep_going_resumes_it(open_page):
    run = _open_saved(open_page, 37, [[1024, 1024, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [0, 4, 0, 0]])
    page = run.page
    page.keyboard.press("p")
    page.wait_for_selector("#win-overlay", state="visible", timeout=30_000)
    page.wait_for_function("document.body.dataset.autoplay === 'waiting'")
    paused = read_board(page)
    assert any(v == 2048 for row in paused for v in row)
    page.wait_for_timeout(600)
    assert read_board(page) == paused, "autoplay went on behind the win overlay"
    seen = decisions(page)
    page.click("#keep-going")
    page.wait_for_function("document.body.dataset.autoplay === 'on'", timeout=5_000)
    wait_decisions(page, seen + 2)
    page.keyboard.press("Escape")
    assert page.get_attribute("body", "data-autoplay") == "off"
    assert read_board(page) != paused
    assert run.errors == []


def test_after_a_mouse_change_of_a_setting_the_arrows_play_and_tab_keeps_a_controls_keys(open_page):
    run = open_page("seed=37")
    page = run.page
    wait_ai_ready(page)
    page.click("#ai-think")  # the mouse moves the slider to where it clicked
    clicked = page.input_value("#ai-think")
    page.keyboard.press("ArrowLeft")
    wait_settled(page)
    assert read_board(page) == engine_rows(37, ["left"]), "the arrow went to the slider, not the board"
    assert page.input_value("#ai-think") == clicked
    page.select_option("#ai-algorithm", "expectimax")  # as the keyboard does: no pointer, the select keeps its keys
    page.focus("#ai-pause")
    pause = page.input_value("#ai-pause")
    page.keyboard.press("ArrowRight")
    assert page.input_value("#ai-pause") != pause, "a control reached by focus lost its own keys"
    assert read_board(page) == engine_rows(37, ["left"])
    assert run.errors == []


def test_an_ai_whose_interpreter_stalls_says_it_is_unusually_slow_while_the_game_plays(open_page):
    held = []

    def prepare(context):
        context.route("**/pyodide.asm.wasm", lambda route: held.append(route))  # the interpreter never arrives

    run = open_page("seed=33", prepare=prepare)
    page = run.page
    page.wait_for_function(
        "document.getElementById('ai-status').textContent.includes('unusually slow')", timeout=25_000
    )
    status = page.text_content("#ai-status")
    assert "AI loading, step 1 of 2" in status and "tried again after 45 s" in status
    before = read_board(page)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    assert read_board(page) != before  # the game plays meanwhile
    assert held


ISSUE_ROWS = "rows=0,0,2,2/0,4,8,16/2,8,32,64/4,16,128,256"
"""Issue 54's board: alpha-beta hints up (classic, any depth from 2), expectimax right (rows, any depth)."""
VIEWPORTS = ({"width": 390, "height": 844}, {"width": 1280, "height": 800})


def _decision(page) -> tuple[str, str]:
    """The last decision's move and depth, as the readout shows them."""
    return page.text_content("#readout-move"), page.text_content("#readout-depth")


def test_the_hint_gives_way_to_the_ai_step_after_it_with_its_depth_and_why_it_differs(open_page):
    """Issue 54: "Hint: up" (depth 5) stayed on the status line after AI step played left (depth 6)."""
    for viewport in VIEWPORTS:
        run = open_page(ISSUE_ROWS, viewport=viewport)
        page = run.page
        wait_ai_ready(page)
        page.click("#ai-hint")
        wait_decisions(page, 1)
        hint, hint_depth = _decision(page)
        assert hint == "up" and page.text_content("#ai-status") == f"Hint: up (depth {hint_depth})"
        page.select_option("#ai-algorithm", "expectimax")  # the step's search is not the hint's
        page.click("#ai-step")
        wait_decisions(page, 2)
        wait_settled(page)
        move, depth = _decision(page)
        assert move == "right" and page.is_hidden("#hint-arrow")
        assert page.text_content("#ai-status") == (
            f"AI step: right (depth {depth}); Expectimax with rows chose it, where the hint\u2019s up "
            f"(depth {hint_depth}) came from Alpha-beta with classic"
        )
        page.click("#ai-hint")  # the same search now: its step plays the hint's move, or says why not
        wait_decisions(page, 3)
        hint, hint_depth = _decision(page)
        assert page.text_content("#ai-status") == f"Hint: {hint} (depth {hint_depth})"
        page.click("#ai-step")
        wait_decisions(page, 4)
        wait_settled(page)
        move, depth = _decision(page)
        status = page.text_content("#ai-status")
        assert status.startswith(f"AI step: {move} (depth {depth})") and "Hint:" not in status
        if move == hint:
            assert status.endswith(", the hint\u2019s move")
        else:
            assert f"the hint\u2019s {hint} (depth {hint_depth})" in status
        page.keyboard.press("ArrowLeft")  # the player's own move leaves the AI's status as it was: no hint shown
        wait_settled(page)
        assert page.text_content("#ai-status") == status
        assert run.errors == []


def test_an_algorithm_switch_says_its_preset_near_the_selects_and_a_hint_does_not_overwrite_it(open_page):
    """Issue 54: the switch from classic to rows was said on the status line, which the next hint overwrote."""
    for viewport in VIEWPORTS:
        run = open_page(ISSUE_ROWS, viewport=viewport)
        page = run.page
        wait_ai_ready(page)
        assert page.is_hidden("#ai-preset-note")
        page.select_option("#ai-algorithm", "expectimax")
        said = page.text_content("#ai-preset-note")
        assert said.startswith("Now playing Expectimax with the rows preset (it was classic)")
        page.click("#ai-hint")
        wait_decisions(page, 1)
        move, depth = _decision(page)
        assert (move, page.text_content("#ai-status")) == ("right", f"Hint: right (depth {depth})")
        assert page.is_visible("#ai-preset-note") and page.text_content("#ai-preset-note") == said
        note, select = page.locator("#ai-preset-note").bounding_box(), page.locator("#ai-algorithm").bounding_box()
        presets = page.locator("#weights-panel summary").bounding_box()
        assert select["y"] < note["y"] < presets["y"], "the note sits between the algorithm and the preset"
        page.click("#weights-panel summary")
        page.select_option("#ai-preset", "classic")  # the settings change again: the note has said its piece
        assert page.is_hidden("#ai-preset-note")
        assert run.errors == []
