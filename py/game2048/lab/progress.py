"""The progress of a batch of games on stderr (``rich``): games done, moves played, time spent and left.

On a terminal, one live bar redrawn in place.  On a pipe or a log file there
is nothing to redraw and no control character belongs in a log, so the bar's
text (without the bar) is printed as a plain line: once per finished game, and
at most every ``LOG_EVERY_S`` seconds while a long game runs.  Redraws follow
the games' reports, never a refresh thread: the batch forks its worker
processes while the bar is live.
"""

from __future__ import annotations

import time
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress

REDRAW_EVERY_S = 0.2
"""Shortest interval between two redraws of the live bar while games run."""
LOG_EVERY_S = 30.0
"""Shortest interval between two lines in a log while no game finishes."""
LOG_WIDTH = 1_000
"""A log has no width to fit: a long label makes a long line, never one cut short with an ellipsis."""


class Progress:
    """Progress of a batch of games, fed by ``moves`` (from inside games) and ``game_done``; ``close`` ends it."""

    def __init__(self, total_games: int, label: str = "", stream: TextIO | None = None, enabled: bool = True) -> None:
        self.console = Console(file=stream, stderr=stream is None)
        self.enabled = enabled
        self.interactive = self.console.is_interactive
        if not self.interactive:
            self.console.width = LOG_WIDTH
        self.bar = RichProgress(
            *([TextColumn("{task.description}:", markup=False)] if label else []),  # a label such as rows[w=1]
            *([BarColumn(bar_width=24)] if self.interactive else []),
            MofNCompleteColumn(),
            TextColumn("games, {task.fields[moves]} moves,"),
            TimeElapsedColumn(),
            TextColumn("elapsed,"),
            TimeRemainingColumn(),
            TextColumn("left"),
            console=self.console,
            auto_refresh=False,
            disable=not (enabled and self.interactive),
        )
        self.task = self.bar.add_task(label, total=total_games, moves=0)
        self.finished_moves = 0
        self.live_moves: dict[int, int] = {}
        self.finished: set[int] = set()
        self.last_shown = time.perf_counter()
        self.bar.start()

    def moves(self, seed: int, moves: int) -> None:
        """A game in progress has played ``moves`` moves (late reports of a finished game are ignored)."""
        if seed in self.finished:
            return
        self.live_moves[seed] = moves
        self._show(final=False)

    def game_done(self, seed: int, moves: int) -> None:
        self.live_moves.pop(seed, None)
        self.finished.add(seed)
        self.finished_moves += moves
        self.bar.advance(self.task)
        self._show(final=True)

    def _show(self, final: bool) -> None:
        moves = self.finished_moves + sum(self.live_moves.values())
        now = time.perf_counter()
        due = final or now - self.last_shown >= (REDRAW_EVERY_S if self.interactive else LOG_EVERY_S)
        self.bar.update(self.task, moves=moves, refresh=due and self.interactive)
        if due and self.enabled and not self.interactive:
            self.console.print(self.bar.get_renderable())
        if due:
            self.last_shown = now

    def close(self) -> None:
        """Leave the finished bar on the terminal (a log already has its last line)."""
        self.bar.stop()
