"""Preloaded by each local Dask worker: it ignores Ctrl-C, which the command that started it handles.

A terminal sends SIGINT to its whole foreground process group, workers included; the command cancels the
tasks and closes the cluster itself, where a worker taking the signal would only print a traceback.
"""

import signal
import threading

if threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
