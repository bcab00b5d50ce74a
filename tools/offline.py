"""What the service worker (``sw.js``) caches for offline play, and the version that names its cache.

The list is derived from the files that say what the page loads, so a new
module or stylesheet is cached without anyone editing a list here:

* ``index.html``: its stylesheets, scripts, web app manifest, and each
  ``<script type="py">`` with its config;
* each PyScript config (``pyscript.toml``, ``pyscript-worker.toml``): its
  ``[files]`` sources;
* the AI worker the page declares (its script and its configuration);
* the web app manifest: its icons;
* ``RUNTIME_FILES``: what PyScript core and Pyodide fetch from node_modules,
  recorded from Chromium (page and worker, up to an AI answer); they are
  pinned by package-lock.json.  ``tests/browser/test_page_offline.py``
  checks that a first visit fetches nothing outside the list.

``manifest(root)`` maps each file to the SHA-256 of its content, and the
version is a hash of that map: any change to any cached file is a new
version, so a new cache, filled completely before it is used.
"""

from __future__ import annotations

import hashlib
import json
import threading
import tomllib
from html.parser import HTMLParser
from pathlib import Path

PAGE = "index.html"
MANIFEST_URL = "/offline-files.js"  # imported by sw.js: made in memory by tools/serve.py, written out by tools/site.py
CACHE_PREFIX = "2048-offline-"

RUNTIME_FILES: tuple[str, ...] = (
    "node_modules/@pyscript/core/dist/core.js",
    "node_modules/@pyscript/core/dist/core-C9KDLldu.js",
    "node_modules/@pyscript/core/dist/deprecations-manager-UpAPKqCb.js",
    "node_modules/@pyscript/core/dist/donkey-4Hrqd7WZ.js",
    "node_modules/@pyscript/core/dist/error-D2315lOB.js",
    "node_modules/@pyscript/core/dist/py-editor-C4XsZtn7.js",
    "node_modules/@pyscript/core/dist/py-game-DWiCrr7a.js",
    "node_modules/@pyscript/core/dist/py-terminal-CwQ6kcjg.js",
    "node_modules/@pyscript/core/dist/toml-V4Savzlc.js",
    "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs",
    "node_modules/@micropython/micropython-webassembly-pyscript/micropython.wasm",
    "node_modules/pyodide/pyodide.mjs",
    "node_modules/pyodide/pyodide.asm.mjs",
    "node_modules/pyodide/pyodide.asm.wasm",
    "node_modules/pyodide/pyodide-lock.json",
    "node_modules/pyodide/python_stdlib.zip",
)


NETWORK_MANIFEST = "networks/4x6.json"
"""The learned network's manifest (``game2048.evaluation.learned``): cached with the page, so the worker can
check the network offline; the network itself is cached by sw.js when a player first downloads it."""


class _PageLinks(HTMLParser):
    """The same-origin files an HTML page names: link hrefs, script srcs and PyScript configs."""

    def __init__(self) -> None:
        super().__init__()
        self.files: list[str] = []
        self.configs: list[str] = []
        self.manifests: list[str] = []
        self.workers: list[tuple[str, str]] = []  # (src, config) of each PyScript worker it declares

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "link" and values.get("href"):
            self.files.append(values["href"])
            if values.get("rel") == "manifest":
                self.manifests.append(values["href"])
        elif tag == "script":
            if values.get("src"):
                self.files.append(values["src"])
            if values.get("config"):
                self.configs.append(values["config"])
            if "worker" in values and values.get("src") and values.get("config"):
                self.workers.append((values["src"], values["config"]))


def _local(url: str) -> str | None:
    """``./css/a.css`` -> ``css/a.css``; None for data:, blob: and other origins."""
    if ":" in url.split("/", 1)[0] or url.startswith("//"):
        return None
    path = url.split("#", 1)[0].split("?", 1)[0]
    while path.startswith("./"):
        path = path[2:]
    return path.lstrip("/") or None


def _config_files(root: Path, config: str) -> list[str]:
    """The config, its interpreter and its [files] sources (relative to the config's folder)."""
    data = tomllib.loads((root / config).read_text(encoding="utf-8"))
    folder = Path(config).parent
    sources = [data.get("interpreter", ""), *data.get("files", {})]
    return [config, *(str(folder / path) for path in map(_local, sources) if path)]


def _worker_files(page: _PageLinks) -> list[str]:
    """The AI worker's script and configuration, as the page declares its first worker (``index.html``;
    ``app.ai.worker_start`` declares the others alike, which ``tests/test_pyscript_config.py`` checks)."""
    if not page.workers:
        raise ValueError(f"{PAGE} no longer declares its AI worker: update tools/offline.py")
    return list(page.workers[0])


def offline_files(root: Path | str) -> list[str]:
    """Every file sw.js caches, as paths relative to ``root`` (sorted; each one exists)."""
    root = Path(root)
    page = _PageLinks()
    page.feed((root / PAGE).read_text(encoding="utf-8"))
    worker_src, worker_config = _worker_files(page)
    configs = [*page.configs, worker_config]
    urls = [PAGE, *page.files, worker_src, *RUNTIME_FILES]
    if (root / NETWORK_MANIFEST).is_file():  # a copy of the page without the learned network has no manifest
        urls.append(NETWORK_MANIFEST)
    for config in configs:
        urls += _config_files(root, _local(config) or config)
    for webmanifest in page.manifests:
        icons = json.loads((root / _local(webmanifest)).read_text(encoding="utf-8")).get("icons", [])
        urls += [icon["src"] for icon in icons]
    files = sorted({path for path in map(_local, urls) if path})
    missing = [path for path in files if not (root / path).is_file()]
    if missing:
        raise FileNotFoundError(f"the page names files that do not exist: {missing}")
    return files


_digests: dict[tuple[str, int, int], str] = {}
_digests_lock = threading.Lock()


def _sha256(path: Path) -> str:
    """The file's SHA-256, remembered per (path, mtime, size): the interpreter files weigh 12 MB."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    with _digests_lock:
        if key in _digests:
            return _digests[key]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    with _digests_lock:
        _digests[key] = digest
    return digest


def manifest(root: Path | str) -> dict[str, object]:
    """``{"version": ..., "cache": ..., "files": {path: sha256}}``: what sw.js caches, and under which name."""
    root = Path(root)
    files = {path: _sha256(root / path) for path in offline_files(root)}
    listing = "".join(f"{path}\0{digest}\n" for path, digest in files.items())
    version = hashlib.sha256(listing.encode()).hexdigest()[:16]
    return {"version": version, "cache": CACHE_PREFIX + version, "files": files}


def manifest_script(root: Path | str) -> bytes:
    """The manifest as the classic script sw.js imports (``self.OFFLINE = {...}``)."""
    text = json.dumps(manifest(root), indent=1)
    header = "// Generated by tools/offline.py (served by tools/serve.py, written by tools/site.py): what sw.js caches."
    return f"{header}\nself.OFFLINE = {text};\n".encode()
