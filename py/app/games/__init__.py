"""The player's games: the live game saved, finished games kept, Your games, replays and their sources, lab files,
the page's choice of game at start, switching games, and the position editor.
Imports ``app.browser``, ``app.board`` and ``app.explorer``."""
