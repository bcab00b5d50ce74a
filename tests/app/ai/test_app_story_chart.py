"""The learning curve's chart: its points are the manifest's, placed by their games and scores, its axes named."""

from __future__ import annotations

import re

import pytest
from test_app_network_story import MANIFESTS, STAGED_MANIFEST

from app.ai.network_story import story
from app.ai.story_chart import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, curve_summary, curve_svg, games_step, short
from game2048.evaluation import learned

MANIFEST = learned.manifest()


def _marks(svg: str, tag: str) -> list[dict[str, str]]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', m)) for m in re.findall(rf"<{tag} ([^>]*)>", svg)]


@MANIFESTS
def test_each_training_point_is_drawn_at_its_games_and_score_in_order(manifest):
    content = story(manifest)
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
    assert len(lines) == sum(1 for run in content["runs"] if len(run["curve"]) > 1)
    assert len(lines) == {MANIFEST["sha256"]: 1, STAGED_MANIFEST["sha256"]: 4}[manifest["sha256"]]


@MANIFESTS
def test_each_runs_file_is_a_square_at_its_end_with_its_greedy_mean(manifest):
    content = story(manifest)
    squares = _marks(curve_svg(content, "t", "d"), "rect")
    assert [(int(s["data-games"]), int(s["data-score"])) for s in squares] == [
        (run["end"], int(run["greedy"]["mean_score"])) for run in content["runs"]
    ]
    assert int(squares[-1]["data-score"]) == manifest["greedy"]["mean_score"]


def test_the_axes_are_named_and_labelled_and_the_chart_is_an_image_with_its_words():
    content = story(STAGED_MANIFEST)
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


def test_one_run_is_labelled_in_round_steps_and_said_with_its_one_file():
    content = story(MANIFEST)
    svg = curve_svg(content, "story-curve-title", "story-curve-summary")
    labels = re.findall(r'<text class="story-axis-label"[^>]*>([^<]*)</text>', svg)
    assert labels == ["0", "50k", "100k", "150k", "200k", "0", "100k", "200k", "300k"]  # 373,000 games
    assert re.findall(r'<text class="story-run-number"[^>]*>(\d)</text>', svg) == ["1"]
    assert curve_summary(content) == (
        "The mean score of its training games rose from 44,896 at 5,000 games to 168,942 at 373,000; "
        "its file, played greedily, scored 169,121."
    )


@pytest.mark.parametrize(
    ("games_end", "step"),
    [(1, 50000), (250_000, 50000), (373_000, 100000), (1_266_000, 250000), (9_000_000, 1_800_000)],
)
def test_the_games_axis_takes_the_smallest_round_step_with_at_most_five_labels_after_zero(games_end, step):
    assert games_step(games_end) == step and games_end // step <= 5


def test_no_run_to_draw_no_chart():
    assert curve_svg(story({}), "t", "d") == "" and curve_summary(story({})) == ""


def test_counts_on_an_axis_read_short():
    assert [short(n) for n in (0, 50000, 1_000_000, 1_250_000, 750_000)] == ["0", "50k", "1M", "1.25M", "750k"]
