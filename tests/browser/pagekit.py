"""Reading the page the way a person sees it, and replaying the same play in CPython's engine.

Browser tests compare what the page shows with ``game2048.game.Game`` played
in the test process with the same seed: the engine is the reference, the page
must agree with it tile for tile.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from game2048.board import to_rows
from game2048.game import Game

SETTLE_TIMEOUT_MS = 20_000
SETTLED_SELECTOR = '#board[data-settled="true"]'
TILES_JS = "els => els.map(e => [e.textContent.trim(), e.dataset.row, e.dataset.col])"
"""``page.eval_on_selector_all("#board .tile", TILES_JS)``: each tile's text, row and column (``board_rows``)."""


def wait_settled(page: Any) -> None:
    """Until no move is queued or being drawn (``#board[data-settled="true"]``)."""
    page.wait_for_selector(SETTLED_SELECTOR, state="attached", timeout=SETTLE_TIMEOUT_MS)


def listen_to_live_region(page: Any) -> None:
    """From now on, record each line the live region ``#announcer`` takes, as a screen reader hears it."""
    page.evaluate(
        """() => { const el = document.getElementById('announcer'); window.__said = [];
        new MutationObserver(records => records.forEach(r => r.addedNodes.forEach(
            n => window.__said.push(n.textContent.trim())))).observe(el, {childList: true}); }"""
    )


def heard(page: Any) -> list[str]:
    """The lines the live region has taken since ``listen_to_live_region``, in order."""
    return page.evaluate("() => window.__said")


def wait_heard(page: Any, test: str, arg: Any = None) -> None:
    """Until ``test``, a JavaScript ``(heard, arg) => bool``, holds for the lines heard so far."""
    page.wait_for_function(f"arg => ({test})(window.__said, arg)", arg=arg)


def live_region_lines(page: Any) -> list[str]:
    """The lines the live region holds now (the last few said)."""
    return page.eval_on_selector_all("#announcer > *", "lines => lines.map(l => l.textContent)")


def read_board(page: Any) -> list[list[int]]:
    """The board as shown: 4 rows of tile values from the settled ``.tile`` elements (one per cell)."""
    wait_settled(page)
    return board_rows(page.eval_on_selector_all("#board .tile", TILES_JS))


def board_rows(tiles: list[list[str]]) -> list[list[int]]:
    """4 rows of tile values from the tiles ``TILES_JS`` read, each cell held by one tile at most."""
    rows = [[0] * 4 for _ in range(4)]
    for text, row, col in tiles:
        r, c = int(row), int(col)
        assert rows[r][c] == 0, f"two tiles shown at row {r}, col {c}: {tiles}"
        rows[r][c] = int(text)
    return rows


def read_score(page: Any) -> int:
    return int(page.text_content("#score"))


def read_best(page: Any) -> int:
    return int(page.text_content("#best"))


def replay(game: Game, directions: Iterable[str]) -> Game:
    """Apply moves as the page does: nothing moves once the game is over or paused on the win overlay."""
    for direction in directions:
        if game.over or game.paused_at_win:
            continue
        game.play(direction)
    return game


def engine_rows(seed: int, directions: Iterable[str] = ()) -> list[list[int]]:
    return to_rows(replay(Game.new(seed), directions).board)


def assert_keys_move(page: Any) -> None:
    """The board is playable: one of the four arrow keys changes it."""
    before = read_board(page)
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
        if read_board(page) != before:
            return
    raise AssertionError("no key moved a tile")


def is_visible(page: Any, selector: str) -> bool:
    return page.is_visible(selector)


def center_of(page: Any, selector: str = "#board") -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


AI_READY_TIMEOUT_MS = 120_000


def wait_ai_ready(page: Any) -> None:
    """Until the AI worker has started and the AI buttons are enabled."""
    page.wait_for_selector("#ai-hint:not([disabled])", state="attached", timeout=AI_READY_TIMEOUT_MS)


def decisions(page: Any) -> int:
    return int(page.get_attribute("#ai-readout", "data-decisions"))


def wait_decisions(page: Any, at_least: int, timeout_ms: int = 30_000) -> None:
    page.wait_for_function(
        "n => Number(document.getElementById('ai-readout').dataset.decisions) >= n", arg=at_least, timeout=timeout_ms
    )


def choose_learned(page: Any, algorithm: str = "expectimax") -> None:
    """Choose ``algorithm`` and the learned preset as a person does, and wait until the network is in."""
    page.select_option("#ai-algorithm", algorithm)
    page.click("#weights-panel summary")
    page.select_option("#ai-preset", "learned")
    page.wait_for_function(
        "document.getElementById('ai-status').textContent.startsWith('Learned network ready')", timeout=120_000
    )


LOADED_MODULES_JS = """() => {
    document.body.removeAttribute('data-loaded-modules');
    const script = document.createElement('script');
    script.type = 'mpy';
    script.textContent = [
        'import sys',
        'from pyscript import document',
        'document.body.setAttribute("data-loaded-modules", " ".join(sorted(sys.modules)))',
    ].join('\\n');
    document.body.appendChild(script);
}"""
"""A script of the page's own interpreter (PyScript runs a ``<script type="mpy">`` added later in the one the
page's run in), that writes the names of the modules imported so far."""


def kept_networks(page: Any) -> int:
    """Entries in the worker's Cache Storage of the learned network (its file, and its decoded tables)."""
    return int(page.evaluate("caches.open('2048-network').then(cache => cache.keys()).then(keys => keys.length)"))


def wait_kept_networks(page: Any, count: int) -> None:
    """Until that cache holds ``count`` entries: the decoded tables are written in the background, while the AI
    plays, so they may come a moment after "Learned network ready"."""
    for _ in range(120):
        if kept_networks(page) == count:
            return
        page.wait_for_timeout(250)
    assert kept_networks(page) == count


def loaded_modules(page: Any) -> set[str]:
    """The modules the page's MicroPython has imported so far: a part built at first use is not among them before."""
    page.evaluate(LOADED_MODULES_JS)
    page.wait_for_selector("body[data-loaded-modules]", state="attached", timeout=10_000)
    return set(page.get_attribute("body", "data-loaded-modules").split())
