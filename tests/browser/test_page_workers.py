"""The AI in several workers: the same decisions as one, a helper lost mid-game, one worker on a one-core phone."""

from __future__ import annotations

import json

from pagekit import decisions, read_board, wait_ai_ready, wait_decisions, wait_settled

from game2048 import board as B

HELPER = 'script[name="ai-help-1"]'
BOARDS = [
    [[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]],
    [[0, 0, 2, 4], [0, 2, 8, 16], [2, 4, 32, 64], [4, 8, 128, 256]],
    [[2, 2, 4, 8], [0, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 2]],
    [[16, 8, 16, 2], [2, 32, 2, 16], [16, 16, 4, 32], [2, 8, 0, 8]],
]


def _wait_team(page, working: int, of: int) -> None:
    """Until the AI panel says ``working`` of ``of`` workers search (the helpers start after the first)."""
    page.wait_for_function(
        "([n, m]) => (document.getElementById('ai-workers').textContent || '').includes(`in ${n} of ${m} workers`)",
        arg=[working, of],
        timeout=120_000,
    )


def _bench_decisions(browser, server_url: str, workers: int) -> list[dict]:
    """The page's team of ``workers`` (the bench page, which starts them as the page does) at depth 3."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{server_url}/bench.html?workers={workers}")
        page.wait_for_selector("body[data-ready=true]", state="attached", timeout=120_000)
        assert page.get_attribute("body", "data-workers") == str(workers)
        answers = []
        for rows in BOARDS:
            request = json.dumps({"rows": rows, "depth": 3, "algorithm": "expectimax", "preset": "rows"})
            reply = json.loads(page.evaluate("request => window.benchThink(request)", request))
            answers.append(json.loads(reply["answer"]))
        return answers
    finally:
        context.close()


def test_two_workers_decide_as_one_at_a_fixed_depth(browser, server_url):
    one = _bench_decisions(browser, server_url, 1)
    two = _bench_decisions(browser, server_url, 2)
    for alone, shared in zip(one, two, strict=True):
        assert alone["ok"] and shared["ok"] and shared["workers"] == 2 and "workers" not in alone
        assert (shared["move"], shared["depth"]) == (alone["move"], 3)
        assert abs(shared["score"] - alone["score"]) <= 1e-9 * abs(alone["score"])


def test_a_helper_killed_mid_game_leaves_the_ai_playing(open_page):
    run = open_page("seed=12&workers=2")
    page = run.page
    wait_ai_ready(page)
    assert "started when it first plays" in page.text_content("#ai-workers")
    assert page.locator('script[name^="ai-help"]').count() == 0  # alpha-beta, the default, needs no helper
    page.select_option("#ai-algorithm", "expectimax")
    page.click("#ai-autoplay")
    _wait_team(page, 2, 2)
    page.wait_for_function("() => document.getElementById('readout-workers').textContent === '2'", timeout=60_000)
    page.evaluate(f"() => document.querySelector('{HELPER}').xworker.terminate()")  # mid-search, most likely
    killed_at = decisions(page)
    wait_decisions(page, killed_at + 10, timeout_ms=60_000)
    _wait_team(page, 1, 2)
    assert "Dropped" in page.text_content("#ai-workers")
    wait_decisions(page, decisions(page) + 3)
    assert page.get_attribute("body", "data-autoplay") == "on"
    assert page.text_content("#readout-workers") == "1"
    page.click("#ai-autoplay")  # Stop; the board settles with the game going on
    wait_settled(page)
    assert B.count_empty(B.from_rows(read_board(page))) < 16
    assert not page.is_visible(".notice.error") and run.errors == []


def test_a_one_core_phone_uses_one_worker(open_page):
    def one_core(context) -> None:
        context.add_init_script("Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', {get: () => 1})")

    run = open_page("seed=5", prepare=one_core, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = run.page
    wait_ai_ready(page)
    assert page.text_content("#ai-workers") == "The AI searches in 1 worker (this device gets one)."
    page.select_option("#ai-algorithm", "expectimax")
    page.click("#ai-hint")
    wait_decisions(page, 1)
    assert page.text_content("#readout-workers") == "1"
    page.wait_for_timeout(1000)  # a helper would have been declared by now
    assert page.locator('script[name^="ai-help"]').count() == 0
    assert page.evaluate("() => navigator.hardwareConcurrency") == 1


def test_a_bad_worker_count_in_the_address_is_said_and_ignored(open_page):
    def two_cores(context) -> None:
        context.add_init_script("Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', {get: () => 2})")

    run = open_page("seed=5&workers=9", prepare=two_cores)
    page = run.page
    wait_ai_ready(page)
    assert "Ignored ?workers= (it is not between 1 and 4)" in page.text_content("#notice")
    page.select_option("#ai-algorithm", "expectimax")
    page.click("#ai-hint")
    _wait_team(page, 2, 2)
