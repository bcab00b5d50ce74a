"""A script of ``tools/`` loaded as a module for its tests.

``tools/`` is not a package and its scripts put ``tools/`` on ``sys.path``
themselves; each is loaded under ``tools_<name>`` so that none shadows a
module of the same name (``site`` is the standard library's, imported at every start).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def load_tool(name: str) -> ModuleType:
    """``tools/<name>.py`` as the module ``tools_<name>`` (loaded once, then the same module)."""
    key = f"tools_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module
