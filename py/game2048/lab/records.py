"""The lab's game records on disk: one JSON line per game, written as each game ends, read back to resume.

A 100 ms run played to the end takes hours; a run that keeps its games in
memory until the last one finishes loses all of them to one Ctrl-C or a closed
terminal.  So ``run --out`` appends each game the moment it ends (the file is
only ever a list of finished games), rewrites the file in seed order once the
batch is done, and ``run --resume`` reads the games already there back instead
of playing them again.

A line holds the per-game fields the summary prints (seed, max tile, score,
moves, think-time p50/p99/max, depth median/p10, ...), the configuration that
played the game, and every move's think time and completed depth
(``move_think_ms``, ``move_depths``), so a summary of games read back is the
same summary as of games just played, percentiles over every move included.
Lines written since games were recorded also hold ``record``, the game itself
(``GameRecord.to_dict()``: its moves and each move's decision); older lines
lack it and read as before, only without a game to replay or link to.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..game_record import GameRecord, RecordError
from . import out_files
from .config import ConfigError, PlayConfig

Record = dict[str, Any]

PER_MOVE_FIELDS = {"_think_ms": "move_think_ms", "_depths": "move_depths", "_budgets": "move_budget_ms"}
"""In-memory per-move lists → their names in a line (underscored names stay out of tables and reports)."""

CONFIG_FIELDS = (
    "algorithm",
    "preset",
    "weights",
    "think_ms",
    "depth",
    "stop_tile",
    "reductions",
    "rescue",
    "network",
    "think_policy",
)
"""The fields of a line that say how its game was played; a resumed run must match them all."""


def to_json(record: Record) -> Record:
    """The record as a JSON object: per-move lists renamed, think times rounded to 0.01 ms."""
    out: Record = {}
    for key, value in record.items():
        if key in ("_think_ms", "_budgets"):
            out[PER_MOVE_FIELDS[key]] = [round(x, 2) for x in value]
        elif key in PER_MOVE_FIELDS:
            out[PER_MOVE_FIELDS[key]] = list(value)
        elif not key.startswith("_"):
            out[key] = value
    return out


def from_json(data: Record) -> Record:
    """A line read back as the record ``play_game`` returned (per-move lists under their in-memory names)."""
    record = dict(data)
    for private, public in PER_MOVE_FIELDS.items():
        if public in record:
            record[private] = record.pop(public)
    return record


def to_line(record: Record) -> str:
    return json.dumps(to_json(record)) + "\n"


def read(path: Path) -> list[Record]:
    """Every game in a records file.

    A last line cut short (the process was killed while writing it) is dropped,
    since that game will simply be played again; a broken line anywhere else
    means the file is not a records file, and is refused with its line number.
    """
    records = []
    try:
        lines = path.read_bytes().decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not a records file: byte {exc.start:,} is not text (UTF-8)") from None
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or not isinstance(data.get("seed"), int):
                raise ValueError("not a game record")
        except ValueError as exc:
            if number == len(lines):
                continue
            raise ConfigError(f"{path}:{number} is not a game record ({exc}); give another --out") from None
        records.append(from_json(data))
    return records


def game_record(record: Record) -> GameRecord | None:
    """The game a line holds, replayed and checked; None for a line written before lines held their game.

    A damaged game raises ``ConfigError`` naming its seed and what is wrong.
    """
    data = record.get("record")
    if data is None:
        return None
    try:
        return GameRecord.from_dict(data)
    except RecordError as exc:
        raise ConfigError(f"the saved game of seed {record.get('seed')} is damaged: {exc}") from None


OPTION_FIELDS = ("reductions", "rescue")
"""Search options added after lines were first written: a line without one was played without it."""


def played_option(record: Record, option: str) -> bool:
    """Whether the game's search had ``option`` (one of ``OPTION_FIELDS``); older lines without the field did not."""
    return bool(record.get(option, False))


def config_key(record: Record) -> tuple[Any, ...]:
    """The configuration that played ``record``'s game, as one hashable value: equal keys, same configuration."""
    values = {field: record.get(field) for field in CONFIG_FIELDS}
    for option in OPTION_FIELDS:
        values[option] = played_option(record, option)
    values["think_policy"] = values["think_policy"] or "even"  # lines from before policies spent time evenly
    return tuple(tuple(sorted(value.items())) if isinstance(value, dict) else value for value in values.values())


def resumable(path: Path, config: PlayConfig, seeds: Sequence[int]) -> tuple[dict[int, Record], list[Record]]:
    """(games of ``seeds`` already in ``path``, by seed; the file's other games, to keep).

    Games of another configuration cannot be mixed into this run's summary, and
    dropping them would lose someone's hours of play, so such a file is refused.
    """
    if not path.exists():
        return {}, []
    wanted = set(seeds)
    key = config_key(config.to_dict())
    done: dict[int, Record] = {}
    others: list[Record] = []
    for record in read(path):
        if config_key(record) != key:
            found = {field: record.get(field) for field in CONFIG_FIELDS}
            raise ConfigError(
                f"{path} holds games of another configuration ({found}); "
                "resume with that configuration or give another --out"
            )
        if record["seed"] in wanted:
            done[record["seed"]] = record
        else:
            others.append(record)
    return done, others


def stopped_note(path: Path, kept: int) -> str:
    """What a run stopped before its end says of ``path``, which holds ``kept`` finished games."""
    if kept == 0:
        return f"no game finished, so {path} holds none; the same command with --resume plays them all"
    games = "1 game" if kept == 1 else f"{kept} games"
    return f"{games} finished: they are in {path}; the same command with --resume plays the rest"


class RecordFile:
    """Appends each finished game to ``path`` at once; ``finish`` rewrites the file sorted by seed.

    ``keep`` are records already in the file (a resumed run): the file is
    rewritten with them first, so it never holds a line twice.
    """

    def __init__(self, path: Path, keep: Iterable[Record] = ()) -> None:
        self.path = path
        self.records: list[Record] = list(keep)
        self._write_all(self.records)
        self._file = out_files.appending(path)

    def add(self, record: Record) -> None:
        self.records.append(record)
        self._file.write(to_line(record))
        self._file.flush()

    def finish(self) -> None:
        """Close, and leave the games in seed order (a temporary file and a rename: no moment without them)."""
        self._file.close()
        self._write_all(sorted(self.records, key=lambda r: r["seed"]))

    def close(self) -> None:
        self._file.close()

    def _write_all(self, records: Sequence[Record]) -> None:
        with out_files.replacing(self.path) as f:
            f.writelines(to_line(r) for r in records)
