"""The search explorer: why the AI chose its move, alpha-beta step by step, and the glossary of its words.
Imports ``app.browser`` and ``app.board``."""
