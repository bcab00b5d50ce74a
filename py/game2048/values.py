"""What a search's values mean and how a person reads them: the win score, and ``format_value``.

Plain Python with no imports, so the page's main thread (the explorer's and
the step-by-step tree's drawing) reads values exactly as the worker, the
searches and the terminal do, without loading a search.
"""

WIN_SCORE = 1.0e12
"""Far above any evaluation; a win (or, negated, a loss) adds the remaining depth to it (``search.alphabeta``)."""
INFINITY = float("inf")


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
