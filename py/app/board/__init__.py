"""The game being played: the session that applies moves in order, the board drawn, keys and swipes, motion.
Imports only ``app.browser``."""
