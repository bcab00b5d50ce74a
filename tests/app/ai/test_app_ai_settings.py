"""AI settings: saved values are validated, requests are always well formed, presets filter names."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.ai.settings import (
    DEFAULT_PAUSE_MS,
    DEFAULT_THINK_MS,
    PAUSE_STEPS_MS,
    THINK_STEPS_MS,
    AiSettings,
    nearest_step,
    slider_range,
)

PRESETS = {
    "classic": {"smoothness": 0.1, "monotonicity": 1.0, "empty": 2.7, "max": 1.0},
    "rows": {"empty_weight": 270.0, "merges_weight": 700.0},
    "snake": {"smoothness": 1.0, "repeats": 0.0},
}

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@given(st.dictionaries(st.sampled_from(["think_ms", "pause_ms", "algorithm", "preset", "weights", "x"]), junk))
def test_any_saved_junk_gives_valid_settings(data):
    settings = AiSettings.from_saved(data, PRESETS)
    assert settings.think_ms in THINK_STEPS_MS and settings.pause_ms in PAUSE_STEPS_MS
    assert settings.algorithm in ("alphabeta", "expectimax")
    assert settings.preset in PRESETS
    request = settings.request([[0] * 4] * 4)
    assert set(request["weights"]) <= set(PRESETS[settings.preset])
    assert AiSettings.from_saved(settings.to_saved(), PRESETS) == settings


def test_defaults_and_think_time_bounds():
    settings = AiSettings.from_saved(None)
    assert (settings.think_ms, settings.pause_ms) == (DEFAULT_THINK_MS, DEFAULT_PAUSE_MS) == (100, 50)
    assert (THINK_STEPS_MS[0], THINK_STEPS_MS[-1]) == (10, 2000)
    assert nearest_step(5, THINK_STEPS_MS, 100) == 10 and nearest_step(10**9, THINK_STEPS_MS, 100) == 2000
    assert nearest_step(float("nan"), THINK_STEPS_MS, 100) == 100


def test_algorithm_switch_picks_its_default_preset_and_weights_apply_to_the_active_preset():
    settings = AiSettings()
    assert settings.request([[0] * 4] * 4)["preset"] == "classic"
    settings.choose_algorithm("expectimax")
    assert settings.preset == "rows"
    settings.set_weight("empty_weight", 300)
    assert settings.request([[0] * 4] * 4)["weights"] == {"empty_weight": 300.0}
    assert settings.active_weights(PRESETS["rows"]) == {"empty_weight": 300.0, "merges_weight": 700.0}
    settings.reset_weights()
    assert settings.request([[0] * 4] * 4)["weights"] == {}


def test_unknown_presets_and_weight_names_are_dropped():
    settings = AiSettings.from_saved(
        {"preset": "nope", "weights": {"classic": {"empty": 3, "bogus": 1}, "gone": {"a": 1}}}, PRESETS
    )
    assert settings.preset == "classic" and settings.weights == {"classic": {"empty": 3.0}}


def test_slider_ranges_contain_the_default():
    for default in (0.0, 0.1, 2.7, 200000.0, -4.0):
        low, high, step = slider_range(default)
        assert low <= default <= high and step > 0


def test_numbers_too_large_for_a_float_are_replaced_by_defaults():
    huge = 10**400
    settings = AiSettings.from_saved(
        {"think_ms": huge, "pause_ms": -huge, "weights": {"classic": {"monotonicity": huge, "smoothness": 0.5}}}
    )
    assert settings.think_ms == DEFAULT_THINK_MS and settings.pause_ms == DEFAULT_PAUSE_MS
    assert settings.weights == {"classic": {"smoothness": 0.5}}


def test_far_off_numbers_keep_their_side_of_the_range():
    settings = AiSettings.from_saved({"think_ms": 1e308, "pause_ms": -1e308})
    assert settings.think_ms == THINK_STEPS_MS[-1] and settings.pause_ms == PAUSE_STEPS_MS[0]


def test_a_preset_waiting_for_its_network_is_saved_while_its_stand_in_plays_and_takes_the_sliders() -> None:
    settings = AiSettings.from_saved({"preset": "learned"})
    settings.choose_preset("learned", available=False)  # a new worker: the network is downloaded again
    assert settings.playing == "classic" and settings.request([[0] * 4] * 4)["preset"] == "classic"
    settings.set_weight("empty", 3.0)  # a slider moved meanwhile: the stand-in's weight, the choice kept
    assert settings.to_saved()["preset"] == "learned"
    assert settings.weights == {"classic": {"empty": 3.0}}
    assert settings.request([[0] * 4] * 4)["weights"] == {"empty": 3.0}
    settings.arrived()
    assert settings.playing == "learned" and settings.request([[0] * 4] * 4)["weights"] == {}
    settings.choose_preset("rows")
    assert settings.playing == settings.preset == "rows" and settings.stand_in is None
    settings.choose_preset("learned", available=False)
    assert settings.stand_in == "rows"  # what played goes on playing
    settings.restrict_to({"classic": {}, "learned": {}})
    assert settings.stand_in == "classic" and settings.preset == "learned"
    settings.choose_algorithm("expectimax")
    assert settings.playing == settings.preset == "rows" and settings.stand_in is None
