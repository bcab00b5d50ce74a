"""A plain-text progress bar on stderr: games done, moves played, time spent and left.

No dependency (no tqdm): one line rewritten with ``\\r`` on a terminal; on a
pipe or a log file, one line per finished game and at most one every 30 s
otherwise, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s"


class Progress:
    """Progress of a batch of games, fed by ``moves`` (from inside games) and ``game_done``."""

    def __init__(self, total_games: int, label: str = "", stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = total_games
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.done = 0
        self.finished_moves = 0
        self.live_moves: dict[int, int] = {}
        self.finished: set[int] = set()
        self.start = time.perf_counter()
        self.last_line = 0.0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def moves(self, seed: int, moves: int) -> None:
        """A game in progress has played ``moves`` moves (late reports of a finished game are ignored)."""
        if seed in self.finished:
            return
        self.live_moves[seed] = moves
        self._show(final=False)

    def game_done(self, seed: int, moves: int) -> None:
        self.live_moves.pop(seed, None)
        self.finished.add(seed)
        self.done += 1
        self.finished_moves += moves
        self._show(final=True)

    def line(self) -> str:
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        elapsed = time.perf_counter() - self.start
        moves = self.finished_moves + sum(self.live_moves.values())
        eta = f", ~{_clock(elapsed / self.done * (self.total - self.done))} left" if 0 < self.done < self.total else ""
        prefix = f"{self.label} " if self.label else ""
        return f"{prefix}[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games, {moves} moves, {_clock(elapsed)}{eta}"

    def _show(self, final: bool) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if self.tty:
            if final or now - self.last_line >= 0.2:
                self.stream.write("\r" + self.line() + "\x1b[K")
                self.stream.flush()
                self.last_line = now
        elif final or now - self.last_line >= 30:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.last_line = now

    def close(self) -> None:
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()
