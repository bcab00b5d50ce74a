"""What the tests that drive Chromium need, said once: the browser fixtures and the bench tests skip on it."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

from browser import chromium_path  # noqa: E402  (tools/ is not a package)


def browser_missing() -> str | None:
    """Why Chromium cannot be driven here (Playwright, Chromium or node_modules missing), or None."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright, or make test)"
    try:
        chromium_path()
    except FileNotFoundError as exc:
        return str(exc)
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        return "node_modules is missing: run npm ci (or make test)"
    return None
