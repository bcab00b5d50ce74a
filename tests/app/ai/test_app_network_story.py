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
RESULTS = (ROOT / "docs" / "results.md").read_text()


def test_what_it_is_is_the_shipped_shape():
    content = story(MANIFEST)
    shape = shape_from_json(MANIFEST["shape"])
    assert shape == get_shape("4x6-late") and content["name"] == "4x6-late"
    assert content["patterns"] == [list(cells) for cells in shape.tuples]
    assert [(s["from_tile"], s["values"]) for s in content["stages"]] == [
        (1 << rank if rank else 0, values) for rank, values in zip(shape.stage_ranks, shape.stage_values, strict=True)
    ]
    assert [s["below_tile"] for s in content["stages"]] == [8192, 0]  # boards below 8192, then from 8192 up
    assert [s["top_tile"] for s in content["stages"]] == [4096, 32768]  # 13 values: empty and 2..4096
    assert content["weights"] == shape.weights == MANIFEST["weights"]
    assert content["memory_bytes"] == MANIFEST["memory_bytes"] and content["bytes"] == MANIFEST["bytes"]


def test_the_runs_lead_to_this_file_and_add_up_to_the_games_said():
    content = story(MANIFEST)
    runs = content["runs"]
    assert len(runs) == 5 and runs[0]["from_zero"] and not any(run["from_zero"] for run in runs[1:])
    assert content["games"] == sum(run["games"] for run in runs) == 1_266_000
    last = runs[-1]
    assert last["games"] == MANIFEST["trained_games"] == content["trained_games"]
    assert MANIFEST["sha256"].startswith(last["file"])  # the last run made this file ...
    assert MANIFEST["init_sha256"].startswith(runs[-2]["file"])  # ... from the file of the run before
    assert last["shape"] == MANIFEST["shape"]["name"] and last["alpha"] == MANIFEST["alpha"]
    assert last["stages"] == stages(MANIFEST["shape"])
    assert last["greedy"]["rates"] == rates(MANIFEST["greedy"]) and last["greedy"]["games"] == 1000
    assert content["greedy"]["mean_score"] == MANIFEST["greedy"]["mean_score"] and content["greedy"]["seed"] == 1
    for before, run in zip(runs, runs[1:], strict=False):  # one after the other, never overlapping
        assert run["start"] == before["end"]


def test_the_curve_is_the_manifests_points_counted_over_all_runs():
    content = story(MANIFEST)
    listed = MANIFEST["story"]["runs"]
    expected = []
    start = 0
    for number, run in enumerate(listed, 1):
        expected += [(number, start + p["games"], p["mean_score"]) for p in run["curve"]]
        start += run["games"]
    assert [(p["run"], p["games"], p["mean_score"]) for p in content["curve"]] == expected
    assert all(p["run_games"] <= run["games"] for p, run in ((p, listed[p["run"] - 1]) for p in content["curve"]))


def _said(value: float) -> str:
    return f"{value:,.0f}"


def test_every_number_of_the_story_is_one_docs_results_states():
    """The story block may only repeat measurements: each mean score and rate is written in docs/results.md."""
    block = MANIFEST["story"]
    sets = [block["page_greedy"]] + [run["file"].get("greedy") or MANIFEST["greedy"] for run in block["runs"]]
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
