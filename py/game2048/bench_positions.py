"""The bench's fixed positions: early, middle and late boards from seeded games, frozen as data.

The bench must measure the same work every time, so its positions are not
regenerated on each run: they were produced once by ``generate()`` (seeded
games played by alpha-beta at a fixed depth, which is the same on every
machine, without the rescue search, which did not exist then) and pasted
below.  Regenerate with ``python -m game2048.bench_positions`` only on purpose
(for example after a change of rules), and say so in the
commit, because bench numbers before and after are then not comparable.

Phases, by the game's largest tile: *early* is move 30 (a handful of small
tiles), *middle* is 10 moves after the first 256, *late* is 10 moves after the
first 1024 (a crowded board, where the search tree is narrow but deep).
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, max_rank

GENERATION_DEPTH = 3
PER_PHASE = 8
EARLY_MOVE = 30
AFTER_FIRST = 10
PHASE_RANKS = {"middle": 8, "late": 10}
"""The largest-tile rank whose first appearance (plus ``AFTER_FIRST`` moves) marks a phase: 256 and 1024."""


@dataclass(frozen=True)
class BenchPosition:
    """One bench board and where it came from (seeded game, move number), so it can be replayed."""

    phase: str
    seed: int
    move_number: int
    board: Board

    @property
    def name(self) -> str:
        return f"{self.phase}-s{self.seed}-m{self.move_number}"


def generate(per_phase: int = PER_PHASE, depth: int = GENERATION_DEPTH, first_seed: int = 1) -> list[BenchPosition]:
    """Play seeded games at a fixed depth until every phase has ``per_phase`` positions.

    Games that never reach a phase's tile contribute to the earlier phases
    only; seeds are tried in order from ``first_seed``, so the result is the
    same on every machine.
    """
    from .game import Game
    from .search import best_move

    found: dict[str, list[BenchPosition]] = {"early": [], "middle": [], "late": []}
    seed = first_seed
    while any(len(v) < per_phase for v in found.values()):
        game = Game.new(seed)
        moves = 0
        marks = {"early": EARLY_MOVE}
        while not game.over and max_rank(game.board) < 11:
            for phase, rank in PHASE_RANKS.items():
                if phase not in marks and max_rank(game.board) >= rank:
                    marks[phase] = moves + AFTER_FIRST
            for phase, at in marks.items():
                if at == moves and len(found[phase]) < per_phase:
                    found[phase].append(BenchPosition(phase, seed, moves, game.board))
            move = best_move(game.board, depth=depth, rescue=False).move
            assert move is not None  # the game is not over: some move is legal
            game.play(move)
            moves += 1
        seed += 1
    return found["early"] + found["middle"] + found["late"]


POSITIONS: tuple[BenchPosition, ...] = (
    BenchPosition("early", 1, 30, 0x1254003100010001),
    BenchPosition("early", 2, 30, 0x2001210031005320),
    BenchPosition("early", 3, 30, 0x1005001400130003),
    BenchPosition("early", 4, 30, 0x4100410050011000),
    BenchPosition("early", 5, 30, 0x0431052100020100),
    BenchPosition("early", 6, 30, 0x0012001200040235),
    BenchPosition("early", 7, 30, 0x0001000300220354),
    BenchPosition("early", 8, 30, 0x0001100201330335),
    BenchPosition("middle", 1, 195, 0x2001832074004210),
    BenchPosition("middle", 2, 149, 0x0000100100240854),
    BenchPosition("middle", 3, 131, 0x3312410080001000),
    BenchPosition("middle", 4, 140, 0x4312840032102000),
    BenchPosition("middle", 5, 172, 0x3586332010000010),
    BenchPosition("middle", 6, 142, 0x1348021300040012),
    BenchPosition("middle", 7, 144, 0x3221045800000100),
    BenchPosition("middle", 8, 176, 0x0008001601540014),
    BenchPosition("late", 2, 547, 0x10010133134A2456),
    BenchPosition("late", 3, 495, 0x100031003110A542),
    BenchPosition("late", 4, 598, 0xA742653101420121),
    BenchPosition("late", 5, 585, 0x8320A30021013000),
    BenchPosition("late", 6, 579, 0x7A31520063011200),
    BenchPosition("late", 8, 535, 0x1442006A00250001),
    BenchPosition("late", 9, 530, 0x1163054A11250012),
    BenchPosition("late", 10, 603, 0x010A133802242121),
)


def main() -> None:
    """Print freshly generated positions in the form of ``POSITIONS`` above, to paste."""
    print("POSITIONS: tuple[BenchPosition, ...] = (")
    for p in generate():
        print(f'    BenchPosition("{p.phase}", {p.seed}, {p.move_number}, 0x{p.board:016X}),')
    print(")")


if __name__ == "__main__":
    main()


__all__ = ["BenchPosition", "POSITIONS", "generate"]
