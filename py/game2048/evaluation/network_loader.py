"""The page's download of the learned network: manifest, file with progress, checks, then ``learned.install``.

Runs in the AI worker (Pyodide) when a player chooses the ``learned``
preset, never at start; no browser import, like the rest of the engine:
``fetch`` is the browser's (``js.fetch``), handed in so the tests run this
in CPython with a fake server.  ``progress`` is what the page
polls while the download runs: the stage, the bytes so far and in all.  A
file that is missing, cut short, damaged, of another shape or not the one
its manifest names is refused with ``NetworkError``'s message, and the
network in use (if any) stays in use.

The file is asked for with its SHA-256 in the query: the service worker keeps
the last network it saw under that address, so a new network is a new
address and an old copy is never read for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import learned
from .ntuple_file import NetworkError, check

STAGES = ("idle", "manifest", "downloading", "checking", "ready", "failed")
PREALLOCATE_AT_MOST = 64 << 20
"""The most the download sets aside before its bytes come (twice the largest network the page may carry): a
manifest that names a far larger file costs no memory until the bytes are there."""


class NetworkLoader:
    """One worker's network download; ``progress`` is read by the page while ``load`` runs."""

    def __init__(self) -> None:
        self.progress: dict[str, Any] = {"stage": "idle", "loaded": 0, "total": 0}

    def _stage(self, stage: str, **more: Any) -> None:
        self.progress = {**self.progress, "stage": stage, **more}

    async def load(self, base_url: str, fetch: Callable[..., Any]) -> dict[str, Any]:
        """Download, check and install the network under ``base_url`` (the page's folder, ending in ``/``).

        Returns what the page shows: bytes, shape and the manifest's greedy results; raises ``NetworkError``.
        """
        try:
            self._stage("manifest", loaded=0, total=0, error="")
            manifest = await self._manifest(base_url + "networks/" + learned.MANIFEST_FILE, fetch)
            url = f"{base_url}networks/{manifest['file']}?sha256={manifest['sha256']}"
            self._stage("downloading", total=int(manifest.get("bytes") or 0))
            data = await self._download(url, fetch, int(manifest["bytes"]))
            self._stage("checking")
            network = check(data, manifest, manifest["file"])
            del data
            learned.install(network)
            learned.make_evaluator()(0x1)  # builds the generated evaluation now, not in the first think
        except NetworkError as exc:
            self._stage("failed", error=str(exc))
            raise
        self._stage("ready")
        return {"bytes": manifest["bytes"], "shape": manifest["shape"]["name"], "greedy": manifest.get("greedy")}

    async def _manifest(self, url: str, fetch: Callable[..., Any]) -> dict[str, Any]:
        response = await _get(url, fetch, "the network's manifest")
        try:
            manifest = json.loads(str(await response.text()))
        except ValueError as exc:
            raise NetworkError(f"the network's manifest is not JSON ({exc})") from None
        if not isinstance(manifest, dict) or not all(k in manifest for k in ("file", "bytes", "sha256", "shape")):
            raise NetworkError("the network's manifest lacks its file, size, SHA-256 or shape")
        if not isinstance(manifest["file"], str) or "/" in manifest["file"] or not isinstance(manifest["bytes"], int):
            raise NetworkError("the network's manifest names its file or size wrongly")
        return manifest

    async def _download(self, url: str, fetch: Callable[..., Any], size: int) -> bytearray:
        """The file's bytes, read chunk by chunk so ``progress`` says how far it is, into one buffer made at the
        ``size`` the manifest gives (grown only past it): no copies left behind in the worker's heap."""
        response = await _get(url, fetch, "the network")
        data = bytearray(min(max(size, 0), PREALLOCATE_AT_MOST))
        loaded = 0
        reader = response.body.getReader()
        while True:
            try:
                step = await reader.read()
            except Exception as exc:  # noqa: BLE001 - the connection dropped mid-file
                raise NetworkError(
                    f"the network is cut short: the download stopped after {loaded:,} bytes ({str(exc).strip()})"
                ) from None
            if step.done:
                break
            chunk = _bytes(step.value)
            data[loaded : loaded + len(chunk)] = chunk
            loaded += len(chunk)
            self.progress = {**self.progress, "loaded": loaded}
        del data[loaded:]
        return data


async def _get(url: str, fetch: Callable[..., Any], what: str) -> Any:
    try:
        response = await fetch(url)
    except Exception as exc:  # noqa: BLE001 - the browser's TypeError "Failed to fetch" and its kin
        raise NetworkError(f"{what} could not be downloaded ({str(exc).strip() or type(exc).__name__})") from None
    if not response.ok:
        raise NetworkError(f"{what} could not be downloaded: the server answered HTTP {response.status}")
    return response


def _bytes(value: Any) -> bytes:
    """A chunk as bytes: Pyodide hands a Uint8Array proxy (``to_bytes``), the tests plain bytes."""
    return value.to_bytes() if hasattr(value, "to_bytes") else bytes(value)
