"""The live coach: the player's moves graded in the background (never the AI's, never while it thinks, never when
off), a mark per grade, stale answers dropped, and at game over the move where the game was lost."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from app_async import run_async
from fakes import FakeNode, FakeView
from micropython_runner import json_outputs

from app.ai import worker
from app.ai.coach import BATCH_MOVES, SETTING, Coach, coached_review, next_batch
from app.ai.coach_marks import KEPT_NOTE, mark_text, units_note, verdict_text
from app.board.play import AI, Intent, PlaySession
from app.browser.storage import MemoryBackend, Storage
from app.games.review_store import ReviewStore, record_key
from app.games.saved_games import SavedGames
from game2048.board import from_rows, legal_moves
from game2048.game import Game
from game2048.game_record import record_of


class Element(FakeNode):
    """One of the coach's elements: its text, hidden, checked and attributes; ``toggle()`` ticks a checkbox."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.hidden = self.checked = False
        self.textContent = ""
        self.attributes: dict[str, str] = {}

    def setAttribute(self, name, value):  # noqa: N802 - the DOM's name
        self.attributes[name] = str(value)

    def toggle(self) -> None:
        self.checked = not self.checked
        self.dispatch(SimpleNamespace(type="change"))


class Document:
    def __init__(self) -> None:
        self.elements = {name: Element(name) for name in ("coach", "coach-mark", "coach-note", "coach-verdict")}

    def getElementById(self, element_id):  # noqa: N802
        return self.elements.get(element_id)


class Grader:
    """The worker's ``review`` in CPython with the ``rows`` preset; ``held`` keeps each answer until released."""

    def __init__(self, held: bool = False, lost: dict[int, float] | None = None) -> None:
        self.requests: list[dict] = []
        self.release = asyncio.Event()
        if not held:
            self.release.set()
        self.lost = lost  # fabricated losses by move number (the grades then follow ``grade_of``'s bounds)
        self.mark: Element | None = None  # the coach's mark, read as each request is sent
        self.marks_seen: list[str] = []

    async def __call__(self, request: dict) -> dict:
        self.requests.append(request)
        if self.mark is not None:
            self.marks_seen.append(self.mark.textContent)
        await self.release.wait()
        answer = json.loads(worker.review(json.dumps(dict(request, preset="rows"))))
        if self.lost is not None:
            for move in answer["moves"]:
                move["lost"] = self.lost.get(move["number"], 0.0)
                move["grade"] = answer["grades"][sum(move["lost"] > b for b in answer["bounds"])]
                move["best"] = "left" if move["lost"] else move["played"]
        return answer


def coached(game: Game, grade: Grader, on: bool = True, busy=lambda: ""):  # type: ignore[no-untyped-def]
    storage = Storage(MemoryBackend())
    view = FakeView()
    session = PlaySession(game, view, SavedGames(storage), new_game=lambda: Game.new(3), slide_seconds=0.001)
    session.start()
    document = Document()
    store = ReviewStore(storage)
    coach = Coach(document, lambda f: f, session, storage, grade, busy, view.announce, store=store)
    if on:
        document.elements["coach"].toggle()
    return session, coach, document, view, storage


async def settled(session: PlaySession, coach: Coach) -> None:
    await session.wait_idle()
    while coach.sending:
        await asyncio.sleep(0)


def play(session: PlaySession, count: int, source: str = "human") -> None:
    for _ in range(count):
        legal = legal_moves(session.game.board)
        if legal:
            session.submit(Intent.move(legal[0], source))


def test_each_grade_has_its_mark_and_the_costly_ones_name_the_best_move():
    move = {"number": 12, "played": "up", "best": "up", "lost": 0.0, "grade": "best"}
    assert mark_text(move, True) == "Move 12: \u2713 best"
    assert mark_text(dict(move, best="left", lost=0.3), False) == "Move 12: \u2713 best"  # a tie to rounding
    good = dict(move, best="left", lost=120.4, grade="good")
    assert mark_text(good, True) == "Move 12: good, \u2212120 points"
    assert mark_text(dict(good, lost=1234.0, grade="inaccuracy"), True) == (
        "Move 12: ?! inaccuracy, \u22121234 points; best was left"
    )
    assert mark_text(dict(good, lost=3000.0, grade="mistake"), False) == (
        "Move 12: ? mistake, \u22123000 units; best was left"
    )
    assert mark_text(dict(good, lost=25000.0, grade="blunder"), True) == (
        "Move 12: ?? blunder, \u221225k points; best was left"
    )
    assert mark_text(dict(good, grade="dubious"), True) == "Move 12: dubious, \u2212120 points"  # a new grade: no sign
    assert "not points" in units_note("rows", False) and "points" in units_note("learned", True)


def test_the_verdict_names_the_costliest_move_and_says_when_every_move_was_best():
    graded = [
        {"number": 3, "played": "up", "best": "left", "lost": 2000.0, "grade": "mistake"},
        {"number": 9, "played": "down", "best": "right", "lost": 9000.0, "grade": "blunder"},
        {"number": 11, "played": "up", "best": "left", "lost": 9000.0, "grade": "blunder"},
    ]
    assert verdict_text(graded, True, "best") == (
        "Coach: where this game was lost: move 9, a blunder that cost 9000 points (the best was right)."
    )
    best = [{"number": 1, "played": "up", "best": "up", "lost": 0.0, "grade": "best"}]
    assert verdict_text(best, True, "best").startswith("Coach: all 1 of your graded moves were the best")


def test_a_run_of_consecutive_moves_is_one_request_and_an_ai_move_ends_it():
    waiting = [{"number": n} for n in (4, 5, 6, 8, 9)]
    assert [item["number"] for item in next_batch(waiting)] == [4, 5, 6]
    assert len(next_batch([{"number": n} for n in range(1, 50)])) == BATCH_MOVES


def test_the_players_moves_are_marked_and_the_moves_never_wait_for_a_grade():
    grade = Grader(held=True)

    async def scenario():
        session, coach, document, _view, storage = coached(Game.new(7), grade)
        play(session, 3)
        await session.wait_idle()  # every move applied while the first grade is still out
        moves, mark_before = session.game.moves, document.elements["coach-mark"].hidden
        grade.release.set()
        await settled(session, coach)
        return session, coach, document, storage, moves, mark_before

    session, coach, document, storage, moves, mark_before = run_async(scenario)
    assert moves == 3 and mark_before
    assert [r["first"] for r in grade.requests] == [1, 2]  # the first alone, then the two queued meanwhile in one
    assert grade.requests[1]["played"] == [coach.graded[2]["played"], coach.graded[3]["played"]]
    mark = document.elements["coach-mark"]
    assert not mark.hidden and mark.textContent.startswith("Move 3: ")
    assert mark.attributes["data-grade"] == coach.graded[3]["grade"]
    note = document.elements["coach-note"]
    assert not note.hidden and "rows evaluation: its units are not points" in note.textContent
    assert storage.settings()[SETTING] is True


def test_ai_moves_are_not_graded_and_off_sends_nothing():
    grade = Grader()

    async def scenario():
        session, coach, document, _view, _storage = coached(Game.new(8), grade)
        play(session, 2, AI)
        await settled(session, coach)
        asked_for_ai = len(grade.requests)
        document.elements["coach"].toggle()  # off
        play(session, 2)
        await settled(session, coach)
        return asked_for_ai, document

    asked_for_ai, document = run_async(scenario)
    assert asked_for_ai == 0 and grade.requests == []
    assert document.elements["coach-mark"].hidden and document.elements["coach-note"].hidden


def test_a_coach_left_off_shows_nothing_and_a_saved_choice_comes_back_on():
    grade = Grader()

    async def scenario():
        session, coach, document, _view, storage = coached(Game.new(9), grade, on=False)
        play(session, 2)
        await settled(session, coach)
        storage.save_settings({SETTING: True})
        again = Coach(Document(), lambda f: f, session, storage, grade, lambda: "", lambda _t: None)
        return document, again

    document, again = run_async(scenario)
    assert grade.requests == [] and document.elements["coach-mark"].hidden
    assert again.enabled and again.checkbox.checked


def test_an_answer_for_a_move_taken_back_is_dropped():
    grade = Grader(held=True)

    async def scenario():
        session, coach, document, _view, _storage = coached(Game.new(10), grade)
        grade.mark = document.elements["coach-mark"]
        first, second = legal_moves(session.game.board)[:2]
        session.submit(Intent.move(first))
        await session.wait_idle()
        session.submit(Intent("undo"))
        session.submit(Intent.move(second))
        await session.wait_idle()
        grade.release.set()
        await settled(session, coach)
        return coach, document, first, second

    coach, document, first, second = run_async(scenario)
    assert [r["played"] for r in grade.requests] == [[first], [second]]
    assert grade.marks_seen == ["", ""]  # the first answer, for the move taken back, showed no mark
    assert coach.graded[1]["played"] == second
    assert document.elements["coach-mark"].textContent.startswith("Move 1: ")


def test_nothing_is_sent_while_the_ai_thinks_and_the_mark_says_the_coach_waits():
    grade = Grader()
    thinking = ["the AI is thinking"]

    async def scenario():
        session, coach, document, _view, _storage = coached(Game.new(11), grade, busy=lambda: thinking[0])
        play(session, 1)
        await session.wait_idle()
        for _ in range(5):
            await asyncio.sleep(0.02)
        waiting = (len(grade.requests), document.elements["coach-mark"].textContent)
        thinking[0] = ""
        await settled(session, coach)
        return waiting, document

    (asked, said), document = run_async(scenario)
    assert asked == 0 and said.startswith("Coach waits: the AI is thinking; move 1 is graded")
    assert len(grade.requests) == 1 and document.elements["coach-mark"].textContent.startswith("Move 1: ")


def test_at_game_over_the_costliest_move_is_said_in_the_overlay_and_aloud():
    almost = Game.from_position(from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 16, 0]]), seed=2)
    first = almost.moves + 1  # a position set up by hand counts the moves its tiles took
    grade = Grader(lost={first: 2000.0, first + 1: 9000.0})

    async def scenario():
        session, coach, document, view, _storage = coached(almost, grade)
        while not session.game.over:
            play(session, 1)
            await settled(session, coach)
        shown = (document.elements["coach-verdict"].hidden, document.elements["coach-verdict"].textContent)
        session.submit(Intent("restart"))
        await session.wait_idle()
        return session, document, view, shown

    session, document, view, (hidden, text) = run_async(scenario)
    verdict = document.elements["coach-verdict"]
    assert not hidden
    said = f"Coach: where this game was lost: move {first + 1}, a blunder that cost 9000 units (the best was left)."
    assert text == said and said in view.announced
    assert verdict.hidden and not session.game.over  # a new game: the verdict goes with the old one


def test_a_game_the_coach_graded_whole_is_kept_as_its_review():
    grade = Grader()

    async def scenario():
        session, coach, document, _view, storage = coached(Game.new(12), grade)
        while not session.game.over:
            play(session, 1)
            await settled(session, coach)
        return session, coach, document, storage

    session, coach, document, storage = run_async(scenario)
    record = record_of(session.game)
    kept = ReviewStore(storage).get(record_key(record))
    assert kept is not None and len(kept.moves) == len(record.moves) and kept.preset == "rows" and not kept.points
    assert [m["grade"] for m in kept.moves] == [coach.graded[n]["grade"] for n in range(1, len(record.moves) + 1)]
    assert document.elements["coach-verdict"].textContent.endswith(KEPT_NOTE)
    one_missing = {n: move for n, move in coach.graded.items() if n != 2}
    assert coached_review(session.game, one_missing, coach.grades) is None  # an AI's move, or the coach was off
    two_presets = {n: dict(move, preset="learned") if n == 1 else move for n, move in coach.graded.items()}
    assert coached_review(session.game, two_presets, coach.grades) is None


SCRIPT = """
from app.ai.coach import coached_review, next_batch, request_for
from app.ai.coach_marks import mark_text, units_note, verdict_text
from game2048.game import Game

moves, seed, graded, grades = json.loads(DATA)
game = Game.new(seed)
for move in graded:
    game.play(move["played"])
key, review = coached_review(game, {move["number"]: move for move in graded}, grades)
print(json.dumps({
    "marks": [mark_text(m, points) for m in moves for points in (True, False)],
    "verdict": verdict_text(moves, False, "best"),
    "note": units_note("rows", False),
    "kept": [key, review.figures.accuracy, review.figures.counts, [m["value"] for m in review.moves]],
    "request": request_for(next_batch([{"number": n, "board": "0" * 16, "played": "up"} for n in (3, 4, 6)])),
}))
"""


def test_the_coach_reads_the_same_in_micropython():
    moves = [
        {"number": n, "played": "up", "best": "left" if lost else "up", "lost": lost, "grade": grade}
        for n, (lost, grade) in enumerate([(0.0, "best"), (40.0, "good"), (999.6, "inaccuracy"), (12345.0, "blunder")])
    ]
    game, boards, played = Game.new(13), [], []
    for _ in range(6):
        boards.append(f"{game.board:016x}")
        played.append(legal_moves(game.board)[-1])
        game.play(played[-1])
    answer = json.loads(worker.review(json.dumps({"boards": boards, "played": played, "preset": "rows"})))
    graded = [dict(move, preset="rows", points=False) for move in answer["moves"]]
    micropython, cpython = json_outputs(SCRIPT, {}, [moves, 13, graded, answer["grades"]])
    assert micropython == cpython
    assert isinstance(cpython, dict) and "\u2713" in cpython["marks"][0]
    assert cpython["kept"][0].startswith("13:6:") and cpython["request"]["first"] == 3
