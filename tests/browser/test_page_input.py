"""Keys, touch swipes and mouse drags move the board exactly as the engine says; bursts lose nothing."""

from __future__ import annotations

from pagekit import center_of, engine_rows, read_board, read_score, replay

from game2048.game import Game


def test_arrow_wasd_and_vim_keys_move_like_the_engine(open_page):
    run = open_page("seed=7")
    page = run.page
    keys = {
        "ArrowLeft": "left",
        "ArrowUp": "up",
        "d": "right",
        "s": "down",
        "h": "left",
        "k": "up",
        "l": "right",
        "j": "down",
        "a": "left",
        "w": "up",
        "ArrowDown": "down",
        "ArrowRight": "right",
    }
    played: list[str] = []
    for key, direction in keys.items():
        page.keyboard.press(key)
        played.append(direction)
        assert read_board(page) == engine_rows(7, played), f"after {key}"
    assert read_score(page) == replay(Game.new(7), played).score
    assert run.errors == []


def test_keys_with_ctrl_alt_or_meta_are_left_to_the_browser(open_page):
    run = open_page("seed=8")
    page = run.page
    before = read_board(page)
    for chord in ("Control+ArrowLeft", "Alt+ArrowRight", "Meta+ArrowDown", "Control+ArrowUp"):
        page.keyboard.press(chord)
    page.wait_for_timeout(200)
    assert read_board(page) == before


def _touch_swipe(page, dx: float, dy: float) -> None:
    x, y = center_of(page)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 6):
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchMove", "touchPoints": [{"x": x + dx * step / 5, "y": y + dy * step / 5}]},
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_touch_swipes_move_like_the_engine(open_page):
    run = open_page("seed=9", has_touch=True, is_mobile=True, viewport={"width": 390, "height": 800})
    page = run.page
    played: list[str] = []
    for dx, dy, direction in ((0, -120, "up"), (-120, 10, "left"), (0, 90, "down"), (80, -20, "right")):
        _touch_swipe(page, dx, dy)
        played.append(direction)
        assert read_board(page) == engine_rows(9, played), f"after a swipe {direction}"
    _touch_swipe(page, 6, 4)  # shorter than 10 px: not a move
    page.wait_for_timeout(200)
    assert read_board(page) == engine_rows(9, played)
    assert run.errors == []


def _drag(page, dx: float, dy: float) -> None:
    x, y = center_of(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx / 2, y + dy / 2)
    page.mouse.move(x + dx, y + dy)
    page.mouse.up()


def test_mouse_drags_move_like_the_engine(open_page):
    run = open_page("seed=10")
    page = run.page
    played: list[str] = []
    for dx, dy, direction in ((150, 0, "right"), (0, 150, "down"), (-60, 20, "left"), (10, -100, "up")):
        _drag(page, dx, dy)
        played.append(direction)
        assert read_board(page) == engine_rows(10, played), f"after a drag {direction}"
    _drag(page, 7, -5)  # under the 10 px threshold
    page.wait_for_timeout(200)
    assert read_board(page) == engine_rows(10, played)


def test_key_mashing_during_animation_ends_in_the_engine_state(open_page):
    run = open_page("seed=11")
    page = run.page
    burst = ["left", "up", "right", "down", "left", "left", "up", "down", "right", "up"] * 4
    # Forty keydowns in one JavaScript turn: all land while the first slide is still running.
    names = {"left": "ArrowLeft", "up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown"}
    page.evaluate(
        "keys => keys.forEach(key => document.dispatchEvent("
        "new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true})))",
        [names[d] for d in burst],
    )
    assert page.get_attribute("#board", "data-settled") == "false"
    # And a few real key presses that arrive while the queue is still draining.
    for key in ("a", "s", "d"):
        page.keyboard.press(key)
    played = burst + ["left", "down", "right"]
    assert read_board(page) == engine_rows(11, played)
    assert read_score(page) == replay(Game.new(11), played).score
    assert page.locator("#board .tile").count() == sum(v > 0 for row in engine_rows(11, played) for v in row)
    assert run.errors == []
