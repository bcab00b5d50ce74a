"""The game's generator draws what ``random.Random`` draws, in CPython and in MicroPython, and takes its states."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game2048 import board as B
from game2048.game import Game, SavedStateError
from game2048.mersenne import MersenneTwister, UnreachableState, bit_length

ROOT = Path(__file__).resolve().parents[1]
seeds = st.one_of(st.integers(0, 2**63 - 1), st.integers(-(2**200), 2**200))
calls = st.lists(
    st.one_of(
        st.just(("random",)),
        st.tuples(st.just("randrange"), st.integers(1, 2**40)),
        st.tuples(st.just("getrandbits"), st.integers(0, 200)),
    ),
    max_size=60,
)


def draw(generator, call: tuple) -> float | int:
    name, *args = call
    return getattr(generator, name)(*args)


@settings(max_examples=300, deadline=None)
@given(seeds, calls)
def test_every_draw_and_the_state_equal_random_random(seed: int, sequence: list[tuple]) -> None:
    ours, theirs = MersenneTwister(seed), random.Random(seed)
    assert ours.getstate() == theirs.getstate()
    assert [draw(ours, call) for call in sequence] == [draw(theirs, call) for call in sequence]
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**63 - 1), st.integers(0, 1500))
def test_states_pass_both_ways(seed: int, skip: int) -> None:
    theirs = random.Random(seed)
    for _ in range(skip):
        theirs.random()
    ours = MersenneTwister(state=theirs.getstate())  # a game saved before the twister
    assert [ours.random() for _ in range(700)] == [theirs.random() for _ in range(700)]
    back = random.Random()
    back.setstate(ours.getstate())
    assert [back.randrange(7) for _ in range(50)] == [ours.randrange(7) for _ in range(50)]


@given(st.integers(0, 2**300))
def test_bit_length_is_ints(n: int) -> None:
    assert bit_length(n) == n.bit_length()


def test_without_a_seed_each_generator_is_its_own() -> None:
    assert MersenneTwister().getstate() != MersenneTwister().getstate()


class CPythonRandom(random.Random):
    """``random.Random``, as games drew their tiles before, with the two calls ``Game.undo`` needs."""

    def snapshot(self) -> tuple:
        return self.getstate()

    def restore(self, state: tuple) -> None:
        self.setstate(state)


def test_a_game_saved_with_random_random_goes_on_the_same() -> None:
    old = Game(seed=9, rng=CPythonRandom(9))  # how games were played and saved before
    old.spawn()
    old.spawn()
    for direction in ("left", "up", "right", "down") * 5:
        old.play(direction)
    loaded = Game.from_dict(json.loads(json.dumps(old.to_dict())))
    assert isinstance(loaded.rng, MersenneTwister)
    for direction in ("down", "left", "up", "right") * 10:
        assert old.play(direction) == loaded.play(direction)
        assert (old.board, old.score) == (loaded.board, loaded.score)


def test_seeded_games_are_the_games_random_random_deals() -> None:
    for seed in (0, 1, 31, 2**63 - 1):
        game, reference = Game.new(seed), Game(seed=seed, rng=CPythonRandom(seed))
        reference.spawn()
        reference.spawn()
        for direction in ("left", "down", "right", "down") * 8:
            game.play(direction)
            reference.play(direction)
        assert B.to_rows(game.board) == B.to_rows(reference.board) and game.score == reference.score


@pytest.mark.parametrize(
    ("state", "error"),
    [
        ((2, (0,) * 625, None), ValueError),
        ((3, (1,) * 624, None), ValueError),
        ((3, (2**32,) + (1,) * 624, None), ValueError),
        ((3, (True,) + (1,) * 624, None), ValueError),
        ((3, (1,) * 624 + (625,), None), ValueError),
        ((3, (0,) * 625, None), UnreachableState),
        ("not a state", ValueError),
    ],
)
def test_a_state_it_cannot_be_in_is_refused(state, error) -> None:
    with pytest.raises(error):
        MersenneTwister(state=state)


def test_a_saved_game_with_a_bad_state_says_why() -> None:
    saved = Game.new(3).to_dict()
    saved["rng"] = [3, [0] * 625, None]
    with pytest.raises(SavedStateError, match="all zero"):
        Game.from_dict(saved)


PROBE = """
import json
from game2048.mersenne import MersenneTwister
out = []
for seed in SEEDS:
    g = MersenneTwister(seed)
    out.append([g.random(), g.randrange(16), g.randrange(1000003), g.getrandbits(70), g.getstate()[1][-1]])
unseeded = MersenneTwister().random()  # seeded from MicroPython's own randomness: it has no os.urandom
assert 0 <= unseeded < 1
print(json.dumps(out))
"""
PROBE_SEEDS = [0, 1, 42, 2**32 + 5, 2**63 - 1]


def test_micropython_draws_the_same(tmp_path: Path) -> None:
    node = shutil.which("node")
    package = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
    if node is None or not package.is_dir():
        pytest.skip("node or node_modules is missing: run npm ci (or make test)")
    script = tmp_path / "probe.py"
    script.write_text(PROBE.replace("SEEDS", repr(PROBE_SEEDS)))
    run = subprocess.run(
        [node, "tools/micropython_run.mjs", str(script), "py/game2048/mersenne.py=game2048/mersenne.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    expected = []
    for seed in PROBE_SEEDS:
        g = random.Random(seed)
        expected.append([g.random(), g.randrange(16), g.randrange(1000003), g.getrandbits(70), g.getstate()[1][-1]])
    assert json.loads(run.stdout) == expected


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=3000))
def test_a_snapshot_brings_back_the_same_draws_across_twists(seed: int, skip: int) -> None:
    generator = MersenneTwister(seed)
    for _ in range(skip):
        generator.next_word()
    snapshot = generator.snapshot()
    kept = list(snapshot[0])
    first = [generator.next_word() for _ in range(1500)]  # at least two twists later
    assert list(snapshot[0]) == kept  # its words were not changed in place
    generator.restore(snapshot)
    assert [generator.next_word() for _ in range(1500)] == first
