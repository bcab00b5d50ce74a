"""``python -m game2048.lab review`` and ``review-truth``: games graded move by move, and the grades checked.

``review FILE…`` grades every game of lab files (``run --out``: lines holding ``record``) or of games the page
exported, with the page's review (``search.review``: the network's expectimax at a fixed depth), and prints
per file the moves per grade, the accuracy and the points lost a move (two files side by side: two players
compared by the same grades; a game the AI played alone is graded as its player's, a mixed game's AI moves are
left out); ``--out`` keeps every graded move as JSON lines.  ``review-truth`` measures
whether the grades are true (``review_truth``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from ..evaluation import presets
from ..game_record import GameRecord, RecordError
from ..search import SearchOptions
from ..search.review import GRADE_BOUNDS, GRADES, REVIEW_DEPTH, MoveReview, review_game, summarize
from ..search.review_playouts import PLAYOUT_MOVES, PLAYOUTS
from . import arguments as A
from . import out_files
from .config import ConfigError, read_network, use_network
from .summary import text_table


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``review`` and ``review-truth`` subcommands' options."""
    review = sub.add_parser("review", help="every move of saved games graded by the AI: best … blunder, accuracy")
    review.add_argument("files", type=Path, nargs="+", help="lab files (run --out) or games the page exported")
    _grading_options(review)
    review.add_argument("--out", type=Path, help="every graded move as one JSON line (game, move, grade, …)")
    _review_playouts_option(review, "--playouts")
    truth = sub.add_parser("review-truth", help="the review's points lost against what playing on shows")
    truth.add_argument("--moves", type=A.whole(1, 100_000), default=300, help="moves not the best, measured (300)")
    truth.add_argument("--playouts", type=A.whole(2, 10_000), default=1024, help="greedy games a move (default 1,024)")
    truth.add_argument("--noise", type=A.number(0.0, 1.0), default=0.2, help="share of random moves (default 0.2)")
    truth.add_argument("--seed", type=A.whole(*A.SEED), default=1, help="the first noisy game's seed (default 1)")
    truth.add_argument(
        "--player",
        choices=sorted(presets.PRESETS),
        default="learned",
        help="the preset whose one-move choices the noisy games play (default learned: the network)",
    )
    truth.add_argument(
        "--horizon",
        type=A.whole(0, 100_000),
        default=100,
        help="playouts stop after this many moves and add the network's value there (default 100; 0: to the end)",
    )
    _review_playouts_option(truth, "--grader-playouts")
    _grading_options(truth)


def _review_playouts_option(parser: argparse.ArgumentParser, flag: str) -> None:
    """The review's playouts a measured loss (``grade_move``'s ``playouts``), under ``flag``."""
    parser.add_argument(
        flag,
        type=A.whole(0, 10_000),
        default=PLAYOUTS,
        help=f"the review's losses by this many pairs of {PLAYOUT_MOVES}-move playouts ({PLAYOUTS}, the page's; 0: "
        "its search's values)",
    )


def _grading_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--depth", type=A.DEPTH, default=REVIEW_DEPTH, help=f"the review's depth ({REVIEW_DEPTH})")
    parser.add_argument(
        "--network", help="the network file that values moves (its manifest beside it; default: the shipped one)"
    )


def _evaluator(network: str | None):  # type: ignore[no-untyped-def]
    """The learned evaluation of ``network`` (``None``: the shipped one), read and checked once."""
    use_network(network)
    return SearchOptions("expectimax", depth=1, preset="learned").evaluator()


def records_of(path: Path) -> list[GameRecord]:
    """The games of a lab file (lines with ``record``) or of one game the page exported (a JSON object)."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    games = []
    try:
        if text.lstrip().startswith("{") and "\n{" not in text.strip():
            data = json.loads(text)
            games.append(GameRecord.from_dict(data.get("record", data)))
        else:
            for line in text.splitlines():
                if line.strip():
                    data = json.loads(line)
                    if isinstance(data, dict) and "record" in data:
                        games.append(GameRecord.from_dict(data["record"]))
    except (ValueError, RecordError, AttributeError) as exc:
        raise ConfigError(f"{path} holds no game this lab can replay: {exc}") from None
    if not games:
        raise ConfigError(f"{path} holds no recorded game (lines written by run --out since games were recorded)")
    return games


def review(args: argparse.Namespace) -> None:
    """Grade every game of every file; print a table per file side by side; keep the moves with ``--out``."""
    evaluate = _evaluator(args.network)
    columns = ["file", "games", "moves (yours)", *GRADES, "accuracy", "points lost a move"]
    rows, lines = [], []
    for path in args.files:
        graded: list[MoveReview] = []
        started = time.perf_counter()
        records = records_of(path)
        for number, record in enumerate(records, 1):
            # A game the AI played alone (every lab run's) is graded as its player's; a mixed one marks the AI's moves.
            moves = review_game(
                record, evaluate, args.depth, mark_ai=not all(record.chosen_by_ai()), playouts=args.playouts
            )
            graded += moves
            lines += [
                json.dumps({"file": str(path), "game": number, "seed": record.seed, **m.to_dict()}) for m in moves
            ]
        summary = summarize(graded)
        accuracy = "" if summary.accuracy is None else f"{summary.accuracy:.1f} %"
        per_move = summary.lost / summary.yours if summary.yours else 0.0
        rows.append(
            [path.name, str(len(records)), f"{summary.yours:,}", *(f"{summary.counts[g]:,}" for g in GRADES), accuracy]
            + [f"{per_move:,.0f}"]
        )
        print(f"{path}: {len(graded):,} moves graded in {time.perf_counter() - started:,.0f} s", flush=True)
    losses = f", losses by {args.playouts} pairs of {PLAYOUT_MOVES}-move playouts" if args.playouts else ""
    print(
        f"graded by expectimax depth {args.depth} with the network {args.network or '(shipped)'}{losses}: "
        f"{bounds_line()}"
    )
    print(text_table(columns, rows))
    if args.out:
        out_files.write_text(args.out, "".join(line + "\n" for line in lines))
        print(f"graded moves written to {args.out}")


def _evaluator_of(preset: str):  # type: ignore[no-untyped-def]
    """The one-move evaluation of ``preset`` (a noisy player's choices)."""
    return SearchOptions("expectimax", depth=1, preset=preset).evaluator()


def bounds_line() -> str:
    """The grades' bounds in words: points lost at most, per grade."""
    parts = [f"{grade} ≤ {bound:,g}" for grade, bound in zip(GRADES, GRADE_BOUNDS)]
    return ", ".join(parts) + f" points lost, {GRADES[-1]} more"


def truth(args: argparse.Namespace) -> None:
    """The review's predicted losses against playouts: Spearman's correlation and the measured cost per grade."""
    from .review_truth import by_grade, measure, self_agreement, spearman

    evaluate = _evaluator(args.network)
    network = read_network(args.network)[0]
    started = time.perf_counter()
    count = [0]

    def heard(row: Any) -> None:
        count[0] += 1
        if count[0] % 25 == 0:
            print(f"{count[0]} moves graded, {time.perf_counter() - started:,.0f} s", flush=True)

    rows = measure(
        network,
        evaluate,
        args.moves,
        args.playouts,
        args.noise,
        args.seed,
        args.depth,
        on_row=heard,
        horizon=args.horizon,
        player=None if args.player == "learned" else _evaluator_of(args.player),
        grader_playouts=args.grader_playouts,
    )
    measured = [r for r in rows if r.measured_move]
    print(
        f"{len(rows)} moves of {args.player}'s noisy games (noise {args.noise:g}, seeds from {args.seed}), "
        f"{len(measured)} not the "
        f"best, each measured by {args.playouts} greedy games after it and after the best "
        f"({f'{args.horizon} moves, then the network' if args.horizon else 'to the end'}); depth {args.depth}"
        f"{f', losses by {args.grader_playouts} pairs of playouts' if args.grader_playouts else ''}; "
        f"{time.perf_counter() - started:,.0f} s"
    )
    print(f"Spearman's correlation, predicted against measured loss: {spearman(rows):.3f}")
    half, whole = self_agreement(rows)
    print(
        f"The measure against itself (its two halves of the playouts): {half:.3f}; with all of them "
        f"(Spearman-Brown) {whole:.3f}, so no grader can show much above {max(whole, 0.0) ** 0.5:.2f}"
    )
    print(text_table(("grade", "moves", "predicted loss, mean", "measured loss, mean ± s.e. (moves)"), by_grade(rows)))
