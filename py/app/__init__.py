"""The page's Python: thin browser glue around the pure ``game2048`` engine, in packages by what the player sees.

``browser`` (the page's edges: storage, the URL, JavaScript calls), ``board`` (the game being played), ``explorer``
(the search explained), ``games`` (the player's games, replays, the editor) and ``ai`` (the AI's workers and
controls), each importing only the ones before it (``tests/test_app_layers.py``); ``main`` starts the page and
``page`` wires the packages together.  Every module but ``main`` and ``page`` takes the browser's objects as
arguments, so ``tests/app/`` runs them in CPython.
"""
