"""The learned network's story as HTML: what it is, its stages and why, how it was trained, its curve, its strength.

Drawn from ``network_story.story`` (the manifest's values, checked), so
every number on it is the manifest's; a part the manifest lacks is left out.
Each technical word links to its glossary entry (``term_link``: its meaning
on hover and focus, the glossary's entry one tap away) the first time the story
says it; ``GLOSSARY_KEYS`` lists every entry it may link, which the page
writes into the glossary before the explorer exists.  The patterns are drawn
as the explorer draws them (``pattern_glyph``); the curve is ``story_chart``'s,
with its numbers in a table as its text.  Plain functions returning HTML,
every text escaped; MicroPython runs them in the page.
"""

from html import escape
from math import sqrt

from app.ai.story_chart import curve_summary, curve_svg
from app.explorer.glossary import term_link
from app.explorer.terms_view import pattern_glyph
from game2048.values import fixed

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

GLOSSARY_KEYS = (
    "n-tuple-network",
    "pattern",
    "network-weight",
    "stage",
    "td-learning",
    "afterstate",
    "td-lambda",
    "restart",
    "temporal-coherence",
    "learning-rate",
    "greedy",
)
"""The glossary entries the story links, in the order it first says them."""
DASH = "\u2013"
"""A cell whose number the manifest does not give."""
TD_LAMBDA = "TD(\u03bb)"
NUMBERS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


class Words:
    """Links each glossary word the first time it is said (later, the plain word): a part reads as text, not as
    a row of links."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def __call__(self, key: str, text: str) -> str:
        if key in self.said:
            return escape(text)
        self.said.append(key)
        return term_link(key, text)


def percent(share: float) -> str:
    """A share as a person reads a rate: "98.2 %", "0.01 %" (a rare one keeps its digit), "0 %"."""
    if share == 0:
        return "0 %"
    places = 2 if share < 0.001 else 1
    return fixed(share * 100, places) + " %"


def score(value: float) -> str:
    return f"{int(value + 0.5):,}"


def decimal(value: float) -> str:
    """A rate or λ as written in a command: 0.0025, 0.5."""
    return fixed(value, 6).rstrip("0").rstrip(".")


def spelled(count: int) -> str:
    return NUMBERS[count] if 0 <= count < len(NUMBERS) else f"{count:,}"


def _and(items: "list[str]", word: str = "and") -> str:
    """ "", "a", "a and b", "a, b and c"."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _rates_text(found: "dict[str, Any]", tiles: "tuple[int, ...]" = (8192, 16384)) -> str:
    """ "mean 98,568; 8192 in 43.0 %, 16384 in 0.5 %" from a set of greedy results."""
    said = [f"{tile} in {percent(share)}" for tile, share in found["rates"] if tile in tiles]
    mean = f"mean {score(found['mean_score'])}" if found["mean_score"] is not None else ""
    return "; ".join(part for part in (mean, ", ".join(said)) if part)


def what_part(content: "dict[str, Any]", words: Words) -> str:
    """What the network is: its patterns drawn, its weights and its size."""
    patterns = content["patterns"]
    if not patterns:
        return ""
    sizes = sorted(set(len(cells) for cells in patterns))
    cells = f"{sizes[0]} cells" if len(sizes) == 1 else "cells"
    drawn = "".join(f"<li>{pattern_glyph(n, cells_)}pattern {n}</li>" for n, cells_ in enumerate(patterns, 1))
    size = []
    if content["weights"]:
        size.append(f"{content['weights']:,} weights")
    if content["memory_bytes"]:
        size.append(f"{fixed(content['memory_bytes'] / 1e6, 0)} MB of tables in the AI\u2019s worker")
    if content["bytes"]:
        rounded = ""
        if content["step"] and (content.get("coarsen") or content["prune"] is not None):
            rest = (
                "the ones training rarely moved to a coarser one"
                if content.get("coarsen")
                else f"those under {decimal(content['prune'])} set to 0"
            )
            rounded = f" (each weight rounded to a step of {decimal(content['step'])} points, {rest}, to fit 32 MB)"
        size.append(f"a {fixed(content['bytes'] / 1e6, 1)} MB download{rounded}")
    name = f" (<code>{escape(content['name'])}</code>)" if content["name"] else ""
    return (
        '<h3 id="story-what-title">What it is</h3>'
        f'<p id="story-what">An {words("n-tuple-network", "n-tuple network")}{name} that values a board: '
        f"{len(patterns)} {words('pattern', 'patterns')} of {cells}, each read on the board and its 7 rotations "
        f"and mirror images. Each combination of tiles a pattern sees has a learned "
        f"{words('network-weight', 'weight')} of its own, and the weights it reads add up to the board\u2019s "
        f"value, on top of the points its tiles already scored.{' ' + '; '.join(size) + '.' if size else ''}</p>"
        f'<ul class="pattern-list story-patterns" id="story-patterns" aria-label="Its patterns">{drawn}</ul>'
    )


def stages_part(content: "dict[str, Any]", words: Words) -> str:
    """Its stages, each with the boards it values and its values a cell, and why the late one has its own."""
    stages = content["stages"]
    if not stages:
        return ""
    items = []
    for i, stage in enumerate(stages):
        if stage["from_tile"] and stage["below_tile"]:
            boards = f"Boards from {stage['from_tile']} up to below {stage['below_tile']}"
        elif stage["from_tile"]:
            boards = f"Boards from {stage['from_tile']} up"
        elif stage["below_tile"]:
            boards = f"Boards whose largest tile is below {stage['below_tile']}"
        else:
            boards = "Every board"
        if len(stages) == 1:
            whose = "one set of tables"
        else:
            whose = "tables of their own" if i else "the first stage\u2019s tables"
        fits = ": every tile such a board holds" if stage["below_tile"] == 2 * stage["top_tile"] else ""
        items.append(
            f"<li>{boards}: {whose}, {stage['values']} values a cell (empty, and 2 to {stage['top_tile']}{fits}).</li>"
        )
    if len(stages) == 1:
        title, why = "One stage", ""
    else:
        late = stages[1]["from_tile"]
        title = f"{spelled(len(stages))} stages, and why"
        why = (
            f'<p id="story-stages-why">Why: boards from {late} up are rare and differ from the early ones. Few '
            f"training games reach them, so in tables shared with the early boards their weights learn little and "
            f"are pulled toward what the far more numerous early boards need. In tables of their own they learn "
            f"from their own boards alone, and with {stages[-1]['values']} values a cell a "
            f"{stages[-1]['top_tile']} is read as itself, not as a {stages[-1]['top_tile'] // 2}.</p>"
        )
    return (
        f'<h3 id="story-stages-title">{title[0].upper() + title[1:]}</h3>'
        f"<p>Each {words('stage', 'stage')} is a set of tables for some boards only:</p>"
        f'<ul class="story-stages" id="story-stages">{"".join(items)}</ul>{why}'
    )


def _run_text(run: "dict[str, Any]", before: "dict[str, Any] | None", last: bool, words: Words) -> str:
    """One run: its games, where it started, its shape when new, its method and its file's greedy results."""
    said = [f"<strong>{run['games']:,}</strong> games " + ("from zero" if run["from_zero"] else "more")]
    stages = run["stages"]
    if stages and (before is None or run["shape"] != before["shape"]):
        values = _and([str(stage["values"]) for stage in stages])
        count = f"{spelled(len(stages))} stage{'s' if len(stages) > 1 else ''}"
        count += " of" if len(stages) > 1 else ","
        promoted = ""
        if before is not None and len(stages) > len(before["stages"]):
            promoted = ", each starting from the weights the file before gave its boards"
        added = run["tuples"] - before["tuples"] if before is not None and before["tuples"] else 0
        if added > 0:
            promoted += f"; {spelled(added)} tuple{'s' if added > 1 else ''} added to the file's, starting at 0"
        said.append(f"as <code>{escape(run['shape'])}</code> ({count} {values} values a cell{promoted})")
    if run["lambda"]:
        method = (
            f"each episode learned backwards at its end by {words('td-lambda', TD_LAMBDA)}, "
            f"\u03bb = {decimal(run['lambda'])}"
        )
    else:
        method = words("td-learning", "TD(0)")
    extras = []
    if run["restart"]:
        extras.append(words("restart", "restarts") + " from late positions")
    if run["coherence"]:
        extras.append(words("temporal-coherence", "temporal coherence") + " (each weight its own rate)")
    if extras:
        method += ", with " + " and ".join(extras)
    if run["alpha"] is not None:
        method += f", {words('learning-rate', 'learning rate')} \u03b1 = {decimal(run['alpha'])}"
    text = ", ".join(said) + ": " + method + "."
    found = run["greedy"]
    if found is not None:
        whose = "This file" if last else "Its file"
        text += f" {whose}, {words('greedy', 'greedy')} over {found['games']:,} games: {_rates_text(found)}."
    return f'<li data-run="{run["number"]}">{text}</li>'


def training_part(content: "dict[str, Any]", words: Words) -> str:
    """How it was trained: the method in a sentence, the games in all, each run, the last run's command."""
    runs = content["runs"]
    games = content["games"] or content["trained_games"]
    if not games:
        return ""
    method = (
        f"By {words('td-learning', 'TD learning')} from self-play, in the project\u2019s lab: the network played "
        f"games against the game\u2019s random tiles, valued each {words('afterstate', 'afterstate')} (the board "
        "after a move, before the new tile) with its own weights, and moved the weights toward the points the "
        "move scored plus what the next afterstate was worth."
    )
    listed = ""
    if runs:
        items = "".join(
            _run_text(run, runs[i - 1] if i else None, i == len(runs) - 1, words) for i, run in enumerate(runs)
        )
        each = ", each from the file the run before shipped" if len(runs) > 1 else ""
        count = f"{spelled(len(runs))} run{'s' if len(runs) > 1 else ''}"
        listed = (
            f'<p>{method} <strong id="story-games">{games:,} games</strong> in {count}{each}:</p>'
            f'<ol class="story-runs" id="story-runs">{items}</ol>'
        )
    else:
        listed = f'<p>{method} <strong id="story-games">{games:,} games</strong>.</p>'
    command = ""
    if content["command"]:
        last = f" ({content['trained_games']:,} games)" if content["trained_games"] else ""
        command = (
            f'<p class="story-note">The last run\u2019s command{last}: '
            f'<code class="story-command">{escape(content["command"])}</code></p>'
        )
    return f'<h3 id="story-training-title">How it was trained</h3>{listed}{command}'


def curve_part(content: "dict[str, Any]") -> str:
    """The learning curve drawn, said in a sentence, and its numbers in a table (the chart's text)."""
    chart = curve_svg(content, "story-curve-title", "story-curve-summary")
    if not chart:
        return ""
    rows = []
    for point in content["curve"]:
        shares = {tile: share for tile, share in point["rates"]}
        cells = "".join(f"<td>{percent(shares[tile]) if tile in shares else DASH}</td>" for tile in (8192, 16384))
        rows.append(
            f'<tr><th scope="row">{point["games"]:,}</th><td>{point["run"]}</td>'
            f"<td>{score(point['mean_score'])}</td>{cells}</tr>"
        )
    over = sorted(set(p["averaged"] for p in content["curve"] if p["averaged"]))
    means = _and([f"{n:,}" for n in over], "or")
    sources = "; ".join(
        f"run {run['number']}: " + ", ".join(f"\u201c{escape(heading)}\u201d" for heading in run["sections"])
        for run in content["runs"]
        if run["sections"]
    )
    return (
        '<h3 id="story-curve-title">Its learning curve</h3>'
        f'<figure class="story-figure">{chart}'
        f'<figcaption id="story-curve-summary">{escape(curve_summary(content))}</figcaption></figure>'
        '<p class="story-legend"><span class="story-key story-key-curve" aria-hidden="true"></span> its training '
        'games, learning as it played; <span class="story-key story-key-file" aria-hidden="true"></span> each '
        "run\u2019s file, played greedily; the numbers on top are the runs above.</p>"
        '<details class="story-numbers" id="story-curve-numbers"><summary>The curve\u2019s numbers</summary>'
        '<div class="story-table-box"><table class="story-table">'
        f"<caption>Each point the mean of the {means} training games up to it</caption>"
        '<thead><tr><th scope="col">Games, all runs</th><th scope="col">Run</th><th scope="col">Mean score</th>'
        '<th scope="col">8192</th><th scope="col">16384</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        f'<p class="story-note">As docs/results.md gives them ({sources}).</p></details>'
    )


def strength_part(content: "dict[str, Any]", words: Words) -> str:
    """How strong it is alone: the greedy rates the lab measured, with their games, and how far to trust them."""
    sets = []
    if content["greedy"]:
        seed = content["greedy"]["seed"]
        label = f"This file, {content['greedy']['games']:,} games" + (f" (seed {seed})" if seed else "")
        sets.append((label, content["greedy"]))
    if content["page_greedy"]:
        found = content["page_greedy"]
        first = found["first_seed"]
        games = f"games {first:,}\u2013{first + found['games'] - 1:,}" if first else f"{found['games']:,} games"
        sets.append((f"The page\u2019s own evaluation of it, {games}", found))
    if not sets:
        return ""
    head = "".join(f'<th scope="col">{escape(label)}</th>' for label, _found in sets)
    means = "".join(f"<td>{DASH if f['mean_score'] is None else score(f['mean_score'])}</td>" for _l, f in sets)
    rows = [f'<tr><th scope="row">mean score</th>{means}</tr>']
    for tile in (2048, 8192, 16384, 32768):
        cells = []
        for _label, found in sets:
            shares = {t: s for t, s in found["rates"]}
            cells.append(f"<td>{percent(shares[tile]) if tile in shares else DASH}</td>")
        rows.append(f'<tr><th scope="row">{tile}</th>{"".join(cells)}</tr>')
    trust = ""
    main = sets[0][1]
    shares = {t: s for t, s in main["rates"]}
    if 16384 in shares:
        share = shares[16384]
        error = sqrt(share * (1 - share) / main["games"]) * 100
        trust = (
            f" A rate over {main['games']:,} games is known to about \u00b1{fixed(error, 1)} points (one standard "
            f"error, at {percent(share)})."
        )
    return (
        '<h3 id="story-strength-title">How strong it is</h3>'
        f"<p>Alone, played {words('greedy', 'greedily')} (each move by the value of the board it leads to, no "
        "search), as the lab measured it: how often a game reached each tile.</p>"
        '<div class="story-table-box"><table class="story-table" id="story-strength">'
        f'<thead><tr><th scope="col">Reached</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
        f'<p class="story-note">{trust.strip()} The page\u2019s AI searches ahead with it (expectimax or '
        "alpha-beta), so it plays stronger than this.</p>"
    )


def story_html(content: "dict[str, Any]") -> str:
    """The whole story of ``content`` (``network_story.story``): each part the manifest has the values for."""
    words = Words()
    parts = (
        what_part(content, words),
        stages_part(content, words),
        training_part(content, words),
        curve_part(content),
        strength_part(content, words),
    )
    text = "".join(parts)
    return text or "<p>This network\u2019s manifest says nothing of how it was made.</p>"
