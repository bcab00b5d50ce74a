"""The "Your games" panel and the replay's sources: rows from summaries, a chart of max tiles, files and drops read.

The sources (``app.games.replays``) open the game in play, a finished game and a
lab file's game in the replay, and refuse a damaged one with a message.
"""

from __future__ import annotations

import asyncio
import json
import re
from types import SimpleNamespace

from app_async import run_async
from fakes import FakeView
from test_app_lab_files import lab_line

from app.board.play import PlaySession
from app.browser.storage import GAMES_KEY, MemoryBackend, Storage
from app.games.lab_files import TextSource, read_lab_file
from app.games.panel import EMPTY, PAGE_ROWS, GamesPanel, chart_svg, tile_counts
from app.games.replays import NO_RECORD, Replays
from app.games.saved_games import SavedGames
from game2048.board import from_rows, legal_moves
from game2048.game import Game
from game2048.game_record import record_of


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
        names = ("games-toggle", "games-panel", "games-list", "games-notice", "games-file", "replay-current")
        more = ("games-reading", "games-progress", "games-progress-text", "games-cancel")
        self.elements = {name: Element(name) for name in names + more}

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


class FileText(TextSource):
    """A ``File``'s text as a source, failing to load as a moved file does."""

    def __init__(self, file: File) -> None:
        super().__init__(file._text)
        self.fail = file.fail

    async def load(self, start, end):
        if self.fail:
            raise RuntimeError("NotReadableError")
        await super().load(start, end)


def summaries(*rows: tuple[int, int, str]) -> list[dict]:
    return [
        {"seed": n, "started": None, "ended": None, "moves": moves, "max_tile": tile, "score": 4 * moves,
         "outcome": outcome, "ai_moves": moves // 2, "undos": n}
        for n, (tile, moves, outcome) in enumerate(rows)
    ]  # fmt: skip


def _panel(**kw):
    document = Document()
    opened, files, shown = [], [], []
    kw.setdefault("source_of", FileText)
    panel = GamesPanel(
        document,
        lambda f: f,
        lambda source, index: opened.append((source, index)),
        lambda lab: files.append((lab.name, [game.label for game in lab.games])),
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
        document.elements["games-file"].files = Files(File("a.jsonl", lab_line(1)))
        document.elements["games-file"].fire("change")
        over = document.fire("dragover")
        dragging = "dropping" in document.body.classes
        document.fire("drop", dataTransfer=SimpleNamespace(files=Files(File("b.jsonl", "other"), File("c", ""))))
        for _ in range(5):
            await asyncio.sleep(0)
        await panel.read_file(File("bad.jsonl", "x", fail=True))
        return panel, document, files, over, dragging

    panel, document, files, over, dragging = run_async(scenario)
    assert files == [("a.jsonl", ["seed 1"]), ("b.jsonl", [])]
    assert over.prevented and dragging and "dropping" not in document.body.classes
    assert document.elements["games-notice"].textContent == "bad.jsonl could not be read (NotReadableError)."
    assert document.elements["games-reading"].hidden


def test_a_file_is_read_in_slices_with_its_progress_and_cancel_stops_it():
    text = "\n".join(lab_line(seed) for seed in range(6))
    ticks = [0.0]

    def now() -> float:
        ticks[0] += 20.0  # a slice is a line or two
        return ticks[0]

    async def scenario(cancel: bool):
        slices = []

        async def next_task():
            slices.append(document.elements["games-progress-text"].textContent)
            assert not document.elements["games-reading"].hidden
            if cancel:
                document.elements["games-cancel"].fire("click")

        panel, document, _, files, _ = _panel(next_task=next_task)
        panel.now = now
        await panel.read_file(File("run.jsonl", text))
        return document, files, slices

    document, files, slices = run_async(lambda: scenario(False))
    assert files == [("run.jsonl", [f"seed {n}" for n in range(6)])] and len(slices) >= 2
    assert re.fullmatch(r"Reading run\.jsonl: \d+ % \(\d games? so far\)", slices[0]), slices[0]
    assert slices[-1].endswith("(6 games so far)")
    assert document.elements["games-reading"].hidden
    assert 'id="games-table"' in document.elements["games-list"].innerHTML
    document, files, slices = run_async(lambda: scenario(True))
    assert files == [] and len(slices) == 1
    assert document.elements["games-notice"].textContent == "Reading run.jsonl stopped: none of its games are listed."
    assert document.elements["games-reading"].hidden and document.elements["games-list"].innerHTML == ""


def test_a_long_list_is_drawn_a_page_at_a_time():
    panel, document, *_ = _panel()
    rows = summaries(*[(2048, 900, "won")] * (PAGE_ROWS * 2 + 7))
    panel.show_games(rows)
    listing = document.elements["games-list"]
    assert listing.innerHTML.count("<tr>") == PAGE_ROWS + 1 and "(50 of 107 shown)" in listing.innerHTML
    assert "107 games, 107 won" in listing.innerHTML  # the summary and the chart count them all
    listing.querySelectorAll = lambda _selector: SimpleNamespace(length=0)
    listing.fire("click", target=Element("games-more"))
    assert listing.innerHTML.count("<tr>") == 2 * PAGE_ROWS + 1 and "Show 7 more" in listing.innerHTML
    listing.fire("click", target=Element("games-more"))
    assert listing.innerHTML.count("<tr>") == len(rows) + 1 and 'id="games-more"' not in listing.innerHTML


def test_a_finished_game_with_no_date_a_browser_can_show_is_refused_with_why_and_the_others_listed():
    panel, document, opened, *_ = _panel(date_text=lambda ms: f"at {ms}")
    rows = summaries((2048, 900, "won"), (512, 400, "lost"), (1024, 7, "unfinished"))
    rows[1]["started"] = 1e20
    rows[2]["started"] = 1_700_000_000_000
    panel.show_games(rows)
    html = document.elements["games-list"].innerHTML
    assert html.count("<tr>") == 3 and "at 1700000000000" in html and "1e+20" not in html.split("games-refused")[0]
    assert "Game 2 of your last games: its start time (1e+20 ms since 1970) is not a date" in html
    assert 'data-index="2"' in html and 'data-index="1"' not in html  # rows open the game they show
    assert "2 games, 1 won" in html


def _replays(game: Game | None = None):
    backend = MemoryBackend()
    saved = SavedGames(Storage(backend))
    view = FakeView()
    session = PlaySession(game or Game.new(3), view, saved, new_game=lambda: Game.new(4), slide_seconds=0)
    said: list[str] = []
    replays = Replays(session, saved, said.append)
    opened: list = []
    replays.view = SimpleNamespace(open=lambda record, title, step=0: opened.append((record, title, step)))
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


def test_a_lab_files_games_open_from_their_lines_read_again():
    replays, _, _, _, said, opened = _replays()
    text = "\n".join([lab_line(11), "oops", lab_line(12)])
    lab = read_lab_file(text, "run.jsonl")
    replays.use_file(lab)

    async def scenario(index: int) -> None:
        replays.open("file", index)
        await replays.opening

    run_async(lambda: scenario(1))
    assert opened[0][0].seed == 12 and opened[0][1] == "Lab game, seed 12"
    lab.source = TextSource(text.replace('"moves": "', '"moves": "uuuu', 1))  # the file changed since
    run_async(lambda: scenario(0))
    assert len(opened) == 1 and said[0].startswith("The lab game seed 11 could not be replayed: ")
    run_async(lambda: scenario(5))
    assert said[1] == "That game is no longer listed."


def test_your_games_show_each_reviewed_games_accuracy_and_a_review_button_for_the_others():
    from app.games.panel import games_table

    row = {"started": 0, "max_tile": 256, "score": 2400, "moves": 300, "ai_moves": 0, "undos": 0, "outcome": "lost"}
    rows = [dict(row, accuracy=87.46), dict(row, accuracy="ai"), dict(row, accuracy=None)]
    html = games_table(rows, "yours", "Your last games", lambda _ms: "2026-11-29 10:00")
    assert '<th scope="col">Accuracy</th>' in html
    assert '<td class="num">87 %</td>' in html and '<td class="num">AI only</td>' in html
    assert 'data-source="yours" data-index="2" data-review="1" aria-label="Review game 3">Review</button>' in html
    assert "Accuracy" not in games_table([row], "file", "A file", lambda _ms: "")  # a lab file's games: no column
