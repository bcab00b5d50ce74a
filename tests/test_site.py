"""``make site`` (tools/site.py): what the page fetches, the offline list as a file, each build whole.

Playing the folder behind a plain static server is tests/browser/test_page_site.py.
"""

from __future__ import annotations

import functools
import json
import mimetypes
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import offline  # noqa: E402
import serve  # noqa: E402
from serve import start_server  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file(), reason="node_modules is missing: npm ci"
)
JAVASCRIPT = {"text/javascript", "application/javascript"}  # what a browser runs as a module script


site = load_tool("site")


def _contents(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    site.build(out)
    return out


def test_the_site_holds_every_offline_file_the_service_worker_and_the_network(built):
    contents = _contents(built)
    offline_files = offline.offline_files(ROOT)
    manifest = json.loads((ROOT / offline.NETWORK_MANIFEST).read_text())
    network = f"networks/{manifest['file']}"
    assert set(contents) == {*offline_files, "sw.js", network, "offline-files.js", ".nojekyll"}
    for path in [*offline_files, "sw.js", network]:
        assert contents[path] == (ROOT / path).read_bytes(), path
    assert "node_modules/pyodide/pyodide.asm.wasm" in contents and "build/mpy/game2048/__init__.mpy" in contents
    assert [path for path in contents if serve.private(path)] == [site.NO_JEKYLL]  # GitHub Pages' marker alone


def test_its_offline_list_is_what_serve_py_serves(built):
    server, base_url = start_server(ROOT, port=0)
    try:
        with urllib.request.urlopen(base_url + offline.MANIFEST_URL) as response:
            served = response.read()
    finally:
        server.shutdown()
        server.server_close()
    assert (built / "offline-files.js").read_bytes() == served == offline.manifest_script(ROOT)


def test_the_dev_server_answers_every_file_of_the_site_and_no_other_top_level_name(built):
    published = {path for path in _contents(built) if path != site.NO_JEKYLL}
    others = {path.name for path in ROOT.iterdir()} - {path.split("/")[0] for path in published} - {*serve.DEV_PAGES}
    assert {"tools", "tests", "docs", ".git", "README.md", "pyproject.toml"} <= others
    server, base_url = start_server(ROOT, port=0)

    def status(path: str) -> int:
        request = urllib.request.Request(f"{base_url}/{path}", method="HEAD")
        try:
            with urllib.request.urlopen(request) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    try:
        assert {path: status(path) for path in sorted(published)} == dict.fromkeys(sorted(published), 200)
        assert {name: status(name) for name in sorted(others)} == dict.fromkeys(sorted(others), 404)
    finally:
        server.shutdown()
        server.server_close()


def _page(root: Path) -> None:
    """A small page of the real one's shape (its worker, configs, manifest and network), stand-ins for the rest."""
    (root / "index.html").write_text(
        '<link rel="stylesheet" href="./a.css"><link rel="manifest" href="./m.json">'
        '<script type="py" src="./main.py" config="./pyscript.toml"></script>'
        '<script type="py" worker name="ai" src="./w.py" config="./w.toml"></script>'
    )
    (root / "m.json").write_text('{"icons": []}')
    (root / "pyscript.toml").write_text('[files]\n"./p.py" = "./p.py"\n')
    (root / "w.toml").write_text("[files]\n")
    (root / "networks").mkdir()
    (root / offline.NETWORK_MANIFEST).write_text('{"file": "n.ntn"}')
    for name in ("a.css", "main.py", "p.py", "w.py", "sw.js", "networks/n.ntn", *offline.RUNTIME_FILES):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name)


def _name_in_page(root: Path, name: str) -> None:
    page = root / "index.html"
    page.write_text(page.read_text() + f'<script src="./{name}"></script>')


def _name_in_config(root: Path, name: str) -> None:
    (root / "pyscript.toml").write_text(f'[files]\n"./p.py" = "./p.py"\n"./{name}" = "./x"\n')


def _link_out(root: Path) -> None:
    (root / "a.css").unlink()
    (root / "a.css").symlink_to(root.parent / "outside.txt")


PRIVATE_NAMED = {
    "dot file": lambda root: _name_in_page(root, ".env.js"),
    "checkpoint": lambda root: _name_in_config(root, "lab-out/run/checkpoint.npz"),
    "tools": lambda root: _name_in_config(root, "tools/serve.py"),
    "network out of networks/": lambda root: (root / offline.NETWORK_MANIFEST).write_text('{"file": "../x.npz"}'),
    "link out of the checkout": _link_out,
}


@pytest.mark.parametrize("private", PRIVATE_NAMED.values(), ids=PRIVATE_NAMED.keys())
def test_a_page_that_names_a_private_file_is_not_published(tmp_path, private):
    root, out = tmp_path / "checkout", tmp_path / "site"
    root.mkdir()
    _page(root)
    site.build(out, root=root)  # the page as it is: published
    (tmp_path / "outside.txt").write_text("secret")
    for name in (".env.js", "lab-out/run/checkpoint.npz", "x.npz", "tools/serve.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("secret")
    before = _contents(out)
    private(root)
    with pytest.raises(ValueError, match="private files"):
        site.build(out, root=root)
    assert _contents(out) == before  # the previous site stays, with nothing private
    assert not any(b"secret" in content for content in before.values())


def test_a_build_is_the_same_bytes_and_replaces_the_previous_site_whole(built, tmp_path):
    out = tmp_path / "site"
    site.build(out)
    (out / "stale.txt").write_text("from an older build")
    (out / "py" / "app" / "gone.py").write_text("")
    files = site.build(out)
    assert _contents(out) == _contents(built)
    assert files == sorted(path for path in out.rglob("*") if path.is_file())
    assert [path.name for path in tmp_path.iterdir()] == ["site"]  # no temporary folder left beside it


def test_a_folder_that_is_not_a_site_is_never_replaced(built, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        site.build(tmp_path)
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]
    # Nor the folder a site is built from, or one above it, even one that looks like a site.
    for out in (built, built.parent):
        with pytest.raises(FileExistsError):
            site.build(out, root=built)
    assert (built / "index.html").is_file()


def test_the_main_prints_the_count_and_size(tmp_path, capsys):
    assert site.main(["--out", str(tmp_path / "out")]) == 0
    count = sum(1 for path in (tmp_path / "out").rglob("*") if path.is_file())
    assert f"{count} files, " in capsys.readouterr().out
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert site.main(["--out", str(tmp_path / "other")]) == 1
    assert "not a site" in capsys.readouterr().err


@pytest.fixture
def plain_server(built: Path) -> Iterator[str]:
    """Python's own http.server on the site: the default MIME table, no header of the project's."""
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(built))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_default_mime_tables_serve_modules_as_javascript_and_webassembly_as_wasm(built, plain_server):
    # This machine's table (/etc/mime.types read by mimetypes), as `python3 -m http.server` serves it...
    for path in sorted(built.rglob("*.*js")) + sorted(built.rglob("*.wasm")):
        url = f"{plain_server}/{path.relative_to(built)}"
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD")) as response:
            kind = response.headers["Content-Type"].split(";")[0]
        assert kind == "application/wasm" if path.suffix == ".wasm" else kind in JAVASCRIPT, (path, kind)
    # ... and Python's built-in one, on a host without /etc/mime.types.
    builtin = mimetypes.MimeTypes()
    assert builtin.guess_type("a.mjs")[0] in JAVASCRIPT and builtin.guess_type("a.wasm")[0] == "application/wasm"
