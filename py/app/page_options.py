"""Options read from the page URL (``?seed=N``), kept apart so they are testable without a browser.

A bad value never stops the game: it is ignored and the reason is returned
for a short notice, so a mistyped link still gives a playable page.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs

MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class PageOptions:
    """What the URL asked for; ``notices`` explains anything that was ignored."""

    seed: int | None = None
    notices: tuple[str, ...] = ()


def parse_seed(raw: str) -> tuple[int | None, str | None]:
    """A whole number 0..2**63-1, or (None, reason)."""
    text = raw.strip()
    if not text.isdigit() or not text.isascii():
        return None, f"Ignored ?seed={raw!s}: the seed must be a whole number like ?seed=42."
    value = int(text)
    if value > MAX_SEED:
        return None, f"Ignored ?seed={raw!s}: the seed must be below 2^63."
    return value, None


def parse_page_options(query: str) -> PageOptions:
    """Options from a ``location.search`` string (leading ``?`` optional)."""
    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    notices: list[str] = []
    seed = None
    if "seed" in params:
        seed, notice = parse_seed(params["seed"][-1])
        if notice:
            notices.append(notice)
    return PageOptions(seed=seed, notices=tuple(notices))
