"""The stages of the learned network's download, as the worker's loader reports them and the page reads them.

One definition for both sides of the worker protocol: ``network_loader`` writes ``progress["stage"]`` with these
names, and the page's ``app.ai.network_download`` words each one.  Plain Python constants, so the page's
MicroPython imports them too.
"""

IDLE = "idle"
"""Nothing asked for yet."""
MANIFEST = "manifest"
"""Reading the network's manifest (its size and SHA-256)."""
DOWNLOADING = "downloading"
"""The file is coming over the network (``loaded`` of ``total`` bytes)."""
CACHE = "cache"
"""The file is read from the browser's own store, where an earlier visit kept it."""
CHECKING = "checking"
"""The file is checked against its manifest and its tables are built."""
READY = "ready"
"""The network plays."""
FAILED = "failed"
"""The download or the check failed (``error`` says why)."""
