"""The guarded start: any storage contents and any URL give a playable game, and what was refused is said."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

import app.games.startup as startup
from app.ai.settings import AiSettings
from app.browser.storage import BEST_KEY, GAME_KEY, GAMES_KEY, KEPT_KEY, SETTINGS_KEY, MemoryBackend, Storage
from app.games.saved_games import SavedGames, encode, saved_form
from app.games.startup import FAILED_START, LOST_POSITION, choose_game, position_game
from game2048 import board as B
from game2048.game import Game
from game2048.game_link import LINK_ALPHABET, encode_game, record_from_link

KEYS = (GAME_KEY, KEPT_KEY, BEST_KEY, SETTINGS_KEY, GAMES_KEY)
LINK = encode_game(5, ["left", "up", "right", "down"] * 3)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=40,
)


def _saved_game_like() -> st.SearchStrategy[dict]:
    """A real saved game with one field replaced by anything: the near misses a hand edit makes."""
    base = Game.new(3)
    base.play("left")
    fields = list(base.to_dict())
    return st.builds(lambda field, value: base.to_dict() | {field: value}, st.sampled_from(fields), json_values)


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


hostile_text = st.one_of(
    st.text(),
    json_values.map(lambda v: json.dumps(v, allow_nan=True)),
    _saved_game_like().map(json.dumps),
    st.integers(min_value=1, max_value=60_000).map(_deep),
    st.integers(min_value=20, max_value=6000).map(lambda n: "9" * n),
    st.sampled_from(["NaN", "1e999", "-Infinity", '{"ai": {"think_ms": ' + "9" * 500 + "}}", "null", "[]"]),
)
storage_contents = st.dictionaries(st.sampled_from(KEYS), hostile_text, max_size=4)
position_texts = st.one_of(
    st.text(max_size=80),
    st.lists(st.sampled_from(["0", "2", "4", "6", "1", "2048", "32768", "65536", "x", "."]), max_size=18).map(
        lambda cells: "/".join(",".join(cells[i : i + 4]) for i in range(0, len(cells), 4))
    ),
    st.sampled_from(["2,4,2,4/4,2,4,2/2,4,2,4/4,2,4,2", "2048,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0"]),
)
queries = st.one_of(
    st.text(),
    position_texts.map(lambda t: "?rows=" + quote(t)),
    st.tuples(position_texts, st.integers(min_value=-1, max_value=99)).map(
        lambda p: f"?seed={p[1]}&rows=" + quote(p[0])
    ),
    st.text().map(lambda t: "?seed=" + quote(t)),
    st.integers(min_value=-5, max_value=2**70).map(lambda n: f"?seed={n}"),
    st.integers(min_value=4000, max_value=20_000).map(lambda n: "?seed=" + "7" * n),
    st.text(alphabet=LINK_ALPHABET + "=%&", max_size=60).map(lambda t: "?game=" + t),
    st.tuples(st.integers(min_value=0, max_value=len(LINK) + 2), st.text(max_size=3)).map(
        lambda cut: "?game=" + LINK[: cut[0]] + quote(cut[1])
    ),
)


def _start(items: dict[str, str], query: str = ""):
    backend = MemoryBackend()
    backend.items.update(items)
    saved = SavedGames(Storage(backend))
    return choose_game(query, saved), saved, backend


def _playable(game: Game) -> bool:
    return isinstance(game, Game) and 2 <= 16 - B.count_empty(game.board) and B.max_rank(game.board) <= B.MAX_RANK


@given(storage_contents, queries)
def test_any_storage_and_any_url_give_a_playable_game(items, query):
    start, saved, backend = _start(items, query)
    assert _playable(start.game)
    AiSettings.from_saved(saved.storage.settings().get("ai"))  # the controls' read of the settings
    saved.storage.best_score()
    notices = start.notices + saved.take_notices()
    assert not any(n.startswith(FAILED_START[:20]) for n in notices), notices  # the guard alone sufficed
    for key, raw in items.items():
        if backend.getItem(key) != raw and key != GAME_KEY:
            assert notices, f"{key} was changed without a word"
    # Whatever was refused is gone from its key: the next start does not meet it again.
    again, saved_again, _ = _start(dict(backend.items))
    assert _playable(again.game) and not saved_again.take_notices()


def test_deep_json_in_every_key_opens_the_page_and_is_set_aside():
    deep = _deep(15_000)  # 30,000 characters: within the size limits, far beyond the depth
    start, saved, backend = _start({key: deep for key in KEYS})
    saved.storage.settings()
    saved.storage.best_score()
    notices = " ".join(start.notices + saved.take_notices())
    assert _playable(start.game) and "levels deep" in notices
    assert backend.getItem("game2048:discarded-game") == deep
    assert backend.getItem("game2048:discarded-settings") == deep


def test_a_seed_longer_than_python_converts_is_ignored_with_a_notice():
    start, _, _ = _start({}, "?seed=" + "7" * 5000)
    assert _playable(start.game) and start.seed is None and "seed" in start.notices[0]


def test_a_seed_link_keeps_the_game_in_progress():
    game = Game.new(3)
    for direction in ("left", "up", "right"):
        game.play(direction)
    start, saved, _ = _start({GAME_KEY: json.dumps(game.to_dict())}, "?seed=42")
    assert start.game.to_dict() == Game.new(42).to_dict()
    assert saved.kept() == [game.to_dict()]
    assert any("Your game in progress" in n and "Resume kept game" in n for n in start.notices)


def test_a_seed_link_to_the_game_in_progress_continues_it():
    game = Game.new(42)
    game.play("left")
    start, saved, _ = _start({GAME_KEY: json.dumps(game.to_dict())}, "?seed=42")
    assert start.game.to_dict() == game.to_dict() and saved.kept() == [] and start.notices == []


def test_anything_unforeseen_still_starts_a_fresh_game_with_a_notice(monkeypatch):
    def broken(_options, _saved, _clock):
        raise KeyError("surprise")

    monkeypatch.setattr(startup, "_choose", broken)
    start, _, _ = _start({})
    assert _playable(start.game) and "KeyError" in start.notices[0] and "new game" in start.notices[0]


LOST = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
POSITION = [[0, 2, 4, 8], [0, 0, 0, 0], [0, 0, 128, 0], [2, 0, 0, 0]]
POSITION_LINK = "?rows=0,2,4,8/0,0,0,0/0,0,128,0/2,0,0,0"


def _game_in_progress() -> Game:
    game = Game.new(3)
    for direction in ("left", "up", "right"):
        game.play(direction)
    return game


def test_a_position_link_opens_it_and_keeps_the_game_in_progress():
    game = _game_in_progress()
    start, saved, backend = _start({GAME_KEY: json.dumps(game.to_dict())}, POSITION_LINK)
    assert B.to_rows(start.game.board) == POSITION and start.from_link and start.seed is None
    assert _unplayed(start.game) == _unplayed(Game.from_position(B.from_rows(POSITION)))
    assert saved.kept() == [game.to_dict()]
    assert any("The link opened a position" in n and "Resume kept game" in n for n in start.notices)
    assert json.loads(backend.getItem(GAME_KEY)) == start.game.to_dict()  # a reload goes on from here


def test_a_position_link_to_the_game_saved_from_it_continues_it():
    opened, _, backend = _start({}, POSITION_LINK)
    again, saved, _ = _start(dict(backend.items), POSITION_LINK)
    assert again.game.to_dict() == opened.game.to_dict() and saved.kept() == [] and again.notices == []


def test_a_position_with_the_seed_draws_its_spawns_from_the_seed():
    start, _, _ = _start({}, POSITION_LINK + "&seed=9")
    assert start.seed == 9 and start.game.seed == 9
    expected = Game.from_position(B.from_rows(POSITION), 9)
    start.game.play("left")
    expected.play("left")
    assert start.game.to_dict() == expected.to_dict()


def test_a_position_with_no_legal_move_opens_as_a_lost_game_and_is_not_restored():
    game = _game_in_progress()
    start, saved, backend = _start({GAME_KEY: json.dumps(game.to_dict())}, "?rows=" + _link(LOST))
    assert start.game.over and B.to_rows(start.game.board) == LOST
    assert LOST_POSITION in start.notices and saved.kept() == [game.to_dict()]
    assert backend.getItem(GAME_KEY) is None


def test_a_position_with_2048_goes_on_without_the_win_overlay():
    rows = [[2048, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    start, _, _ = _start({}, "?rows=" + _link(rows))
    assert start.game.won and not start.game.paused_at_win
    assert _unplayed(position_game(B.from_rows(rows))) == _unplayed(start.game)


def test_a_bad_position_link_says_why_and_the_saved_game_goes_on():
    game = _game_in_progress()
    start, saved, _ = _start({GAME_KEY: json.dumps(game.to_dict())}, "?rows=0,6,0,0/0,0,0,0/0,0,0,0/2,0,0,0")
    assert start.game.to_dict() == game.to_dict() and not start.from_link and saved.kept() == []
    assert len(start.notices) == 1 and "6 is not a power of two" in start.notices[0]
    one_tile, _, _ = _start({}, "?rows=0,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0&seed=4")
    assert one_tile.game.to_dict() == Game.new(4).to_dict() and "at least two tiles" in one_tile.notices[0]


def _unplayed(game: Game) -> dict:
    return {key: value for key, value in game.to_dict().items() if key != "rng"}


def _link(rows: list[list[int]]) -> str:
    return "/".join(",".join(map(str, row)) for row in rows)


def test_a_shared_game_opens_over_the_saved_game_and_leaves_it_as_it_was():
    game = _game_in_progress()
    start, saved, backend = _start({GAME_KEY: encode(game)}, f"?game={LINK}")
    assert start.game.to_dict() == game.to_dict() and start.notices == []
    assert start.shared.seed == 5 and len(start.shared.moves) == len(record_from_link(LINK).moves)
    assert json.loads(backend.getItem(GAME_KEY)) == saved_form(game)


@pytest.mark.parametrize(
    ("code", "words"),
    [(LINK[:-5], "cut short"), (LINK[:6] + ("A" if LINK[6] != "A" else "B") + LINK[7:], "check"), ("", "empty")],
)
def test_a_bad_game_link_says_what_was_wrong_and_the_game_is_untouched(code, words):
    game = _game_in_progress()
    start, _, backend = _start({GAME_KEY: encode(game)}, f"?game={code}")
    assert start.shared is None and start.game.to_dict() == game.to_dict()
    assert "game link could not be opened" in start.notices[0] and words in start.notices[0]
    assert "Your own game is as it was" in start.notices[0]
