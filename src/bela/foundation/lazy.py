"""Names of a package imported on first use (PEP 562), so its heavy modules wait.

The start screen must come up fast (issue #12), yet ``bela.engine``, ``bela.ai``
and ``bela.tui.widgets`` are imported on the way to it for one or two light
names. Each keeps its full public API and hands the rest to ``lazy_names``:
a name's module is imported the first time the name is used, and the value is
then kept in the package, so later uses cost nothing. Standard library only: the
engine uses it too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, modules: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], object]:
    """The ``__getattr__`` of ``package``: ``modules`` maps a name to its submodule."""

    def __getattr__(name: str) -> object:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    return __getattr__
