"""Searches that choose a move (filled in by the alpha-beta and expectimax modules)."""
