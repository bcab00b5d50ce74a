"""What the lab plays: an algorithm, a preset and its weights, a time or depth per move, a stop tile.

Parsed and checked here, before any game starts, so a typo in a weight name
fails in a second with the list of known names instead of after an hour.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..board import from_rows, rank_of
from ..evaluation import classic, corner, learned, ntuple_file, rows, snake
from ..search import DEFAULT_PRESETS, SearchOptions, decide, rescues
from . import arguments as A

FEATURE_WEIGHTS: dict[str, tuple[str, ...]] = {
    "classic": tuple(classic.DEFAULT_WEIGHTS),
    "rows": rows.FEATURE_WEIGHTS,
    "snake": snake.FEATURE_WEIGHTS,
    "corner-weights": corner.FEATURE_WEIGHTS,
}
"""For each preset, the weights that switch one feature on; the others (exponents, constants) are parameters."""


class ConfigError(ValueError):
    """A configuration that cannot be played; the message says what is accepted."""


THINK_POLICIES = ("even", "crowded")
"""How a timed game may spend its time (``PlayConfig.think_policy``)."""


@dataclass(frozen=True)
class PlayConfig:
    """How every move of a game is chosen, and when the game stops (``stop_tile`` 0: play to the end)."""

    algorithm: str = "alphabeta"
    preset: str | None = None
    weights: Mapping[str, float] = field(default_factory=dict)
    think_ms: float = 100.0
    depth: int | None = None
    stop_tile: int = 2048
    reductions: bool = False
    """Alpha-beta's late-move reductions (off: the exact search, the default)."""
    rescue: bool | None = None
    """Alpha-beta's rescue search of a proven loss; ``None``: the algorithm's default (alpha-beta's is on)."""
    think_policy: str = "even"
    """How a timed game spends its time: ``even`` (``think_ms`` every move) or ``crowded`` (``think_ms`` on
    average, more on crowded boards: ``search.think_time``)."""
    network: str | None = None
    """The network file the ``learned`` preset reads (its manifest beside it), e.g. a run's export; ``None``: the
    shipped ``networks/4x6.ntn``."""

    @property
    def rescues(self) -> bool:
        """Whether the games are played with the rescue search: ``rescue`` resolved for the algorithm."""
        return rescues(self.algorithm, self.rescue)

    @property
    def preset_name(self) -> str:
        return self.preset or DEFAULT_PRESETS.get(self.algorithm, "classic")

    def label(self) -> str:
        """Short name for tables and charts: ``expectimax:rows depth 2`` or ``alphabeta:classic 100 ms``."""
        text = f"{self.algorithm}:{self.preset_name}"
        if self.weights:
            text += "[" + ",".join(f"{k}={v:g}" for k, v in self.weights.items()) + "]"
        if self.reductions:
            text += " reductions"
        if self.algorithm == "alphabeta" and not self.rescues:
            text += " no-rescue"
        if self.network:
            text += f" ({Path(self.network).name})"
        if self.think_policy != "even":
            text += f" {self.think_policy}"
        return text + (f" depth {self.depth}" if self.depth is not None else f" {self.think_ms:g} ms")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["weights"] = dict(self.weights)
        data["preset"] = self.preset_name
        data["rescue"] = self.rescues
        if self.depth is not None:
            data["think_ms"] = None  # a fixed-depth search has no time limit
        return data

    def search_options(self) -> SearchOptions:
        """The search of every move (``ValueError`` for settings no search accepts)."""
        weights = dict(self.weights) or None
        return SearchOptions(
            self.algorithm, self.think_ms, self.depth, self.preset, weights, self.reductions, self.rescue
        )

    def check(self) -> PlayConfig:
        """Raise ``ConfigError`` unless every field is playable; also loads the search and builds its tables once
        (and in this process, ``network`` for ``learned``: ``use_network``)."""
        if self.think_policy not in THINK_POLICIES:
            raise ConfigError(f"--think-policy is one of {', '.join(THINK_POLICIES)}, got {self.think_policy!r}")
        if self.think_policy != "even" and self.depth is not None:
            raise ConfigError("a think-time policy spends --think-ms; at a fixed --depth there is no time to spend")
        if self.network is not None and self.preset_name != "learned":
            raise ConfigError(f"--network is the learned preset's network; the preset here is {self.preset_name}")
        use_network(self.network)
        try:
            options = self.search_options()
            options.evaluator()
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if self.stop_tile:
            try:
                rank = rank_of(self.stop_tile)
            except ValueError:
                rank = 0
            if rank < 2:
                raise ConfigError(
                    f"stop tile must be 0 (play to the end) or a tile value from 4 up, got {self.stop_tile}"
                )
        # A depth-1 search imports the algorithm's module and builds its tables now, so that neither is
        # counted in the first move's think time (the page's worker warms up the same way).
        decide(_WARM_UP_BOARD, replace(options, depth=1))
        return self


def add_think_policy(parser: argparse.ArgumentParser) -> None:
    """``--think-policy``, read by ``play_config``."""
    parser.add_argument(
        "--think-policy",
        choices=THINK_POLICIES,
        default="even",
        help="even: --think-ms every move (default); crowded: --think-ms on average, more on crowded boards "
        "(at most 20×), each move's budget kept in its line",
    )


def play_config(args: argparse.Namespace) -> PlayConfig:
    """The checked ``PlayConfig`` a command's arguments describe (``run``, ``features``, ``suite``); options a
    command does not offer keep their defaults."""
    return PlayConfig(
        algorithm=args.algorithm,
        preset=args.preset,
        weights=parse_weights(args.weights),
        think_ms=args.think_ms,
        depth=args.depth,
        stop_tile=args.stop_tile,
        reductions=getattr(args, "reductions", False),
        rescue=getattr(args, "rescue", None),
        network=getattr(args, "network", None),
        think_policy=getattr(args, "think_policy", "even"),
    ).check()


_network_in_use: str | None = None
_networks_read: dict[str, ntuple_file.Network] = {}
"""The network files this process has read, by path: a compare of two networks switches between them per game."""


def use_network(path: str | None) -> None:
    """Make ``learned`` in this process read the network file ``path``, checked against its manifest beside it
    (``None``: the shipped one); read once per process and path.  ``ConfigError`` says what is wrong with it."""
    global _network_in_use
    if path == _network_in_use:
        return
    if path is not None and path not in _networks_read:
        _networks_read[path] = read_network(path)[0]
    learned.install(None if path is None else _networks_read[path])  # None: the shipped one, read at first use
    _network_in_use = path


def read_network(path: str | Path | None) -> tuple[ntuple_file.Network, dict[str, Any]]:
    """The network file ``path`` and its manifest (beside it), checked against each other; ``None``: the shipped
    one.  ``ConfigError`` says what is wrong with either."""
    file = learned.NETWORK_DIR / learned.NETWORK_FILE if path is None else Path(path)
    try:
        manifest = json.loads(file.with_suffix(".json").read_text())
        if not isinstance(manifest, dict):
            raise ValueError("its manifest is not a JSON object")
        return ntuple_file.read(file, manifest), manifest
    except (OSError, ValueError) as exc:  # NetworkError is a ValueError
        raise ConfigError(f"cannot use the network {file} (with its manifest beside it): {exc}") from None


def is_shipped_network(path: Path) -> bool:
    """Whether writing the network file ``path`` and its manifest would write the shipped network's (through any
    link or spelling)."""
    shipped = learned.NETWORK_DIR / learned.NETWORK_FILE
    theirs = {shipped.resolve(), shipped.with_suffix(".json").resolve()}
    return bool({Path(path).resolve(), Path(path).with_suffix(".json").resolve()} & theirs)


def network_sha256(path: str | None) -> str:
    """The SHA-256 of the network file ``path`` as its manifest names it (``None``: the shipped network's)."""
    if path is None:
        return str(learned.manifest()["sha256"])
    return str(json.loads(Path(path).with_suffix(".json").read_text())["sha256"])


_WARM_UP_BOARD = from_rows([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]])


def parse_weights(text: str | None) -> dict[str, float]:
    """``"a=1,b=2.5"`` → ``{"a": 1.0, "b": 2.5}``; empty or None → ``{}``."""
    weights: dict[str, float] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"weights are written name=value,name=value; got {part!r}")
        try:
            number = float(value)
        except ValueError:
            raise ConfigError(f"weight {name.strip()!r} needs a number, got {value!r}") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise ConfigError(f"weight {name.strip()!r} must be finite, got {value!r}")
        weights[name.strip()] = number
    return weights


def parse_config_spec(
    spec: str,
    think_ms: float,
    depth: int | None,
    stop_tile: int,
    reductions: bool = False,
    rescue: bool | None = None,
    network: str | None = None,
) -> PlayConfig:
    """``algorithm[:preset[:name=value,...]]`` (``compare --config``) with the shared time, depth, stop tile, options.

    ``reductions=True`` (``--reductions``) and ``rescue=False`` (``--no-rescue``)
    apply to the alpha-beta configurations only.  ``learned@FILE`` as the preset plays the network file ``FILE``
    (``expectimax:learned@lab-out/mine.ntn``); a plain ``learned`` plays ``network`` (``None``: the shipped one).
    """
    parts = spec.split(":", 2)
    algorithm = parts[0].strip()
    preset = parts[1].strip() or None if len(parts) > 1 else None
    if preset is not None and "@" in preset:  # its own network, refused by check() unless the preset is learned
        preset, network = (part.strip() for part in preset.split("@", 1))
        if not network:
            raise ConfigError(f"{spec!r}: learned@FILE names a network file after the @")
    elif (preset or DEFAULT_PRESETS.get(algorithm, "classic")) != "learned":
        network = None  # the command's --network is the learned configurations'
    weights = parse_weights(parts[2]) if len(parts) > 2 else {}
    alphabeta = algorithm == "alphabeta"
    return PlayConfig(
        algorithm,
        preset,
        weights,
        think_ms,
        depth,
        stop_tile,
        reductions and alphabeta,
        rescue if alphabeta else None,
        network=network,
    ).check()


def parse_seeds(seeds: str | None, games: int | None, seed_start: int) -> list[int]:
    """``--seeds 1,2,10-14`` or ``--games N --seed-start S``; seeds in the order given, no repeats."""
    if seeds:
        ranges: list[range] = []
        for part in seeds.split(","):
            part = part.strip()
            if not part:
                continue
            lo, dash, hi = part.partition("-")
            try:
                first, last = (A.whole(*A.SEED)(lo), A.whole(*A.SEED)(hi)) if dash else (A.whole(*A.SEED)(part),) * 2
                if last < first:
                    raise argparse.ArgumentTypeError(f"{last:,} is less than {first:,}")
            except argparse.ArgumentTypeError as exc:
                raise ConfigError(f"seeds are whole numbers or ranges like 10-14, got {part[:40]!r}: {exc}") from None
            ranges.append(range(first, last + 1))
            if sum(map(len, ranges)) > A.MAX_GAMES:  # counted before a list of them is made
                raise ConfigError(f"--seeds names more than {A.MAX_GAMES:,} games, the most one command plays")
        if not ranges:
            raise ConfigError("--seeds names no seed")
        return list(dict.fromkeys(seed for span in ranges for seed in span))
    if games is None or not A.GAMES[0] <= games <= A.GAMES[1]:
        raise ConfigError(f"the number of games is from 1 to {A.MAX_GAMES:,}, got {games}")
    if seed_start < 0 or seed_start + games - 1 > A.SEED[1]:
        raise ConfigError(f"the seeds are from 0 to {A.SEED[1]:,}: --seed-start {seed_start} and --games {games}")
    return list(range(seed_start, seed_start + games))
