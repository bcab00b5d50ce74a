"""Shared test settings: deterministic hypothesis runs, so CI failures reproduce."""

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=200)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile("ci")
