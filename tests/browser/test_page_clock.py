"""The page's waits go by the browser's timer: a system clock set back a day stops no move (issue 53).

MicroPython's ``time.ticks_ms`` is ``Date.now()`` in the browser, and its ``asyncio.sleep`` waits until that clock
reaches a time: a clock set back a day while a wait ran made it a day long (the AI's start froze its countdown,
its time limit never came).  Here ``Date.now`` is set back a day while a move slides, the slide's pause waiting.
"""

from pagekit import engine_rows, read_board, read_score, replay

from game2048.game import Game

CLOCK_BACK_MID_SLIDE = """() => {
  const wall = Date.now;
  let back = 0;
  Date.now = () => wall() - back;
  const tiles = document.getElementById('tiles');
  new MutationObserver((records, observer) => { observer.disconnect(); back += 86400000; })
    .observe(tiles, {attributes: true, subtree: true, attributeFilter: ['data-row', 'data-col']});
}"""
"""Sets the clock back a day as soon as a tile slides: the move's pause has begun (the slide and its pause are one
run of the page's Python, and the observer hears the slide after it)."""


def test_a_clock_set_back_a_day_while_a_move_slides_holds_back_no_move(open_page):
    run = open_page("seed=12")
    page = run.page
    played = ["left", "up", "right", "down", "left"]
    assert engine_rows(12, played[:1]) != engine_rows(12)  # the first move slides tiles
    page.evaluate(CLOCK_BACK_MID_SLIDE)
    for direction in played:
        page.keyboard.press(f"Arrow{direction.capitalize()}")
    assert read_board(page) == engine_rows(12, played)
    assert read_score(page) == replay(Game.new(12), played).score
    assert page.evaluate("Date.now() < performance.timeOrigin")  # the clock was set back
    assert run.errors == []
