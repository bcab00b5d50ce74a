"""The bare PyScript page the start benches compare the page with (``tools/bare_page.py``, ``--bare``).

It must start the page's own two interpreters, from this site alone, and reach what the benches wait for
(the board's ``data-ready`` and "AI ready"): a bare page that never got there would hold a bench for its
whole timeout, and one that loaded other interpreters would measure something else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser import READY_SELECTOR, watch_page
from pagekit import AI_READY_TIMEOUT_MS
from tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[2]

bare_page = load_tool("bare_page")
serve = load_tool("serve")


def test_the_bare_page_names_the_pages_interpreters_and_none_of_its_code() -> None:
    html = bare_page.bare_html(ROOT)
    for config in ("pyscript.toml", "pyscript-worker.toml"):
        assert f"&quot;{bare_page.interpreter(ROOT / config)}&quot;" in html
    assert "./py/" not in html and "css/" not in html and "guarded.js" not in html


def test_the_bare_page_starts_both_interpreters_from_this_site(browser: Any, tmp_path: Path) -> None:
    folder = bare_page.write_bare_page(tmp_path / "bare", ROOT)
    server, base_url = serve.start_server(folder, port=0)
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        requests: list[str] = []
        watch_page(page, requests)
        page.goto(f"{base_url}/index.html")
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
        page.wait_for_function(
            "/AI ready/.test(document.getElementById('ai-status').textContent)", timeout=AI_READY_TIMEOUT_MS
        )
        assert all(url.startswith(base_url) or url.startswith(("data:", "blob:")) for url in requests), requests
        fetched = " ".join(requests)
        assert "micropython" in fetched and "pyodide" in fetched
        assert page.console_errors == []
    finally:
        context.close()
        server.shutdown()
        server.server_close()
