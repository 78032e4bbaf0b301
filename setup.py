"""The build backend's hook (setuptools): bela's wheel with the engine and search compiled.

``python -m build``, ``pip install .``, ``pipx install .``, ``uv tool install .`` and an install
from the sdist all come through here. Where a C compiler is present, the modules of
``bela.foundation.native.COMPILED`` are compiled with mypyc into the wheel, as black and mypy
ship theirs (``build_compiled.extensions``, the same recipe ``make compiled`` builds in place);
where there is none (``CC=/nonexistent`` tries it), or the compiled build fails, the wheel is
pure Python, and says why while it is built. ``bela --version`` says which build runs.

An editable install (``pip install -e .``, as ``make`` does) builds nothing here: in a checkout
the compiled build is ``make compiled``'s, in place, rebuilt when a source changes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_compiled


class _BuildOrFallBack(build_ext):  # type: ignore[misc, unused-ignore]
    """build_ext on every core, that leaves a pure wheel, not a broken one, when a module
    fails to compile."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except BaseException as exc:  # a compiler error, or setuptools' SystemExit
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []
            print(f"the compiled build failed ({exc}): a pure Python wheel", file=sys.stderr)


def _extensions() -> list[Any]:
    """The compiled modules, for the commands that build a wheel or install (only: mypycify
    type-checks and writes the C code, some seconds, and the backend runs this file for
    metadata and the sdist too)."""
    if "editable_wheel" in sys.argv or not {"bdist_wheel", "build_ext", "build", "install"} & set(
        sys.argv
    ):
        return []
    missing = build_compiled.compiler()
    if missing is not None:
        print(f"{missing}: a pure Python wheel (the same results, slower)", file=sys.stderr)
        return []
    print(f"compiling {len(build_compiled.COMPILED)} modules with mypyc...", file=sys.stderr)
    return build_compiled.extensions()


if __name__ == "__main__":  # as the backend runs it (the tests import it for _extensions)
    setup(ext_modules=_extensions(), cmdclass={"build_ext": _BuildOrFallBack})
