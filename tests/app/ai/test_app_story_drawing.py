"""The network's story as the page draws it: the manifest's numbers, its patterns, every word linked to its entry.

Issue 54: the glossary's "TD learning" entry was linked from no word on the page; the story links each technical
word to its entry, and says the games, the runs and the rates as the manifest gives them.
"""

from __future__ import annotations

import copy
import re
from html.parser import HTMLParser

import pytest
from micropython_runner import json_outputs
from test_app_network_story import GARBLED, MANIFESTS, STAGED_MANIFEST

from app.ai.network_story import story
from app.ai.story_drawing import GLOSSARY_KEYS, percent, story_html
from app.explorer.glossary import MEANINGS
from game2048.evaluation import learned

MANIFEST = learned.manifest()
VOID = {"br", "img", "input", "meta", "link", "hr", "line", "circle", "rect", "polyline"}


class Tags(HTMLParser):
    """Every element's tag and attributes, and whether each opened element was closed in order."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []
        self.open: list[str] = []
        self.text: list[str] = []
        self.broken: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k: v or "" for k, v in attrs}))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.open or self.open.pop() != tag:
            self.broken.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parsed(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    tags.close()
    assert tags.broken == [] and tags.open == [], (tags.broken, tags.open)
    return tags


def _text(html: str, element_id: str) -> str:
    """The text of the element with ``element_id`` (its tags dropped)."""
    match = re.search(rf'<(\w+)[^>]* id="{element_id}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, element_id
    return re.sub(r"<[^>]+>", "", match.group(2))


def test_every_technical_word_links_to_its_glossary_entry_and_each_entry_it_names_is_linked():
    html = story_html(story(MANIFEST))
    links = [attrs for tag, attrs in _parsed(html).found if tag == "a"]
    keys = [attrs["data-gloss"] for attrs in links]
    for attrs in links:
        key = attrs["data-gloss"]
        assert key in MEANINGS and attrs["href"] == f"#gloss-{key}" and attrs["aria-describedby"] == f"gloss-{key}"
        assert attrs["data-tip"] == MEANINGS[key]
    assert set(keys) == set(GLOSSARY_KEYS)  # the page writes exactly these entries before the explorer exists
    assert len(keys) == len(set(keys))  # each linked once, where the story first says it
    assert "td-learning" in keys  # the issue: the entry no word on the page linked to


@MANIFESTS
def test_what_it_is_draws_its_four_patterns_and_says_its_size(manifest):
    html = story_html(story(manifest))
    tags = _parsed(html).found
    glyphs = [attrs for tag, attrs in tags if tag == "span" and "pattern-glyph" in attrs.get("class", "")]
    assert [g["data-pattern"] for g in glyphs] == ["1", "2", "3", "4"]
    on = html.split('id="story-patterns"')[1].split("</ul>")[0]
    assert [part.count("pg-on") for part in on.split('class="pattern-glyph"')[1:]] == [6, 6, 6, 6]
    what = _text(html, "story-what")
    assert f"{manifest['weights']:,} weights" in what
    assert f"{manifest['bytes'] / 1e6:.1f} MB download" in what and f"{manifest['memory_bytes'] / 1e6:.0f} MB" in what


def test_the_shipped_network_is_one_stage_for_every_board():
    html = story_html(story(MANIFEST))
    assert "31.9 MB download" in _text(html, "story-what") and "134 MB" in _text(html, "story-what")
    assert _text(html, "story-stages-title") == "One stage"
    stages = _text(html, "story-stages")
    assert stages == "Every board: one set of tables, 16 values a cell (empty, and 2 to 32768)."
    assert 'id="story-stages-why"' not in html


def test_the_download_says_how_its_weights_were_rounded():
    pruned = _text(story_html(story({**MANIFEST, "step": 24.0, "prune": 32.0})), "story-what")
    assert "rounded to a step of 24 points, those under 32 set to 0, to fit 32 MB" in pruned
    coarse = _text(story_html(story({**MANIFEST, "step": 4.0, "prune": 0.0, "coarsen": 3e8})), "story-what")
    assert "rounded to a step of 4 points, the ones training rarely moved to a coarser one, to fit 32 MB" in coarse
    assert "set to 0" not in coarse


def test_a_staged_network_says_each_stage_and_why_the_late_one_has_its_own():
    html = story_html(story(STAGED_MANIFEST))
    assert "31.5 MB download" in _text(html, "story-what") and "173 MB" in _text(html, "story-what")
    stages = _text(html, "story-stages")
    assert "below 8192: the first stage\u2019s tables, 13 values a cell" in stages
    assert "from 8192 up: tables of their own, 16 values a cell" in stages
    assert "rare" in _text(html, "story-stages-why")


def test_the_games_the_runs_and_the_rates_are_the_manifests():
    content = story(STAGED_MANIFEST)
    html = story_html(content)
    assert _text(html, "story-games") == f"{content['games']:,} games" == "1,266,000 games"
    runs = re.findall(r'<li data-run="(\d)">(.*?)</li>', html, re.S)
    assert [number for number, _ in runs] == ["1", "2", "3", "4", "5"]
    for (_n, said), run in zip(runs, content["runs"], strict=True):
        said = re.sub(r"<[^>]+>", "", said)
        assert said.startswith(f"{run['games']:,} games")
        assert f"mean {run['greedy']['mean_score']:,.0f}" in said
    assert "TD(0)" in runs[0][1] and "TD(\u03bb)" in runs[3][1] and "4x6-late" in runs[4][1]
    assert STAGED_MANIFEST["command"] in html
    strength = _text(html, "story-strength")
    greedy = STAGED_MANIFEST["greedy"]
    for tile in (2048, 8192, 16384, 32768):
        assert percent(greedy[f"rate_{tile}"]) in strength
    assert f"{greedy['mean_score']:,}" in strength and "1,000 games (seed 1)" in html


def test_the_shipped_networks_one_run_is_told_from_zero_with_its_method_and_its_rates():
    content = story(MANIFEST)
    html = story_html(content)
    assert _text(html, "story-games") == "373,000 games"
    runs = re.findall(r'<li data-run="(\d)">(.*?)</li>', html, re.S)
    assert [number for number, _ in runs] == ["1"]
    said = re.sub(r"<[^>]+>", "", runs[0][1])
    assert said.startswith("373,000 games from zero, as 4x6-16 (one stage, 16 values a cell)")
    assert "TD(\u03bb), \u03bb = 0.5" in said and "restarts" in said and "temporal coherence" in said
    assert "\u03b1 = 0.03125" in said and "This file, greedy over 1,000 games" in said
    assert MANIFEST["command"] in html
    strength = _text(html, "story-strength")
    for tile in (2048, 8192, 16384, 32768):
        assert percent(MANIFEST["greedy"][f"rate_{tile}"]) in strength
    assert "169,121" in strength and "1.1 %" in strength  # the file's own 1,000 greedy games: 32768 in 11


def test_a_run_that_adds_tuples_says_how_many_and_that_they_start_at_zero():
    grown = copy.deepcopy(MANIFEST)
    first = grown["story"]["runs"][0]
    five, six = "0,1,2,3,4,5;4,5,6,7,8,9;8,9,10,11,12,13;0,1,2,4,5,6;4,5,6,8,9,10/16", "…;0,1,2,3,7,11/16"
    second = {**first, "games": 30000, "init": "file", "shape": six, "tuples": 6, "file": {}}
    grown["story"]["runs"] = [{**first, "shape": five, "tuples": 5, "file": {"sha256": "833555b1"}}, second]
    said = [
        re.sub(r"<[^>]+>", "", run)
        for run in re.findall(r"<li data-run=\"\d\">(.*?)</li>", story_html(story(grown)), re.S)
    ]
    assert "tuple" not in said[0] and "one tuple added to the file's, starting at 0" in said[1]
    del second["tuples"]  # a manifest from before runs said their tuples: nothing said
    assert "added" not in story_html(story(grown))


@pytest.mark.parametrize(
    ("share", "said"), [(0.982, "98.2 %"), (0.005, "0.5 %"), (0.0001, "0.01 %"), (0.0, "0 %"), (0.4, "40.0 %")]
)
def test_a_rate_reads_as_a_percentage_with_its_rare_digits_kept(share, said):
    assert percent(share) == said


def test_text_from_the_manifest_is_escaped_and_a_manifest_without_a_story_still_says_what_it_has():
    html = story_html(story({**MANIFEST, "shape": {**MANIFEST["shape"], "name": "<b>x</b>"}, "command": "a<b"}))
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html and "a&lt;b" in html
    bare = {key: value for key, value in MANIFEST.items() if key != "story"}
    html = story_html(story(bare))
    _parsed(html)
    assert 'id="story-patterns"' in html and 'id="story-strength"' in html
    assert 'id="story-curve"' not in html and 'id="story-runs"' not in html
    assert f"{MANIFEST['trained_games']:,} games" in _text(html, "story-games")
    assert "says nothing" in story_html(story(None))


@pytest.mark.parametrize("manifest", GARBLED)
def test_a_garbled_manifest_draws_what_it_can(manifest):
    html = story_html(story(manifest))
    _parsed(html)
    assert html


STORY_DRAWING = """
from app.ai.network_story import story
from app.ai.story_drawing import story_html
print(json.dumps([story_html(story(m)) for m in json.loads(DATA)]))
"""


def test_the_story_draws_alike_in_the_pages_micropython():
    garbled = {"shape": {"tuples": [[0, 1]], "values": 13}, "story": {"runs": [{"games": 7, "curve": [1]}]}}
    micropython, cpython = json_outputs(STORY_DRAWING, {}, [MANIFEST, garbled, {}])
    assert micropython == cpython
    assert 'id="story-curve"' in cpython[0]
