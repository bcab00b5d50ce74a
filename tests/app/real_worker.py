"""The AI worker's module run in CPython, called as the page calls a worker: async, JSON strings both ways."""

from __future__ import annotations

from app.ai import worker as ai_worker  # the real worker module, run in CPython


class RealWorker:
    """The worker's exported functions, as a PyScript worker's proxy offers them to the page."""

    async def ready(self):
        return ai_worker.ready()

    async def presets(self):
        return ai_worker.presets()

    async def prepare_other_presets(self):
        return ai_worker.prepare_other_presets()

    async def think(self, request_json):
        return ai_worker.think(request_json)

    async def think_part(self, request_json):
        return ai_worker.think_part(request_json)

    async def review(self, request_json):
        return ai_worker.review(request_json)
