"""The lab's wing for the learned evaluation: the n-tuple network's trainer (``kernels``, ``trainer``), its file
(``export``), its commands (``command``), sweeps of runs (``sweep``), runs compared (``compare_runs``)."""
