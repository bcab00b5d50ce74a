"""The review's page modules in MicroPython (the page's main thread) give what CPython gives: the batches, the sums,
the words, the chart, the arrows and the stored form, from the same worker answers."""

from __future__ import annotations

import json

from micropython_runner import json_outputs
from test_app_review_figures import mixed

from app.ai import worker
from app.games.review_figures import batches
from game2048.game_record import positions

SCRIPT = """
from app.browser.storage import MemoryBackend, Storage
from app.games.review_chart import chart_svg, chart_words, tiles_reached
from app.games.review_figures import GameReview, batches, graded_move
from app.games.review_store import ReviewStore, game_key, record_key, with_accuracy
from app.games.review_view import move_html, summary_html, worst_html
from game2048.game_record import GameRecord, positions

seed, letters, answers = json.loads(DATA)
names = {"u": "up", "r": "right", "d": "down", "l": "left"}
record = GameRecord(seed, [names[c] for c in letters])
steps = positions(record)
moves = [graded_move(m) for answer in answers for m in answer["moves"]]
review = GameReview(moves, answers[0]["preset"], answers[0]["points"], answers[0]["grades"])
tiles = tiles_reached(steps)
store = ReviewStore(Storage(MemoryBackend()))
store.put(record_key(record), review)
back = store.get(record_key(record))
figures = review.figures
print(json.dumps({
    "batches": batches(record, steps),
    "counts": figures.counts,
    "accuracy": figures.accuracy,
    "worst": [m["number"] for m in figures.worst],
    "html": summary_html(review) + worst_html(review) + move_html(moves[3], review.units()),
    "chart": chart_svg(review, tiles) + chart_words(review, tiles),
    "key": game_key(seed, letters),
    "stored": [m["lost"] for m in back.moves],
    "accuracies": store.accuracies(),
}))
"""


def test_the_review_modules_give_the_same_in_micropython():
    record = mixed(40)
    answers = [
        json.loads(worker.review(json.dumps(dict(request, preset="rows"))))
        for request in batches(record, positions(record))
    ]
    letters = "".join(move[0] for move in record.moves)
    micropython, cpython = json_outputs(SCRIPT, {}, [record.seed, letters, answers])
    assert micropython == cpython
    assert isinstance(cpython, dict) and cpython["counts"] and "review-arrow-best" in cpython["html"]
