"""The learning curve's chart: its points are the manifest's, placed by their games and scores, its axes named."""

from __future__ import annotations

import re

from app.ai.network_story import story
from app.ai.story_chart import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, curve_summary, curve_svg, short
from game2048.evaluation import learned

MANIFEST = learned.manifest()


def _marks(svg: str, tag: str) -> list[dict[str, str]]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', m)) for m in re.findall(rf"<{tag} ([^>]*)>", svg)]


def test_each_training_point_is_drawn_at_its_games_and_score_in_order():
    content = story(MANIFEST)
    svg = curve_svg(content, "t", "d")
    points = _marks(svg, "circle")
    assert [(int(p["data-games"]), int(p["data-score"])) for p in points] == [
        (point["games"], int(point["mean_score"])) for point in content["curve"]
    ]
    xs, ys = [float(p["cx"]) for p in points], [float(p["cy"]) for p in points]
    assert xs == sorted(xs) and all(LEFT <= x <= WIDTH - RIGHT for x in xs)
    assert all(TOP <= y <= HEIGHT - BOTTOM for y in ys)
    # A point's place is linear in its games and its score: two points fix the scale, every other one fits it.
    (g0, s0), (g1, s1) = [(int(p["data-games"]), int(p["data-score"])) for p in (points[0], points[-1])]
    for p, x, y in zip(points, xs, ys, strict=True):
        games, score = int(p["data-games"]), int(p["data-score"])
        assert abs(x - (xs[0] + (xs[-1] - xs[0]) * (games - g0) / (g1 - g0))) < 0.11
        assert abs(y - (ys[0] + (ys[-1] - ys[0]) * (score - s0) / (s1 - s0))) < 0.11
    # Each run's points are joined, never one run's to the next's (each began from another file).
    lines = _marks(svg, "polyline")
    assert len(lines) == sum(1 for run in content["runs"] if len(run["curve"]) > 1) == 4


def test_each_runs_file_is_a_square_at_its_end_with_its_greedy_mean():
    content = story(MANIFEST)
    squares = _marks(curve_svg(content, "t", "d"), "rect")
    assert [(int(s["data-games"]), int(s["data-score"])) for s in squares] == [
        (run["end"], int(run["greedy"]["mean_score"])) for run in content["runs"]
    ]
    assert int(squares[-1]["data-score"]) == MANIFEST["greedy"]["mean_score"]


def test_the_axes_are_named_and_labelled_and_the_chart_is_an_image_with_its_words():
    content = story(MANIFEST)
    svg = curve_svg(content, "story-curve-title", "story-curve-summary")
    assert 'role="img"' in svg and 'aria-labelledby="story-curve-title"' in svg
    assert 'aria-describedby="story-curve-summary"' in svg
    labels = re.findall(r'<text class="story-axis-label"[^>]*>([^<]*)</text>', svg)
    assert labels == ["0", "50k", "100k", "150k", "200k", "250k", "0", "250k", "500k", "750k", "1M", "1.25M"]
    assert ">games trained, all runs</text>" in svg and ">mean score</text>" in svg
    numbers = re.findall(r'<text class="story-run-number"[^>]*>(\d)</text>', svg)
    assert numbers == ["1", "2", "3", "4", "5"]
    assert curve_summary(content) == (
        "The mean score of its training games rose from 90,776 at 200,000 games to 200,552 at 1,264,000; "
        "each run\u2019s file, played greedily, from 98,568 to 199,915."
    )


def test_no_run_to_draw_no_chart():
    assert curve_svg(story({}), "t", "d") == "" and curve_summary(story({})) == ""


def test_counts_on_an_axis_read_short():
    assert [short(n) for n in (0, 50000, 1_000_000, 1_250_000, 750_000)] == ["0", "50k", "1M", "1.25M", "750k"]
