"""A bare PyScript page: the page's two interpreters, started as ``index.html`` starts them, and none of its code.

What PyScript and its interpreters alone cost the main thread, measured by the
same benches as the page (``bench_long_tasks.py --bare``,
``bench_lighthouse.py --bare``): whatever the page does, it cannot start in
shorter tasks than this.  The page's MicroPython, on the main thread, only
marks the board playable; the worker's Pyodide exports one function, and "AI
ready" is shown when the worker answers, as the page shows it.  The two
interpreters are the ones ``pyscript.toml`` and ``pyscript-worker.toml`` name,
read from them, so the bare page follows the page when they change.

    python tools/bare_page.py FOLDER     # writes FOLDER/index.html, FOLDER/node_modules -> this repo's
"""

from __future__ import annotations

import json
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

LABEL = "the bare PyScript page (tools/bare_page.py)"
"""How the benches name it in their reports."""

MAIN_THREAD_PY = """
from pyscript import document, workers
import asyncio
document.body.setAttribute("data-ready-ms", str(document.defaultView.performance.now()))
document.body.setAttribute("data-ready", "true")
async def wait_for_worker():
    await workers["ai"]
    document.getElementById("ai-status").textContent = "AI ready"
WAITING = asyncio.create_task(wait_for_worker())
"""

WORKER_PY = """
def ping():
    return 1
__export__ = ["ping"]
"""


def interpreter(config: Path) -> str:
    """The ``interpreter`` a PyScript configuration file names."""
    with config.open("rb") as handle:
        return str(tomllib.load(handle)["interpreter"])


def bare_html(root: Path = REPO_ROOT) -> str:
    """The bare page for the checkout at ``root``: its PyScript, its two interpreters, nothing else."""
    page_config = escape(json.dumps({"interpreter": interpreter(root / "pyscript.toml")}))
    worker_config = escape(json.dumps({"interpreter": interpreter(root / "pyscript-worker.toml")}))
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="description" content="PyScript's start alone, without the 2048 page's code.">
  <title>Bare PyScript page</title>
  <link rel="icon" href="data:,">
  <script type="module" src="./node_modules/@pyscript/core/dist/core.js"></script>
</head>
<body>
  <main><h1>Bare PyScript page</h1><p id="ai-status">Loading</p></main>
  <script type="mpy" config="{page_config}">{MAIN_THREAD_PY}</script>
  <script type="py" worker name="ai" config="{worker_config}">{WORKER_PY}</script>
</body>
</html>
"""


def write_bare_page(folder: Path, root: Path = REPO_ROOT) -> Path:
    """Write the bare page into ``folder`` (``index.html``, ``node_modules`` linked to ``root``'s); ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(bare_html(root), encoding="utf-8")
    link = folder / "node_modules"
    if not link.is_symlink():
        link.symlink_to((root / "node_modules").resolve(), target_is_directory=True)
    return folder


@contextmanager
def temporary_bare_page(root: Path = REPO_ROOT) -> Iterator[Path]:
    """The bare page written into a temporary folder (``write_bare_page``), removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="bare-page-") as folder:
        yield write_bare_page(Path(folder), root)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[-1].strip())
    print(write_bare_page(Path(sys.argv[1])))
