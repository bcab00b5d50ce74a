"""Tabs that share storage lose nothing: three tabs autoplaying together for two minutes (``tools/soak_tabs.py``).

The soak drives its own Chromium, so this module uses no ``browser`` fixture
(one Playwright at a time); the shared server is the page it opens.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from soak_tabs import soak_tabs  # noqa: E402


def test_three_tabs_autoplaying_for_two_minutes_keep_every_game_and_their_workers(server_url, capsys):
    failed = soak_tabs(3, 120.0, 100, base_url=server_url)
    printed = capsys.readouterr().out
    assert failed == 0, printed
    assert "worker restarts 0" in printed
