"""The page's edges with the browser: storage, outside data, the URL, JavaScript calls, time, focus, announcements
and listeners kept alive.  Imports nothing else of ``app``."""
