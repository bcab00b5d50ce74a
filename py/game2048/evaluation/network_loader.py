"""The page's download of the learned network: manifest, file in resumable ranges, checks, then ``learned.install``.

Runs in the AI worker (Pyodide) when a player chooses the ``learned``
preset, never at start; no browser import, like the rest of the engine:
``fetch(url, headers)`` is the browser's, and ``store`` the worker's Cache
Storage, both handed in so the tests run this in CPython with a fake server.

The contract:

* The file comes in HTTP ranges (``Range: bytes=a-b``), each sized to about
  ``RANGE_SECONDS`` of the measured rate, so no single request runs for
  minutes; a range cut off (a dropped connection) is asked again from the
  byte it stopped at.  A server that ignores ``Range`` answers the whole file
  (200), which is read as such.  ``RETRIES`` attempts in a row that bring no
  byte end the download.
* ``progress`` is what the page polls: the stage, the bytes so far and in
  all, the rate (bytes a second, over the last ``RATE_WINDOW_S``), the
  seconds left at that rate, and how many times it resumed.
* What is refused, and said so: an answer that is not a network file (its
  first bytes are not the file's magic: an HTML page, say), a file larger
  than the manifest says (refused before reading on, from its announced size
  or from the bytes as they come), one cut at N bytes, one with a changed
  byte (its SHA-256), of another shape.  The network in use stays in use.
* A network is kept (``store.keep``) only once its size and SHA-256 match
  the manifest; a kept copy is checked again before it is used, and a bad
  one dropped (``store.drop``) and downloaded afresh.
* Its decoded tables are kept beside it (``store.keep_beside``, ``ntuple_tables_copy``) and read first
  next time: a copy, not seconds of decoding; a bad one is dropped and the file decoded again.

The file is asked for with its SHA-256 in the query: a new network is a new address, an old copy never read for it.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from . import learned
from . import network_stages as stages
from .ntuple_file import MAGIC, Network, NetworkError, check
from .ntuple_tables_copy import TablesCopyReader, tables_parts, tables_url

PREALLOCATE_AT_MOST = 64 << 20
"""The most the download sets aside before its bytes come (twice the largest network the page may carry): a
manifest that names a far larger file costs no memory until the bytes are there."""
RANGE_FIRST = 256 << 10
"""The first range's bytes (13 s at 20 KB/s); later ones follow the measured rate."""
RANGE_MIN, RANGE_MAX = 64 << 10, 4 << 20
RANGE_SECONDS = 10.0
"""A range is sized to take about this long at the measured rate."""
RETRIES = 6
"""Attempts in a row that bring no new byte before the download is given up (waits of ``RETRY_WAIT_S``)."""
RETRY_WAIT_S = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
RATE_WINDOW_S = 10.0
"""The rate is the bytes of about this many seconds past."""

Fetch = Callable[[str, dict[str, str]], Awaitable[Any]]


class NetworkLoader:
    """One worker's network download; ``progress`` is read by the page while ``load`` runs."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self.progress: dict[str, Any] = _idle()
        self._samples: list[tuple[float, int]] = []
        self._at = 0  # the bytes of the file held so far, from its start (``_receive`` moves it)

    def _stage(self, stage: str, **more: Any) -> None:
        self.progress = {**self.progress, "stage": stage, **more}

    async def load(self, base_url: str, fetch: Fetch, store: Any = None) -> dict[str, Any]:
        """Download (or take from ``store``), check and install the network under ``base_url`` (ending in ``/``).

        Returns what the page shows: bytes, shape, the manifest's greedy
        results, ``cached`` (it came from ``store``) and ``dropped`` (why a
        kept copy was thrown away, or ""); raises ``NetworkError``.
        """
        dropped = ""
        cached = False
        try:
            self.progress = {**_idle(), "stage": stages.MANIFEST}
            manifest = await self._manifest(base_url + "networks/" + learned.MANIFEST_FILE, fetch)
            url = f"{base_url}networks/{manifest['file']}?sha256={manifest['sha256']}"
            size = manifest["bytes"]
            network = None
            decoded = False
            if store is not None:
                network = await self._kept_tables(url, manifest, store)
                decoded = network is not None
                if network is None:
                    network, dropped = await self._kept(url, manifest, store)
                cached = network is not None
            if network is None:
                self._stage(stages.DOWNLOADING, total=size)
                data = await self._download(url, fetch, size)
                self._stage(stages.CHECKING)
                network = check(data, manifest, "the network")
                if store is not None:
                    await _quietly(store.keep(url, data))
                del data
            if store is not None and not decoded:
                await _quietly(store.keep_beside(tables_url(url), tables_parts(network, manifest["sha256"])))
            learned.install(network)
            learned.make_evaluator()(0x1)  # builds the generated evaluation now, not in the first think
        except NetworkError as exc:
            self._stage(stages.FAILED, error=str(exc))
            raise
        self._stage(stages.READY)
        return {
            "bytes": size,
            "shape": manifest["shape"]["name"],
            "greedy": manifest.get("greedy"),
            "cached": cached,
            "dropped": dropped,
        }

    async def _manifest(self, url: str, fetch: Fetch) -> dict[str, Any]:
        response = await _get(url, fetch, {}, "the network's manifest")
        if not response.ok:
            raise NetworkError(
                f"the network's manifest could not be downloaded: the server answered HTTP {response.status}"
            )
        try:
            manifest = json.loads(str(await response.text()))
        except ValueError as exc:
            raise NetworkError(f"the network's manifest is not JSON ({exc})") from None
        if not isinstance(manifest, dict) or not all(k in manifest for k in ("file", "bytes", "sha256", "shape")):
            raise NetworkError("the network's manifest lacks its file, size, SHA-256 or shape")
        if (
            not isinstance(manifest["file"], str)
            or "/" in manifest["file"]
            or not isinstance(manifest["bytes"], int)
            or manifest["bytes"] <= 0
        ):
            raise NetworkError("the network's manifest names its file or size wrongly")
        return manifest

    async def _kept_tables(self, url: str, manifest: dict[str, Any], store: Any) -> Network | None:
        """The network from the decoded copy ``store`` keeps beside the file at ``url`` (``ntuple_tables_copy``),
        or None: none kept, or a bad one, dropped (the file is decoded again and its copy kept anew)."""
        where = tables_url(url)
        try:
            response = await store.read(where)
        except Exception:  # noqa: BLE001 - a store that cannot be read is a store without the copy
            return None
        if response is None:
            return None
        self._stage(stages.CACHE, total=manifest["bytes"])
        copy = TablesCopyReader(manifest)
        try:
            reader = response.body.getReader()
            while True:
                step = await reader.read()
                if step.done:
                    break
                copy.feed(_bytes(step.value))
            return copy.network()
        except Exception:  # noqa: BLE001 - a copy that cannot be read or is bad costs a decoding, nothing more
            await _quietly(store.drop(where))
            return None

    async def _kept(self, url: str, manifest: dict[str, Any], store: Any) -> tuple[Any, str]:
        """The network ``store`` kept for ``url`` if whole and right, and ""; else None, and why it was dropped."""
        try:
            response = await store.read(url)
        except Exception:  # noqa: BLE001 - a store that cannot be read is a store without the file
            return None, ""
        if response is None:
            return None, ""
        size = manifest["bytes"]
        self._stage(stages.CACHE, total=size)
        data = bytearray(min(size, PREALLOCATE_AT_MOST))
        try:
            loaded = await self._receive(response, data, 0, size, whole=True)
            del data[loaded:]
            self._stage(stages.CHECKING)
            return check(data, manifest, "the kept copy of the network"), ""
        except NetworkError as exc:
            await _quietly(store.drop(url))
            return None, str(exc)
        except Exception as exc:  # noqa: BLE001 - a kept copy that cannot be read is dropped like a bad one
            await _quietly(store.drop(url))
            return None, f"the kept copy of the network could not be read ({str(exc).strip()})"

    async def _download(self, url: str, fetch: Fetch, size: int) -> bytearray:
        """The file's ``size`` bytes, in ranges resumed where they stopped, into one buffer of that size."""
        data = bytearray(min(size, PREALLOCATE_AT_MOST))
        loaded = 0
        failures = 0
        reason = ""
        self._samples = [(self.clock(), 0)]
        while loaded < size:
            if failures >= RETRIES:
                raise NetworkError(
                    f"the network could not be downloaded: {failures} attempts in a row brought no byte, "
                    f"at {loaded:,} of its {size:,} bytes ({reason})"
                )
            if failures:
                await self.sleep(RETRY_WAIT_S[min(failures, len(RETRY_WAIT_S)) - 1])
            last = min(size, loaded + self._range_bytes()) - 1
            before = self._at = loaded
            try:
                response = await _get(url, fetch, {"Range": f"bytes={loaded}-{last}"}, "the network")
                start, whole, total = _where(response, loaded, size)
                if total < size:  # a shorter file: an error page, or a network cut on the server
                    if start == 0:
                        await self._receive(response, data, 0, size, whole=False)  # its first bytes say which
                    raise NetworkError(f"the network is cut at {total:,} bytes: its manifest says {size:,}")
                await self._receive(response, data, start, size, whole=whole, last=last)
            except _Retry as exc:
                reason = str(exc)
                self._stage(stages.DOWNLOADING, resumed=self.progress["resumed"] + 1)
            loaded = self._at  # the bytes held from the file's start, whatever stopped the range
            failures = 0 if loaded > before else failures + 1
        del data[loaded:]
        return data

    def _range_bytes(self) -> int:
        rate = self.progress.get("rate") or 0
        if rate <= 0:
            return RANGE_FIRST
        return int(min(max(rate * RANGE_SECONDS, RANGE_MIN), RANGE_MAX))

    async def _receive(
        self, response: Any, data: bytearray, start: int, size: int, whole: bool, last: int | None = None
    ) -> int:
        """Read ``response``'s body into ``data`` from byte ``start``; the bytes held after it, from 0 (``_at`` too).

        ``whole``: the body is the file from its first byte (a 200, or a kept
        copy), so ending short of ``size`` is a file cut at that byte.  A
        dropped connection is ``_Retry`` (the bytes read so far stay), an
        answer that is not the file ``NetworkError``.
        """
        loaded = self._at = start
        reader = response.body.getReader()
        while True:
            try:
                step = await reader.read()
            except Exception as exc:  # noqa: BLE001 - the connection dropped mid-range
                self._record(loaded)
                raise _Retry(f"the connection dropped: {str(exc).strip() or type(exc).__name__}") from None
            if step.done:
                break
            chunk = _bytes(step.value)
            if loaded + len(chunk) > size:
                raise NetworkError(
                    f"the network is larger than its manifest says: more than its {size:,} bytes came; "
                    "refused before reading on"
                )
            if loaded < len(MAGIC):
                _check_magic(bytes(data[:loaded]) + chunk, size)
            data[loaded : loaded + len(chunk)] = chunk
            loaded = self._at = loaded + len(chunk)
            self._record(loaded)
        if whole and loaded < size:
            raise NetworkError(f"the network is cut at {loaded:,} bytes: its manifest says {size:,}")
        if not whole and last is not None and loaded < last + 1:
            self._record(loaded)
            raise _Retry(f"the range ended at byte {loaded:,}, before {last + 1:,}")
        return loaded

    def _record(self, loaded: int) -> None:
        """``loaded`` bytes now: the progress, the rate over the last ``RATE_WINDOW_S`` and the time left."""
        now = self.clock()
        self._samples.append((now, loaded))
        while len(self._samples) > 2 and now - self._samples[1][0] >= RATE_WINDOW_S:
            self._samples.pop(0)
        then, at = self._samples[0]
        rate = (loaded - at) / (now - then) if now - then >= 0.5 and loaded > at else self.progress.get("rate", 0)
        total = self.progress.get("total") or 0
        left = (total - loaded) / rate if rate > 0 and total >= loaded else -1
        self.progress = {**self.progress, "loaded": loaded, "rate": round(rate), "left_s": round(left)}


class _Retry(Exception):
    """A range that stopped early (a dropped connection, a server error): asked again from where it stopped."""


def _idle() -> dict[str, Any]:
    return {"stage": stages.IDLE, "loaded": 0, "total": 0, "rate": 0, "left_s": -1, "resumed": 0, "error": ""}


def _where(response: Any, asked: int, size: int) -> tuple[int, bool, int]:
    """Where ``response``'s body starts in the file, whether it is the whole file (a 200), and the file's size
    on the server (``size`` when not said); refuses the rest."""
    status = int(response.status)
    if status == 206:
        match = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+|\*)", str(_header(response, "Content-Range") or "").strip())
        if match is None:
            raise _Retry("the server answered a range without saying which")
        total = match.group(3)
        if total != "*" and int(total) > size:
            raise NetworkError(
                f"the network is larger than its manifest says: {int(total):,} bytes, not {size:,}; "
                "refused before reading on"
            )
        if int(match.group(1)) != asked:
            raise _Retry(f"the server answered bytes from {int(match.group(1)):,}, not {asked:,}")
        return asked, False, size if total == "*" else int(total)
    if status == 200:
        length = _header(response, "Content-Length")
        if length is not None and str(length).strip().isdigit() and int(length) > size:
            kind = _kind(response)
            raise NetworkError(
                f"the network is larger than its manifest says: {int(length):,} bytes{kind}, not {size:,}; "
                "refused before reading on"
            )
        return 0, True, size
    if status == 416:
        raise NetworkError(f"the network is cut at fewer than {asked:,} bytes: its manifest says {size:,}")
    if status in (408, 425, 429) or status >= 500:
        raise _Retry(f"the server answered HTTP {status}")
    raise NetworkError(f"the network could not be downloaded: the server answered HTTP {status}")


def _check_magic(head: bytes, size: int) -> None:
    """``NetworkError`` when the file's first bytes so far are not a network file's."""
    n = min(len(head), len(MAGIC))
    if head[:n] == MAGIC[:n]:
        return
    text = head[:200].lower()
    what = " (a web page: the server answered HTML)" if b"<html" in text or b"<!doctype" in text else ""
    raise NetworkError(f"the server's answer is not a network file{what}; the manifest names one of {size:,} bytes")


def _kind(response: Any) -> str:
    """`` (a web page)`` when the response says it is HTML, else ""."""
    kind = str(_header(response, "Content-Type") or "")
    return " (a web page)" if "html" in kind.lower() else ""


def _header(response: Any, name: str) -> Any:
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    value = headers.get(name)
    return None if value is None else str(value)


async def _get(url: str, fetch: Fetch, headers: dict[str, str], what: str) -> Any:
    try:
        return await fetch(url, headers)
    except Exception as exc:  # noqa: BLE001 - the browser's TypeError "Failed to fetch" and its kin
        message = f"{what} could not be downloaded ({str(exc).strip() or type(exc).__name__})"
        if headers:
            raise _Retry(message) from None
        raise NetworkError(message) from None


async def _quietly(awaitable: Awaitable[Any]) -> None:
    """Await a store's keep or drop; a store that fails is only a copy not kept."""
    try:
        await awaitable
    except Exception:  # noqa: BLE001, S110 - keeping is a convenience, never a reason to refuse a good network
        pass


def _bytes(value: Any) -> bytes:
    """A chunk as bytes: Pyodide hands a Uint8Array proxy (``to_bytes``), the tests plain bytes."""
    return value.to_bytes() if hasattr(value, "to_bytes") else bytes(value)
