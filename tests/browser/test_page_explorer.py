"""The search explorer in the page: opened with its button or E, it shows why each AI decision was made."""

from __future__ import annotations

from pagekit import decisions, loaded_modules, read_board, wait_ai_ready, wait_decisions

from game2048 import board as B

EXPLAINED = "#explorer-decision[data-explained]"


def _explained(page, count: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#explorer-decision').dataset.explained || 0) >= n", arg=count
    )


def _root(page) -> dict[str, dict[str, str]]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#explorer-root .root-move')].map(li => [
            li.dataset.move,
            {cls: li.className, exact: li.dataset.exact || '', value: li.querySelector('.root-value').textContent}]))"""
    )


def test_the_open_explorer_shows_root_values_iterations_and_the_line_of_an_ai_step(open_page):
    run = open_page("seed=41")
    page = run.page
    assert page.is_hidden("#explorer")
    page.click("#explorer-toggle")
    assert page.is_visible("#explorer") and page.get_attribute("#explorer-toggle", "aria-expanded") == "true"
    wait_ai_ready(page)
    before = read_board(page)
    page.keyboard.press("n")
    wait_decisions(page, 1)
    _explained(page, 1)
    move = page.text_content("#readout-move")
    root = _root(page)
    assert set(root) == {"up", "right", "down", "left"}
    assert "chosen" in root[move]["cls"]
    for direction, entry in root.items():
        legal = B.move(B.from_rows(before), direction)[0] != B.from_rows(before)
        assert ("illegal" in entry["cls"]) == (not legal)
        if legal and entry["exact"] == "false":
            assert entry["value"].startswith("\u2264")  # a bound says which
    # Iterations: one row per completed depth, the last one the readout's depth.
    depths = page.eval_on_selector_all(
        "#explorer-iterations tbody tr:not(.abandoned) td:first-child", "cells => cells.map(c => +c.textContent)"
    )
    assert depths == list(range(1, int(page.text_content("#readout-depth")) + 1))
    # The principal variation starts with the move played and alternates with the computer's placements.
    labels = page.eval_on_selector_all("#explorer-pv .pv-label", "els => els.map(e => e.textContent)")
    assert labels[0] == f"1. {move}" and " at row " in labels[1] and len(labels) >= 6
    assert page.locator("#explorer-pv .mini-board").count() == len(labels)
    # The reduction: kept / possible, and the heat map says it in words too.
    kept = page.text_content("#explorer-kept")
    assert " of " in kept and "placements" in kept
    words = page.eval_on_selector_all("#explorer-heat td.heat", "tds => tds.map(td => td.getAttribute('aria-label'))")
    assert words and all("a 2 scores" in w and "a 4 scores" in w for w in words)
    assert "Plain minimax" in page.text_content("#explorer-pruning")
    assert run.errors == []


def test_exact_values_replace_the_bounds_and_the_explorer_stays_open_after_a_reload(open_page):
    run = open_page("seed=42")
    page = run.page
    page.keyboard.press("e")
    page.uncheck("#explorer-exact-default")  # the bounds alpha-beta proved, as it searched
    wait_ai_ready(page)
    for hint in range(1, 6):  # a position where alpha-beta leaves at least one move as a bound
        page.click("#ai-hint")
        wait_decisions(page, hint)
        _explained(page, hint)
        if page.locator("#explorer-exact").count():
            break
        page.keyboard.press("ArrowDown" if hint % 2 else "ArrowLeft")
    assert page.locator("#explorer-exact").count(), "no bound in five positions"
    shown = int(page.get_attribute("#explorer-decision", "data-explained"))
    page.click("#explorer-exact")
    _explained(page, shown + 1)
    root = _root(page)
    assert all(e["exact"] == "true" for e in root.values() if "illegal" not in e["cls"])
    assert any("searched again" in e["value"] for e in root.values())
    assert decisions(page) == shown  # exact values are not a decision: nothing was played
    run.reload()
    assert page.is_visible("#explorer")
    page.keyboard.press("e")
    assert page.is_hidden("#explorer")
    assert run.errors == []


def test_the_explorer_fits_a_phone_and_is_reachable_by_keyboard(open_page):
    run = open_page("seed=43", viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = run.page
    page.focus("#explorer-toggle")
    page.keyboard.press("Enter")
    assert page.is_visible("#explorer")
    wait_ai_ready(page)
    page.click("#ai-hint")
    wait_decisions(page, 1)
    _explained(page, 1)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    assert run.errors == []


def test_exact_values_after_an_ai_step_come_for_the_board_it_explained(open_page):
    run = open_page("seed=9")
    page = run.page
    wait_ai_ready(page)
    page.keyboard.press("e")
    page.uncheck("#explorer-exact-default")
    for step in range(1, 8):  # AI steps until one leaves a bound to make exact
        page.keyboard.press("n")
        wait_decisions(page, step)
        _explained(page, step)
        if page.locator("#explorer-exact").count():
            break
    assert page.locator("#explorer-exact").count(), "no bound in seven AI steps"
    shown = int(page.get_attribute("#explorer-decision", "data-explained"))
    page.click("#explorer-exact")
    _explained(page, shown + 1)
    root = _root(page)
    assert all(e["exact"] == "true" for e in root.values() if "illegal" not in e["cls"])
    assert "board changed" not in page.text_content("#explorer-status")
    assert run.errors == []


def _in_view(page, selector: str) -> bool:
    """The whole element is inside the viewport."""
    return page.eval_on_selector(
        selector,
        """el => { const r = el.getBoundingClientRect();
                   return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }""",
    )


def _explained_rows(page) -> list[list[int]]:
    text = page.get_attribute("#explorer-board", "data-rows")
    return [[int(v) for v in row.split(",")] for row in text.split("/")]


def _focused(page) -> str:
    return page.evaluate("() => document.activeElement && document.activeElement.id")


def test_at_1280_the_board_and_its_explanation_are_in_view_together_and_the_explored_board_is_drawn(open_page):
    run = open_page("seed=41", viewport={"width": 1280, "height": 800})
    page = run.page
    wait_ai_ready(page)
    page.keyboard.press("e")
    assert _focused(page) == "explorer-heading"  # opening moves the focus to the panel's heading
    before = read_board(page)
    page.keyboard.press("n")
    wait_decisions(page, 1)
    _explained(page, 1)
    assert read_board(page) != before  # the game moved on; the explorer still draws the board it explains
    assert _explained_rows(page) == before
    move = page.text_content("#readout-move")
    assert (
        page.text_content("#explorer-board .explained-arrow")
        == {"up": "↑", "right": "→", "down": "↓", "left": "←"}[move]
    )
    assert _in_view(page, "#board") and _in_view(page, "#explorer-root")
    # Beside the board, not under it.
    board_right = page.eval_on_selector("#board", "el => el.getBoundingClientRect().right")
    assert page.eval_on_selector("#explorer", "el => el.getBoundingClientRect().left") > board_right
    # The step-by-step builds its tree for that same board.
    page.wait_for_selector("#tw-build:not([disabled])", timeout=30_000)
    page.click("#tw-build")
    page.wait_for_selector("#tree-walk[data-builds]", timeout=30_000)
    root_cells = page.eval_on_selector_all(
        "#tw-path .mini-board >> nth=0 >> .mini-cell", "els => els.map(e => e.textContent)"
    )
    assert [int(t or 0) for t in root_cells] == [v for row in before for v in row]
    # Closing gives the board the keys again (the key waits its turn while the page draws the tree).
    page.keyboard.press("e")
    page.wait_for_selector("#explorer", state="hidden", timeout=10_000)
    assert _focused(page) == "board"
    assert run.errors == []


def test_on_a_phone_the_explorer_is_a_column_and_every_small_tile_number_is_readable_on_one_line(open_page):
    rows = "16384,1024,512,256/2,4,8,16/0,0,0,0/0,0,0,2"
    run = open_page(f"rows={rows}", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = run.page
    wait_ai_ready(page)
    page.click("#explorer-toggle")
    assert _focused(page) == "explorer-heading" and _in_view(page, "#explorer-heading")
    page.click("#ai-hint")
    wait_decisions(page, 1)
    _explained(page, 1)
    assert _explained_rows(page) == [[int(v) for v in row.split(",")] for row in rows.split("/")]
    board_left = page.eval_on_selector("#board", "el => el.getBoundingClientRect().left")
    assert abs(page.eval_on_selector("#explorer", "el => el.getBoundingClientRect().left") - board_left) < 20
    page.click("#tw-build")
    page.wait_for_selector("#tree-walk[data-builds]", timeout=30_000)
    sizes = page.eval_on_selector_all(
        "#explorer .mini-cell",
        """els => els.filter(e => e.textContent.trim()).map(e => {
            const range = document.createRange(); range.selectNodeContents(e);
            const text = range.getBoundingClientRect(), cell = e.getBoundingClientRect();
            return {n: e.textContent, px: parseFloat(getComputedStyle(e).fontSize),
                    lines: range.getClientRects().length,
                    inside: text.left >= cell.left - 0.5 && text.right <= cell.right + 0.5}; })""",
    )
    assert any(s["n"] == "16384" for s in sizes)
    for size in sizes:
        assert size["px"] >= 11 and size["lines"] == 1 and size["inside"], size
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    clipped = page.eval_on_selector_all(
        "#explorer table",
        """tables => tables.filter(t => {
            const box = t.parentElement.getBoundingClientRect(), r = t.getBoundingClientRect();
            const scrolls = getComputedStyle(t.parentElement).overflowX === "auto";
            return !scrolls && (r.right > box.right + 0.5 || r.left < box.left - 0.5); }).map(t => t.id)""",
    )
    assert clipped == []  # every table fits its room, or scrolls within it
    assert run.errors == []


def _explorer_after_an_ai_step(page) -> tuple[dict[str, dict[str, str]], str]:
    """E, then N: the explained root moves and the move played."""
    page.keyboard.press("e")
    page.keyboard.press("n")
    wait_decisions(page, 1)
    _explained(page, 1)
    return _root(page), page.text_content("#readout-move")


def test_the_explorer_says_why_in_words_and_numbers_and_its_words_explain_themselves(open_page):
    run = open_page("seed=41", viewport={"width": 1280, "height": 800})
    page = run.page
    wait_ai_ready(page)
    root, move = _explorer_after_an_ai_step(page)
    for entry in (e for e in root.values() if "illegal" not in e["cls"]):  # exact by default; a bound says so
        assert entry["exact"] == "true" or "proved no better than the chosen move" in entry["value"], entry
    why = page.text_content("#explorer-why")
    assert why.startswith(move) and ("decides most" in why or "worth the same" in why or "no single term" in why)
    terms = page.eval_on_selector_all("#explorer-terms tbody th", "ths => ths.map(th => th.textContent)")
    assert terms == ["smoothness", "monotonicity", "empty cells", "largest tile"]  # classic's four terms
    # A technical word shows its meaning on hover and on keyboard focus, and is described by the glossary.
    page.hover("#explorer-iterations thead .term >> text=Cutoffs")
    assert page.is_visible("#term-tip") and "stopped early" in page.text_content("#term-tip")
    page.focus('#ai-readout dt[data-term="depth"]')
    assert "moves ahead" in page.text_content("#term-tip")
    described = page.get_attribute('#ai-readout dt[data-term="depth"]', "aria-describedby")
    assert "moves ahead" in page.text_content(f"#{described}")
    page.keyboard.press("Escape")
    assert page.is_hidden("#term-tip")
    assert run.errors == []


def test_expectimax_is_shown_as_itself(open_page):
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        run = open_page("seed=41", viewport=viewport)
        page = run.page
        wait_ai_ready(page)
        page.select_option("#ai-algorithm", "expectimax")
        assert "Now playing Expectimax with the rows preset (it was classic)" in page.text_content("#ai-preset-note")
        root, move = _explorer_after_an_ai_step(page)
        assert root[move]["value"].startswith("best")
        others = [e["value"] for m, e in root.items() if m != move and "illegal" not in e["cls"]]
        assert others and all(v.startswith("\u2212") or v.startswith("best") for v in others)  # behind the best
        assert page.locator("#explorer-chance td.heat").count() > 0  # the chance node, each empty cell's 2 and 4
        assert page.locator("#explorer-heat").count() == 0  # not the min-node reduction expectimax does not use
        assert "0.9/" in page.text_content("#explorer-chance-note")
        # Its line follows a typical tile, a 2 (the likeliest), and says so: never the worst one.
        assert "each tile is a 2, the likeliest" in page.text_content("#explorer-pv-note")
        placed = page.eval_on_selector_all("#explorer-pv .pv-ply.place .pv-label", "els => els.map(e => e.textContent)")
        assert placed and all(label.split(". ", 1)[1].startswith("2 at ") for label in placed), placed
        assert run.errors == []


def _bar_widths(page) -> dict[str, float]:
    """Each legal root move's bar, as a fraction of the longest bar could be."""
    return page.eval_on_selector_all(
        "#explorer-root li.root-move:not(.illegal)",
        """items => Object.fromEntries(items.map(li => {
            const bar = li.querySelector('.root-bar'), fill = li.querySelector('.root-bar > span');
            return [li.dataset.move, fill.getBoundingClientRect().width / bar.getBoundingClientRect().width];
        }))""",
    )


def test_the_best_moves_bar_is_the_longest_in_both_algorithms(open_page):
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        run = open_page("seed=41", viewport=viewport)
        page = run.page
        wait_ai_ready(page)
        _, move = _explorer_after_an_ai_step(page)  # alpha-beta, the default
        widths = _bar_widths(page)
        assert widths[move] == max(widths.values()) and widths[move] > 0.95, widths
        assert "The longer a bar, the better the move" in page.text_content("#explorer-root + .explorer-note")
        page.select_option("#ai-algorithm", "expectimax")
        page.keyboard.press("n")
        wait_decisions(page, 2)
        _explained(page, 2)
        move = page.text_content("#readout-move")
        widths = _bar_widths(page)
        assert widths[move] == max(widths.values()) and widths[move] > 0.95, widths
        assert all(width > 0.05 for width in widths.values()), widths  # the worst keeps a sliver
        assert "The longer a bar, the better the move" in page.text_content("#explorer-root + .explorer-note")
        assert run.errors == []


def test_expectimax_s_deciding_term_favours_the_chosen_move_in_expectation(open_page):
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        run = open_page("seed=41", viewport=viewport)
        page = run.page
        wait_ai_ready(page)
        page.select_option("#ai-algorithm", "expectimax")
        page.focus("#ai-think")
        page.keyboard.press("End")  # 2 s: the explanation gets as long, so its expectations fit on a busy machine
        page.locator("#ai-think").blur()
        _, move = _explorer_after_an_ai_step(page)
        why = page.text_content("#explorer-why")
        assert why.startswith(move), why
        if "worth the same" in why:
            continue
        assert "decides most" in why and "in expectation" in why, why
        deciding = why.split(": ", 1)[1].split(" decides most")[0]
        rows = page.eval_on_selector_all(
            "#explorer-terms tbody tr",
            "trs => trs.map(tr => [tr.querySelector('th').textContent, tr.querySelector('td:last-child').textContent])",
        )
        difference = dict(rows)[deciding]
        assert difference.startswith("+"), rows  # the named term argues for the chosen move
        for name, value in rows:  # every term that argues for the other move is named against it
            if value.startswith("\u2212"):
                assert f"{name} {value}" in why, (name, value, why)
        assert "End of the line" not in page.inner_html("#explorer-decision")  # no single line's end stands for it
        assert run.errors == []


def test_the_exact_values_box_changes_the_decision_on_screen_and_only_where_it_applies(open_page):
    run = open_page("seed=41", viewport={"width": 1280, "height": 800})
    page = run.page
    wait_ai_ready(page)
    _explorer_after_an_ai_step(page)
    assert page.is_visible("#explorer-exact-default")
    assert all(e["exact"] == "true" for e in _root(page).values() if "illegal" not in e["cls"])
    assert page.is_visible("#explorer-why")
    page.click("#explorer-exact-default")  # off: the same decision, with the bounds alpha-beta proved
    _explained(page, 2)
    assert decisions(page) == 1  # no new decision: the one on screen, explained again
    root = _root(page)
    if any(e["exact"] == "false" for e in root.values() if "illegal" not in e["cls"]):
        assert "the box above is unticked" in page.text_content("#explorer-root + .explorer-note")
        assert "time ran out" not in page.text_content("#explorer-root + .explorer-note")
    assert page.is_visible("#explorer-why")  # "Why this move" in both modes
    page.click("#explorer-exact-default")  # on again: exact values for the same decision
    _explained(page, 3)
    assert decisions(page) == 1
    assert all(e["exact"] == "true" for e in _root(page).values() if "illegal" not in e["cls"])
    page.select_option("#ai-algorithm", "expectimax")  # expectimax's values are exact: no box
    assert page.is_hidden("#explorer-exact-default")
    page.select_option("#ai-algorithm", "alphabeta")
    assert page.is_visible("#explorer-exact-default")
    assert run.errors == []


def test_the_explorer_says_what_became_of_each_decision_never_a_move_that_was_not_played(open_page):
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        run = open_page("seed=41", viewport=viewport)
        page = run.page
        wait_ai_ready(page)
        page.keyboard.press("e")
        page.keyboard.press("i")  # a hint: chosen, shown, not played
        wait_decisions(page, 1)
        _explained(page, 1)
        page.wait_for_function("document.getElementById('explorer-fate').textContent !== ''")
        assert "The AI moves" not in page.text_content("#explorer-board-title + div + p")
        assert page.text_content("#explorer-fate") == "Shown as a hint: not played."
        page.keyboard.press("n")  # a step: played
        wait_decisions(page, 2)
        page.wait_for_function("document.getElementById('explorer-fate').textContent === 'Played.'")
        # Autoplay stopped while the AI thinks: the decision it was thinking is explained, and said not played.
        page.wait_for_selector("#board[data-settled=true]")
        shown = int(page.get_attribute("#explorer-decision", "data-explained"))
        page.focus("#ai-think")
        page.keyboard.press("End")  # 2 s: time to press Esc while the AI thinks
        page.focus("#board")
        page.keyboard.press("p")
        page.wait_for_timeout(400)
        page.keyboard.press("Escape")
        _explained(page, shown + 1)
        page.wait_for_function("document.getElementById('explorer-fate').textContent !== ''")
        fate = page.text_content("#explorer-fate")
        if fate != "Played.":  # Esc came after the AI answered: its move was played, and said so
            assert fate == "Not played: autoplay was stopped while the AI thought.", fate
            assert _explained_rows(page) == read_board(page)  # the board is still the one explained
        assert run.errors == []


def test_on_a_phone_every_table_of_the_explorer_fits_its_box(open_page):
    run = open_page("seed=41", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = run.page
    wait_ai_ready(page)
    page.keyboard.press("e")
    for step, algorithm in enumerate(("alphabeta", "expectimax"), 1):
        page.select_option("#ai-algorithm", algorithm)
        page.keyboard.press("n")
        wait_decisions(page, step)
        _explained(page, step)
        wider = page.evaluate(
            """() => [...document.querySelectorAll('#explorer-decision .table-scroll')]
                .filter(box => box.scrollWidth > box.clientWidth)
                .map(box => [box.querySelector('table').id, box.scrollWidth - box.clientWidth])"""
        )
        assert wider == [], (algorithm, wider)
    assert run.errors == []


PARTING_ROWS = "0,0,2,2/0,4,8,16/2,8,32,64/4,16,128,256"
"""The board of issue 54 on which alpha-beta hints up and expectimax right, with either one's preset."""


def _compare(page) -> tuple[list[list[str]], str, str]:
    """Press "Compare with the other algorithm": (each side's algorithm and move, the sentence, the heading)."""
    page.click("#explorer-compare")
    page.wait_for_selector("#explorer-compare-sentence", timeout=60_000)
    sides = page.eval_on_selector_all(
        "#explorer-compare-sides .compare-side", "els => els.map(e => [e.dataset.algorithm, e.dataset.move])"
    )
    return sides, page.text_content("#explorer-compare-sentence"), page.text_content("#explorer-compare-title")


def test_the_compare_view_names_both_moves_and_where_they_part(open_page):
    run = open_page(f"rows={PARTING_ROWS}", viewport={"width": 1280, "height": 800})
    page = run.page
    wait_ai_ready(page)
    page.keyboard.press("e")
    assert page.is_hidden("#explorer-compare")  # nothing explained yet
    page.click("#ai-hint")
    wait_decisions(page, 1)
    _explained(page, 1)
    sides, sentence, heading = _compare(page)
    assert sides == [["alphabeta", "up"], ["expectimax", "right"]]
    assert "preset classic" in heading and "for both" in heading
    assert sentence.startswith("They part over right: alpha-beta assumes the computer answers it with its worst")
    assert " at row " in sentence and "up's" in sentence
    assert "probability" in sentence and "on average" in sentence
    assert page.is_visible("#explorer-compare-sentence")
    # Expectimax with its own preset (rows): the same board compared again with rows for both, still apart.
    page.select_option("#ai-algorithm", "expectimax")
    page.click("#ai-hint")
    wait_decisions(page, 2)
    _explained(page, 2)
    assert page.locator("#explorer-compare-sentence").count() == 0  # the classic comparison went with its decision
    sides, sentence, heading = _compare(page)
    assert sides == [["alphabeta", "up"], ["expectimax", "right"]] and "preset rows" in heading
    assert sentence.startswith("They part over right")
    assert run.errors == []


def test_a_term_s_raw_value_is_the_count_of_the_board_drawn_beside_it(open_page):
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        run = open_page(f"rows={PARTING_ROWS}", viewport=viewport)
        page = run.page
        wait_ai_ready(page)
        _explorer_after_an_ai_step(page)
        page.wait_for_selector("#explorer-terms", timeout=30_000)
        # The chosen line's end board, drawn above the table ("·" an empty cell), and its empty-cells term.
        end = page.get_attribute("#explorer-decision .lines-compared .mini-board >> nth=0", "aria-label")
        empty = end.split(": ", 1)[1].count("\u00b7")
        row = page.locator("#explorer-terms tbody tr", has_text="empty cells").first
        cell = row.locator("td.term-cell").first
        assert float(cell.get_attribute("data-raw")) == empty
        assert cell.text_content().startswith(f"2.7 \u00d7 ln({empty} empty cells) = ")
        assert page.text_content("#explorer-terms-sum")  # the terms added up: the evaluation
        pruning = page.text_content("#explorer-pruning")
        assert "compared at depth" in pruning and "alone:" in pruning  # where the aids were judged, and the saving
        assert run.errors == []


EXPLORER_MODULES = {
    "app.explorer.compare_view",
    "app.explorer.drawing",
    "app.explorer.explanation_view",
    "app.explorer.panel",
    "app.explorer.pruning_view",
    "app.explorer.reply_view",
    "app.explorer.terms_view",
    "app.explorer.tree_walk",
    "app.explorer.walk_counts",
    "app.explorer.walk_steps",
    "app.explorer.walk_view",
}
"""What the explorer alone imports: none of it before the explorer is first opened (the glossary is the AI
panel's too)."""


def test_the_explorer_is_built_when_first_opened_by_its_key_and_its_button_then_works_as_before(open_page):
    run = open_page("seed=44")
    page = run.page
    before = loaded_modules(page)
    assert {"app.page", "app.ai.panel", "app.explorer.glossary"} <= before  # the reader sees the page's modules
    assert before & EXPLORER_MODULES == set(), "the explorer's modules were imported before it was opened"
    assert page.locator("#tree-walk *").count() == 0  # nor its elements made
    # The AI panel's words are terms from the start, described by their glossary entries (written for them).
    described = page.get_attribute('#ai-readout dt[data-term="depth"]', "aria-describedby")
    assert "moves ahead" in page.text_content(f"#{described}")
    assert page.locator("#glossary-list dd").count() < 30  # only the words outside the explorer

    page.keyboard.press("e")  # its key builds and opens it, the focus on its heading, as before
    assert page.is_visible("#explorer") and page.get_attribute("#explorer-toggle", "aria-expanded") == "true"
    assert page.evaluate("document.activeElement.id") == "explorer-heading"
    assert EXPLORER_MODULES <= loaded_modules(page)
    assert page.locator("#glossary-list dd").count() > 40 and page.locator("#tw-build").count() == 1
    assert "moves ahead" in page.text_content(f"#{described}")
    page.keyboard.press("e")
    assert page.is_hidden("#explorer") and page.get_attribute("#explorer-toggle", "aria-expanded") == "false"
    page.click("#explorer-toggle")  # once built, its button opens it once a click
    assert page.is_visible("#explorer")
    page.click("#explorer-toggle")
    assert page.is_hidden("#explorer")
    assert page.locator("#tw-build").count() == 1  # built once
    assert run.errors == []


def test_the_first_click_on_its_button_opens_the_explorer_once_with_a_hint_explained(open_page):
    run = open_page("seed=45")
    page = run.page
    assert loaded_modules(page) & EXPLORER_MODULES == set()
    page.click("#explorer-toggle")
    assert page.is_visible("#explorer") and page.evaluate("document.activeElement.id") == "explorer-heading"
    wait_ai_ready(page)
    page.click("#ai-hint")
    wait_decisions(page, 1)
    _explained(page, 1)
    assert page.is_visible("#explorer")
    assert run.errors == []


ISSUE_ROWS = "rows=0,0,2,2/0,4,8,16/2,8,32,64/4,16,128,256"
"""Issue 54's board: alpha-beta hints up (classic, any depth from 2), expectimax right (rows, any depth)."""


def test_the_explorer_opened_after_a_hint_explains_that_hint_and_its_heading_names_the_search(open_page):
    """Issue 54: opening the explorer after a hint said "Ask the AI for a hint or a step", and no explanation
    named its algorithm or preset."""
    for viewport in ({"width": 390, "height": 844}, {"width": 1280, "height": 800}):
        run = open_page(ISSUE_ROWS, viewport=viewport)
        page = run.page
        wait_ai_ready(page)
        page.click("#ai-hint")  # the explorer closed, and not built yet
        wait_decisions(page, 1)
        depth = page.text_content("#readout-depth")
        assert page.text_content("#readout-move") == "up"
        page.click("#explorer-toggle")
        _explained(page, 1)
        assert page.text_content("#explorer-title") == f"Why up \u2014 alpha-beta, preset classic, depth {depth}"
        assert page.get_attribute("#explorer-board", "data-rows") == ISSUE_ROWS.removeprefix("rows=")
        assert page.text_content("#explorer-fate") == "Shown as a hint: not played."
        assert "Ask the AI" not in page.text_content("#explorer-status")
        assert page.get_attribute("#hint-arrow", "data-direction") == "up"  # the hint is still on the board
        page.select_option("#ai-algorithm", "expectimax")  # the other search, explained as it comes
        page.click("#ai-hint")
        wait_decisions(page, 2)
        _explained(page, 2)
        depth = page.text_content("#readout-depth")
        assert page.text_content("#explorer-title") == f"Why right \u2014 expectimax, preset rows, depth {depth}"
        assert run.errors == []
