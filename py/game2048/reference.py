"""Plain, slow statements of the rules and of the search: the oracles the tests compare the fast code with.

Nothing here is used by the game, the page or the searches.  Each function
says the rule the obvious way, with loops over cells and values, so that a
bug in a table, a bit trick or a pruning shortcut cannot hide behind the same
shortcut: the move tables are checked against ``slide_line``, the incremental
placement scores against ``annoyance`` and ``placements``, and alpha-beta
against ``best_moves``, a minimax without pruning, table or ordering over the
same reduced tree (it shares only the tree's rules: win and loss values, what
depth counts).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .board import DIRECTIONS, DOWN, LEFT, MAX_RANK, RIGHT, UP, WIN_RANK, Board, Direction, max_rank, move
from .evaluation.classic import FULL_BOARD_EMPTY
from .search.placements import PLACED_RANKS
from .values import WIN_SCORE, loss_value, win_value

Evaluator = Callable[[Board], float]


def slide_line(values: list[int]) -> tuple[list[int], int, int]:
    """The original game's rule, written plainly over values: (line, points, merges)."""
    tiles = [v for v in values if v]
    out: list[int] = []
    points = merges = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] < 1 << MAX_RANK:
            out.append(2 * tiles[i])
            points += 2 * tiles[i]
            merges += 1
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (4 - len(out)), points, merges


def move_rows(rows: list[list[int]], direction: Direction) -> tuple[list[list[int]], int]:
    """Move a grid of values by sliding each line toward the wall with ``slide_line``."""
    grid = [row[:] for row in rows]
    points = 0
    for i in range(4):
        if direction in (LEFT, RIGHT):
            line = grid[i][:] if direction == LEFT else grid[i][::-1]
        else:
            col = [grid[r][i] for r in range(4)]
            line = col if direction == UP else col[::-1]
        slid, pts, _ = slide_line(line)
        points += pts
        if direction == RIGHT or direction == DOWN:
            slid = slid[::-1]
        for j in range(4):
            if direction in (LEFT, RIGHT):
                grid[i][j] = slid[j]
            else:
                grid[j][i] = slid[j]
    return grid, points


def smoothness(board: Board) -> int:
    """−Σ |a − b| over each tile and its nearest occupied neighbour right and below; a plain loop over cells."""
    grid = [[(board >> (4 * (4 * r + c))) & 0xF for c in range(4)] for r in range(4)]
    total = 0
    for r in range(4):
        for c in range(4):
            a = grid[r][c]
            if not a:
                continue
            for dr, dc in ((0, 1), (1, 0)):
                rr, cc = r + dr, c + dc
                while rr < 4 and cc < 4 and not grid[rr][cc]:
                    rr, cc = rr + dr, cc + dc
                if rr < 4 and cc < 4:
                    total -= abs(a - grid[rr][cc])
    return total


def classic_features(board: int) -> dict[str, float]:
    """ovolve's ai.js grid.smoothness / monotonicity2 / empty / maxValue, cell by cell, over ranks."""
    g = [[(board >> (4 * (4 * r + c))) & 0xF for c in range(4)] for r in range(4)]

    def walk(line: list[int], totals: list[int]) -> None:
        current, nxt = 0, 1
        while nxt < 4:
            while nxt < 4 and not line[nxt]:
                nxt += 1
            if nxt >= 4:
                nxt -= 1
            a, b = line[current], line[nxt]
            if a > b:
                totals[0] += b - a
            elif b > a:
                totals[1] += a - b
            current = nxt
            nxt += 1

    cols, rows = [0, 0], [0, 0]
    for c in range(4):
        walk([g[r][c] for r in range(4)], cols)
    for r in range(4):
        walk(g[r], rows)
    empty = sum(1 for row in g for v in row if not v)
    return {
        "smoothness": smoothness(board),
        "monotonicity": max(cols) + max(rows),
        "empty": math.log(empty) if empty else math.log(FULL_BOARD_EMPTY),
        "max": max(max(row) for row in g),
    }


def islands(board: Board) -> int:
    """The number of groups of equal, 4-connected tiles (empty cells belong to none); a plain flood fill."""
    grid = [[(board >> (4 * (4 * r + c))) & 0xF for c in range(4)] for r in range(4)]
    seen = [[False] * 4 for _ in range(4)]
    islands = 0
    for r in range(4):
        for c in range(4):
            if not grid[r][c] or seen[r][c]:
                continue
            islands += 1
            stack = [(r, c)]
            seen[r][c] = True
            while stack:
                y, x = stack.pop()
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if 0 <= ny < 4 and 0 <= nx < 4 and not seen[ny][nx] and grid[ny][nx] == grid[y][x]:
                        seen[ny][nx] = True
                        stack.append((ny, nx))
    return islands


def annoyance(board: Board) -> int:
    """``−smoothness + islands`` of a board: how much the computer likes a placement that leads here."""
    return -smoothness(board) + islands(board)


def placements(board: Board, ranks: tuple[int, ...] = PLACED_RANKS) -> list[Board]:
    """The most annoying placements of tiles of ``ranks``, scored from scratch (2s then 4s, cells in reading order)."""
    scored = []
    for rank in ranks:
        for cell in range(16):
            if not (board >> (4 * cell)) & 0xF:
                child = board | (rank << (4 * cell))
                scored.append((annoyance(child), child))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    return [child for score, child in scored if score == best]


def _makes_win(board: Board) -> bool:
    return max_rank(board) >= WIN_RANK


def _player_value(board: Board, depth: int, evaluate: Evaluator, win_possible: bool, ranks: tuple[int, ...]) -> float:
    """Value of a max node: the board after a placement, ``depth`` player moves to go."""
    values = []
    for direction in DIRECTIONS:
        child, _ = move(board, direction)
        if child == board:
            continue
        values.append(_move_value(child, depth, evaluate, win_possible, ranks))
    if not values:
        return loss_value(depth)
    return max(values)


def _move_value(child: Board, depth: int, evaluate: Evaluator, win_possible: bool, ranks: tuple[int, ...]) -> float:
    """Value of the board right after a player move, with ``depth`` counting that move."""
    if win_possible and _makes_win(child):
        return win_value(depth)
    if depth == 1:
        return evaluate(child)
    return min(_player_value(placed, depth - 1, evaluate, win_possible, ranks) for placed in placements(child, ranks))


def root_values(
    board: Board, depth: int, evaluate: Evaluator, ranks: tuple[int, ...] = PLACED_RANKS
) -> dict[Direction, float]:
    """The minimax value of every legal move at ``depth`` player moves; the computer places tiles of ``ranks``."""
    win_possible = max_rank(board) < WIN_RANK
    out = {}
    for direction in DIRECTIONS:
        child, _ = move(board, direction)
        if child != board:
            out[direction] = _move_value(child, depth, evaluate, win_possible, ranks)
    return out


def best_moves(
    board: Board, depth: int, evaluate: Evaluator, ranks: tuple[int, ...] = PLACED_RANKS
) -> tuple[float, set[Direction]]:
    """(root value, every move that reaches it); an empty set on a lost board."""
    values = root_values(board, depth, evaluate, ranks)
    if not values:
        return -WIN_SCORE, set()
    best = max(values.values())
    return best, {d for d, v in values.items() if v == best}
