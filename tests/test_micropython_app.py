"""The game side of the page (guards, URL, storage, start-up, words, view, play) gives the same results in MicroPython.

Each script below runs twice, in MicroPython (``tools/micropython_run.mjs``,
the interpreter the page's main thread uses) and in CPython, over the same
fake DOM (``FAKE_DOM``), and prints JSON; both outputs must be equal.  Dicts
are printed as sorted pairs (MicroPython's dicts keep no order), saved JSON
as its parsed value (the two interpreters escape text differently).  Where the
interpreters differ on purpose (``json.loads`` words its errors its own way),
only the verdict is compared.
"""

import json
from urllib.parse import parse_qsl, urlencode

from micropython_runner import json_outputs

from app.board.view import SAID_KEPT
from game2048.board import legal_moves
from game2048.game_link import encode_game
from game2048.game_record import GameRecord, decision

FAKE_DOM = '''
import json


def canon(value):
    """``value`` with every dict as a list of pairs sorted by key, for output that does not depend on dict order.

    A list longer than 20 (a game's generator state) is shortened to its length and a checksum of its integers:
    the runner cuts output beyond 64 KB.
    """
    if isinstance(value, dict):
        return sorted([[str(k), canon(v)] for k, v in value.items()], key=lambda pair: pair[0])
    if isinstance(value, (list, tuple)) and len(value) > 20:
        return ["list", len(value), sum((i + 1) * v for i, v in enumerate(value) if isinstance(v, int))]
    if isinstance(value, (list, tuple)):
        return [canon(v) for v in value]
    return value


def canon_items(items):
    """A storage backend's items, each JSON value parsed (the interpreters write the same value differently)."""
    from app.browser.outside_data import BadData, read_json

    out = {}
    for key, raw in items.items():
        try:
            out[key] = ["json", canon(read_json(raw, 10**6, 10))]
        except BadData:
            out[key] = ["text", len(raw), raw[:40]]  # the runner cuts output beyond 64 KB
    return canon(out)


class Element:
    def __init__(self, tag="div"):
        self.tagName = tag.upper()
        self.attributes, self.children, self.listeners = {}, [], {}
        self.parent = None
        self.hidden = self.checked = False
        self.textContent = self.className = self.title = ""
        self.style = self

    def setProperty(self, name, value):
        self.attributes["style:" + name] = value

    def setAttribute(self, name, value):
        self.attributes[name] = str(value)

    def getAttribute(self, name):
        return self.attributes.get(name)

    def removeAttribute(self, name):
        self.attributes.pop(name, None)

    def appendChild(self, child):
        child.parent = self
        self.children.append(child)

    def replaceChildren(self, *children):
        for child in children:
            child.parent = self
        self.children = list(children)

    def remove(self):
        if self.parent is not None and self in self.parent.children:
            self.parent.children.remove(self)
        self.parent = None

    def querySelectorAll(self, selector):
        if selector == '[role="gridcell"]':
            return NodeList(self.cells)
        return NodeList([c for c in self.children if c.className == selector.lstrip(".")])

    def querySelector(self, selector):
        return Element(selector)

    def focus(self):
        self.document.focused.append(self.tagName)

    def addEventListener(self, name, handler):
        self.listeners[name] = handler


class NodeList:
    def __init__(self, items):
        self.items = items
        self.length = len(items)

    def item(self, i):
        return self.items[i]


class Document:
    def __init__(self):
        self.ids = {}
        self.focused = []
        self.documentElement = Element("html")
        board = self.getElementById("board")
        board.cells = [Element() for _ in range(16)]

    def getElementById(self, name):
        if name not in self.ids:
            self.ids[name] = self.createElement("div")
        return self.ids[name]

    def createElement(self, tag):
        element = Element(tag)
        element.document = self
        return element


def tiles(document):
    """The drawn tiles: (row, column, text, classes), sorted."""
    shown = []
    for tile in document.getElementById("tiles").children:
        text = tile.children[0].textContent if tile.children else ""
        shown.append([int(tile.getAttribute("data-row")), int(tile.getAttribute("data-col")), text, tile.className])
    return sorted(shown)
'''

GUARDS = """
from fakedom import canon, canon_items
from app.browser.outside_data import BadData, finite_number, read_int, read_json
from app.browser.storage import BEST_KEY, GAME_KEY, KEPT_KEY, SETTINGS_KEY, MemoryBackend, Storage, discarded_key


def verdict(read, *args):
    try:
        return ["ok", canon(read(*args))]
    except BadData as exc:
        return ["bad", str(exc).split(" (")[0]]


SAME_WORDS = [
    '{"a": [1, 2.5, "x", null, true, false], "b": {"c": -0.0}}',
    "1e999",
    '{"a": [1, {"b": -1e999}]}',
    "9" * 30,
    "-" + "9" * 31,
    '{"seed": ' + "9" * 400 + "}",
    "[1e308, 1e308, -1e308]",
    "[1, " + "9" * 31 + ", -" + "9" * 31 + "]",
    "[" * 100000 + "]" * 100000,
    '{"a":' * 3000 + "1" + "}" * 3000,
    '["[[[[[[[[[[", {"a": "\\\\"[[[["}]',
    "x" * 200001,
    "{",
    "",
    "[1] x",
]
SAME_VERDICT = ["NaN", "-Infinity", "Infinity", "9" * 5000, "-" + "9" * 5000, '"\\ud83d"']  # in other words
INTS = [" 0042 ", "9" * 4301, "0" * 5000 + "7", "1" * 31, "101", "-1", "1.5", "\\u00b2", "", "\\u0663", "+5", "1_000"]
out = [
    [verdict(read_json, text, 200000, 8) for text in SAME_WORDS],
    [verdict(read_json, text, 200000, 8)[0] for text in SAME_VERDICT],
    [verdict(read_int, text, 0, 1000) for text in INTS],
    [finite_number(v) for v in (3, 2.5, True, None, "3", 10**400, [1])],
]
HOSTILE = ["[1]", "{not json", "[" * 50000, '{"ai": ' + "9" * 400 + "}", '{"ai": NaN}', '{"ai": 1e999}', "7"]
for raw in HOSTILE:
    backend = MemoryBackend()
    storage = Storage(backend)
    for key in (BEST_KEY, SETTINGS_KEY, GAME_KEY, KEPT_KEY):
        backend.setItem(key, raw)
    notices = [notice.split(" (")[0] for notice in storage.take_notices()]  # json.loads words its errors its own way
    out.append([canon(storage.settings()), storage.best_score(), notices, canon_items(backend.items)])
storage = Storage(MemoryBackend())
out.append([storage.save_settings({"reduce_motion": True, "ai": {"think_ms": 200}}), canon(storage.settings())])
out.append([storage.save_best_score(10), storage.save_best_score(5), discarded_key(GAME_KEY), discarded_key("x")])
print(json.dumps(out))
"""

QUERY = """
from app.browser.page_options import parse_page_options
from app.browser.url_query import decode_utf8, query_params, query_string

queries, pairs, byte_lists = json.loads(DATA)
out = [
    [query_params(query) for query in queries],
    [query_string(p) for p in pairs],
    [decode_utf8(bytes(data)) for data in byte_lists],
]
options = [parse_page_options(query) for query in queries]
out.append([[o.seed, o.rows, list(o.notices), o.game and [o.game.seed, o.game.moves]] for o in options])
print(json.dumps(out))
"""

QUERIES = [
    "?a=1&b=%E2%98%83&c=%E2%98&d=%ZZ&e=%&f=a+b&&g",
    "%E2\u00e9%98%83=%F0%9F%98%80%C0%80%ED%A0%80%F4%90%80%80",
    "??seed=1",
    "?seed=1&seed=42",
    "?seed=banana",
    "?seed=%C2%B2",
    "?seed=" + "7" * 5000,
    "?seed=1&x=" + "a" * 10_000,
    "?rows=0,2,4,8/0,0,0,0/0,0,0,0/2,0,0,0",
    "?rows=0+2+4+8+%2F+0+0+0+0+%2F+0+0+0+0+%2F+2+0+0+0&seed=5",
    "?rows=0,6,0,0/0,0,0,0/0,0,0,0/2,0,0,0",
    "?rows=65536,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0",
    "?game=" + encode_game(12, ["left", "up", "right", "down"] * 5),
    "?game=" + encode_game(12, ["left", "up", "right", "down"] * 5)[:-2],
    "?game=" + encode_game(12, ["left", "left", "left", "left"]),
    "?rows=",
    "?seed=%F0%9F%98%80&rows=%FF",
]
PAIRS = [[["a b", "\u00e9&="], ["~", ""]], [["", ""]], [["x", "\U0001f600 +%?#/"]], []]
BYTES = [
    list(b"\xc0\x80\xed\xa0\x80\xf4\x90\x80\x80\xe2\x98"),
    list("a\u00e9\u2603\U0001f600".encode()),
    list(b"\xe0\x80\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf5\xff\xc2"),
]

STARTUP = """
from fakedom import canon, canon_items
from app.games.saved_games import MAX_KEPT, SavedGames, describe, encode
from app.games import startup
from app.games.startup import choose_game
from app.browser.storage import BEST_KEY, GAME_KEY, KEPT_KEY, SETTINGS_KEY, MemoryBackend, Storage
from game2048 import mersenne
from game2048.game import Game

mersenne.entropy_seed = lambda: 2048  # games started without a seed, the same in both
startup.fresh_seed = lambda: 2048  # and the seed the page draws for them



def played(seed, moves=("left", "up", "right", "down", "left", "up")):
    game = Game.new(seed)
    for direction in moves:
        game.play(direction)
    return game


def summary(start, backend):
    notices = [notice.split(" (")[0] for notice in start.notices]  # the interpreters word their errors differently
    return [canon(start.game.to_dict()), start.seed, notices, start.from_link, canon_items(backend.items)]


GAME = encode(played(7))
SCENARIOS = [
    ({}, ""),
    ({GAME_KEY: GAME}, ""),
    ({GAME_KEY: GAME}, "?seed=42"),
    ({GAME_KEY: GAME}, "?rows=0,2,4,8/0,0,0,0/0,0,0,0/2,0,0,0&seed=3"),
    ({GAME_KEY: GAME}, "?rows=2,4,2,4/4,2,4,2/2,4,2,4/4,2,4,2"),
    ({GAME_KEY: '{"version": 1, "rows": 7}', BEST_KEY: "12"}, "?seed=x"),
    ({GAME_KEY: GAME, KEPT_KEY: json.dumps([json.loads(GAME), {"version": 1}, 7])}, ""),
]
for raw in ("NaN", "1e999", "[" * 10000, '{"rng": [' + "9" * 500 + "]}", "null", "[]", '"x"', "{"):
    SCENARIOS.append(({GAME_KEY: raw, KEPT_KEY: raw, BEST_KEY: raw, SETTINGS_KEY: raw}, "?seed=" + raw[:6]))
out = []
for items, query in SCENARIOS:
    backend = MemoryBackend()
    backend.items.update(items)
    out.append(summary(choose_game(query, SavedGames(Storage(backend))), backend))

backend = MemoryBackend()
saved = SavedGames(Storage(backend))
for seed in range(MAX_KEPT + 2):
    saved.keep(played(seed))
taken = saved.swap(played(99))
out.append([saved.kept_count, saved.take_notices(), canon(taken.to_dict()), describe(taken)])
out.append(canon_items(backend.items))

# A tab's game in parts (app.games.live_parts): saved move by move, undone below a part's end, read back whole.
from app.games import live_parts
from app.games.saved_games import saved_form
from game2048.game_record import decision

backend = MemoryBackend()
tab = SavedGames(Storage(backend), "t1", lambda: 5.0)
tab.parts.size = 4
game = Game.new(21)
written = []
for number in range(14):
    for direction in ("left", "down", "right", "up"):
        if game.play(direction, decision("expectimax", "classic", 2, 1.5) if number % 2 else None).moved:
            break
    tab.save(game)
    written.append(sorted(key for key in backend.items if key.startswith("game2048:moves:")))
for _ in range(6):
    game.undo()
tab.save(game)
reader = SavedGames(Storage(backend), "t1")
reader.parts.size = 4
again = reader.restore_history(reader.load())
same = canon(saved_form(again)) == canon(saved_form(game))
out.append([written[-1], sorted(backend.items), same, live_parts.part_count(9)])
print(json.dumps(out))
"""

WORDS_AND_VIEW = """
from fakedom import Document, canon, tiles
from app.browser import announce
from app.board.inputs import direction_for_key, swipe_direction
from app.board.motion import MotionToggle, saved_choice
from app.browser.storage import MemoryBackend, Storage
from app.board.view import BoardView, colour_class, tile_classes
from game2048.board import cell_name, from_rows
from game2048.game import Game

out = []
document = Document()
view = BoardView(document)
game = Game.new(11)
view.render(game)
out.append([tiles(document), announce.game_sentence(game, "New game.")])
for direction in ("left", "left", "up", "right", "down", "down", "left", "up") * 3:
    outcome = game.play(direction)
    if not outcome.moved:
        out.append(announce.blocked_sentence(direction))
        continue
    view.slide(outcome)
    view.settle(game, outcome)
    view.show_score(game.score, game.score + 8, outcome.points)
    sentence = announce.move_sentence(outcome, game, by_ai=game.moves % 2 == 0)
    view.announce(sentence)
    labels = [cell.getAttribute("aria-label") for cell in document.getElementById("board").cells]
    out.append(["moved", sentence, tiles(document), labels])
said = [line.textContent for line in document.getElementById("announcer").children]
out.append(["live region", len(document.getElementById("score-box").children), said])
won = Game.new(1)
won.board = from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]])
outcome = won.play("left")
view.render(won)
view.show_overlays(won)
out.append([announce.move_sentence(outcome, won), announce.game_sentence(won, "Set up."), document.focused])
view.show_hint("up")
hint = document.getElementById("hint-arrow")
out.append([hint.textContent, hint.getAttribute("data-direction"), announce.hint_sentence("up")])
view.show_notice("note", action=("Do", lambda: out.append("action ran")))
view.run_notice_action()
view.show_kept_games(1)
out.append([document.getElementById("kept-games").title, [tile_classes(v, "x") for v in (2, 2048, 4096, 32768)]])
out.append([colour_class(8), announce.cell_label(0), cell_name(13)])
keys = ["ArrowUp", "arrowleft", "W", "d", "k", "H", "x", "Enter", " "]
out.append([direction_for_key(k) for k in keys])
out.append([direction_for_key("w", ctrl=True), direction_for_key("w", alt=True), direction_for_key("w", meta=True)])
out.append([swipe_direction(dx, dy) for dx, dy in ((9.9, 0), (10, 0), (0, -10), (-30, 29), (5, 50), (-3, -3))])
changes = []
storage = Storage(MemoryBackend())
toggle = MotionToggle(document, storage, lambda f: f, changes.append, system_reduces=False)
toggle.choose(True)
out.append([changes, document.documentElement.getAttribute("data-motion"), canon(storage.settings())])
out.append([saved_choice({"reduce_motion": True}), saved_choice({"reduce_motion": 1}), saved_choice({})])
print(json.dumps(out))
"""

PLAY = """
import asyncio
from fakedom import canon, canon_items
from app.games.game_switch import GameSwitcher
from app.board.play import AI, HUMAN, Intent, PlaySession
from app.games.saved_games import SavedGames, encode
from app.browser.storage import GAME_KEY, MemoryBackend, Storage
from game2048.game import Game


class View:
    def __init__(self):
        self.calls = []

    def render(self, game):
        self.calls.append(["render", game.board])

    def slide(self, outcome):
        self.calls.append(["slide", outcome.direction])

    def settle(self, game, outcome):
        self.calls.append(["settle", game.board])

    def show_score(self, score, best, added=0):
        self.calls.append(["score", score, best, added])

    def show_overlays(self, game):
        self.calls.append(["overlays", game.paused_at_win, game.over])

    def set_settled(self, settled):
        self.calls.append(["settled", settled])

    def show_notice(self, text, error=False, action=None):
        self.calls.append(["notice", text, error, action[0] if action else None])

    def end_game_notice(self):
        self.calls.append(["end notice"])

    def show_kept_games(self, count):
        self.calls.append(["kept", count])

    def show_history(self, game):
        self.calls.append(["history", len(game.history), len(game.undone), game.undos])

    def announce(self, text):
        self.calls.append(["announce", text])


def played(seed):
    game = Game.new(seed)
    for direction in ("left", "up", "right", "down"):
        game.play(direction)
    return game


async def main():
    out = []
    backend = MemoryBackend()
    saved = SavedGames(Storage(backend), "tab1", lambda: 5.0)
    view = View()
    session = PlaySession(Game.new(3), view, saved, new_game=lambda: Game.new(4), slide_seconds=0.001)
    switcher = GameSwitcher(session, saved, view)
    heard = []
    session.listeners.append(lambda event, intent, _p: heard.append([event, intent.kind, intent.source]))
    session.start()
    for direction in ("left", "up", "right", "down", "left", "up", "up"):
        session.submit(Intent.move(direction))
    session.submit(Intent.move("down", AI))
    out.append([session.discard_queued(AI), session.busy])
    await session.wait_idle()
    for kind in ("undo", "undo", "redo", "undo", "redo", "redo", "redo"):  # the last: nothing to redo
        session.submit(Intent(kind))
    await session.wait_idle()
    out.append([session.game.board, session.game.undos, len(session.game.history)])
    session.submit(Intent("restart"))
    session.submit(Intent.move("right", AI))
    await session.wait_idle()
    saved.keep(played(8))
    switcher.refresh()
    switcher.resume_kept()
    await session.wait_idle()
    backend.setItem(GAME_KEY, encode(played(9)))
    session.submit(Intent.move("left", HUMAN))
    session.submit(Intent.move("up", HUMAN))
    await session.wait_idle()
    switcher.on_storage(GAME_KEY, encode(played(10)))  # another tab's save: this tab's game is not touched
    await session.wait_idle()
    out.append([canon(SavedGames(Storage(backend), "tab1").load().to_dict()), Storage(backend).keys()])
    out.append([view.calls, heard, canon(session.game.to_dict()), session.best, canon_items(backend.items)])
    return out
"""
"""Ends with ``main()``, a coroutine whose result is the output (see ``_outputs``)."""


def test_outside_data_is_refused_the_same() -> None:
    micropython, cpython = json_outputs(GUARDS, {"fakedom.py": FAKE_DOM})
    assert micropython == cpython
    assert cpython[0][1] == ["bad", "it holds a number too large for the page"]
    assert cpython[0][7] == ["bad", "it holds a number with 31 digits"]
    assert cpython[0][8] == ["bad", "it nests more than 8 levels deep"]
    assert cpython[1] == ["bad"] * 5 + ["ok"]


def test_the_url_is_read_as_urllib_reads_it() -> None:
    micropython, cpython = json_outputs(QUERY, {"fakedom.py": FAKE_DOM}, [QUERIES, PAIRS, BYTES])
    assert micropython == cpython
    params, written, decoded, options = micropython
    assert [[tuple(pair) for pair in found] for found in params] == [
        parse_qsl(query[1:] if query.startswith("?") else query, keep_blank_values=True) for query in QUERIES
    ]
    assert written == [urlencode([tuple(pair) for pair in pairs]) for pairs in PAIRS]
    assert decoded == [bytes(data).decode("utf-8", "replace") for data in BYTES]
    assert options[3][0] == 42 and options[9][0] == 5 and options[9][1] == options[8][1] is not None


def test_the_start_chooses_the_same_game() -> None:
    micropython, cpython = json_outputs(STARTUP, {"fakedom.py": FAKE_DOM})
    assert micropython == cpython


def test_the_words_and_the_board_are_the_same() -> None:
    micropython, cpython = json_outputs(WORDS_AND_VIEW, {"fakedom.py": FAKE_DOM})
    assert micropython == cpython
    assert cpython[-1] == [True, False, False]
    sentences = [entry[1] for entry in cpython if entry[:1] == ["moved"]]  # the moves the view said
    (said,) = [entry[2] for entry in cpython if entry[:1] == ["live region"]]
    assert len(sentences) > SAID_KEPT and said == sentences[-SAID_KEPT:]  # the live region keeps the last lines


def test_play_and_the_game_switch_behave_the_same() -> None:
    micropython, cpython = json_outputs(PLAY, {"fakedom.py": FAKE_DOM}, asynchronous=True)
    assert micropython == cpython


RECORDS = """
from types_stub import Namespace
from app.games.finished_games import FinishedGames
from app.games.panel import chart_svg, games_table, more_button, refused_list, summary_line
from app.games.lab_files import read_lab_file
from app.games.replay_view import decision_text, share_address, spawned_cell
from app.browser.storage import MemoryBackend, Storage
from game2048.game_record import GameRecord, positions, summary_of

lines, moves = json.loads(DATA)
lab = read_lab_file(lines, "run.jsonl")
out = [[game.label for game in lab.games], lab.problems, lab.notice()]
datas = [json.loads(str(lab.source.data[game.start : game.end], "utf-8"))["record"] for game in lab.games]
record = GameRecord.from_dict(datas[0])
steps = positions(record)
out.append([decision_text(record, step) for step in range(len(steps))])
out.append([spawned_cell(steps[n - 1][0], record.moves[n - 1], steps[n][0]) for n in range(1, len(steps))])
out.append(share_address(Namespace("http://x", "/index.html", "?seed=3&a=b"), record))
rows = [summary_of(data) for data in datas]
out.append([rows == [game.summary for game in lab.games], lab.refused])
out.append([refused_list([("line 2", why) for _, why in lab.refused]), more_button(50, 10000)])
out.append([chart_svg(rows), games_table(rows, "file", "Games", str), summary_line(rows)])
finished = FinishedGames(Storage(MemoryBackend()))
for data in datas:
    finished.add(data)
out.append([row["seed"] for row in finished.summaries()])
print(json.dumps(out))
"""
TYPES_STUB = """
class Namespace:
    def __init__(self, origin, pathname, search):
        self.origin, self.pathname, self.search = origin, pathname, search
"""


def test_records_lab_files_and_the_replays_words_are_the_same() -> None:
    lines = []
    for seed in (4, 9):
        record = GameRecord(seed)
        for n in range(15):
            note = decision("alphabeta", "snake", 5, 50.0, n == 3) if n % 2 else None
            record.append(legal_moves(record._replayed().board)[0], note)
        lines.append(json.dumps({"seed": seed, "record": record.to_dict()}))
    undated = json.loads(lines[1])
    undated["record"]["started"] = 1e20
    hostile = [json.dumps(undated), "[" * 5000 + "]" * 5000, "[" + "1," * 3000 + "1]"]
    text = "\n".join(lines + hostile + ['{"seed": 3}', "not json", lines[0][:30]])
    micropython, cpython = json_outputs(RECORDS, {"types_stub.py": TYPES_STUB}, [text, None])
    assert micropython == cpython
    assert cpython[0] == ["seed 4", "seed 9"] and cpython[-1] == [9, 4]


EXPLORER_DRAWING = """
from app.explorer.explanation_view import render_explanation
from app.explorer.glossary import glossary_html
print(json.dumps([render_explanation(e) for e in json.loads(DATA)] + [glossary_html()]))
"""


def test_the_explorer_draws_alike_in_both_interpreters():
    """The explorer's drawing (the why, the chance node, terms with their meanings) runs in the page's MicroPython."""
    from game2048.board import from_rows
    from game2048.search import explain

    board = from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    explanations = [
        explain(board, depth=3, exact_root=True, analysis_ms=10_000),
        explain(board, depth=3, algorithm="expectimax", analysis_ms=10_000),
    ]
    micropython, cpython = json_outputs(EXPLORER_DRAWING, {}, explanations)
    assert micropython == cpython
    assert 'id="explorer-why"' in cpython[0] and 'id="explorer-chance"' in cpython[1]


COMPARISON_DRAWING = """
from app.explorer.compare_view import compare_html
print(json.dumps([compare_html(c) for c in json.loads(DATA)]))
"""


def test_the_terms_the_network_and_the_comparison_draw_alike_in_both_interpreters():
    """Each term as weight × raw value, the network's heat map with its reads, the pruning by depth and the
    comparison of the two algorithms run in the page's MicroPython as in CPython."""
    from game2048.board import from_rows
    from game2048.search import explain
    from game2048.search.comparison import compare

    board = from_rows([[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]])
    explanations = [
        explain(board, depth=5, exact_root=True, analysis_ms=10_000),
        explain(board, depth=3, algorithm="expectimax", preset="classic", analysis_ms=10_000),
        explain(board, depth=3, preset="learned", exact_root=True, analysis_ms=10_000),
    ]
    micropython, cpython = json_outputs(EXPLORER_DRAWING, {}, explanations)
    assert micropython == cpython
    assert "2.7 \u00d7 ln(" in cpython[0] and "the average ln(empty cells)" in cpython[1]
    assert "Saving by depth" in cpython[0] or "saves nothing" in cpython[0]
    assert 'id="explorer-patterns-totals"' in cpython[2]
    comparisons = [compare(board, "classic", 3), compare(board, "snake", 2)]
    micropython, cpython = json_outputs(COMPARISON_DRAWING, {}, comparisons)
    assert micropython == cpython
    assert "They part over right" in cpython[0] and "They agree on" in cpython[1]
