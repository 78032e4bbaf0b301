"""Which build of the engine and search runs: the mypyc-compiled one, or the pure Python one.

``make compiled`` (``build_compiled.py``) compiles the modules named in ``COMPILED`` with mypyc
into extension modules that sit beside their sources; Python's import system prefers an
extension module to a ``.py`` file of the same name, so nothing else needs to know. Both builds
give identical results (the differential test compares them); the compiled one is faster.

The compiled build is used only when it is whole and current. ``choose`` is called once, when
``bela`` is imported, before any compiled module can be, and makes every module in ``COMPILED``
load from its ``.py`` file instead when:

- ``BELA_PURE=1`` is set (the differential test and benchmarks run the pure build this way);
- a module has no compiled file (no C compiler when the project was set up: the normal case);
- in a checkout (``make compiled``'s in-place build), a source file is newer than its compiled
  file (edited since ``make compiled``): a stale extension would run the old rules, so the pure
  build runs until the next build. An installed wheel is never edited, and its files' times are
  the order the installer wrote them in, so there the check is skipped.

It costs a directory listing and, when compiled files exist, a ``stat`` per module.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import (
    BYTECODE_SUFFIXES,
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
    SourcelessFileLoader,
)
from pathlib import Path
from types import ModuleType

__all__ = [
    "COMPILED",
    "PURE_ENV",
    "Build",
    "build",
    "choose",
    "compiled_files",
    "in_checkout",
    "source_root",
]

# The modules mypyc compiles: the rules engine's hot modules, the search below the bots, and the
# heuristic player (``normal``, and the player the hard bot imagines in every rollout).
# Package ``__init__`` files stay pure (the engine's uses module ``__getattr__`` for lazy names).
COMPILED: tuple[str, ...] = (
    "bela.engine.actions",
    "bela.engine.cards",
    "bela.engine.deal",
    "bela.engine.deal_network",
    "bela.engine.guards",
    "bela.engine.match",
    "bela.engine.round",
    "bela.engine.rules",
    "bela.engine.scoring",
    "bela.engine.tricks",
    "bela.engine.view",
    "bela.engine.zvanja",
    "bela.search.memory",
    "bela.search.sampling",
    "bela.search.solver",
    "bela.search.solver_position",
    # the heuristic player: the hard bot's rollouts and bid search spend most of their time in it
    "bela.ai.inference",
    "bela.ai.play_reading",
    "bela.ai.normal.bidding",
    "bela.ai.normal.endgame",
    "bela.ai.normal.heuristic",
    "bela.ai.normal.judgement",
    "bela.ai.normal.leads",
)

PURE_ENV = "BELA_PURE"


class Build:
    """The build chosen at import: ``compiled`` or not, and why not (``reason``, ``module``).

    ``reason`` is a code the command line words in the player's language (``bela --version``):
    ``""`` (compiled), ``"forced"`` (``BELA_PURE`` set), ``"absent"`` (never compiled here) or
    ``"stale"`` (``module`` changed since it was compiled). ``str`` gives it in English.
    """

    __slots__ = ("compiled", "module", "reason")

    def __init__(self, reason: str, module: str = "") -> None:
        self.compiled = not reason
        self.reason = reason
        self.module = module

    def __str__(self) -> str:
        if self.compiled:
            return "engine and search compiled with mypyc"
        why = {
            "forced": f"{PURE_ENV} is set",
            "absent": "not compiled: make compiled needs a C compiler",
            "stale": f"{self.module} changed since it was compiled: make compiled",
        }[self.reason]
        return f"pure Python ({why})"


_chosen: Build | None = None


def source_root() -> Path:
    """The folder that holds the ``bela`` package (``src`` in a checkout)."""
    return Path(__file__).resolve().parent.parent.parent


def _source(name: str, root: Path) -> Path:
    return root.joinpath(*name.split(".")).with_suffix(".py")


def compiled_files(name: str, root: Path | None = None) -> list[Path]:
    """The extension files of module ``name`` beside its source (none: not compiled)."""
    source = _source(name, root or source_root())
    stem = source.stem
    try:
        entries = os.listdir(source.parent)
    except OSError:
        return []
    return [
        source.parent / entry
        for entry in entries
        if entry.startswith(stem + ".")
        and any(entry == stem + suffix for suffix in EXTENSION_SUFFIXES)
    ]


def in_checkout(root: Path) -> bool:
    """Whether ``root`` is a clone's ``src`` (built in place by ``make compiled``), not an
    installed wheel's ``site-packages``."""
    return (root.parent / "build_compiled.py").is_file()


def _why_pure(root: Path) -> Build:
    """The compiled build when it is whole and current, else the pure one and why."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return Build("forced")
    checkout = in_checkout(root)
    for name in COMPILED:
        found = compiled_files(name, root)
        if not found:
            return Build("absent")
        if not checkout:
            continue
        try:
            if _source(name, root).stat().st_mtime > found[0].stat().st_mtime:
                return Build("stale", name)
        except OSError:  # a compiled file without its source: rebuild it
            return Build("stale", name)
    return Build("")


class _PureFinder:
    """Finds the modules of ``COMPILED`` as source (or bytecode) only, never as extensions."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in COMPILED or not path:
            return None
        finder = FileFinder(
            path[0], (SourceFileLoader, SOURCE_SUFFIXES), (SourcelessFileLoader, BYTECODE_SUFFIXES)
        )
        return finder.find_spec(name, target)


def choose() -> Build:
    """Decide the build once (before the engine is imported) and keep the decision."""
    global _chosen
    if _chosen is None:
        _chosen = _why_pure(source_root())
        if not _chosen.compiled and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
            sys.meta_path.insert(0, _PureFinder())
    return _chosen


def build() -> Build:
    """The build this process runs (``choose``'s decision)."""
    return choose()
