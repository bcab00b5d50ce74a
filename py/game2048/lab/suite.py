"""The late-game suite: positions taken where a tile (16384) first formed, played on by any player.

A game to the end at 100 ms takes 15–25 minutes here, and most of it is the opening, which every player of
ours survives; what decides a 32768 is the last third.  So the suite keeps the boards of real games at the
moment their 16384 formed, and a player is measured by how many of them it converts: many late-game trials
for the time of a third of a game each.

The file (``SUITE_FILE``, JSON, small) names how its positions were made: the command, the player and the
network's SHA-256, the seeds.  Each position is its source game's seed, board, score and moves; it is played
on from there with spawns drawn by ``MersenneTwister(seed)``, so a position's continuation is reproducible at
a fixed depth.  ``read_suite`` checks everything it reads and refuses a damaged file with its reason.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, TypeGuard

from ..board import is_board, is_game_over, max_rank, rank_of
from ..game import MAX_SEED, Game
from ..game_record import replay
from ..mersenne import MersenneTwister
from . import out_files
from .config import ConfigError
from .records import Record, game_record

SUITE_FORMAT = 1
SUITE_FILE = Path(__file__).resolve().parent / "suites" / "late-16384.json"
"""The suite the repository keeps: positions where a 16384 first formed in the shipped network's greedy games."""


@dataclass(frozen=True)
class Position:
    """A source game's board when its tile first formed: ``seed`` names it and draws its continuation."""

    seed: int
    board: int
    score: int
    moves: int

    def game(self) -> Game:
        """The position as a game to play on: won and kept playing, points and moves already counted."""
        return Game(
            board=self.board,
            score=self.score,
            moves=self.moves,
            won=True,
            keep_playing=True,
            rng=MersenneTwister(self.seed),
            start_score=self.score,
            start_moves=self.moves,
        )

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "board": f"{self.board:016x}", "score": self.score, "moves": self.moves}


@dataclass(frozen=True)
class Suite:
    """The positions, the tile they were taken at, and how they were made (``source``)."""

    tile: int
    source: dict[str, Any]
    positions: tuple[Position, ...]

    @cached_property
    def digest(self) -> str:
        """The SHA-256 of the suite's content: a record names the suite it was played on by it."""
        return hashlib.sha256(self.to_text().encode()).hexdigest()

    def to_text(self) -> str:
        """The suite as its file holds it: one position a line, so a diff shows which changed."""
        head = {"format": SUITE_FORMAT, "tile": self.tile, "source": self.source}
        lines = ",\n".join("  " + json.dumps(p.to_json()) for p in self.positions)
        return json.dumps(head, indent=1)[:-2] + ',\n "positions": [\n' + lines + "\n ]\n}\n"

    def sample(self, count: int | None, seed: int) -> list[Position]:
        """``count`` positions drawn without replacement by ``random.Random(seed)``, in the suite's order;
        all of them for ``None``."""
        if count is None or count >= len(self.positions):
            return list(self.positions)
        if count < 1:
            raise ConfigError(f"--sample is at least 1, got {count}")
        chosen = set(random.Random(seed).sample(range(len(self.positions)), count))
        return [p for i, p in enumerate(self.positions) if i in chosen]


def write_suite(suite: Suite, path: Path) -> None:
    """Write ``suite`` to ``path`` (a new file beside it, then renamed: a crash leaves the old file whole)."""
    out_files.write_text(path, suite.to_text())


def read_suite(path: Path) -> Suite:
    """The suite in ``path``, every field checked; ``ConfigError`` naming the file and what is wrong."""
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise ConfigError(f"cannot read the suite {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ConfigError(f"{path} is not a suite (not JSON: {exc})") from None
    try:
        return parse_suite(data)
    except ValueError as exc:
        raise ConfigError(f"{path} is not a usable suite: {exc}") from None


def parse_suite(data: Any) -> Suite:
    """A suite from its JSON value; ``ValueError`` saying what is wrong (the first thing found)."""
    if not isinstance(data, dict):
        raise ValueError("it holds no JSON object")
    if data.get("format") != SUITE_FORMAT:
        raise ValueError(f"format {data.get('format')!r}, this lab reads format {SUITE_FORMAT}")
    tile = data.get("tile")
    if not _whole(tile) or tile < 4 or tile & (tile - 1) or tile > 1 << 15:
        raise ValueError(f"tile {tile!r} is not a tile from 4 to 32768")
    source = data.get("source")
    if not isinstance(source, dict):
        raise ValueError("its source (how the positions were made) is missing")
    items = data.get("positions")
    if not isinstance(items, list) or not items:
        raise ValueError("it holds no positions")
    positions = tuple(_position(item, number, tile) for number, item in enumerate(items, start=1))
    seeds = [p.seed for p in positions]
    if len(set(seeds)) != len(seeds):
        twice = sorted({s for s in seeds if seeds.count(s) > 1})
        raise ValueError(f"seed(s) {', '.join(map(str, twice[:5]))} name more than one position")
    return Suite(tile, source, positions)


def _position(item: Any, number: int, tile: int) -> Position:
    """Position ``number`` (from 1) of a suite of ``tile``, checked."""
    where = f"position {number}"
    if not isinstance(item, dict):
        raise ValueError(f"{where} is not an object")
    seed, text, score, moves = (item.get(key) for key in ("seed", "board", "score", "moves"))
    if not _whole(seed) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{where}: seed {seed!r} is not a whole number from 0 to {MAX_SEED}")
    if not isinstance(text, str) or not 1 <= len(text) <= 16:
        raise ValueError(f"{where}: board {text!r} is not 16 hexadecimal digits")
    try:
        board = int(text, 16)
    except ValueError:
        raise ValueError(f"{where}: board {text!r} is not 16 hexadecimal digits") from None
    if text.strip() != text or not is_board(board):
        raise ValueError(f"{where}: board {text!r} is not 16 hexadecimal digits")
    if max_rank(board) != rank_of(tile):
        raise ValueError(f"{where}: its largest tile is {1 << max_rank(board)}, not the suite's {tile}")
    if is_game_over(board):
        raise ValueError(f"{where}: no move is left on its board")
    if not _whole(score) or score < 0 or not _whole(moves) or moves < 0:
        raise ValueError(f"{where}: score {score!r} and moves {moves!r} are whole numbers from 0")
    return Position(seed, board, score, moves)


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def positions_of(records: Iterable[Record], tile: int) -> list[Position]:
    """Each game of ``records`` (lab games stopped at ``tile``) that reached it, as its board at that moment,
    rebuilt by replaying the game's own record; in seed order."""
    found = []
    for record in records:
        if record.get("stop_tile") != tile:
            raise ConfigError(f"the game of seed {record.get('seed')} was not stopped at {tile} (--stop-tile {tile})")
        if not record.get("reached_stop"):
            continue
        saved = game_record(record)
        if saved is None:
            raise ConfigError(f"the game of seed {record['seed']} was saved without its moves: play it again")
        game = replay(saved)
        found.append(Position(saved.seed, game.board, game.score, game.moves))
    return sorted(found, key=lambda p: p.seed)


def build_suite(records: Sequence[Record], tile: int, command: str, network: str) -> Suite:
    """The suite of the games in ``records``: their positions at ``tile``, and a source naming the command,
    the player, the network file's SHA-256 (``network``, or empty) and the seeds played."""
    if not records:
        raise ConfigError("no games to take positions from")
    first = records[0]
    seeds = sorted(r["seed"] for r in records)
    source = {
        "command": command,
        "player": f"{first.get('algorithm')}:{first.get('preset')} "
        + (f"depth {first['depth']}" if first.get("depth") is not None else f"{first.get('think_ms')} ms"),
        "network_sha256": network,
        "games": len(records),
        "seeds": f"{seeds[0]}-{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1)) else seeds,
    }
    positions = positions_of(records, tile)
    if not positions:
        raise ConfigError(f"none of the {len(records)} games reached {tile}")
    return Suite(tile, source, tuple(positions))


def suite_records(records: Sequence[Record], suite: Suite) -> dict[int, Record]:
    """The records of games played on ``suite``'s positions, by seed; ``ConfigError`` for a game of another
    suite (its digest) or of a seed the suite does not hold."""
    seeds = {p.seed for p in suite.positions}
    done = {}
    for record in records:
        if record.get("suite") != suite.digest:
            raise ConfigError(
                f"the game of seed {record.get('seed')} was played on another suite ({record.get('suite')}); "
                "give another --out"
            )
        if record["seed"] not in seeds:
            raise ConfigError(f"the suite holds no position of seed {record['seed']}")
        done[record["seed"]] = record
    return done
