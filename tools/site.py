"""``make site``: the page as a folder of plain files that any static host can publish.

The folder holds what the page fetches and nothing else: the files of the
offline list (``offline.offline_files``: the page, its precompiled Python and configs, CSS,
scripts, icons, the interpreters from node_modules), ``sw.js``, the learned
network its manifest names (``serve.page_files``, what the dev server answers),
and two files written here:

* ``offline-files.js``, by ``offline.manifest_script`` (the bytes serve.py
  makes in memory), so the service worker registers and offline play works;
* ``.nojekyll``: GitHub Pages' Jekyll would drop ``node_modules/`` (in its
  default ``exclude``) and every name starting with ``_`` (``__init__.py``).

A page that names a file the dev server keeps private (``serve.served``: a dot
name, ``lab-out/``, a ``.npz``, a link out of the checkout...) is refused.

No header is needed: the AI worker runs without cross-origin isolation (the
page only awaits its answers), and the one strict type, JavaScript for
``.mjs`` (module scripts), is what Python's tables (with or without
``/etc/mime.types``) and GitHub Pages give; ``tests/browser/test_page_site.py``
plays the folder behind ``python -m http.server``.  The folder is built beside ``--out`` and renamed over it,
so a previous site is replaced whole, never merged.

Usage::

    python tools/site.py [--out site]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import offline  # noqa: E402  (tools/ is not a package)
import precompile  # noqa: E402
import serve  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
MANIFEST_FILE = offline.MANIFEST_URL.lstrip("/")  # the file serve.py makes in memory
NO_JEKYLL = ".nojekyll"  # the one dot name of a site: GitHub Pages' marker, empty


def site_files(root: Path | str) -> list[str]:
    """Every file copied from ``root`` into the site (sorted, relative paths): all but the two written here.

    ``ValueError`` naming those the dev server would refuse: the site publishes nothing it keeps private."""
    files = serve.page_files(root)
    refused = [path for path in files if not serve.served(root, path)]
    if refused:
        raise ValueError(f"the page names private files or files outside {root}: {refused}")
    return files


def _replaceable(out: Path, root: Path) -> bool:
    """Whether ``out`` may be replaced: absent, empty, or a site this script wrote (never ``root`` or above it)."""
    if not out.exists():
        return True
    if not out.is_dir() or root.resolve().is_relative_to(out.resolve()):
        return False
    return not any(out.iterdir()) or (out / MANIFEST_FILE).is_file()


def _write(root: Path, target: Path) -> None:
    for path in site_files(root):
        (target / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / path, target / path)  # mtimes follow the sources: a host's revalidation stays right
    # From the copies: the list must be complete in the site itself, and the digests are of what is published.
    (target / MANIFEST_FILE).write_bytes(offline.manifest_script(target))
    (target / NO_JEKYLL).write_bytes(b"")


def build(out: Path | str, root: Path | str = REPO_ROOT) -> list[Path]:
    """Write the site into ``out``, replacing it whole; returns its files (sorted).

    Built in a sibling folder, then renamed: ``out`` is never half old and half new, and a failed build
    leaves the previous site.  Refuses an ``out`` that holds anything but an earlier site."""
    root, out = Path(root), Path(out)
    precompile.build(root)  # the page's modules as it loads them: precompiled, up to date
    if not _replaceable(out, root):
        raise FileExistsError(f"{out} exists and is not a site built by tools/site.py: not replacing it")
    out.parent.mkdir(parents=True, exist_ok=True)
    fresh, stale = (out.parent / f".{out.name}.{kind}-{os.getpid()}" for kind in ("new", "old"))
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir()
    try:
        _write(root, fresh)
        if out.exists():
            out.rename(stale)
        try:
            fresh.rename(out)
        except OSError:
            if stale.exists():
                stale.rename(out)  # the previous site stays
            raise
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
        shutil.rmtree(stale, ignore_errors=True)
    return sorted(path for path in out.rglob("*") if path.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the 2048 page as a static site, for any static host.")
    parser.add_argument("--out", default="site", help="the folder to (re)write (default: site)")
    args = parser.parse_args(argv)
    try:
        files = build(args.out)
    except (OSError, ValueError) as exc:
        print(f"site: {exc}", file=sys.stderr)
        return 1
    size = sum(path.stat().st_size for path in files)
    print(f"{args.out}/: {len(files)} files, {size / 1e6:.1f} MB; publish the folder as it is (see README.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
