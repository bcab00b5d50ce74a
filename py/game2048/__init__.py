"""2048 rules, evaluations, searches and the lab, in pure Python.

Nothing here imports ``js``, ``pyscript`` or the DOM: the same modules run in
CPython (tests, lab, benchmarks) and in Pyodide (the page and its AI worker).
The lab alone uses numpy and matplotlib, and is never loaded by the page.
"""

__version__ = "0.1.0"
