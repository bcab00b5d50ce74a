"""The review's chart: the value line, the player's mistakes as dots that open their move, the tiles reached, and
all of it said in words."""

from __future__ import annotations

import re

from app.games.review_chart import LINE_POINTS, chart_svg, chart_title, chart_words, tiles_reached
from app.games.review_figures import GameReview
from game2048.board import from_rows
from game2048.search.review import GRADES


def steps_with_tiles(count: int, tile_at: dict[int, int]) -> list[tuple[int, int]]:
    """``count + 1`` positions whose largest tile grows at the moves given."""
    tile, steps = 128, []
    for number in range(count + 1):
        tile = tile_at.get(number, tile)
        steps.append((from_rows([[tile, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]), 0))
    return steps


def review(count: int) -> GameReview:
    moves = []
    for number in range(1, count + 1):
        grade = "blunder" if number == 7 else "mistake" if number == 9 else "best"
        moves.append(
            {
                "number": number,
                "played": "up",
                "best": "up",
                "lost": 0.0,
                "grade": grade,
                "by_ai": number == 9,
                "value": 1000.0 + 10 * number,
            }
        )
    return GameReview(moves, "learned", True, list(GRADES))


def test_the_tiles_reached_are_the_moves_where_each_new_largest_tile_appeared():
    assert tiles_reached(steps_with_tiles(20, {5: 256, 12: 512})) == [(5, 256), (12, 512)]


def test_the_chart_marks_the_players_mistakes_not_the_ais_and_says_what_it_shows():
    steps = steps_with_tiles(20, {5: 256})
    tiles = tiles_reached(steps)
    svg = chart_svg(review(20), tiles)
    assert svg.count("review-mark") == 1 and 'data-move="7"' in svg and 'data-move="9"' not in svg
    assert 'class="review-tile"' in svg and ">256</text>" in svg
    title = chart_title(review(20), tiles)
    assert title.startswith("The value after each of 20 moves, in points, from 1010 to 1200")
    assert "1 of your moves marked as mistakes or blunders; tiles reached: 256 at move 5." in title
    words = chart_words(review(20), tiles)
    assert "256 reached at move 5" in words and 'data-move="7">Move 7: blunder</button>' in words


def test_a_long_games_line_is_thinned():
    svg = chart_svg(review(3000), [])
    points = re.search(r'<polyline points="([^"]*)"', svg)
    assert points is not None and len(points.group(1).split()) <= LINE_POINTS + 1
