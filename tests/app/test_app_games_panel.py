"""The "Your games" panel and the replay's sources: rows from summaries, a chart of max tiles, files and drops read.

The sources (``app.replays``) open the game in play, a finished game and a
lab file's game in the replay, and refuse a damaged one with a message.
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from app_async import run_async
from fakes import FakeView
from test_app_lab_files import lab_line

from app.games_panel import EMPTY, GamesPanel, chart_svg, tile_counts
from app.play import PlaySession
from app.replays import NO_RECORD, Replays
from app.saved_games import SavedGames
from app.storage import GAMES_KEY, MemoryBackend, Storage
from game2048.board import from_rows, legal_moves
from game2048.game import Game
from game2048.game_record import record_of, summary_of


class Element:
    def __init__(self, element_id: str) -> None:
        self.id = element_id
        self.hidden = element_id == "games-panel"
        self.innerHTML = ""
        self.textContent = ""
        self.files = None
        self.attributes: dict[str, str] = {}
        self.listeners: dict[str, list] = {}
        self.classes: set[str] = set()
        self.classList = SimpleNamespace(
            toggle=lambda name, on: self.classes.add(name) if on else self.classes.discard(name)
        )

    def setAttribute(self, name, value):  # noqa: N802 - the DOM's names
        self.attributes[name] = str(value)

    def getAttribute(self, name):  # noqa: N802
        return self.attributes.get(name)

    def addEventListener(self, event, handler):  # noqa: N802
        self.listeners.setdefault(event, []).append(handler)

    def fire(self, event: str, target=None, **fields) -> SimpleNamespace:
        data = SimpleNamespace(target=target or self, prevented=False, **fields)
        data.preventDefault = lambda: setattr(data, "prevented", True)
        for handler in self.listeners.get(event, []):
            handler(data)
        return data


class Document(Element):
    def __init__(self) -> None:
        super().__init__("document")
        self.body = Element("body")
        self.elements = {
            name: Element(name)
            for name in ("games-toggle", "games-panel", "games-list", "games-notice", "games-file", "replay-current")
        }

    def getElementById(self, element_id):  # noqa: N802
        return self.elements.get(element_id)


class Files:
    def __init__(self, *files) -> None:
        self.files = files
        self.length = len(files)

    def item(self, index):
        return self.files[index]


class File:
    def __init__(self, name: str, text: str, fail: bool = False) -> None:
        self.name, self._text, self.size, self.fail = name, text, len(text), fail

    async def text(self):
        if self.fail:
            raise RuntimeError("NotReadableError")
        return self._text


def summaries(*rows: tuple[int, int, str]) -> list[dict]:
    return [
        {"seed": n, "started": None, "ended": None, "moves": moves, "max_tile": tile, "score": 4 * moves,
         "outcome": outcome, "ai_moves": moves // 2, "undos": n}
        for n, (tile, moves, outcome) in enumerate(rows)
    ]  # fmt: skip


def _panel(**kw):
    document = Document()
    opened, files, shown = [], [], []
    panel = GamesPanel(
        document,
        lambda f: f,
        lambda source, index: opened.append((source, index)),
        lambda name, text: files.append((name, text)),
        lambda: opened.append("current"),
        on_shown=lambda: shown.append(True),
        **kw,
    )
    return panel, document, opened, files, shown


def test_rows_chart_and_summary_come_from_the_summaries():
    panel, document, opened, _, shown = _panel(date_text=lambda ms: "today")
    document.elements["games-toggle"].fire("click")
    assert panel.is_open and shown == [True] and document.elements["games-toggle"].attributes["aria-expanded"] == "true"
    rows = summaries((2048, 900, "won"), (512, 400, "lost"), (2048, 1000, "won"), (1024, 7, "unfinished"))
    panel.show_games(rows)
    html = document.elements["games-list"].innerHTML
    assert html.count("<tr>") == 5 and "4 games, 2 won (2048 reached), best tile 2048." in html
    assert "<td>won</td>" in html and "<td>left</td>" in html and ">50 %<" in html and "today" in html
    assert tile_counts(rows) == [(512, 1), (1024, 1), (2048, 2)]
    assert 'aria-label="Max tile reached: 512: 1 game; 1024: 1 game; 2048: 2 games"' in chart_svg(rows)
    button = Element("row")
    button.attributes.update({"data-index": "2", "data-source": "yours"})
    document.elements["games-list"].fire("click", target=button)
    assert opened == [("yours", 2)]


def test_no_games_shows_why_the_list_is_empty():
    panel, document, *_ = _panel()
    panel.show_games([])
    assert EMPTY in document.elements["games-list"].innerHTML and chart_svg([]) == ""


def test_a_chosen_or_dropped_file_is_read_and_handed_over_and_a_failure_said():
    async def scenario():
        panel, document, _, files, _ = _panel()
        document.elements["games-file"].files = Files(File("a.jsonl", "line"))
        document.elements["games-file"].fire("change")
        over = document.fire("dragover")
        dragging = "dropping" in document.body.classes
        document.fire("drop", dataTransfer=SimpleNamespace(files=Files(File("b.jsonl", "other"), File("c", ""))))
        for _ in range(5):
            await asyncio.sleep(0)
        await panel.read_file(File("bad.jsonl", "", fail=True))
        return panel, document, files, over, dragging

    panel, document, files, over, dragging = run_async(scenario)
    assert files == [("a.jsonl", "line"), ("b.jsonl", "other")]
    assert over.prevented and dragging and "dropping" not in document.body.classes
    assert document.elements["games-notice"].textContent == "bad.jsonl could not be read (NotReadableError)."


def _replays(game: Game | None = None):
    backend = MemoryBackend()
    saved = SavedGames(Storage(backend))
    view = FakeView()
    session = PlaySession(game or Game.new(3), view, saved, new_game=lambda: Game.new(4), slide_seconds=0)
    said: list[str] = []
    replays = Replays(session, saved, said.append)
    opened: list = []
    replays.view = SimpleNamespace(open=lambda record, title, step=0: opened.append((record, title, step)))
    replays.panel = SimpleNamespace(show_file=lambda name, rows, notice: opened.append((name, rows, notice)))
    return replays, saved, backend, view, said, opened


def played(seed: int, moves: int) -> Game:
    game = Game.new(seed)
    for _ in range(moves):
        game.play(legal_moves(game.board)[0])
    return game


def test_the_game_in_play_opens_at_its_last_move_and_a_game_without_a_record_says_why():
    replays, _, _, view, _, opened = _replays(played(3, 9))
    replays.current()
    record, title, step = opened[0]
    assert (record.seed, len(record.moves), title, step) == (3, 9, "This game", 9)
    replays, _, _, view, _, opened = _replays(Game.from_position(from_rows([[2, 2, 0, 0]] + [[0] * 4] * 3)))
    replays.current()
    assert opened == [] and view.notices == [NO_RECORD]


def test_a_finished_game_opens_and_a_damaged_one_is_refused_and_dropped():
    replays, saved, backend, _, said, opened = _replays()
    good = record_of(played(5, 8)).to_dict()
    lying = dict(good, result=dict(good["result"], score=good["result"]["score"] + 2))
    backend.setItem(GAMES_KEY, json.dumps([lying, good]))
    replays.open("yours", 1)
    assert opened[0][0].seed == 5 and opened[0][1] == "Your game, 8 moves"
    replays.open("yours", 0)
    assert len(opened) == 1 and "could not be replayed" in said[0]
    assert [row["seed"] for row in saved.finished.summaries()] == [5]


def test_a_lab_files_games_are_listed_and_open():
    replays, _, _, _, said, opened = _replays()
    replays.read_file("run.jsonl", "\n".join([lab_line(11), "oops", lab_line(12)]))
    name, rows, notice = opened[0]
    assert name == "run.jsonl" and [row["seed"] for row in rows] == [11, 12] and "line 2: not JSON" in notice
    assert rows[0] == summary_of(json.loads(lab_line(11))["record"])
    replays.open("file", 1)
    assert opened[1][0].seed == 12 and opened[1][1] == "Lab game, seed 12"
    replays.lab_games[0] = ("seed 11", dict(replays.lab_games[0][1], moves="uuuu"))
    replays.open("file", 0)
    assert "The lab game seed 11 could not be replayed" in said[0]
