"""Every word the explorer, the readout and the settings show has a glossary entry that explains it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.explorer.explanation_view import render_explanation
from app.explorer.glossary import MEANINGS, add_entries, glossary_html, term_link, word_term
from app.explorer.glossary_entries import ENTRIES
from app.explorer.terms_view import pattern_glyph, term_words
from game2048.board import from_rows
from game2048.evaluation import presets
from game2048.evaluation.terms import TERM_NAMES, term_name, weighted_terms
from game2048.search import explain

ROOT = Path(__file__).resolve().parents[3]
BOARD = from_rows([[2, 4, 8, 16], [0, 2, 4, 8], [0, 0, 2, 4], [0, 0, 0, 2]])


def test_every_weight_of_every_preset_has_an_entry():
    for name, preset in presets.PRESETS.items():
        for weight in preset.default_weights:
            assert word_term(weight) in MEANINGS, f"{name}'s weight {weight} is not explained"


@pytest.mark.parametrize("preset", sorted(presets.PRESETS))
def test_every_term_the_explorer_names_has_an_entry(preset):
    for name, _value in weighted_terms(preset, BOARD):
        assert word_term(term_name(name)) in MEANINGS, f"{preset}'s term {term_name(name)!r} is not explained"
    for shown in TERM_NAMES.values():
        assert word_term(shown) in MEANINGS, shown


def test_the_words_the_issue_names_are_in_the_glossary():
    words = {word.lower() for _key, word, _meaning in ENTRIES}
    for needed in ("ply", "horizon", "upper bound", "lower bound", "leaf", "n-tuple network", "pattern", "weight"):
        assert needed in words, needed
    assert "a cell's share" in words
    assert len({key for key, _w, _m in ENTRIES}) == len(ENTRIES)  # one entry a key
    html = glossary_html()
    assert all(f'id="gloss-{key}"' in html for key, _w, _m in ENTRIES)


def test_every_data_term_on_the_page_names_an_entry():
    page = (ROOT / "index.html").read_text()
    assert set(re.findall(r'data-term="([^"]+)"', page)) <= set(MEANINGS)


class _Box:
    """``#glossary-list`` as ``add_entries`` uses it: its HTML, and the ``dl`` inside once written."""

    def __init__(self) -> None:
        self.innerHTML = ""

    def querySelector(self, selector):  # noqa: N802
        return self if selector == "dl" and self.innerHTML else None

    def insertAdjacentHTML(self, where, html):  # noqa: N802
        assert where == "beforeend"
        self.innerHTML = self.innerHTML.removesuffix("</dl>") + html + "</dl>"


class _Document:
    def __init__(self) -> None:
        self.box = _Box()

    def getElementById(self, element_id):  # noqa: N802
        if element_id == "glossary-list":
            return self.box
        return element_id if f'id="{element_id}"' in self.box.innerHTML else None


def test_before_the_explorer_is_built_the_list_holds_the_entries_the_terms_outside_it_point_to():
    document = _Document()
    add_entries(document, ["depth", "preset", "depth", "no-such-word"])
    assert re.findall(r'id="gloss-([^"]+)"', document.box.innerHTML) == ["depth", "preset"]  # the glossary's order
    add_entries(document, ["empty-cells", "preset"])  # a weight's word later: added once
    assert re.findall(r'id="gloss-([^"]+)"', document.box.innerHTML) == ["depth", "preset", "empty-cells"]
    assert re.findall(r'id="gloss-([^"]+)"', glossary_html(["preset", "depth"])) == ["depth", "preset"]


def test_a_named_pattern_is_drawn_with_its_number_and_its_cells():
    shapes = [[0, 1, 2, 3, 4, 5], [4, 5, 6, 7, 8, 9], [0, 1, 2, 4, 5, 6], [4, 5, 6, 8, 9, 10]]
    html = term_words("pattern 3", shapes)
    assert 'data-pattern="3"' in html and html.count("pg-on") == 6
    assert 'aria-label="pattern 3: row 1: columns 1, 2, 3; row 2: columns 1, 2, 3"' in html
    assert 'aria-describedby="gloss-pattern"' in html
    assert "data-pattern" not in term_words("pattern 3")  # no shapes, no drawing: the word alone
    assert 'aria-describedby="gloss-empty-cells"' in term_words("empty cells")
    assert pattern_glyph(1, [15]).count("pg-cell") == 16


def test_the_learned_explanation_draws_every_pattern_it_names():
    explanation = explain(BOARD, preset="learned", algorithm="expectimax", depth=2)
    shapes = explanation["patterns"]["shapes"]
    assert len(shapes) == 4 and all(len(cells) == 6 for cells in shapes)
    assert all(1 <= found["number"] <= 4 for found in explanation["patterns"]["top"])
    html = render_explanation(explanation)
    named = set(re.findall(r"pattern (\d)", re.sub(r"<[^>]+>", " ", html)))
    drawn = set(re.findall(r'data-pattern="(\d)"', html))
    assert named and named <= drawn, (named, drawn)
    assert 'aria-describedby="gloss-n-tuple-network"' in html and 'aria-describedby="gloss-cell-share"' in html


def test_a_term_link_goes_to_its_entry_and_shows_its_meaning_as_a_term_does():
    link = term_link("temporal-coherence")
    assert link.startswith('<a class="term term-link" href="#gloss-temporal-coherence" data-gloss="temporal-coherence"')
    assert 'aria-describedby="gloss-temporal-coherence"' in link and "&amp; Smith" in link  # its meaning, escaped
    assert link.endswith(">Temporal coherence</a>")
    assert term_link("td-lambda", "a <b>").endswith(">a &lt;b&gt;</a>")
    words = {word for _key, word, _meaning in ENTRIES}
    assert {"TD learning", "TD(\u03bb)", "Temporal coherence", "Restarts", "Stage", "Greedy play"} <= words
