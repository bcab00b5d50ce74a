"""A review drawn: the figures in words and a table, the worst moves as buttons, a move's two arrows with words."""

from __future__ import annotations

from app.games.review_figures import GameReview
from app.games.review_view import arrows_svg, move_html, summary_html, worst_html
from game2048.search.review import GRADES


def move(number: int, played: str, best: str, lost: float, grade: str, by_ai: bool = False) -> dict:
    return {"number": number, "played": played, "best": best, "lost": lost, "grade": grade, "by_ai": by_ai, "value": 0}


REVIEW = GameReview(
    [
        move(1, "up", "up", 0.0, "best"),
        move(2, "left", "down", 2400.0, "mistake"),
        move(3, "right", "up", 9000.0, "blunder", by_ai=True),
        move(4, "down", "left", 120.0, "good"),
    ],
    "learned",
    True,
    list(GRADES),
)


def test_the_summary_says_the_accuracy_counts_and_the_ais_moves_apart():
    html = summary_html(REVIEW)
    assert "Accuracy 67 %: 3 of your moves graded (1 moves the AI chose are marked as the AI\u2019s" in html
    for grade, count in zip(GRADES, (1, 1, 0, 1, 0)):
        assert f'<th scope="row">{grade}</th><td>{count}</td>' in html
    assert "in points. Where a move was not the best, its loss is measured by playing on" in html
    other = GameReview(REVIEW.moves, "classic", False, list(GRADES))
    assert "playing on" not in summary_html(other)  # a preset's values say the loss: no playouts


def test_the_worst_moves_are_the_players_own_costliest_first_each_a_button_to_its_move():
    html = worst_html(REVIEW)
    assert html.index('data-move="2"') < html.index('data-move="4"') and 'data-move="3"' not in html
    assert "Move 2: mistake, 2400 points lost" in html
    assert "Move 4: good, 120 points lost" in html


def test_a_move_shows_both_arrows_and_says_them():
    html = move_html(REVIEW.moves[1], "points")
    assert "You played left \u2190; the best was down \u2193. Graded mistake:" in html and "lost." in html
    assert 'class="review-arrow-best"' in html and 'class="review-arrow-played"' in html
    assert "<title>Arrows: played left, best down</title>" in html
    same = arrows_svg("up", "up")
    assert "review-arrow-best" in same and "review-arrow-played" not in same
    assert "The AI played right" in move_html(REVIEW.moves[2], "points")
