"""The AI side of the page (settings, explorer, tree walk, editor, client) gives the same results in MicroPython.

Each script below runs twice, in MicroPython (``tools/micropython_run.mjs``,
the interpreter the page's main thread uses) and in CPython, over the same
fake DOM (``FAKE_DOM``), and prints JSON; both outputs must be equal.  The
inputs that need the engine's searches (an explanation, a tree) are made here
in CPython, as the worker makes them, and handed to the scripts as JSON text.
"""

from micropython_runner import json_outputs

from game2048.board import count_empty, from_rows
from game2048.evaluation import rows
from game2048.search import expectimax, explain, stepwise
from game2048.search.clock import Deadline

FAKE_DOM = '''
import json


class Event:
    def __init__(self, target, key="", shift=False):
        self.target, self.key, self.shiftKey = target, key, shift
        self.ctrlKey = self.altKey = self.metaKey = False
        self.stopped = self.prevented = False

    def stopPropagation(self):
        self.stopped = True

    def preventDefault(self):
        self.prevented = True


class Element:
    def __init__(self, document, tag):
        self.document, self.tagName = document, tag.upper()
        self.attributes, self.children, self.listeners = {}, [], {}
        self.parent = None
        self.hidden = self.disabled = self.inert = self.checked = self.open = False
        self.value = self.textContent = self.className = self.title = self.innerHTML = ""

    @property
    def id(self):
        return self.attributes.get("id", "")

    @property
    def firstChild(self):
        return self.children[0]

    def hasChildNodes(self):
        return bool(self.children)

    def setAttribute(self, name, value):
        self.attributes[name] = str(value)
        if name == "id":
            self.document.ids[value] = self

    def getAttribute(self, name):
        return self.attributes.get(name)

    def append(self, *children):
        for child in children:
            child.parent = self
            self.children.append(child)

    def appendChild(self, child):
        self.append(child)

    def replaceChildren(self, *children):
        self.children = []
        self.append(*children)

    def remove(self):
        if self.parent is not None:
            self.parent.children.remove(self)
            self.parent = None

    def addEventListener(self, name, handler):
        self.listeners.setdefault(name, []).append(handler)

    def dispatch(self, name, **kw):
        event = Event(self, **kw)
        element = self
        while element is not None and not event.stopped:
            for handler in element.listeners.get(name, []):
                handler(event)
            element = element.parent
        return event

    def closest(self, selector):
        element = self
        while element is not None and "data-cell" not in element.attributes:
            element = element.parent
        return element

    def focus(self):
        self.document.active = self
        self.dispatch("focusin")

    def select(self):
        pass

    def dump(self, depth=0):
        """The element and its descendants, one line each, attributes by name (dicts keep no order here)."""
        attrs = " ".join(k + "=" + self.attributes[k] for k in sorted(self.attributes))
        line = "  " * depth + "<" + self.tagName + " " + attrs + "> ." + self.className + " " + self.textContent
        lines = [line + (" hidden" if self.hidden else "") + (" disabled" if self.disabled else "")]
        for child in self.children:
            lines += child.dump(depth + 1)
        return lines


class Location:
    origin, pathname, hash = "http://127.0.0.1:8000", "/index.html", "#top"

    def __init__(self, search):
        self.search = search


class History:
    def __init__(self):
        self.urls = []

    def replaceState(self, state, title, url):
        self.urls.append(url)


class Navigator:
    pass  # no clipboard


class Outcome:
    def __init__(self, ok, value=None, error=None):
        self.ok, self.value, self.error = ok, value, error


def guarded_call(target, name, *args):  # guarded.js's guardedCall
    try:
        member = getattr(target, name)
        return Outcome(True, member(*args) if callable(member) else member)
    except Exception as exc:
        return Outcome(False, error=type(exc).__name__ + ": " + str(exc))


class Window:
    def __init__(self, location):
        self.location, self.history, self.navigator = location, History(), Navigator()
        self.guardedCall = guarded_call


class Document:
    def __init__(self, ids=(), search=""):
        self.ids, self.active = {}, None
        self.location = Location(search)
        self.defaultView = Window(self.location)
        self.body = Element(self, "body")
        for element_id in ids:
            self.createElement("div").setAttribute("id", element_id)

    def createElement(self, tag):
        return Element(self, tag)

    def getElementById(self, element_id):
        return self.ids.get(element_id)


def canon(value):
    """``value`` with every dict as a sorted list of pairs, for JSON output that does not depend on dict order."""
    if isinstance(value, dict):
        return [[k, canon(value[k])] for k in sorted(value)]
    if isinstance(value, (list, tuple)):
        return [canon(v) for v in value]
    return value
'''

SETTINGS = """
from fakedom import canon
from app.ai.settings import AiSettings, nearest_step, slider_range, THINK_STEPS_MS

PRESETS = {
    "classic": {"smoothness": 0.1, "monotonicity": 1.0, "empty": 2.7, "max": 1.0},
    "rows": {"empty_weight": 270.0, "merges_weight": 700.0},
    "snake": {"smoothness": 1.0, "repeats": 0.0},
}
SAVED = [
    None,
    {"think_ms": 1e308, "pause_ms": -1e308, "algorithm": "expectimax", "preset": "", "weights": {"3": 4}},
    {"weights": {"rows": {"empty_weight": 300, "x": "y"}, "classic": {"max": True}}, "algorithm": "expectimax"},
    {"think_ms": "fast", "preset": "nope", "weights": {"classic": {"empty": 3, "bogus": 1}, "gone": {"a": 1}}},
    {"think_ms": 33, "pause_ms": 90, "algorithm": "expectimax", "preset": "gone"},
]
out = []
for saved in SAVED:
    for presets in (None, PRESETS, {"snake": {}, "corner": {}}):
        settings = AiSettings.from_saved(saved, presets)
        again = AiSettings.from_saved(settings.to_saved(), presets)
        out.append([canon(settings.to_saved()), again == settings, canon(settings.request([[2] * 4] * 4))])
settings = AiSettings()
settings.choose_algorithm("expectimax")
settings.set_weight("empty_weight", 300)
out.append(canon(settings.active_weights(PRESETS["rows"])))
settings.reset_weights()
out.append(canon(settings.active_weights(PRESETS["rows"])))
out.append([nearest_step(v, THINK_STEPS_MS, 100) for v in (float("nan"), 33, -5, 10**400, True)])
out.append([list(slider_range(d)) for d in (0.0, 0.1, -4.0)])
print(json.dumps(out))
"""

EXPLORER = """
from fakedom import Document, canon
from app.explorer.explanation_view import render_explanation, status_text
from app.explorer.panel import Explorer

answers = json.loads(DATA)


class Storage:
    def __init__(self):
        self.saved = {"explorer": True}

    def settings(self):
        return dict(self.saved)

    def save_settings(self, settings):
        self.saved = settings


document = Document(("explorer-toggle", "explorer", "explorer-status", "explorer-decision"))
explorer = Explorer(document, None, None, Storage(), lambda f: f)
out = [explorer.wants_explanation(), canon(explorer.request_for({"think_ms": 50, "rows": []}))]
for answer in answers:
    explanation = answer["explanation"]
    out.append([render_explanation(explanation), status_text(explanation)])
    explorer.show(answer, {"think_ms": 50}, 7)
    out.append(document.getElementById("explorer-decision").dump())
explorer.toggle()
out.append([explorer.wants_explanation(), explorer.storage.saved["explorer"]])
print(json.dumps(out))
"""

TREE_WALK = """
from fakedom import Document, Event, canon
from app.explorer.tree_walk import TreeWalk
from app.explorer.walk_steps import walk_state


class Client:
    ready, error = True, None


answer = json.loads(DATA)
document = Document(("tree-walk",))
walk = TreeWalk(document, Client(), None, lambda f: f, evaluation=lambda: {"preset": "classic", "weights": {}, "x": 1})
section = document.getElementById("tree-walk")
out = [canon(walk.request([[2, 0, 0, 0]] * 4)), section.dump()]
walk.show(answer)
out.append(section.dump())
for key in ["ArrowRight"] * len(answer["trace"]["steps"]) + ["Home", "End", "ArrowLeft"]:
    walk._keydown(Event(section.children[0], key=key))
    kids = document.getElementById("tw-children").children
    out.append([walk.index, walk.explain.textContent, walk.kids_title.textContent] + [k.className for k in kids])
    if section.getAttribute("data-event") == "cut" or key != "ArrowRight":
        out.append(document.getElementById("tw-tree").dump())  # whole frames for some steps only: output stays short
out.append(canon(walk_state(answer["trace"], len(answer["trace"]["steps"]) - 1)))
print(json.dumps(out))
"""

EDITOR = """
from fakedom import Document
from app.games.editor import INERT_WHILE_EDITING, PositionEditor
from app.board.play import PlaySession
from app.games.saved_games import SavedGames
from app.browser.storage import MemoryBackend, Storage
from game2048.board import from_rows
from game2048.game import Game


class View:
    def __getattr__(self, name):
        return lambda *args, **kw: None


ROWS = [[0, 2, 4, 8], [0, 0, 0, 0], [0, 0, 16, 0], [2, 0, 0, 0]]
ids = ["edit-toggle", "editor-bar", "board"] + list(INERT_WHILE_EDITING)
document = Document(ids, search="?seed=5&rows=0,2,4,8/0,0,0,0/0,0,16,0/2,0,0,0&theme=&a=b%20c")
saved = SavedGames(Storage(MemoryBackend()))
session = PlaySession(Game.from_position(from_rows(ROWS), 5), View(), saved, new_game=lambda: Game.new(1))
stopped = []
editor = PositionEditor(document, session, View(), saved, lambda f: f, stopped.append, True)
out = [list(document.defaultView.history.urls)]
document.getElementById("edit-toggle").dispatch("click")
cells = editor.cells.cell_buttons
cells[0].dispatch("click")
cells[0].dispatch("click", shift=True)
cells[5].dispatch("contextmenu")
for key in ("1", "0", "2", "4", "ArrowDown", "6", "Enter", "7", "Backspace"):
    cells[editor.cells.selected].dispatch("keydown", key=key)
out.append([editor.cells.values, editor.text.link(), document.getElementById("editor-status").textContent, stopped])
editor.text.paste_input.value = "2 4 8 16 / . . . 32 / - - - 64 / 0 0 2 128"
editor.text.paste()
out.append([editor.cells.values, editor.text.link()])
out.append(document.getElementById("editor-bar").dump() + editor.cells.cells_el.dump())
editor.cells.clear_board()
cells[3].dispatch("click")
out.append([editor.play_from_here(), editor.editing, document.getElementById("editor-status").textContent])
editor.cancel()
out.append([editor.editing, document.body.dump(), [document.getElementById(i).inert for i in INERT_WHILE_EDITING]])
print(json.dumps(out))
"""

CONTROLS = """
from fakedom import Document
from app.ai.client import AiClient
from app.ai.controls import AiControls
from app.ai.panel import AiPanel

READOUT = ("algorithm", "preset", "move", "depth", "nodes", "nps", "cutoffs", "time", "workers")
PANEL = ("hint", "step", "autoplay", "status", "algorithm", "think", "think-value", "pause", "pause-value", "preset")
PANEL += ("weights", "weights-reset", "readout")


class Quiet:
    listeners = []

    def __getattr__(self, name):
        return lambda *args, **kw: None


class Store:
    def __init__(self):
        self.saved = {"ai": {"think_ms": 1000, "algorithm": "alphabeta", "weights": {"classic": {"max": 2.5}}}}

    def settings(self):
        return dict(self.saved)

    def save_settings(self, settings):
        self.saved = settings


document = Document(["ai-" + name for name in PANEL] + ["readout-" + name for name in READOUT] + ["weights-panel"])
client = AiClient(lambda attempt: None)
client.presets = [
    {"name": "classic", "description": "ovolve's", "default_weights": {"smoothness": 0.1, "empty": 2.7, "max": 1.0}},
    {"name": "rows", "description": "nneonneo's", "default_weights": {"sum_power": 3.5, "empty_weight": 270.0}},
]
panel = AiPanel(document, client, Store(), Quiet(), lambda f: f)
controls = AiControls(document, Quiet(), Quiet(), client, panel, lambda f: f)
panel.preset_defaults = {p["name"]: dict(p["default_weights"]) for p in client.presets}
panel._fill_presets()
panel._show_settings()
unopened = len(document.getElementById("ai-weights").children)  # the sliders wait for their panel to open
document.getElementById("weights-panel").open = True
document.getElementById("weights-panel").dispatch("toggle")
answer = {"algorithm": "alphabeta", "preset": "classic", "move": "up", "depth": 7, "rescued": True}
answer.update(nodes=1234567, nodes_per_second=2345678.5, cutoffs=12, elapsed_ms=99.6, think_ms=1500)
panel.show_readout(answer)
out = [unopened, document.getElementById("ai-weights").dump(), document.getElementById("ai-preset").dump()]
out.append([document.getElementById("readout-" + name).textContent for name in READOUT])
document.getElementById("ai-think").value = "0"
document.getElementById("ai-think").dispatch("input")
out.append([document.getElementById("ai-think-value").textContent, panel.storage.saved["ai"]["think_ms"]])
print(json.dumps(out))
"""

CLIENT = """
import asyncio
import app.ai.client as ai_client
from app.ai.client import AiClient
from app.browser.wiring import Wiring

ai_client.TIMEOUT_SLACK_S = 0.05


class Worker:
    def __init__(self, answers):
        self.answers = answers

    async def ready(self):
        await asyncio.sleep(0)
        return "ok"

    def presets(self):  # a plain value, as a synchronous fake gives
        return json.dumps([{"name": "classic", "default_weights": {"max": 1.0}}])

    async def prepare_other_presets(self):
        return "ok"

    async def think(self, request):
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        await asyncio.sleep(float(answer))
        return json.dumps({"ok": True, "move": "left", "asked": json.loads(request)["rows"]})


async def start(attempt):
    if attempt == 1:
        raise RuntimeError("first attempt fails")
    return Worker(["0", ValueError("crashed"), "5", "0"])


class Silent(Worker):
    async def ready(self):
        await asyncio.sleep(1)


done = []


async def work(n):
    await asyncio.sleep(0.01)
    done.append(n)
    return n


async def main():
    client = AiClient(start, start_timeout_s=2.0)
    out = [await client.connect(), client.attempts, client.presets]
    for _ in range(4):
        answer = await client.think({"rows": [[2]], "think_ms": 1})
        out.append([answer["ok"], answer.get("move"), answer.get("error", "")[:30], client.needs_restart])
        client.needs_restart = False
    slow = AiClient(lambda attempt: Silent([]), start_timeout_s=0.05)
    out.append([await slow.connect(), slow.error])
    wiring = Wiring(lambda f: f)
    tasks = [wiring.spawn(work(n)) for n in range(3)]
    out.append(len(wiring.tasks))
    results = []
    for task in tasks:  # (no ``await`` in a comprehension: MicroPython would build a generator)
        results.append(await task)
    out.append([results, len(wiring.tasks), done])
    return out
"""
"""Ends with ``main()``, a coroutine whose result is the output (see ``_outputs``)."""


TEAM = """
import asyncio

import app.ai.client as ai_client
from app.ai.split import AiTeam, team_size, worker_count
from game2048.search.split_merge import merge

ai_client.TIMEOUT_SLACK_S = 0.05
PARTS = json.loads(DATA)


class Worker:
    def __init__(self, kind):
        self.kind = kind

    async def ready(self):
        return "ok"

    async def presets(self):
        return json.dumps([{"name": "rows", "default_weights": {"w": 1.0}}])

    async def prepare_other_presets(self):
        return "ok"

    async def heap_bytes(self, request):
        return json.dumps({"ok": True, "bytes": 123456789})

    async def think(self, request):
        return json.dumps({"ok": True, "move": "up", "depth": 3, "alone": True})

    async def think_part(self, request):
        asked = json.loads(request)
        if self.kind == "crash":
            raise RuntimeError("the worker was terminated")
        if self.kind == "hang":
            await asyncio.sleep(60)
        return json.dumps(dict(PARTS[asked["part"]], ok=True))


def shown(answer):
    return [answer.get("move"), answer.get("depth"), round(answer.get("score") or 0, 3), answer.get("workers")]


class Navigator:
    hardwareConcurrency = 8
    deviceMemory = 2


async def main():
    out = [[worker_count(c, m) for c, m in ((1, None), (3, None), (16, 8), (16, 1.5), ("?", None))]]
    out.append([team_size(q, Navigator()) for q in ("", "?workers=3", "?workers=0", "?workers=1x")])
    out.append(shown(merge(PARTS, {"think_ms": 100, "depth": 3})))
    out.append(shown(merge(PARTS[:1], {"think_ms": 100, "depth": 3}) or {}))
    for kind in ("ok", "crash", "hang"):
        workers = {None: Worker("ok"), "ai-help-1": Worker(kind)}
        team = AiTeam(lambda attempt, name=None: workers[name], 2)
        connected = await team.connect()
        waiting = team.describe()
        request = {"rows": [[2]], "think_ms": 10, "depth": 3, "algorithm": "expectimax", "preset": "rows"}
        first = await team.think(request)  # the primary's alone; the helper starts
        for _ in range(100):
            if team.helpers or team.dropped:
                break
            await asyncio.sleep(0.01)
        answer = await team.think(request)
        for _ in range(100):
            if not team.helpers or kind == "ok":
                break
            await asyncio.sleep(0.02)
        out.append([kind, connected, waiting, first.get("alone"), shown(answer), answer.get("alone"), team.describe()])
    return out
"""


def test_the_team_merges_and_drops_the_same() -> None:
    board = from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    evaluate = rows.make_evaluator()
    parts = [expectimax.search_part(board, evaluate, Deadline(None), k, 2, depth=3) for k in range(2)]
    micropython, cpython = json_outputs(TEAM, {"fakedom.py": FAKE_DOM}, parts, asynchronous=True)
    assert micropython == cpython
    assert cpython[0] == [1, 3, 4, 1, 1] and cpython[1][2][0] == 2 and "Ignored ?workers=" in cpython[1][2][1]
    one = expectimax.search(board, evaluate, Deadline(None), depth=3)
    assert cpython[2][:2] == [one.move, 3] and cpython[3] == [None, None, 0, None]
    ok, crash, hang = cpython[4:]
    assert ok[1:4] == [True, "Expectimax will share its decisions among 2 workers, started when it first plays.", True]
    assert ok[4][3] == 2 and "2 of 2 workers" in ok[6] and "123 MB" in ok[6]
    assert crash[5] is True and "Dropped" in crash[6] and hang[5] is True and "Dropped" in hang[6]


def test_settings_are_read_and_requested_the_same() -> None:
    micropython, cpython = json_outputs(SETTINGS, {"fakedom.py": FAKE_DOM})
    assert micropython == cpython


def test_the_explorer_draws_the_same_html() -> None:
    rows = from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    answers = []
    for explanation in (
        explain(rows, depth=4, rescue=False, analysis_ms=10_000),
        explain(rows, depth=2, algorithm="expectimax", analysis_ms=1000),
    ):
        answers.append(dict(explanation["decision"], explanation=explanation, ok=True))
    unfinished = {"without_ordering": "time", "zz": "<why>", "exact_root": "time", "pv": "time"}
    answers[1]["explanation"]["analysis"]["unfinished"] = unfinished
    # Ties, which CPython's format rounds to even and MicroPython's up: the drawing must read them alike.
    answers[0]["explanation"]["decision"]["elapsed_ms"] = 12.5
    answers[0]["explanation"]["analysis"]["elapsed_ms"] = 2.5
    for iteration in answers[0]["explanation"]["iterations"]:
        iteration["elapsed_ms"] = 0.25
    micropython, cpython = json_outputs(EXPLORER, {"fakedom.py": FAKE_DOM}, answers)
    assert micropython == cpython
    note = cpython[4][0]  # the second explanation's drawing: the parts cut short, in their fixed order
    assert note.index("Exact values:") < note.index("Principal variation:") < note.index("&lt;why&gt;")


def test_the_tree_walk_draws_every_step_the_same() -> None:
    board = from_rows([[16, 8, 16, 2], [2, 32, 2, 16], [16, 16, 4, 32], [2, 8, 0, 8]])
    answer = dict(stepwise.variants(board, 2, count_empty, ordering=True, pruning=True), ok=True)
    micropython, cpython = json_outputs(TREE_WALK, {"fakedom.py": FAKE_DOM}, answer)
    assert micropython == cpython


def test_the_editor_edits_and_links_the_same() -> None:
    micropython, cpython = json_outputs(EDITOR, {"fakedom.py": FAKE_DOM})
    assert micropython == cpython
    assert cpython[0] == ["/index.html?seed=5&theme=&a=b+c#top"]


def test_the_ai_panel_draws_the_same() -> None:
    micropython, cpython = json_outputs(CONTROLS, {"fakedom.py": FAKE_DOM})
    assert micropython == cpython
    assert cpython[0] == 0 and cpython[1]  # no slider until the weights' panel opens, then the preset's
    assert cpython[3][3:6] == ["7, vs 2s", "1,234,567", "2,345,678/s"]


def test_the_client_and_the_tasks_behave_the_same() -> None:
    micropython, cpython = json_outputs(CLIENT, {"fakedom.py": FAKE_DOM}, asynchronous=True)
    assert micropython == cpython
