"""The progress of a batch of games on stderr (``rich``): games done, moves played and per second, the share of
finished games that reached each of a few tiles, workers alive (on a cluster), time spent and left.

One line for the whole batch, however many workers play it.

On a terminal, one live bar redrawn in place.  On a pipe or a log file there
is nothing to redraw and no control character belongs in a log, so the bar's
text (without the bar) is printed as a plain line: once per finished game, and
at most every ``LOG_EVERY_S`` seconds while a long game runs.  Redraws follow
the games' reports, never a refresh thread.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress

from .summary import REACH_TILES

REDRAW_EVERY_S = 0.2
"""Shortest interval between two redraws of the live bar while games run."""
LOG_EVERY_S = 30.0
"""Shortest interval between two lines in a log while no game finishes."""
LOG_WIDTH = 1_000
"""A log has no width to fit: a long label makes a long line, never one cut short with an ellipsis."""
SHOWN_TILES = 3
"""How many tiles' running rates the line shows."""


def progress_tiles(stop_tile: int) -> tuple[int, ...]:
    """The tiles whose rates a batch's line shows: the last few up to the stop tile (the last few of all without)."""
    reachable = [tile for tile in REACH_TILES if not stop_tile or tile <= stop_tile]
    return tuple(reachable[-SHOWN_TILES:])


def line_columns(interactive: bool, *middle: ProgressColumn) -> list[ProgressColumn]:
    """A lab progress line's columns: a bar on a terminal, ``middle``, then the time elapsed and left.

    The one shape of the games', the training's and the sweeps' lines.
    """
    return [
        *([BarColumn(bar_width=24)] if interactive else []),
        *middle,
        TimeElapsedColumn(),
        TextColumn("elapsed,"),
        TimeRemainingColumn(),
        TextColumn("left"),
    ]


class Progress:
    """Progress of a batch of games, fed by ``moves`` (from inside games), ``game_done`` and, on a cluster,
    ``workers``; ``note`` prints a line above it; ``close`` ends it.  ``tiles``: whose rates it shows."""

    def __init__(
        self,
        total_games: int,
        label: str = "",
        stream: TextIO | None = None,
        enabled: bool = True,
        tiles: Sequence[int] = (),
    ) -> None:
        self.console = Console(file=stream, stderr=stream is None)
        self.enabled = enabled
        self.interactive = self.console.is_interactive
        if not self.interactive:
            self.console.width = LOG_WIDTH
        self.bar = RichProgress(
            *([TextColumn("{task.description}:", markup=False)] if label else []),  # a label such as rows[w=1]
            *line_columns(
                self.interactive,
                MofNCompleteColumn(),
                TextColumn("games, {task.fields[moves]} moves, {task.fields[speed]} moves/s,{task.fields[extra]}"),
            ),
            console=self.console,
            auto_refresh=False,
            disable=not (enabled and self.interactive),
        )
        self.task = self.bar.add_task(label, total=total_games, moves=0, speed=0, extra="")
        self.tiles = tuple(tiles)
        self.reached = dict.fromkeys(self.tiles, 0)
        self.alive: int | None = None
        self.finished_moves = 0
        self.live_moves: dict[int, int] = {}
        self.finished: set[int] = set()
        self.started = self.last_shown = time.perf_counter()
        self.bar.start()

    def moves(self, seed: int, moves: int) -> None:
        """A game in progress has played ``moves`` moves (late reports of a finished game are ignored)."""
        if seed in self.finished:
            return
        self.live_moves[seed] = moves
        self._show(final=False)

    def game_done(self, seed: int, moves: int, max_tile: int = 0) -> None:
        self.live_moves.pop(seed, None)
        self.finished.add(seed)
        self.finished_moves += moves
        for tile in self.tiles:
            self.reached[tile] += max_tile >= tile
        self.bar.advance(self.task)
        self._show(final=True)

    def workers(self, alive: int) -> None:
        """The cluster has ``alive`` workers now."""
        changed = alive != self.alive
        self.alive = alive
        self._show(final=changed)

    def note(self, text: str) -> None:
        """A line of its own above the bar (a worker lost), on a terminal and in a log alike."""
        if self.enabled:
            self.console.print(text, markup=False, highlight=False)

    def _extra(self) -> str:
        """`` 512 100%, 1024 50%, 2 workers,``: the rates over finished games, the workers alive (on a cluster)."""
        done = len(self.finished)
        parts = [f"{tile} {100 * self.reached[tile] / done:.0f}%" if done else f"{tile} –" for tile in self.tiles]
        if self.alive is not None:
            parts.append(f"{self.alive} worker" if self.alive == 1 else f"{self.alive} workers")
        return "".join(f" {part}," for part in parts)

    def _show(self, final: bool) -> None:
        moves = self.finished_moves + sum(self.live_moves.values())
        now = time.perf_counter()
        due = final or now - self.last_shown >= (REDRAW_EVERY_S if self.interactive else LOG_EVERY_S)
        speed = f"{moves / (now - self.started):,.0f}" if now > self.started else "0"
        self.bar.update(self.task, moves=moves, speed=speed, extra=self._extra(), refresh=due and self.interactive)
        if due and self.enabled and not self.interactive:
            self.console.print(self.bar.get_renderable())
        if due:
            self.last_shown = now

    def close(self) -> None:
        """Leave the finished bar on the terminal (a log already has its last line)."""
        self.bar.stop()
