"""The lab: seeded games played by the AI, measured, summarised and charted (CPython only).

``python -m game2048.lab run | features | compare`` (see ``cli``).  The games
use exactly what the page uses, ``Game.new(seed)`` and ``search.best_move``,
so a number printed here is a number about the page's AI.  Everything that
needs numpy, matplotlib or rich lives here; ``pyscript.toml`` leaves this package
out of the page.

Modules, one job each: ``config`` (what to play, parsed from the command
line), ``play`` (one game; many games as Dask tasks with a progress bar),
``cluster`` (the Dask cluster: local, or a scheduler's address), ``tasks``
(tasks taken as they finish, with reports and lost workers), ``progress``
(the progress bar), ``summary`` (numpy statistics and text tables), ``charts``
(matplotlib PNGs), ``experiments`` (the ``features`` and ``compare`` runs),
``training`` (the n-tuple network's trainer, its sweeps, runs compared),
``cli`` (the command line).
"""
