"""The AI: its workers (Pyodide) and the page's client of them, the team that splits a search, the panel and its
settings, the controls (hint, move, autoplay) and the network's download.
Imports ``app.browser``, ``app.board``, ``app.explorer`` and ``app.games``."""
