"""Finished games and the records saved with a game: bounded, damage kept to one entry, nothing lost to a full quota.

The page side of records: a game that ends (lost, or left for a new game) is
listed with its record and the AI's decisions; a reload rebuilds the saved
game's undo history from its record; a damaged record or list entry is
dropped with a notice and takes nothing else with it; and a storage quota
that is full loses finished games, oldest first, never the current game.
"""

from __future__ import annotations

import json

from app_async import run_async
from fakes import FakeView

from app.board.play import AI, Intent, PlaySession
from app.browser.storage import GAME_KEY, GAMES_KEY, MemoryBackend, Storage
from app.games.finished_games import MAX_CHARS, MAX_GAMES, FinishedGames
from app.games.saved_games import SavedGames, saved_form
from game2048.board import legal_moves
from game2048.game import Game
from game2048.game_record import GameRecord, decision, record_of, summary_of

AI_NOTE = decision("alphabeta", "classic", 6, 99.5)


class QuotaBackend(MemoryBackend):
    """Web Storage with a quota in characters over all keys, like a browser's (which raises QuotaExceededError)."""

    def __init__(self, quota: int) -> None:
        super().__init__()
        self.quota = quota

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        others = sum(len(k) + len(v) for k, v in self.items.items() if k != key)
        if others + len(key) + len(value) > self.quota:
            raise RuntimeError("QuotaExceededError")
        super().setItem(key, value)


def played(seed: int, moves: int = 30, note=None) -> Game:
    game = Game.new(seed)
    game.started = 1_000.0 * seed
    while game.moves < moves and not game.over:
        game.play(legal_moves(game.board)[game.moves % len(legal_moves(game.board))], note)
    return game


def record_data(seed: int, moves: int = 30) -> dict:
    return record_of(played(seed, moves), ended=5.0).to_dict()


def test_games_are_listed_newest_first_and_the_same_game_ended_again_replaces_its_entry():
    finished = FinishedGames(Storage(MemoryBackend()))
    for seed in (1, 2, 3):
        assert finished.add(record_data(seed))
    assert [row["seed"] for row in finished.summaries()] == [3, 2, 1]
    again = record_data(2, moves=40)  # the same game (seed, start), undone after its end and ended later
    finished.add(again)
    assert [(row["seed"], row["moves"]) for row in finished.summaries()] == [(2, 40), (3, 30), (1, 30)]
    assert finished.record(0) == GameRecord.from_dict(again)


def test_the_list_keeps_at_most_max_games_and_max_chars():
    backend = MemoryBackend()
    finished = FinishedGames(Storage(backend))
    small = record_data(1, moves=5)
    for seed in range(MAX_GAMES + 5):
        finished.add(dict(small, seed=seed))
    assert len(finished.records()) == MAX_GAMES and finished.records()[0]["seed"] == MAX_GAMES + 4
    big = dict(record_data(7), padding="x" * 40_000)  # the size of a 2,000-move AI game
    for seed in range(MAX_CHARS // len(json.dumps(big)) + 10):
        finished.add(dict(big, seed=seed))
    assert len(backend.getItem(GAMES_KEY)) <= MAX_CHARS
    assert len(finished.records()) >= MAX_CHARS // len(json.dumps(big)) - 1


def test_a_damaged_entry_is_dropped_with_a_notice_and_the_others_stay():
    backend = MemoryBackend()
    storage = Storage(backend)
    good = [record_data(seed) for seed in (1, 2)]
    broken = dict(good[0], result={"max_tile": 3})
    backend.setItem(GAMES_KEY, json.dumps([good[1], broken, "nonsense", good[0]]))
    finished = FinishedGames(storage)
    assert [row["seed"] for row in finished.summaries()] == [2, 1]
    notices = storage.take_notices()
    assert len(notices) == 2 and "Finished game 2" in notices[0] and "max tile" in notices[0]
    assert json.loads(backend.getItem(GAMES_KEY)) == [good[1], good[0]]
    lying = dict(good[0], result=dict(good[0]["result"], score=good[0]["result"]["score"] + 4))
    backend.setItem(GAMES_KEY, json.dumps([lying, good[1]]))  # its shape is sound: found when it is replayed
    assert finished.record(0) is None and "could not be replayed" in storage.take_notices()[0]
    assert finished.records() == [good[1]]


def test_a_list_that_is_not_json_is_set_aside_and_a_new_game_is_still_listed():
    backend = MemoryBackend()
    backend.setItem(GAMES_KEY, "[{broken")
    storage = Storage(backend)
    finished = FinishedGames(storage)
    assert finished.summaries() == [] and "finished games" in storage.take_notices()[0]
    assert finished.add(record_data(3)) and len(finished.records()) == 1


def test_a_full_quota_drops_the_oldest_finished_games_and_never_the_current_game():
    backend = QuotaBackend(quota=30_000)
    saved = SavedGames(Storage(backend))
    current = played(50, moves=200, note=AI_NOTE)
    assert saved.save(current)
    for seed in range(1, 30):
        saved.finish(played(seed, moves=60, note=AI_NOTE), ended=1.0)
        assert json.loads(backend.getItem(GAME_KEY))["record"]["seed"] == 50  # the current game is untouched
    kept = [row["seed"] for row in saved.finished.summaries()]
    assert kept[0] == 29 and kept == sorted(kept, reverse=True) and len(kept) < 29
    backend.quota = len(backend.getItem(GAME_KEY)) + 100  # no room for even one more finished game
    saved.finish(played(40), ended=1.0)
    assert "storage is full" in saved.take_notices()[-1] and saved.load().to_dict() == current.to_dict()


def _session(backend: MemoryBackend, game: Game | None = None) -> tuple[PlaySession, FakeView, SavedGames]:
    view, saved = FakeView(), SavedGames(Storage(backend))
    loaded = saved.load()
    game = game or loaded or played(9, moves=0)
    session = PlaySession(game, view, saved, new_game=lambda: played(11, moves=0), slide_seconds=0, clock=lambda: 7.0)
    session.start()
    session.restore_history()
    return session, view, saved


def test_ai_moves_keep_their_decision_and_a_restart_lists_the_game_it_leaves():
    async def scenario():
        backend = MemoryBackend()
        session, _, saved = _session(backend)
        for n in range(6):
            direction = legal_moves(session.game.board)[0]
            session.submit(Intent.move(direction, AI, AI_NOTE) if n % 2 else Intent.move(direction))
            await session.wait_idle()
        session.submit(Intent("restart"))
        await session.wait_idle()
        return saved

    saved = run_async(scenario)
    [row] = saved.finished.summaries()
    assert row["moves"] == 6 and row["ai_moves"] == 3 and row["ended"] == 7.0 and row["outcome"] == "unfinished"
    assert saved.finished.record(0).decisions[1] == AI_NOTE


def test_a_lost_game_is_listed_when_it_ends():
    async def scenario():
        session, _, saved = _session(MemoryBackend())
        while not session.game.over:
            session.submit(Intent.move(legal_moves(session.game.board)[0]))
            await session.wait_idle()
        return session, saved

    session, saved = run_async(scenario)
    [row] = saved.finished.summaries()
    assert row["outcome"] == "lost" and row["moves"] == session.game.moves and row["score"] == session.game.score


def test_after_a_reload_undo_reaches_back_through_the_record_to_the_first_move():
    async def scenario():
        backend = MemoryBackend()
        first, _, _ = _session(backend)
        for _ in range(12):
            first.submit(Intent.move(legal_moves(first.game.board)[0], AI, AI_NOTE))
            await first.wait_idle()
        first.submit(Intent("undo"))
        await first.wait_idle()
        reloaded, view, saved = _session(backend)  # a reload: the saved game, its history rebuilt from its record
        await reloaded.wait_idle()
        boards = []
        while reloaded.game.history:
            reloaded.submit(Intent("undo"))
            await reloaded.wait_idle()
            boards.append(reloaded.game.board)
        return first, reloaded, view, saved, boards

    first, reloaded, view, saved, boards = run_async(scenario)
    reference = Game.new(9)
    assert boards[-1] == reference.board and len(boards) == 11 and reloaded.game.undos == 12
    assert saved.take_notices() == [] and view.notices == []


def test_a_damaged_record_beside_the_saved_game_is_said_and_the_game_goes_on():
    async def scenario():
        backend = MemoryBackend()
        game = played(9, moves=10)
        data = game.to_dict()
        data["record"] = record_of(played(9, moves=11)).to_dict()  # a record of another position
        backend.setItem(GAME_KEY, json.dumps(data))
        session, view, _ = _session(backend)
        await session.wait_idle()
        return session, view, game

    session, view, game = run_async(scenario)
    assert session.game.to_dict() == game.to_dict() and not session.game.history
    assert "record could not be read" in view.notices[0] and "another position" in view.notices[0]


def test_a_kept_game_comes_back_with_its_history():
    backend = MemoryBackend()
    saved = SavedGames(Storage(backend))
    game = played(21, moves=15, note=AI_NOTE)
    saved.keep(game)
    taken = saved.swap(played(22, moves=3))
    assert taken.to_dict() == game.to_dict() and len(taken.history) == 15 and taken.history[0][2] == AI_NOTE


def test_a_summary_never_needs_a_replay():
    data = record_data(5)
    data["moves"] = data["moves"][:-1] + ("u" if data["moves"][-1] != "u" else "d")  # a different last move
    assert summary_of(data)["moves"] == 30  # read as it says; opening it (from_dict) replays and decides


def test_a_save_refused_for_room_drops_the_oldest_finished_then_kept_games_and_says_so():
    backend = QuotaBackend(quota=10**9)
    saved = SavedGames(Storage(backend))
    for seed in range(1, 11):
        saved.finish(played(seed, moves=60, note=AI_NOTE), ended=1.0)
    saved.keep(played(70, moves=20))
    saved.keep(played(71, moves=20))
    current = played(50, moves=200, note=AI_NOTE)
    needed = len(json.dumps(saved_form(current)))
    used = sum(len(k) + len(v) for k, v in backend.items.items())
    backend.quota = used + needed - 1000  # the game fits once a few finished games are gone
    assert saved.save(current)
    notice = saved.take_notices()[-1]
    assert "storage was full" in notice and "oldest finished game" in notice and "Your game is saved" in notice
    left = [row["seed"] for row in saved.finished.summaries()]
    assert left and left == list(range(10, 10 - len(left), -1))  # the newest stay
    assert len(saved.kept()) == 2  # kept games go only once the finished games are all gone


def test_a_save_with_no_room_even_after_dropping_the_rest_fails_and_the_last_good_save_stays():
    backend = QuotaBackend(quota=10**9)
    saved = SavedGames(Storage(backend))
    early = played(50, moves=1, note=AI_NOTE)
    assert saved.save(early)
    saved.finish(played(1, moves=2), ended=1.0)
    backend.quota = sum(len(k) + len(v) for k, v in backend.items.items())  # full to the last character
    later = played(50, moves=300, note=AI_NOTE)
    assert len(json.dumps(saved_form(later))) > backend.quota  # it outgrows all the storage holds
    assert not saved.save(later)
    assert saved.finished.summaries() == []
    assert "still could not be saved" in saved.take_notices()[-1]
    assert saved.load().to_dict() == early.to_dict()  # a reload brings back the last position saved


def test_kept_games_make_room_once_the_finished_games_are_gone():
    backend = QuotaBackend(quota=10**9)
    saved = SavedGames(Storage(backend))
    for seed in (1, 2):
        saved.finish(played(seed, moves=20, note=AI_NOTE), ended=1.0)
    saved.keep(played(70, moves=20))
    saved.keep(played(71, moves=20))
    current = played(50, moves=100, note=AI_NOTE)
    used = sum(len(k) + len(v) for k, v in backend.items.items())
    finished = len(backend.getItem(GAMES_KEY)) + len(GAMES_KEY)
    one_kept = len(json.dumps(saved_form(played(70, moves=20))))
    backend.quota = used - finished + len(json.dumps(saved_form(current))) + len(GAME_KEY) - one_kept // 2
    assert saved.save(current)
    notice = saved.take_notices()[-1]
    assert "2 oldest finished games and the oldest kept game were dropped" in notice
    assert [json.loads(json.dumps(e))["seed"] for e in saved.kept()] == [71]  # the newest kept game stays
