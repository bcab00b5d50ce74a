"""What both soaks watch on an autoplaying page: every board it settles on, checked against the rules.

``RECORDER_JS`` keeps each settled board as the page shows it (a MutationObserver on ``#board[data-settled]``
reading the ``.tile`` elements); ``check_transition`` tells whether one board follows another by a legal move
and a spawn; ``Tab`` drives one page through wins and game overs and counts what it checked.  ``soak`` (one
tab) and ``soak_tabs`` (tabs on one storage) both use them.
"""

from __future__ import annotations

from typing import Any

from game2048 import board as B

RECORDER_JS = """
(() => {
  window.__boards = [];
  window.__mark = null;
  const read = () => {
    const rows = [[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]];
    for (const t of document.querySelectorAll('#board .tile'))
      rows[Number(t.dataset.row)][Number(t.dataset.col)] += Number(t.textContent);
    return rows;
  };
  const board = document.getElementById('board');
  new MutationObserver(() => {
    if (board.dataset.settled !== 'true') return;
    window.__boards.push({rows: read(), score: Number(document.getElementById('score').textContent),
                          mark: window.__mark});
    window.__mark = null;
  }).observe(board, {attributes: true, attributeFilter: ['data-settled']});
  window.__boards.push({rows: read(), score: Number(document.getElementById('score').textContent), mark: 'start'});
})()
"""


def check_transition(prev: dict, nxt: dict) -> str | None:
    """None when ``nxt`` follows ``prev`` by one legal move and one spawn; else what is wrong."""
    try:
        before, after = B.from_rows(prev["rows"]), B.from_rows(nxt["rows"])
    except ValueError as exc:
        return f"a board shown is not a 2048 board: {exc}"
    if before == after and prev["score"] == nxt["score"]:
        return None  # a settle without a move (keep going, a no-op)
    for direction in B.DIRECTIONS:
        moved, points = B.move(before, direction)
        if moved == before:
            continue
        added = [cell for cell in range(16) if (after >> (4 * cell)) & 0xF != (moved >> (4 * cell)) & 0xF]
        if (
            len(added) == 1
            and (moved >> (4 * added[0])) & 0xF == 0
            and (after >> (4 * added[0])) & 0xF in (1, 2)
            and nxt["score"] - prev["score"] == points
        ):
            return None
    return f"no legal move leads from {prev['rows']} (score {prev['score']}) to {nxt['rows']} (score {nxt['score']})"


class Tab:
    """One autoplaying page under soak (``RECORDER_JS`` installed): its boards checked one after another
    (``check_transition``), its moves counted, its games and wins, the problems seen, prefixed by ``name``."""

    def __init__(self, page: Any, name: str = "") -> None:
        self.page, self.name = page, name
        self.moves = self.wins = self.max_tile = 0
        self.games = 1
        self.problems: list[str] = []
        self.last: dict[str, Any] | None = None

    def note(self, problem: str) -> None:
        self.problems.append(f"{self.name}: {problem}" if self.name else problem)

    def take_boards(self) -> None:
        """Check the boards the page showed since the last call; count its moves and its largest tile."""
        for entry in self.page.evaluate("window.__boards.splice(0)"):
            if self.last is not None and entry["mark"] != "restart":
                problem = check_transition(self.last, entry)
                if problem:
                    self.note(problem)
                elif entry["rows"] != self.last["rows"]:
                    self.moves += 1
            self.max_tile = max(self.max_tile, max(max(row) for row in entry["rows"]))
            self.last = entry

    def keep_playing(self) -> bool:
        """Past a win press Keep going; at a game over start another game and autoplay again.

        False when autoplay stopped on its own, which is noted as a problem.
        """
        page = self.page
        state = page.get_attribute("body", "data-autoplay")
        if page.is_visible("#win-overlay") and state == "waiting":
            self.wins += 1
            page.click("#keep-going")
        elif page.is_visible("#over-overlay"):
            page.wait_for_selector('#board[data-settled="true"]', state="attached")
            page.evaluate("window.__mark = 'restart'")
            page.click("#try-again")
            self.games += 1
            page.keyboard.press("p")
        elif state == "off":
            self.note(f"autoplay stopped unexpectedly: {page.text_content('#ai-status')}")
            return False
        return True
