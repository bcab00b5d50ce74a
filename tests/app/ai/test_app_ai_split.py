"""AiTeam: several workers decide as one, a helper that fails or hangs costs depth, never the answer."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import real_worker
from app_async import run_async
from real_worker import ai_worker

from app.ai import split as ai_split
from app.ai.client import AiClient
from app.ai.split import AiTeam, team_size, worker_count

ROWS = [[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]]


class RealWorker(real_worker.RealWorker):
    """The real worker, counting the parts it is asked for, with a memory to report."""

    def __init__(self) -> None:
        self.parts: list[dict] = []

    async def think_part(self, request_json):
        self.parts.append(json.loads(request_json))
        return ai_worker.think_part(request_json)

    async def heap_bytes(self, request_json):
        return json.dumps({"ok": True, "bytes": 280_000_000})


class Crashing(RealWorker):
    async def think_part(self, request_json):
        raise RuntimeError("JsException: the worker was terminated")


class Hanging(RealWorker):
    async def think_part(self, request_json):
        self.parts.append(json.loads(request_json))
        await asyncio.sleep(3600)


def _team(*helpers, count: int | None = None) -> tuple[AiTeam, RealWorker]:
    primary = RealWorker()

    def start(attempt, name=None):
        if name is None:
            return primary
        return helpers[int(name.rsplit("-", 1)[1]) - 1]

    return AiTeam(start, count or len(helpers) + 1), primary


async def _connected(team: AiTeam) -> None:
    """Connected, and the helpers up: the first expectimax decision starts them."""
    assert await team.connect()
    assert not team.started and "started when it first plays" in team.describe()
    first = await team.think({"rows": ROWS, "depth": 1, "algorithm": "expectimax", "preset": "rows"})
    assert first["ok"] and "workers" not in first  # the first decision is the primary's alone
    for _ in range(500):
        if team.working + len(team.dropped) == team.count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the helpers did not start")


def test_two_workers_decide_as_one_at_a_fixed_depth():
    request = {"rows": ROWS, "depth": 3, "think_ms": 100, "algorithm": "expectimax", "preset": "rows"}

    async def scenario():
        helper = RealWorker()
        team, primary = _team(helper)
        await _connected(team)
        together = await team.think(request)
        alone = AiClient(lambda attempt: RealWorker())
        assert await alone.connect()
        return together, await alone.think(request), primary, helper, team

    together, alone, primary, helper, team = run_async(scenario)
    assert together["ok"] and together["workers"] == 2
    assert (together["move"], together["depth"]) == (alone["move"], 3)
    assert together["score"] == pytest.approx(alone["score"])
    assert [p["part"] for p in primary.parts] == [0] and [p["part"] for p in helper.parts] == [1]
    assert "in 2 of 2 workers" in team.describe() and "280 MB" in team.describe()


def test_a_timed_decision_shares_the_budget_and_keeps_it():
    request = {"rows": ROWS, "think_ms": 50, "algorithm": "expectimax", "preset": "rows"}

    async def scenario():
        team, _ = _team(RealWorker())
        await _connected(team)
        started = time.perf_counter()
        answer = await team.think(request)
        return answer, (time.perf_counter() - started) * 1000

    answer, took_ms = run_async(scenario)
    assert answer["ok"] and answer["workers"] == 2 and answer["depth"] >= 2
    assert answer["elapsed_ms"] <= 60 and took_ms < 500  # both parts searched at once on one thread here


def test_a_helper_that_crashes_is_dropped_and_the_ai_answers():
    request = {"rows": ROWS, "depth": 3, "think_ms": 100, "algorithm": "expectimax", "preset": "rows"}

    async def scenario():
        team, _ = _team(Crashing())
        await _connected(team)
        first = await team.think(request)
        second = await team.think(request)
        return first, second, team

    first, second, team = run_async(scenario)
    assert first["ok"] and first["depth"] == 3 and first.get("workers", 1) == 1
    assert second["ok"] and team.helpers == [] and "stopped working" in team.dropped[0]
    assert "Dropped" in team.describe()


class Reviewing(RealWorker):
    """Grades review batches as the real worker does, one at a time (a worker's one thread), noting each."""

    def __init__(self, fails: bool = False) -> None:
        super().__init__()
        self.batches: list[int] = []
        self.fails = fails
        self.grading = 0
        self.together = 0  # the most batches it was asked to grade at once

    async def review(self, request_json):
        request = json.loads(request_json)
        self.batches.append(request["first"])
        self.grading += 1
        self.together = max(self.together, self.grading)
        await asyncio.sleep(0.01)
        self.grading -= 1
        if self.fails:
            raise RuntimeError("JsException: the worker was terminated")
        return ai_worker.review(request_json)


def _review_batches(count: int, preset: str = "rows") -> list[dict]:
    """``count`` review requests of 5 moves each (``review_figures.batches``, as the page cuts a game), from one
    seeded game."""
    from app.games.review_figures import batches
    from game2048.board import legal_moves
    from game2048.game_record import GameRecord, positions

    record = GameRecord(33)
    while len(record.moves) < 5 * count:
        legal = legal_moves(record._replayed().board)
        record.append(legal[len(record.moves) % len(legal)], None)
    return [dict(request, preset=preset) for request in batches(record, positions(record), size=5)]


async def _team_with_helpers(team: AiTeam) -> None:
    """Connected, its helpers started by two review batches at once (a review's two lanes), and up."""
    assert await team.connect()
    first, second = _review_batches(2)
    assert not team.started
    assert all(
        a["ok"] for a in await asyncio.gather(team.call("review", first, 3000), team.call("review", second, 3000))
    )
    for _ in range(500):
        if len(team.helpers) + len(team.dropped) == team.count - 1 and not any(h.busy for h in team.helpers):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the helpers did not start")


def test_a_review_sends_each_worker_a_batch_and_grades_as_one_worker_does():
    batches = _review_batches(6)

    async def scenario():
        helper = Reviewing()
        primary = Reviewing()
        team = AiTeam(lambda attempt, name=None: primary if name is None else helper, 2)
        assert team.review_lanes == 2 and AiClient(lambda attempt: primary).review_lanes == 1
        await _team_with_helpers(team)
        primary.batches.clear()
        primary.together = 0  # the two that started the helpers both went to the primary: it was alone
        answers = []
        for pair in range(0, len(batches), team.review_lanes):  # as the review sends them: a lane each
            answers += await asyncio.gather(*(team.call("review", b, 3000) for b in batches[pair : pair + 2]))
        return answers, primary, helper

    answers, primary, helper = run_async(scenario)
    assert primary.batches == [1, 11, 21] and helper.batches == [6, 16, 26]  # one of each pair a worker
    assert primary.together == 1 and helper.together == 1  # a batch at a time a worker, never queued in one
    alone = [json.loads(ai_worker.review(json.dumps(b))) for b in batches]
    assert answers == alone


def test_the_coachs_batches_one_at_a_time_never_start_the_helpers():
    """The coach grades one batch at a time: no helper worker (a Pyodide, hundreds of MB) is started for it."""

    async def scenario():
        primary = Reviewing()
        team = AiTeam(lambda attempt, name=None: primary if name is None else Reviewing(), 2)
        assert await team.connect()
        for batch in _review_batches(3):
            assert (await team.call("review", batch, 3000))["ok"]
        await asyncio.sleep(0.05)
        return team, primary

    team, primary = run_async(scenario)
    assert not team.started and team.helpers == [] and primary.batches == [1, 6, 11]


def test_a_helper_that_fails_a_review_batch_is_dropped_and_the_primary_grades_it():
    batches = _review_batches(2)

    async def scenario():
        primary, helper = Reviewing(), Reviewing(fails=True)
        team = AiTeam(lambda attempt, name=None: primary if name is None else helper, 2)
        await _team_with_helpers(team)
        answers = await asyncio.gather(*(team.call("review", b, 3000) for b in batches))
        return answers, team, helper

    answers, team, helper = run_async(scenario)
    assert all(answer["ok"] for answer in answers) and helper.batches == [6]
    assert team.helpers == [] and "failed to grade a review batch" in team.dropped[0]


def test_a_learned_review_stays_with_the_primary_until_the_helper_holds_the_network():
    batches = _review_batches(2, preset="learned")

    async def scenario():
        primary, helper = Reviewing(), Reviewing()
        team = AiTeam(lambda attempt, name=None: primary if name is None else helper, 2)
        await _team_with_helpers(team)
        primary.batches.clear()
        await asyncio.gather(*(team.call("review", b, 3000) for b in batches))
        return primary, helper

    primary, helper = run_async(scenario)
    assert primary.batches == [1, 6] and helper.batches == []


def test_a_helper_that_hangs_costs_depth_then_is_dropped():
    request = {"rows": ROWS, "think_ms": 20, "algorithm": "expectimax", "preset": "rows"}

    async def scenario():
        hanging = Hanging()
        team, _ = _team(hanging)
        await _connected(team)
        started = time.perf_counter()
        first = await team.think(request)
        took_ms = (time.perf_counter() - started) * 1000
        busy = [h.busy for h in team.helpers]
        second = await team.think(request)  # the hanging helper is still busy: not asked again
        for _ in range(600):
            if not team.helpers:
                break
            await asyncio.sleep(0.01)
        return first, took_ms, busy, second, team, hanging

    first, took_ms, busy, second, team, hanging = run_async(scenario)
    assert first["ok"] and first["depth"] == 2 and took_ms < 1000  # the shared depth, from the primary's part
    assert busy == [True] and second["ok"] and len(hanging.parts) == 1
    assert team.helpers == [] and "stopped working" in team.dropped[0]


class Slow(RealWorker):
    """A helper that answers, but late (after the merge has gone on) while ``slow`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.slow = True

    async def think_part(self, request_json):
        self.parts.append(json.loads(request_json))
        if self.slow:
            await asyncio.sleep(0.15)
        return ai_worker.think_part(request_json)


def test_a_helper_late_three_times_rests_then_rejoins_for_longer_each_time():
    """A moment's load must not cost the rest of a long game: the late helper sits out and comes back."""
    request = {"rows": ROWS, "think_ms": 10, "algorithm": "expectimax", "preset": "rows"}

    async def decide(team, helper):
        while team.helpers and team.helpers[0].busy:  # a late part frees its helper when it ends
            await asyncio.sleep(0.01)
        return await team.think(request)

    async def scenario():
        slow = Slow()
        team, _ = _team(slow)
        await _connected(team)
        for _ in range(ai_split.LATE_STRIKES):
            await decide(team, slow)
        said = team.describe()
        asked = len(slow.parts)
        slow.slow = False
        resting = [await decide(team, slow) for _ in range(ai_split.REST_DECISIONS - 1)]
        back = await decide(team, slow), len(slow.parts)
        slow.slow = True
        for _ in range(ai_split.LATE_STRIKES):
            await decide(team, slow)
        return team, said, asked, resting, back

    team, said, asked, resting, (back, asked_back) = run_async(scenario)
    assert asked == ai_split.LATE_STRIKES and len(team.helpers) == 1 and team.dropped == []
    assert "in 1 of 2 workers (1 resting after answering late 3 times in a row (by up to " in said
    assert said.endswith(" ms), back within 32 decisions), each using up to 280 MB of memory.")
    assert 100 <= team.helpers[0].late_ms < 1000  # its parts came about 150 ms - 15 ms after the merge went on
    assert all(a["ok"] and a.get("workers", 1) == 1 for a in resting)  # not asked while it rests
    assert back["ok"] and back["workers"] == 2 and asked_back == ai_split.LATE_STRIKES + 1
    assert team.helpers[0].rest == 2 * ai_split.REST_DECISIONS  # late again: a rest twice as long


class Quick(RealWorker):
    """A part that stops at the shared depth after ``delay`` s: a primary that expects no deeper iteration to
    fit answers at once; a helper that tried one more on its share spends most of its budget."""

    def __init__(self, delay: float = 0.0) -> None:
        super().__init__()
        self.delay = delay

    async def think_part(self, request_json):
        request = json.loads(request_json)
        self.parts.append(request)
        await asyncio.sleep(self.delay)
        return ai_worker.think_part(json.dumps({**request, "think_ms": None, "depth": 2}))


def test_a_helper_is_waited_for_until_its_budget_is_spent():
    """The primary stopping early must not make a helper that keeps to its budget late (it was, 3 in a row)."""
    request = {"rows": ROWS, "think_ms": 200, "algorithm": "expectimax", "preset": "rows"}
    primary = Quick()

    async def scenario():
        thorough = Quick(delay=0.12)
        team = AiTeam(lambda attempt, name=None: thorough if name else primary, 2)
        await _connected(team)
        answers = []
        for _ in range(ai_split.LATE_STRIKES):
            started = time.perf_counter()
            answers.append((await team.think(request), (time.perf_counter() - started) * 1000))
        return answers, team

    answers, team = run_async(scenario)
    assert all(answer["ok"] and answer["workers"] == 2 for answer, _ in answers)
    assert all(100 <= took_ms < 200 + 100 for _, took_ms in answers)  # the helper's 120 ms, within budget + grace
    assert team.helpers[0].late == 0 and team.helpers[0].rest == 0
    assert "in 2 of 2 workers" in team.describe()


def test_the_resting_line_says_the_resting_helpers_lateness_not_another_ones():
    team = AiTeam(lambda attempt, name=None: RealWorker(), 3)
    team.started = True
    rested, late_once = ai_split.Helper(AiClient(RealWorker)), ai_split.Helper(AiClient(RealWorker))
    rested.tire()
    rested.late_ms, late_once.late_ms = 40.0, 300.0  # the other one was late once, long ago, and works on
    team.helpers = [rested, late_once]
    said = team.describe()
    assert "in 2 of 3 workers (1 resting after answering late 3 times in a row (by up to 40 ms)" in said


def test_alpha_beta_stays_in_one_worker_and_never_starts_the_helpers():
    async def scenario():
        started = []
        team = AiTeam(lambda attempt, name=None: started.append(name) or RealWorker(), 2)
        assert await team.connect()
        answer = await team.think({"rows": ROWS, "depth": 3, "algorithm": "alphabeta"})
        await asyncio.sleep(0.1)
        return answer, team, started

    answer, team, started = run_async(scenario)
    assert answer["ok"] and answer["algorithm"] == "alphabeta" and "workers" not in answer
    assert started == [None] and not team.started and team.helpers == []


def test_learned_waits_for_each_helper_to_hold_the_network():
    async def scenario():
        helper = RealWorker()
        team, _ = _team(helper)
        await _connected(team)
        asked = []

        async def think(request):
            asked.append(request)
            return {"ok": True, "move": "up"}

        team.primary.think = think
        await team.think({"rows": ROWS, "algorithm": "expectimax", "preset": "learned", "think_ms": 10})
        return asked, helper

    asked, helper = run_async(scenario)
    assert len(asked) == 1 and helper.parts == []


@pytest.mark.parametrize(
    ("cores", "memory", "expected"),
    [
        (None, None, 1),
        (1, 8, 1),
        (2, None, 2),
        (8, 8, 4),
        (8, 2, 2),
        (4, 0.5, 1),
        ("x", "y", 1),
        (6, 4, 4),
        (float("inf"), float("inf"), 1),
        (4, float("inf"), 4),
        (float("nan"), float("nan"), 1),
        (-3, -1, 1),
    ],
)
def test_the_worker_count_follows_cores_and_memory(cores, memory, expected):
    assert worker_count(cores, memory) == expected


class Navigator:
    hardwareConcurrency = 8
    deviceMemory = 8


def test_the_address_may_ask_for_a_worker_count():
    assert team_size("", Navigator()) == (ai_split.MAX_WORKERS, None)
    assert team_size("?workers=1", Navigator()) == (1, None)
    assert team_size("?seed=3&workers=3", Navigator()) == (3, None)
    count, notice = team_size("?workers=9", Navigator())
    assert count == 4 and "Ignored ?workers=" in notice and "between 1 and 4" in notice
    assert team_size("?workers=two", object()) == (
        1,
        "Ignored ?workers= (it is not a whole number); the AI uses 1 worker, as this device allows.",
    )
