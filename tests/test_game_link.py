"""Share links: a link decodes to the game it was made from, and a cut short, changed or foreign one is refused.

A link holds the seed, the moves and (version 2) who played each; anything
that is not such a link raises ``LinkError`` with a message for the notice on
the page, never another exception; and the module runs the same under
MicroPython.
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from micropython_runner import RULES, run_both
from test_game_record import illegal_after, play_recorded, seeds
from test_micropython_subset import problems

from game2048 import board as B
from game2048.game import MAX_SEED
from game2048.game_link import LINK_ALPHABET, MAX_LINK_CHARS, LinkError, decode_link, encode_game, record_from_link
from game2048.game_record import RecordError

ROOT = Path(__file__).resolve().parents[1]


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=2**32))
def test_a_link_decodes_to_the_same_game(seed, policy):
    record, _ = play_recorded(seed, policy, most=120)
    code = encode_game(record.seed, record.moves)
    assert set(code) <= set(LINK_ALPHABET)
    assert decode_link(code) == (record.seed, record.moves, None)
    assert record_from_link(code).result() == record.result()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.lists(st.sampled_from(B.DIRECTIONS), max_size=40), st.data())
def test_a_cut_short_or_changed_link_is_refused_with_a_link_error(seed, moves, data):
    code = encode_game(seed, moves)
    cut = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
    with pytest.raises(LinkError):
        decode_link(code[:cut])
    at = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
    replacement = data.draw(st.characters().filter(lambda c: c != code[at]))
    with pytest.raises(LinkError):
        decode_link(code[:at] + replacement + code[at + 1 :])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "it is empty"),
        ("BC%vB", "character '%' is not allowed"),
        ("DAAAA", "unknown link version 3"),
        ("B", "the link is cut short: it ends before its moves"),
        (None, "not text"),
        ("B" + "_" * 14, "its seed takes more than 13 characters"),
        ("x" * 60_000, "longer than any game"),
    ],
)
def test_a_bad_link_says_what_is_wrong(text, message):
    with pytest.raises(LinkError, match=message):
        decode_link(text)


def test_link_messages_for_a_cut_short_changed_or_padded_link():
    code = encode_game(7, ["up"] * 456)
    with pytest.raises(LinkError, match="the link is cut short: it holds 123 of 456 moves"):
        decode_link(code[: 4 + 41])  # version, seed, count (2 characters), 41 characters of 3 moves
    with pytest.raises(LinkError, match="holds all 456 moves but not its check"):
        decode_link(code[:-1])
    with pytest.raises(LinkError, match="has 1 character more"):
        decode_link(code + "A")
    changed = code[:20] + ("B" if code[20] != "B" else "C") + code[21:]
    with pytest.raises(LinkError, match="the link's check does not match: it was changed or copied wrongly"):
        decode_link(changed)
    assert decode_link(f"  {code}\n") == (7, ["up"] * 456, None)  # pasted with spaces around it


def test_a_link_whose_moves_are_illegal_says_which_move():
    moves, illegal = illegal_after(3)
    with pytest.raises(LinkError, match=f"the link's moves are not a game: move {len(moves) + 1} \\({illegal}\\)"):
        record_from_link(encode_game(3, moves + [illegal]))


def test_a_2000_move_game_fits_well_inside_a_url():
    moves = [B.DIRECTIONS[i % 4] for i in range(2000)]
    code = encode_game(MAX_SEED, moves)
    assert len(code) == 1 + 13 + 3 + 667 + 3  # version, seed, count, 3 moves a character, check: well under 2,000
    assert decode_link(code) == (MAX_SEED, moves, None)
    assert len(encode_game(7, [])) == 6


players = st.lists(st.sampled_from(B.DIRECTIONS), max_size=60).flatmap(
    lambda moves: st.tuples(st.just(moves), st.lists(st.booleans(), min_size=len(moves), max_size=len(moves)))
)
"""(moves, who played each): any mix, from one side only to a change at every move."""


@settings(max_examples=150, deadline=None)
@given(seeds, players)
def test_a_link_says_who_played_each_move_and_an_old_link_says_nothing_of_it(seed, game):
    moves, by_ai = game
    code = encode_game(seed, moves, by_ai)
    assert set(code) <= set(LINK_ALPHABET) and code[0] == "C" and len(code) <= MAX_LINK_CHARS
    assert decode_link(code) == (seed, moves, by_ai)
    old = encode_game(seed, moves)  # as links were made before they said who played: they still open
    assert old[0] == "B" and decode_link(old) == (seed, moves, None)
    # who played costs one character for the runs' or bits' mark, then whichever of the two is shorter
    assert len(code) - len(old) <= 1 + (len(moves) + 5) // 6


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, players, st.data())
def test_a_cut_short_or_changed_link_that_says_who_played_is_refused(seed, game, data):
    code = encode_game(seed, *game)
    cut = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
    with pytest.raises(LinkError):
        decode_link(code[:cut])
    at = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
    replacement = data.draw(st.sampled_from(LINK_ALPHABET).filter(lambda c: c != code[at]))
    with pytest.raises(LinkError):
        decode_link(code[:at] + replacement + code[at + 1 :])


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=LINK_ALPHABET, max_size=40).map(lambda tail: "C" + tail) | st.text(max_size=40))
def test_any_text_is_a_link_or_a_link_error(text):
    try:
        seed, moves, by_ai = decode_link(text)
    except LinkError:
        return
    assert by_ai is None or len(by_ai) == len(moves)
    assert decode_link(encode_game(seed, moves, by_ai)) == (seed, moves, by_ai)


def test_who_played_is_a_few_characters_for_a_game_of_one_side_and_bits_for_a_mixed_one():
    moves = [B.DIRECTIONS[i % 4] for i in range(2000)]
    plain = len(encode_game(7, moves))
    assert len(encode_game(7, moves, [True] * 2000)) == plain + 1 + 1 + 3  # the mark, an empty run, 2000 AI moves
    assert len(encode_game(7, moves, [False] * 2000)) == plain + 1 + 3
    assert len(encode_game(7, moves, [i % 2 == 0 for i in range(2000)])) == plain + 1 + 334  # six moves a character
    code = encode_game(7, moves[:9], [False, True, True] * 3)
    with pytest.raises(LinkError, match="the link is cut short: it holds all 9 moves but not who played them"):
        decode_link(code[: 1 + 1 + 1 + 3])  # version, seed, count, 3 characters of moves
    with pytest.raises(RecordError, match="says who played each of its 9 moves"):
        encode_game(7, moves[:9], [True])


def test_a_shared_record_says_who_played_when_its_link_does():
    record, _ = play_recorded(11, 3, most=30)
    assert record_from_link(encode_game(11, record.moves, record.chosen_by_ai())).by_ai == [
        d is not None for d in record.decisions
    ]
    assert record_from_link(encode_game(11, record.moves)).by_ai is None
    assert record.by_ai is None  # a record that holds its decisions


def test_the_module_keeps_to_micropython():
    assert problems((ROOT / "py/game2048/game_link.py").read_text()) == []


ROUND_TRIP = """
from game2048 import board as B
from game2048.game import Game
from game2048.game_link import LinkError, decode_link, encode_game, record_from_link
from game2048.game_record import GameRecord, decision

out = []
for seed in (0, 5, 2**62 + 12345):
    game, record = Game.new(seed), GameRecord(seed)
    while not game.over and game.moves < 300:
        legal = B.legal_moves(game.board)
        direction = legal[(game.moves * 7 + game.board) % len(legal)]
        game.play(direction)
        record.append(direction, decision("alphabeta", "classic", 3, 2.5) if game.moves % 2 else None)
    code = encode_game(seed, record.moves)
    assert decode_link(code) == (seed, record.moves, None)
    told = encode_game(seed, record.moves, record.chosen_by_ai())
    assert decode_link(told) == (seed, record.moves, record.chosen_by_ai())
    assert record_from_link(told).result() == record.result()
    mixed = encode_game(seed, record.moves[:40], [n % 3 == 0 for n in range(40)])
    out.append((code, told[-12:], mixed[-12:], decode_link(mixed)[2][:9]))
    for bad in (code[:-4], code[:9] + ("A" if code[9] != "A" else "B") + code[10:], code + "=", "D" + code[1:]):
        try:
            decode_link(bad)
        except LinkError as exc:
            out.append(str(exc))
print(repr(out))
"""


def test_links_are_the_same_in_micropython():
    record = ("game2048/record_checks.py", "game2048/game_record.py", "game2048/game_link.py")
    micro, cpython = run_both(ROUND_TRIP, RULES + record)
    assert micro == cpython
    assert "check does not match" in cpython and "cut short" in cpython
