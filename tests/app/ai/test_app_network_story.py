"""The learned network's story is its manifest's: its shape, its runs, its curve and its rates, and nothing else.

Issue 54: the page said one sentence of how the network was made; what it is, its stages, its training and its
strength were only in README and docs/results.md.  The story is read from ``networks/4x6.json``, whose ``story``
block holds the runs as docs/results.md measured them: every number it gives must be one docs/results.md states.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from app.ai.network_story import rates, stages, story
from game2048.evaluation import learned
from game2048.evaluation.ntuple_shapes import get_shape, shape_from_json

ROOT = Path(__file__).resolve().parents[3]
MANIFEST = learned.manifest()
STAGED_MANIFEST = json.loads((ROOT / "networks" / "training" / "4x6-late.json").read_text())
"""The manifest of the network the page shipped before (``2ba2cd67…``: two stages, five runs; kept as the late-game
suite's source network), so that a story of several runs and stages stays tested beside the shipped one run."""
MANIFESTS = pytest.mark.parametrize("manifest", [MANIFEST, STAGED_MANIFEST], ids=["shipped", "staged-before"])
RESULTS = (ROOT / "docs" / "results.md").read_text()


def _shape_told(manifest):
    content = story(manifest)
    shape = shape_from_json(manifest["shape"])
    assert content["name"] == shape.name and content["patterns"] == [list(cells) for cells in shape.tuples]
    assert [(s["from_tile"], s["values"]) for s in content["stages"]] == [
        (1 << rank if rank else 0, values) for rank, values in zip(shape.stage_ranks, shape.stage_values, strict=True)
    ]
    assert content["weights"] == shape.weights == manifest["weights"]
    assert content["memory_bytes"] == manifest["memory_bytes"] and content["bytes"] == manifest["bytes"]
    return content, shape


def test_what_it_is_is_the_shipped_shape():
    content, shape = _shape_told(MANIFEST)
    assert shape == get_shape("4x6-16")  # one stage: every board, 16 values (empty and 2..32768)
    assert [(s["below_tile"], s["top_tile"]) for s in content["stages"]] == [(0, 32768)]


def test_a_staged_shape_tells_each_stage_its_boards_and_values():
    content, shape = _shape_told(STAGED_MANIFEST)
    assert shape == get_shape("4x6-late")
    assert [s["below_tile"] for s in content["stages"]] == [8192, 0]  # boards below 8192, then from 8192 up
    assert [s["top_tile"] for s in content["stages"]] == [4096, 32768]  # 13 values: empty and 2..4096


def _runs_lead_to_the_file(manifest):
    content = story(manifest)
    runs = content["runs"]
    last = runs[-1]
    assert last["games"] == manifest["trained_games"] == content["trained_games"]
    assert manifest["sha256"].startswith(last["file"])  # the last run made this file
    assert last["shape"] == manifest["shape"]["name"] and last["alpha"] == manifest["alpha"]
    assert last["stages"] == stages(manifest["shape"])
    assert last["greedy"]["rates"] == rates(manifest["greedy"]) and last["greedy"]["games"] == 1000
    assert content["greedy"]["mean_score"] == manifest["greedy"]["mean_score"] and content["greedy"]["seed"] == 1
    assert content["games"] == sum(run["games"] for run in runs)
    for before, run in zip(runs, runs[1:], strict=False):  # one after the other, never overlapping
        assert run["start"] == before["end"]
    return content, runs


def test_the_shipped_network_is_one_run_from_zero_that_made_this_file():
    content, runs = _runs_lead_to_the_file(MANIFEST)
    assert len(runs) == 1 and runs[0]["from_zero"] and "init_sha256" not in MANIFEST
    assert content["games"] == 373_000 and runs[0]["alpha"] == 1 / 32 and runs[0]["coherence"]


def test_the_runs_before_lead_to_their_file_each_from_the_file_of_the_run_before():
    content, runs = _runs_lead_to_the_file(STAGED_MANIFEST)
    assert len(runs) == 5 and runs[0]["from_zero"] and not any(run["from_zero"] for run in runs[1:])
    assert content["games"] == 1_266_000
    assert STAGED_MANIFEST["init_sha256"].startswith(runs[-2]["file"])  # from the file of the run before


@MANIFESTS
def test_the_curve_is_the_manifests_points_counted_over_all_runs(manifest):
    content = story(manifest)
    listed = manifest["story"]["runs"]
    expected = []
    start = 0
    for number, run in enumerate(listed, 1):
        expected += [(number, start + p["games"], p["mean_score"]) for p in run["curve"]]
        start += run["games"]
    assert [(p["run"], p["games"], p["mean_score"]) for p in content["curve"]] == expected
    assert all(p["run_games"] <= run["games"] for p, run in ((p, listed[p["run"] - 1]) for p in content["curve"]))


def _said(value: float) -> str:
    return f"{value:,.0f}"


@MANIFESTS
def test_every_number_of_the_story_is_one_docs_results_states(manifest):
    """The story block may only repeat measurements: each mean score and rate is written in docs/results.md."""
    block = manifest["story"]
    sets = [block["page_greedy"]] + [run["file"].get("greedy") or manifest["greedy"] for run in block["runs"]]
    points = [point for run in block["runs"] for point in run["curve"]]
    for found in sets + points:
        assert _said(found["mean_score"]) in RESULTS, found
        for key, share in found.items():
            if key.startswith("rate_") and share:
                shown = f"{share * 100:.2f}".rstrip("0").rstrip(".")
                assert f"{shown} %" in RESULTS or f"{share * 100:.1f} %" in RESULTS, (key, share, found)
    for run in block["runs"]:
        assert run["file"]["sha256"] in RESULTS and f"{run['games']:,}" in RESULTS
    for listed in [run["sections"] for run in block["runs"]] + [block["page_greedy"]["sections"]]:
        assert listed
        for heading in listed:  # each a heading of docs/results.md, word for word
            assert f"## {heading}\n" in RESULTS, heading


GARBLED = [
    None,
    {},
    "text",
    {"shape": "4x6", "story": []},
    {"shape": {"tuples": [[0, 1, 99], "x", []], "values": True, "stages": [[13]]}, "story": {"runs": "x"}},
    {"story": {"runs": [{"games": True}, {"games": -5}, {"games": 10, "curve": [{"games": 5}, "x"]}]}},
    {"greedy": {"games": 1000, "mean_score": float("nan"), "rate_2048": 3, "rate_8192": "0.5"}},
    {"story": {"runs": [{"games": 10, "file": "x", "alpha": "0.1", "curve": [{"games": 1, "mean_score": 1e400}]}]}},
    {"shape": {"tuples": [[0, 1]], "values": 13}, "story": {"runs": [{"games": 7, "curve": [1]}]}},
]
"""Manifests that lack their story or garble it: the page must still draw (``test_app_story_drawing``)."""


@pytest.mark.parametrize("manifest", GARBLED)
def test_a_manifest_that_lacks_or_garbles_its_story_gives_less_never_an_error(manifest):
    content = story(manifest)
    json.dumps(content)  # plain values only
    for run in content["runs"]:
        assert run["games"] > 0 and all(math.isfinite(p["mean_score"]) for p in run["curve"])
    for found in (content["greedy"], content["page_greedy"]):
        assert found is None or all(0 <= share <= 1 for _tile, share in found["rates"])
