"""The page's Python: thin browser glue around the pure ``game2048`` engine.

One module per role, in the spirit of the original game's split: ``view``
draws the engine's state, ``inputs`` turns keys, swipes and clicks into
intents, ``storage`` keeps the saved game and settings, ``play`` applies
intents to the game in order, ``page_options`` reads the URL, and ``main``
wires them.  Only ``view``, ``inputs``, ``storage`` and ``main`` touch the
browser; ``play`` and ``page_options`` are plain Python and tested in CPython.
"""
