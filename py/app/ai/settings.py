"""The AI's settings (think time, autoplay pause, algorithm, preset, weights): validated, saved, turned into requests.

Saved settings come back from localStorage, which anyone can edit, so every
value is checked on the way in and replaced by its default when it is not
acceptable; a request built from settings is therefore always one the worker
accepts (the worker still checks, and its refusal is shown if it happens).
Plain Python: the page runs it in MicroPython, the tests in CPython.
"""

from app.browser.outside_data import finite_number

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

THINK_STEPS_MS: tuple[int, ...] = (10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000)
PAUSE_STEPS_MS: tuple[int, ...] = (0, 25, 50, 100, 200, 400, 800, 1500)
DEFAULT_THINK_MS = 100
DEFAULT_PAUSE_MS = 50
ALGORITHMS: dict[str, str] = {"alphabeta": "Alpha-beta", "expectimax": "Expectimax"}
DEFAULT_PRESET = {"alphabeta": "classic", "expectimax": "rows"}


def nearest_step(value: Any, steps: tuple[int, ...], default: int) -> int:
    """The allowed step closest to ``value``; ``default`` when ``value`` is not a finite number."""
    number = finite_number(value)
    if number is None:
        return default
    number = min(max(number, steps[0]), steps[-1])  # far-off values keep their side, not float noise
    return min(steps, key=lambda step: abs(step - number))


def slider_range(default: float) -> tuple[float, float, float]:
    """(min, max, step) for a weight slider around its default: 0..3x default, or -5..5 for a zero default."""
    if default > 0:
        low, high = 0.0, 3.0 * default
    elif default < 0:
        low, high = 3.0 * default, 0.0
    else:
        low, high = -5.0, 5.0
    return low, high, (high - low) / 300.0


class AiSettings:
    """What the player chose for the AI; ``weights`` holds only the weights changed from a preset's defaults.

    ``preset`` is the player's choice, the one saved; ``stand_in``, when set,
    is the preset the AI plays meanwhile (the chosen one's network is not in
    yet, or failed): ``playing`` is what requests use, the weights sliders
    edit and the page shows, and it is never saved in the choice's place.
    """

    def __init__(
        self,
        think_ms: int = DEFAULT_THINK_MS,
        pause_ms: int = DEFAULT_PAUSE_MS,
        algorithm: str = "alphabeta",
        preset: str = DEFAULT_PRESET["alphabeta"],
        weights: dict[str, dict[str, float]] | None = None,
    ) -> None:
        self.think_ms = think_ms
        self.pause_ms = pause_ms
        self.algorithm = algorithm
        self.preset = preset
        self.weights: dict[str, dict[str, float]] = {} if weights is None else weights
        self.stand_in: str | None = None

    @property
    def playing(self) -> str:
        """The preset the AI plays now: the stand-in while there is one, else the player's choice."""
        return self.stand_in or self.preset

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AiSettings) and self.to_saved() == other.to_saved()

    def __repr__(self) -> str:
        return f"AiSettings({self.to_saved()!r})"

    @classmethod
    def from_saved(cls, data: Any, presets: dict[str, dict[str, float]] | None = None) -> "AiSettings":
        """Settings from their saved form, every bad value replaced by its default.

        ``presets`` (name -> default weights) filters preset names and weight names
        once the worker has said which exist; before that they are kept as saved.
        """
        data = data if isinstance(data, dict) else {}
        settings = cls(
            think_ms=nearest_step(data.get("think_ms"), THINK_STEPS_MS, DEFAULT_THINK_MS),
            pause_ms=nearest_step(data.get("pause_ms"), PAUSE_STEPS_MS, DEFAULT_PAUSE_MS),
        )
        algorithm = data.get("algorithm")
        if isinstance(algorithm, str) and algorithm in ALGORITHMS:
            settings.algorithm = algorithm
        preset = data.get("preset")
        settings.preset = preset if isinstance(preset, str) and preset else DEFAULT_PRESET[settings.algorithm]
        weights = data.get("weights")
        if isinstance(weights, dict):
            for name, values in weights.items():
                if not isinstance(name, str) or not isinstance(values, dict):
                    continue
                clean = {
                    k: number
                    for k, v in values.items()
                    if isinstance(k, str) and (number := finite_number(v)) is not None
                }
                if clean:
                    settings.weights[name] = clean
        if presets is not None:
            settings.restrict_to(presets)
        return settings

    def restrict_to(self, presets: dict[str, dict[str, float]]) -> None:
        """Drop presets and weight names the worker does not know."""
        fallback = DEFAULT_PRESET[self.algorithm] if DEFAULT_PRESET[self.algorithm] in presets else min(presets)
        if self.preset not in presets:  # without the algorithm's default, the first by name (dicts keep no order)
            self.preset = fallback
        if self.stand_in is not None and self.stand_in not in presets:
            self.stand_in = fallback
        self.weights = {
            name: {k: v for k, v in values.items() if k in presets[name]}
            for name, values in self.weights.items()
            if name in presets
        }
        self.weights = {name: values for name, values in self.weights.items() if values}

    def to_saved(self) -> dict[str, Any]:
        return {
            "think_ms": self.think_ms,
            "pause_ms": self.pause_ms,
            "algorithm": self.algorithm,
            "preset": self.preset,
            "weights": self.weights,
        }

    def choose_algorithm(self, algorithm: str) -> None:
        """Switch algorithm; the preset follows to that algorithm's own default evaluation."""
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}")
        self.algorithm = algorithm
        self.preset = DEFAULT_PRESET[algorithm]
        self.stand_in = None

    def choose_preset(self, name: str, available: bool = True) -> None:
        """The player chose ``name``; when it is not ``available`` yet (its network is downloading), the AI goes on
        with what it plays (or the algorithm's own preset) as the stand-in until ``arrived``."""
        keep = self.playing if self.playing != name else DEFAULT_PRESET[self.algorithm]
        self.preset = name
        self.stand_in = None if available else keep

    def arrived(self) -> None:
        """The chosen preset's network is in: the AI plays the player's choice."""
        self.stand_in = None

    def active_weights(self, defaults: dict[str, float]) -> dict[str, float]:
        """The playing preset's weights: its defaults with the player's changes on top."""
        weights = dict(defaults)
        weights.update(self.weights.get(self.playing, {}))
        return weights

    def set_weight(self, name: str, value: float) -> None:
        self.weights.setdefault(self.playing, {})[name] = float(value)

    def reset_weights(self) -> None:
        self.weights.pop(self.playing, None)

    def request(self, rows: list[list[int]]) -> dict[str, Any]:
        """A ``think`` request for the worker (see ``py/app/ai/worker.py``)."""
        return {
            "rows": rows,
            "think_ms": self.think_ms,
            "depth": None,
            "algorithm": self.algorithm,
            "preset": self.playing,
            "weights": dict(self.weights.get(self.playing, {})),
        }
