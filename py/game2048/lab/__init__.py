"""The lab: seeded games played by the AI, measured, summarised and charted (CPython only).

``python -m game2048.lab run | features | compare`` (see ``cli``).  The games
use exactly what the page uses, ``Game.new(seed)`` and ``search.best_move``,
so a number printed here is a number about the page's AI.  Everything that
needs numpy, matplotlib or rich lives here; ``pyscript.toml`` leaves this package
out of the page.

Modules, one job each: ``config`` (what to play, parsed from the command
line), ``play`` (one game; many games on all cores with a progress bar),
``progress`` (the progress bar), ``summary`` (numpy statistics and text tables),
``charts`` (matplotlib PNGs), ``experiments`` (the ``features`` and ``compare`` runs),
``cli`` (the command line).
"""
