"""Evaluations: functions from a board to a score, higher is better for the player."""
