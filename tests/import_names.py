"""The modules a file's imports name, read from its syntax tree: one reading for every test that follows imports
(``test_code_shape``'s layers and circles, ``test_pyscript_config``'s file lists)."""

from __future__ import annotations

import ast
from collections.abc import Iterator


def type_checking_block(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (or any test naming it): imports for annotations only, never run."""
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imported_names(tree: ast.AST, package: str, *, skip_type_checking: bool) -> Iterator[str]:
    """Every name an import in ``tree`` may load (``from a import b``: ``a`` and ``a.b``), relative ones resolved
    against ``package`` (the importing module's package); imports inside functions too, and inside
    ``if TYPE_CHECKING:`` unless ``skip_type_checking``."""
    for node in ast.iter_child_nodes(tree):
        if skip_type_checking and type_checking_block(node):
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = f"{parent}.{base}" if base else parent
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)
        yield from imported_names(node, package, skip_type_checking=skip_type_checking)
