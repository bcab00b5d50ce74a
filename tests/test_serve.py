"""tools/serve.py's headers and the offline manifest it makes (tools/offline.py), read over HTTP in CPython."""

from __future__ import annotations

import gzip
import hashlib
import http.client
import json
import socket
import struct
import subprocess
import sys
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import offline  # noqa: E402
import serve as serve_module  # noqa: E402
from serve import accepts_gzip, parse_range, start_server  # noqa: E402

ISOLATION = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}
APP_FILES = [
    "/",
    "/index.html",
    "/css/explorer.css",
    "/py/app/main.py",
    "/py/app/ai/worker.py",
    "/pyscript.toml",
    "/pyscript-worker.toml",
    "/sw.js",
    "/offline.js",
    "/manifest.webmanifest",
    "/offline-files.js",
]
needs_node_modules = pytest.mark.skipif(
    not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file(), reason="node_modules is missing: npm ci"
)


def serve(root: Path) -> Iterator[str]:
    server, base_url = start_server(root, port=0)
    yield base_url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    yield from serve(ROOT)


def get(url: str) -> tuple[int, Message, bytes]:
    """Status, headers (names in any case) and body, for errors too."""
    try:
        with urllib.request.urlopen(url) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def isolated(headers: Message) -> bool:
    return all(headers[name] == value for name, value in ISOLATION.items())


def manifest_of(body: bytes) -> dict:
    text = body.decode()
    return json.loads(text[text.index("{") : text.rindex("}") + 1])


@needs_node_modules
@pytest.mark.parametrize(
    "path", ["/node_modules/pyodide/pyodide.asm.wasm", "/node_modules/@pyscript/core/dist/core.js"]
)
def test_pinned_interpreter_files_are_immutable(base_url, path):
    status, headers, _ = get(base_url + path)
    assert status == 200
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert isolated(headers)


@pytest.mark.parametrize("path", APP_FILES)
def test_app_files_and_the_service_worker_are_revalidated(base_url, path):
    status, headers, _ = get(base_url + path)
    assert status == 200
    assert headers["Cache-Control"] == "no-cache"
    assert isolated(headers)


def test_a_missing_file_is_never_cached_for_long(base_url):
    status, headers, _ = get(base_url + "/node_modules/pyodide/no-such-file.wasm")
    assert status == 404
    assert headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize(
    ("path", "mime"),
    [
        ("/sw.js", "text/javascript"),
        ("/offline-files.js", "text/javascript"),
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/icons/icon-192.png", "image/png"),
    ],
)
def test_types(base_url, path, mime):
    assert get(base_url + path)[1]["Content-Type"].split(";")[0] == mime


@needs_node_modules
def test_the_offline_manifest_lists_every_file_of_both_configs_with_its_hash(base_url):
    status, _, body = get(base_url + "/offline-files.js")
    assert status == 200 and body.decode().count("self.OFFLINE = ") == 1
    served = manifest_of(body)
    files = served["files"]
    expected = {"index.html", "offline.js", "manifest.webmanifest", "icons/icon-192.png", "icons/icon-512.png"}
    expected |= {"pyscript.toml", "pyscript-worker.toml", "py/app/main.py", "py/app/ai/worker.py"}
    expected |= {path.relative_to(ROOT).as_posix() for path in (ROOT / "css").glob("*.css")}  # every panel's style
    expected |= {path.removeprefix("./") for path in offline.RUNTIME_FILES}
    for config in ("pyscript.toml", "pyscript-worker.toml"):
        expected |= {path.removeprefix("./") for path in tomllib.loads((ROOT / config).read_text())["files"]}
    assert expected <= files.keys()
    assert "sw.js" not in files  # the browser keeps the worker's own script
    for path, digest in files.items():
        assert hashlib.sha256((ROOT / path).read_bytes()).hexdigest() == digest, path
    assert served["cache"] == offline.CACHE_PREFIX + served["version"]


def _small_site(root: Path) -> None:
    """A page with the shape of the real one, and stand-ins for the interpreter files."""
    (root / "py" / "app").mkdir(parents=True)
    (root / "icons").mkdir()
    (root / "index.html").write_text(
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="./a.css"><link rel="manifest" href="./m.json">'
        '<script type="module" src="./offline.js"></script>'
        '<script type="py" src="./py/app/main.py" config="./pyscript.toml"></script>'
        '<script type="py" worker name="ai" src="./w.py" config="./w.toml"></script>'
    )
    (root / "m.json").write_text('{"icons": [{"src": "./icons/i.png"}]}')
    (root / "pyscript.toml").write_text(
        'interpreter = "./node_modules/pyodide/pyodide.mjs"\n[files]\n"./p.py" = "./p.py"\n'
    )
    (root / "w.toml").write_text('[files]\n"./q.py" = "./q.py"\n')
    (root / "py" / "app" / "main.py").write_text("start_ai_worker = None\n")
    for name in ("a.css", "offline.js", "icons/i.png", "p.py", "q.py", "w.py", *offline.RUNTIME_FILES):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name)


def test_the_list_is_derived_from_the_page_its_configs_its_worker_and_its_manifest(tmp_path):
    _small_site(tmp_path)
    own = {"index.html", "a.css", "m.json", "offline.js", "icons/i.png", "pyscript.toml", "p.py"}
    own |= {"py/app/main.py", "w.py", "w.toml", "q.py"}
    assert set(offline.offline_files(tmp_path)) == own | set(offline.RUNTIME_FILES)


def test_any_change_to_a_cached_file_is_a_new_version_and_only_then(tmp_path):
    _small_site(tmp_path)
    first = offline.manifest(tmp_path)
    (tmp_path / "unrelated.txt").write_text("not cached")
    assert offline.manifest(tmp_path) == first
    (tmp_path / "q.py").write_text("x = 1\n")  # a file of the worker's config alone
    second = offline.manifest(tmp_path)
    assert second["version"] != first["version"] and second["cache"] != first["cache"]
    assert {path for path in first["files"] if first["files"][path] != second["files"][path]} == {"q.py"}


def test_a_page_that_declares_no_ai_worker_is_an_error(tmp_path):
    _small_site(tmp_path)
    index = tmp_path / "index.html"
    index.write_text(index.read_text().replace(' worker name="ai"', ""))
    with pytest.raises(ValueError, match="no longer declares its AI worker"):
        offline.offline_files(tmp_path)


def test_a_file_the_page_names_but_that_is_missing_is_an_error_not_a_partial_list(tmp_path):
    _small_site(tmp_path)
    (tmp_path / "p.py").unlink()
    with pytest.raises(FileNotFoundError, match="p.py"):
        offline.offline_files(tmp_path)
    for base_url in serve(tmp_path):
        assert get(base_url + "/offline-files.js")[0] == 500  # sw.js cannot import it: no install, no cache


def test_the_web_app_manifest_makes_the_page_installable(base_url):
    status, _, body = get(base_url + "/manifest.webmanifest")
    manifest = json.loads(body)
    assert manifest["name"] and manifest["short_name"] and manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["theme_color"] == "#bbada0"
    assert manifest["background_color"] == "#faf8ef"
    sizes = set()
    for icon in manifest["icons"]:
        png = (ROOT / icon["src"]).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes
    assert '<link rel="manifest" href="./manifest.webmanifest">' in (ROOT / "index.html").read_text()


def test_a_request_refused_before_its_path_is_read_still_gets_its_headers(base_url):
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as connection:
        connection.sendall(b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n")  # too long a line: 414
        reply = connection.recv(4096).decode("latin-1")
    assert reply.startswith("HTTP/1.1 414") and "Cache-Control: no-cache" in reply


def test_the_learned_networks_manifest_is_cached_with_the_page_and_its_file_is_not() -> None:
    from game2048.evaluation import learned

    assert offline.NETWORK_MANIFEST == f"networks/{learned.MANIFEST_FILE}"
    files = offline.offline_files(ROOT)
    assert offline.NETWORK_MANIFEST in files
    assert not any(path.endswith(".ntn") for path in files)  # downloaded only when a player chooses it


def get_range(url: str, byte_range: str) -> tuple[int, Message, bytes]:
    request = urllib.request.Request(url, headers={"Range": byte_range})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.mark.parametrize(
    "header, first, last",
    [("bytes=0-9", 0, 9), ("bytes=100-", 100, None), ("bytes=-10", -10, None), ("bytes=5-999999999", 5, None)],
)
def test_a_range_is_answered_206_with_that_slice_of_the_file(base_url, header, first, last):
    whole = (ROOT / "index.html").read_bytes()
    status, headers, body = get_range(base_url + "/index.html", header)
    expected = whole[first : None if last is None else last + 1]
    assert status == 206 and body == expected
    start = first % len(whole)
    assert headers["Content-Range"] == f"bytes {start}-{start + len(expected) - 1}/{len(whole)}"
    assert headers["Content-Length"] == str(len(expected)) and headers["Accept-Ranges"] == "bytes"
    assert headers["Cache-Control"] == "no-cache" and isolated(headers)


def test_a_range_past_the_end_is_416_and_one_not_read_gets_the_whole_file(base_url):
    size = (ROOT / "index.html").stat().st_size
    status, headers, _ = get_range(base_url + "/index.html", f"bytes={size}-")
    assert status == 416 and headers["Content-Range"] == f"bytes */{size}"
    for ignored in ("bytes=0-1,5-9", "items=0-3", "bytes=9-2"):
        status, _, body = get_range(base_url + "/index.html", ignored)
        assert status == 200 and len(body) == size
    status, _, _ = get_range(base_url + "/no-such-file.ntn", "bytes=0-9")
    assert status == 404


def fetch_on(connection: http.client.HTTPConnection, path: str, **headers: str) -> tuple[int, Message, bytes]:
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    return response.status, response.headers, response.read()


@needs_node_modules
@pytest.mark.parametrize("path", ["/", "/index.html", "/py/app/ai/worker.py", "/node_modules/pyodide/pyodide.asm.wasm"])
def test_text_and_webassembly_are_gzipped_for_a_client_that_accepts_it_and_only_then(base_url, path):
    whole = (ROOT / (path.lstrip("/") or "index.html")).read_bytes()
    connection = http.client.HTTPConnection(*base_url.removeprefix("http://").split(":"), timeout=30)
    try:
        status, headers, body = fetch_on(connection, path, **{"Accept-Encoding": "gzip, deflate, br"})
        assert status == 200 and headers["Content-Encoding"] == "gzip" and headers["Vary"] == "Accept-Encoding"
        assert gzip.decompress(body) == whole and headers["Content-Length"] == str(len(body)) and len(body) < len(whole)
        for refused in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "gzip;q=0, br"}):
            status, headers, body = fetch_on(connection, path, **refused)
            assert status == 200 and headers["Content-Encoding"] is None and body == whole
            assert headers["Vary"] == "Accept-Encoding"
    finally:
        connection.close()


def test_a_range_and_the_learned_network_are_never_gzipped(base_url):
    whole = (ROOT / "index.html").read_bytes()
    status, headers, body = get_range(base_url + "/index.html", "bytes=0-99")
    assert status == 206 and headers["Content-Encoding"] is None and body == whole[:100]
    request = urllib.request.Request(base_url + "/networks/4x6.json", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["Content-Encoding"] == "gzip"  # its manifest is text
    request = urllib.request.Request(base_url + "/icons/icon-192.png", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["Content-Encoding"] is None and response.headers["Vary"] is None


def test_a_changed_file_is_gzipped_again(tmp_path):
    page = tmp_path / "index.html"
    page.write_text("<!doctype html><p>first</p>" * 50, encoding="utf-8")
    server, base_url = start_server(tmp_path, port=0)
    try:
        connection = http.client.HTTPConnection(*base_url.removeprefix("http://").split(":"), timeout=30)
        _, _, first = fetch_on(connection, "/index.html", **{"Accept-Encoding": "gzip"})
        page.write_text("<!doctype html><p>second, longer</p>" * 50, encoding="utf-8")
        _, _, second = fetch_on(connection, "/index.html", **{"Accept-Encoding": "gzip"})
        connection.close()
    finally:
        server.shutdown()
        server.server_close()
    assert gzip.decompress(first).count(b"first") == 50 and gzip.decompress(second).count(b"second") == 50


def test_connections_are_kept_between_requests_and_closed_when_the_server_stops(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><p>kept</p>", encoding="utf-8")
    server, base_url = start_server(tmp_path, port=0)
    connection = http.client.HTTPConnection(*base_url.removeprefix("http://").split(":"), timeout=30)
    try:
        for _ in range(3):  # one connection, three answers
            status, headers, _ = fetch_on(connection, "/index.html")
            assert status == 200 and headers["Connection"] != "close"
        assert fetch_on(connection, "/missing.html")[0] == 404  # an error keeps it open too
        assert fetch_on(connection, "/index.html")[0] == 200
        server.shutdown()
        server.server_close()
        with pytest.raises((http.client.HTTPException, OSError)):
            fetch_on(connection, "/index.html")
    finally:
        connection.close()


@pytest.mark.parametrize(
    "header, takes",
    [
        ("gzip", True),
        ("gzip, deflate, br, zstd", True),
        ("br;q=1.0, GZIP;q=0.5", True),
        ("*", True),
        ("x-gzip", True),
        ("gzip;q=0", False),
        ("gzip; q=0.000", False),
        ("gzip;q=nonsense", False),
        ("identity", False),
        ("", False),
        (None, False),
        ("gzipped", False),
    ],
)
def test_accept_encoding_is_read_as_the_client_meant_it(header, takes):
    assert accepts_gzip(header) is takes


@given(st.text())
def test_any_accept_encoding_header_gives_an_answer(header):
    assert accepts_gzip(header) in (True, False)


# The house kept private (issue 53): only the page's files, only to this machine's names.


def raw_status(base_url: str, request: bytes) -> tuple[str, bytes]:
    """The status line and body of one request written byte for byte (any path, any Host); it closes the
    connection (``Connection: close``, or HTTP/1.0), so the answer is read to its end."""
    host, port = base_url.removeprefix("http://").split(":")
    reply = b""
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)
        while chunk := connection.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0].decode("latin-1"), body


def get_raw(base_url: str, path: str, host: str = "127.0.0.1", *headers: str, method: str = "GET") -> tuple[str, bytes]:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close", *headers, "", ""]
    return raw_status(base_url, "\r\n".join(lines).encode("latin-1"))


@pytest.fixture
def house(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A small page beside the private things of a checkout; the server of that folder."""
    _small_site(tmp_path)
    for name in (".git/config", ".venv/pyvenv.cfg", ".ci/run", ".env", "lab-out/run/checkpoint.npz", "tools/serve.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(f"secret {name}")
    for name in ("tests/test_x.py", "docs/results.md", "README.md", "py/app/checkpoint.npz", "py/app/.cache"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(f"secret {name}")
    for base_url in serve(tmp_path):
        yield tmp_path, base_url


PRIVATE_PATHS = [
    "/.git/config",
    "/.venv/pyvenv.cfg",
    "/.ci/run",
    "/.env",
    "/lab-out/run/checkpoint.npz",
    "/lab-out/",
    "/tools/serve.py",
    "/tests/test_x.py",
    "/docs/results.md",
    "/README.md",  # not the page's: only the names it loads are served
    "/py/app/checkpoint.npz",
    "/py/app/.cache",
    "//.git/config",
    "/py/../.git/config",
    "/%2e%2e/.git/config",
    "/%2Egit/config",
    "/css/../tools/serve.py",
]


def test_only_the_pages_files_are_served_never_the_houses(house):
    root, base_url = house
    for path in PRIVATE_PATHS:
        status, body = get_raw(base_url, path)
        assert status.startswith("HTTP/1.1 404") and b"secret" not in body, (path, status)
        assert get_raw(base_url, path, method="HEAD")[0].startswith("HTTP/1.1 404")
    for path in ("/", "/index.html", "/py/app/main.py", "/w.toml", "/icons/i.png", "/offline-files.js"):
        assert get_raw(base_url, path)[0] == "HTTP/1.1 200 OK", path
    (root / "later.js").write_text("a script the page names after the server started")
    (root / "index.html").write_text((root / "index.html").read_text() + '<script src="./later.js"></script>')
    assert get_raw(base_url, "/later.js")[0] == "HTTP/1.1 200 OK"


@pytest.mark.parametrize(
    "path", ["/.git/HEAD", "/.ci/run", "/tools/serve.py", "/tests/test_serve.py", "/docs/results.md", "/pyproject.toml"]
)
def test_the_repositorys_private_files_are_404_and_its_page_is_served(base_url, path):
    assert get(base_url + path)[0] == 404
    assert get(base_url + "/index.html")[0] == 200


@pytest.mark.parametrize("path", ["/py/", "/css/", "/icons/", "/networks/", "/py/app/"])
def test_no_folder_is_listed(base_url, path):
    assert get(base_url + path)[0] == 404


def test_no_link_out_of_the_root_is_followed(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("secret outside")
    (root / "index.html").write_text("<!doctype html><p>page</p>")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("secret inside")
    (root / "out").symlink_to(outside, target_is_directory=True)
    (root / "secret.txt").symlink_to(outside / "secret.txt")
    (root / "git").symlink_to(root / ".git", target_is_directory=True)  # inside, but to a private folder
    (root / "alias.html").symlink_to(root / "index.html")  # inside: followed
    for base_url in serve(root):
        for path in ("/out/secret.txt", "/secret.txt", "/git/config", "/out/", "/out"):
            status, body = get_raw(base_url, path)
            assert status.startswith("HTTP/1.1 404") and b"secret" not in body, (path, status)
        assert get_raw(base_url, "/alias.html") == ("HTTP/1.1 200 OK", b"<!doctype html><p>page</p>")


@needs_node_modules
def test_a_link_to_this_checkouts_node_modules_is_followed_as_the_bare_page_needs(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html>")
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    for base_url in serve(tmp_path):
        assert get(base_url + "/node_modules/pyodide/pyodide.mjs")[0] == 200
        assert get(base_url + "/node_modules/.package-lock.json")[0] == 404


@pytest.mark.parametrize(
    "host, status",
    [
        ("127.0.0.1", 200),
        ("localhost", 200),
        ("LocalHost:8000", 200),
        ("[::1]", 200),
        ("[::1]:8000", 200),
        ("127.0.0.1:1234", 200),
        ("attacker.example", 421),
        ("attacker.example:8000", 421),
        ("localhost.attacker.example", 421),
        ("127.0.0.1.nip.io", 421),
        ("[::1]evil", 421),
        ("localhost:80x", 421),
        ("10.0.0.5", 421),
    ],
)
def test_only_the_servers_own_host_names_are_answered(base_url, host, status):
    assert get_raw(base_url, "/index.html", host)[0].startswith(f"HTTP/1.1 {status}")


def test_a_request_without_host_is_answered_and_the_host_it_was_started_with_is_its_own(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html>")
    for base_url in serve(tmp_path):
        assert raw_status(base_url, b"GET /index.html HTTP/1.0\r\n\r\n")[0].endswith("200 OK")
    server = serve_module.make_server(tmp_path, port=0, host="127.0.0.2")  # every 127/8 address is this machine
    try:
        assert "127.0.0.2" in server.RequestHandlerClass.func.hosts  # type: ignore[attr-defined]
    finally:
        server.server_close()


@pytest.mark.parametrize(
    "path", ["/index.html%00", "/%00", "/index%00.html", "/a%0Ab", "/a%0d%0aSet-Cookie:x", "/%7F", "/%1b"]
)
def test_a_control_character_in_the_path_is_400(base_url, path):
    assert get_raw(base_url, path)[0].startswith("HTTP/1.1 400")


def test_absurd_ranges_are_416_or_the_whole_file_as_documented(base_url):
    whole = (ROOT / "index.html").read_bytes()
    huge = "9" * 5000  # past int()'s 4300 digits
    answers = {
        f"bytes={huge}-": ("416", b""),
        "bytes=99999999999999999999-": ("416", b""),
        "bytes=-0": ("416", b""),
        f"bytes=-{huge}": ("206", whole),  # the last "n" bytes: all of them
        f"bytes=0-{huge}": ("206", whole),
        "bytes=" + ",".join(["0-1"] * 3000): ("200", whole),  # several: the whole file
        "bytes=0-1, 5-9": ("200", whole),
        "bytes=a-b": ("200", whole),
        "bytes=--1": ("200", whole),
        "bytes=\u00b2-": ("200", whole),  # "²": a digit to str.isdigit, not an ASCII one
        "bytes=": ("200", whole),
        "lines=0-9": ("200", whole),
    }
    for header, (status, body) in answers.items():
        line, got = get_raw(base_url, "/index.html", "127.0.0.1", f"Range: {header}")
        assert line.startswith(f"HTTP/1.1 {status}") and got == body, header[:40]


def test_parsing_a_range_takes_linear_time():
    # A regular expression backtracked for minutes on this header, holding the GIL: timed in a process of its own.
    header = "bytes=" + " " * 3000 + "-" + " " * 3000 + "x"
    code = "import sys; sys.path.insert(0, sys.argv[1]); import serve; print(serve.parse_range(sys.argv[2], 100))"
    done = subprocess.run([sys.executable, "-c", code, str(ROOT / "tools"), header], capture_output=True, timeout=30)
    assert done.stdout.strip() == b"None"


@given(st.text(), st.integers(0, 10**6))
def test_any_range_header_gives_a_slice_of_the_file_or_none_or_false(header, size):
    wanted = parse_range(header, size)
    assert wanted in (None, False) or (isinstance(wanted, tuple) and 0 <= wanted[0] <= wanted[1] < size)


def test_an_idle_connection_is_closed(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html>")
    assert serve_module.ProjectRequestHandler.timeout == serve_module.IDLE_TIMEOUT == 30
    server, base_url = start_server(tmp_path, port=0, idle_timeout=0.2)
    try:
        host, port = base_url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as silent:
            assert silent.recv(1) == b""  # closed by the server, not by this test's 10 s
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        assert fetch_on(connection, "/index.html")[0] == 200
        assert connection.sock is not None and connection.sock.recv(1) == b""  # kept, then closed when idle
        connection.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_a_loopback_host_is_not_announced(host):
    assert serve_module.exposure(ROOT, host, 8000) is None


@pytest.mark.parametrize(
    "host, whom", [("0.0.0.0", "this one"), ("", "this one"), ("192.168.1.5", "192.168.1.5"), ("box.lan", "box.lan")]
)
def test_a_server_open_to_the_network_says_so_in_one_line(monkeypatch, capsys, tmp_path, host, whom):
    class Bound:
        server_address = (host or "0.0.0.0", 8123)

        def serve_forever(self) -> None:
            raise KeyboardInterrupt

        def server_close(self) -> None:
            pass

    monkeypatch.setattr(serve_module, "make_server", lambda *args, **kwargs: Bound())
    assert serve_module.main(["--host", host, "--port", "8123", "--root", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = [line for line in lines if "every machine" in line]
    assert said == [serve_module.exposure(tmp_path, host, 8123)]
    assert f"every machine that can reach {whom} on port 8123" in said[0] and str(tmp_path.resolve()) in said[0]
    assert serve_module.main(["--host", "127.0.0.1", "--port", "8123", "--root", str(tmp_path)]) == 0
    assert "every machine" not in capsys.readouterr().out
