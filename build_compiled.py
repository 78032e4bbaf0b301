"""Compile bela's engine and search with mypyc, where a C compiler is present: the one build.

Two callers, one recipe (``extensions``):

- ``setup.py``, the build backend's hook: ``python -m build``, ``pip install .``, ``pipx install
  .``, ``uv tool install .`` and an install from the sdist all compile the modules into the wheel
  (the way black and mypy ship theirs), or build a pure wheel where there is no compiler;
- ``make compiled`` (``python build_compiled.py [--require] [--clean]``), for development: the
  same extensions built in place, beside their sources in ``src/bela`` (and mypyc's shared
  runtime in ``src``), where an editable install and ``PYTHONPATH=src`` both find them; Python
  prefers them to the ``.py`` files.

Where there is no C compiler (or no Python headers) nothing is built, any old compiled files are
removed, and bela runs as pure Python: the same results, slower. ``bela --version`` says which
build runs. ``--require`` makes a missing compiler or a failed build an error (the CI target that
tests the compiled build); without it both only warn. ``--clean`` removes the compiled files and
builds nothing.

The module list is ``bela.foundation.native.COMPILED``, the one the runtime checks.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
BUILD = ROOT / "build" / "mypyc"
GROUP = "bela_native"

sys.path.insert(0, str(SRC))
from bela.foundation.native import COMPILED, compiled_files  # noqa: E402


def compiler() -> str | None:
    """Why a C extension cannot be built here, or None when it can.

    The compiler is the one setuptools will run: ``$CC`` when it is set (``CC=/nonexistent
    make test`` tries the pure build on a machine that has one), else Python's own.
    """
    given = os.environ.get("CC", "").split()
    if given:
        if shutil.which(given[0]) is None:
            return f"no C compiler ({given[0]}, from CC)"
    else:
        cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
        if shutil.which(cc) is None and shutil.which("cc") is None:
            return f"no C compiler ({cc})"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        return f"no Python headers ({include})"
    return None


def remove_compiled() -> int:
    """Delete every compiled file of the modules and the shared runtime; how many there were."""
    removed = 0
    for name in COMPILED:
        for path in compiled_files(name, SRC):
            path.unlink()
            removed += 1
    for path in SRC.glob(f"{GROUP}__mypyc.*"):
        if path.suffix in (".so", ".pyd"):
            path.unlink()
            removed += 1
    return removed


def extensions() -> list[Any]:
    """The extension modules of ``COMPILED``, mypycified: what both callers build.

    Run from the project's root (``setup.py`` is; ``build`` changes there): the module names
    come from the paths (``src/bela/engine/round.py`` is ``bela.engine.round``, ``src`` holding
    no ``__init__``), and mypy reads its settings from ``pyproject.toml`` there. One shared
    library (``bela_native__mypyc``) holds the code of them all, with a small shim per module.
    """
    from mypyc.build import mypycify

    sources = [str(Path("src", *name.split(".")).with_suffix(".py")) for name in COMPILED]
    return list(
        mypycify(
            sources,
            opt_level="3",
            multi_file=True,
            group_name=GROUP,
            target_dir=str(Path("build", "mypyc", "c")),
        )
    )


def build() -> None:
    """Build ``extensions()`` in place (setuptools' ``build_ext --inplace``), as setup.py would."""
    from setuptools import Distribution  # type: ignore[import-untyped, unused-ignore]

    os.chdir(ROOT)
    dist = Distribution(
        {"name": "bela-native", "ext_modules": extensions(), "package_dir": {"": "src"}}
    )
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True
    cmd.build_temp = str(BUILD / "temp")
    cmd.parallel = os.cpu_count() or 1
    dist.run_command("build_ext")
    # build_ext leaves an unchanged module's small shim file as it was, though the code it loads
    # (the shared library) is new: mark them all built now, for the staleness check
    now = time.time()
    for name in COMPILED:
        for path in compiled_files(name, SRC):
            os.utime(path, (now, now))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--require", action="store_true", help="fail without a compiled build")
    parser.add_argument("--clean", action="store_true", help="remove the compiled build only")
    args = parser.parse_args()
    if args.clean:
        # and make's mark that the build is done, so that make play or make test builds it again
        (ROOT / "build" / ".compiled").unlink(missing_ok=True)
        print(f"removed {remove_compiled()} compiled files: bela runs as pure Python")
        return 0
    missing = compiler()
    if missing is not None:
        remove_compiled()
        print(f"{missing}: bela runs as pure Python (the same results, slower)")
        return 1 if args.require else 0
    start = time.monotonic()
    print(f"compiling {len(COMPILED)} modules of bela.engine and bela.search with mypyc...")
    try:
        build()
    except BaseException as exc:  # a compiler error, or setuptools' SystemExit
        remove_compiled()
        print(f"the compiled build failed ({exc}): bela runs as pure Python", file=sys.stderr)
        return 1 if args.require else 0
    print(f"compiled in {time.monotonic() - start:.0f} s: bela --version says which build runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
