"""What a search's values mean and how a person reads them: the win score, ``format_value`` and ``fixed``.

Plain Python with no imports, so the page's main thread (the explorer's and
the step-by-step tree's drawing) reads values exactly as the worker, the
searches and the terminal do, without loading a search.
"""

WIN_SCORE = 1.0e12
"""Far above any evaluation; a win (or, negated, a loss) adds the remaining depth to it (``search.alphabeta``)."""
INFINITY = float("inf")


def win_value(remaining: int) -> float:
    """Alpha-beta's value of a move that makes 2048 with ``remaining`` moves left counting it: sooner wins score
    higher.  The one statement of the rule; the search's hot loop inlines it (``search.alphabeta``)."""
    return WIN_SCORE + remaining


def loss_value(remaining: int) -> float:
    """Alpha-beta's value of a board whose player cannot move, ``remaining`` moves from the horizon: later losses
    score higher."""
    return -(WIN_SCORE + remaining)


def format_value(value: "float | None") -> str:
    """A value for a person: "win", "loss", ±∞, or 4 significant digits with k / M; "–" for None."""
    if value is None:
        return "\u2013"
    if value == INFINITY:
        return "+\u221e"
    if value == -INFINITY:
        return "\u2212\u221e"
    if value >= WIN_SCORE:
        return "win"
    if value <= -WIN_SCORE:
        return "loss"
    size = abs(value)
    if size >= 1e6:
        text = f"{value / 1e6:.4g}M"
    elif size >= 1e4:
        text = f"{value / 1e3:.4g}k"
    else:
        text = f"{value:.4g}"
    return text.replace("-", "\u2212")


def fixed(value: float, places: int) -> str:
    """``value`` with ``places`` decimals (``f"{value:.{places}f}"``), a tie rounded up, the same in every interpreter.

    CPython's format rounds a tie to even (``12.5`` gives "12") and MicroPython's up ("13"), so a time or a
    share the page draws would read differently in the two; this rounds in integers and formats no float.
    """
    scale = 10**places
    units = int(abs(value) * scale + 0.5)
    whole, part = divmod(units, scale)
    sign = "-" if value < 0 and units else ""
    return sign + str(whole) + ("." + ("0" * places + str(part))[-places:] if places else "")
