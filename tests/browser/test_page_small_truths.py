"""What the page says is so (issue 41, smaller items), driven as a person does: set-up games, scores, notices, links.

A position set up in the editor is named by the moves played on it, and its score says why Best leaves its
starting points out; a new game takes the old one's notice away; a shared replay says who played each move.
"""

from __future__ import annotations

import pytest
from pagekit import read_best, read_score, wait_ai_ready, wait_decisions, wait_settled

from game2048.game_link import encode_game

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
ISSUE_POSITION = "2048 1024 512 256 / 0 0 0 0 / 0 0 0 0 / 0 0 2 2"
"""The learner's position: score 35,584 and 1,920 moves made up to match its tiles."""


def set_up(page, rows: str) -> None:
    """Edit, paste ``rows`` into the editor's paste box and play from there."""
    page.click("#edit-toggle")
    page.wait_for_selector("#editor-cells", state="visible")
    if page.get_attribute("#editor-share", "open") is None:  # it stays open once opened
        page.click("#editor-share summary")
    page.fill("#editor-paste", rows)
    page.click("#editor-paste-apply")
    page.click("#editor-play")
    page.wait_for_selector("#editor-cells", state="hidden")
    wait_settled(page)


def notice(page) -> str | None:
    """The notice's text, or None while it is hidden."""
    return page.text_content("#notice-text") if page.is_visible("#notice") else None


def test_a_set_up_game_is_named_by_the_moves_played_on_it(open_page):
    page = open_page("seed=41", viewport=DESKTOP).page
    set_up(page, ISSUE_POSITION)
    page.keyboard.press("ArrowLeft")  # one move: the two 2s merge
    wait_settled(page)
    set_up(page, "2 4 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0")  # another position: the first is kept, and said
    said = notice(page)
    assert said is not None and "(score 35588, 1 move from a set-up position, best tile 2048) is kept" in said, said
    assert "1921" not in said


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_score_of_a_set_up_game_says_beside_best_why_they_differ(open_page, viewport):
    page = open_page("seed=42", viewport=viewport).page
    assert not page.is_visible("#score-note")  # a game from its first two tiles: nothing to explain
    set_up(page, ISSUE_POSITION)
    page.keyboard.press("ArrowLeft")
    wait_settled(page)
    assert (read_score(page), read_best(page)) == (35_588, 4)  # Best: the 4 the move earned
    assert page.is_visible("#score-note")
    text = page.text_content("#score-note")
    assert "35584 points it started with" in text and "Best counts only what moves earn" in text
    note = page.locator("#score-note").bounding_box()
    scores = page.locator(".scores").bounding_box()
    buttons = page.locator(".above-game").bounding_box()
    assert 0 <= note["x"] and note["x"] + note["width"] <= viewport["width"]  # on screen, across
    assert scores["y"] + scores["height"] <= note["y"] < scores["y"] + scores["height"] + 30  # right under the scores
    assert note["y"] + note["height"] <= buttons["y"]  # above the game's buttons, over none of them
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    page.keyboard.press("r")  # a new game from two tiles: the note goes with the set-up one
    wait_settled(page)
    assert not page.is_visible("#score-note") and read_score(page) == 0


def test_a_new_game_takes_away_the_notice_of_the_game_it_replaces(open_page):
    page = open_page("seed=43", viewport=DESKTOP).page
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight"):
        page.keyboard.press(key)
    wait_settled(page)
    set_up(page, "2 4 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 8")
    assert "Your game in progress" in (notice(page) or "")  # said of the game the position replaced
    page.keyboard.press("r")
    wait_settled(page)
    assert notice(page) is None


def test_a_shared_replay_says_who_played_each_move(open_page):
    run = open_page("seed=44", viewport=DESKTOP)
    page = run.page
    for key in ("ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
    wait_settled(page)
    wait_ai_ready(page)
    page.click("#ai-step")
    wait_decisions(page, 1)
    wait_settled(page)
    page.keyboard.press("v")  # the game in play, replayed: who played each move is known
    page.wait_for_selector("#replay-view", state="visible")
    page.keyboard.press("Home")
    said = []
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        said.append(page.text_content("#replay-decision"))
    assert [line.split(":")[1].split()[:2] for line in said] == [["you", "played"]] * 2 + [["the", "AI"]], said
    page.click("#replay-copy-link")
    page.wait_for_selector("#replay-link", state="visible")  # headless Chromium may refuse the clipboard
    link = page.input_value("#replay-link")
    page.goto(link)
    page.wait_for_selector("#replay-view", state="visible")
    assert page.text_content("#replay-title") == "Shared game"
    page.keyboard.press("Home")  # the link opens at the move it was copied at, the last
    shared = []
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        shared.append(page.text_content("#replay-decision"))
    directions = [line.split()[-1].rstrip(".") for line in shared]
    assert shared == [
        f"Move 1: the player played {directions[0]}.",
        f"Move 2: the player played {directions[1]}.",
        f"Move 3: the AI played {directions[2]}.",
    ], (said, shared)
    assert run.errors == []


def test_an_old_shared_link_still_opens_and_says_it_does_not_know_who_played(open_page):
    page = open_page(f"game={encode_game(45, ['left', 'up'])}", viewport=DESKTOP).page  # made as links were made
    page.wait_for_selector("#replay-view", state="visible")
    page.keyboard.press("ArrowRight")
    assert page.text_content("#replay-decision") == (
        "Move 1: played left (this link does not say who played: it was made before links did)."
    )
