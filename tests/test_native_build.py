"""Which build runs (issue #26): the compiled one only when it is whole and current.

A stale compiled module would run yesterday's rules, so a source newer than its compiled file
sends every module to the pure build; so does a module never compiled, and ``BELA_PURE``.
These build a fake source tree (a source and an empty "extension" file per module) and ask
``bela.foundation.native`` what it would choose there.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from bela.foundation import native


def fake_tree(root: Path, compiled: bool = True, checkout: bool = True) -> None:
    """Sources (and extensions) under ``root``; a checkout has build_compiled.py beside it."""
    if checkout:
        root.parent.mkdir(parents=True, exist_ok=True)
        (root.parent / "build_compiled.py").write_text("")
    for name in native.COMPILED:
        source = root.joinpath(*name.split(".")).with_suffix(".py")
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("")
        os.utime(source, (1_000, 1_000))
        if compiled:
            ext = source.with_name(source.stem + EXTENSION_SUFFIXES[0])
            ext.write_bytes(b"")
            os.utime(ext, (2_000, 2_000))


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    fake_tree(tmp_path / "src")
    return tmp_path / "src"


def test_a_whole_current_build_is_chosen(tree: Path) -> None:
    chosen = native._why_pure(tree)
    assert chosen.compiled
    assert str(chosen) == "engine and search compiled with mypyc"


def test_one_edited_source_makes_the_whole_build_pure(tree: Path) -> None:
    os.utime(tree / "bela" / "engine" / "tricks.py", (3_000, 3_000))
    chosen = native._why_pure(tree)
    assert (chosen.compiled, chosen.reason, chosen.module) == (False, "stale", "bela.engine.tricks")


def test_one_module_not_compiled_makes_the_whole_build_pure(tree: Path) -> None:
    for path in native.compiled_files("bela.search.solver", tree):
        path.unlink()
    chosen = native._why_pure(tree)
    assert (chosen.compiled, chosen.reason) == (False, "absent")


def test_no_compiled_files_at_all_is_the_pure_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    fake_tree(tmp_path / "src", compiled=False)
    assert native._why_pure(tmp_path / "src").reason == "absent"


def test_an_installed_wheel_is_compiled_whatever_order_its_files_were_written_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip writes a wheel's files in its own order: a source written after its extension is
    not an edit there (a wheel is never edited), so the compiled build runs (issue #37)."""
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    site = tmp_path / "lib" / "site-packages"
    fake_tree(site, checkout=False)
    os.utime(site / "bela" / "engine" / "tricks.py", (3_000, 3_000))
    assert not native.in_checkout(site)
    assert native._why_pure(site).compiled


@pytest.mark.parametrize("value", ["1", "yes"])
def test_bela_pure_forces_the_pure_build(
    tree: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(native.PURE_ENV, value)
    assert native._why_pure(tree).reason == "forced"


def test_bela_pure_0_does_not(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.PURE_ENV, "0")
    assert native._why_pure(tree).compiled


def test_only_the_module_s_own_extension_files_count(tree: Path) -> None:
    src = tree / "bela" / "engine"
    (src / "round_extra.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    found = native.compiled_files("bela.engine.round", tree)
    assert [p.name for p in found] == ["round" + EXTENSION_SUFFIXES[0]]


def test_without_a_c_compiler_nothing_is_built_and_make_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """build_compiled.py on a machine without cc: it says so, removes any old build, exits 0
    (make play and make test go on, pure), and 1 only when asked to insist (--require)."""
    root = Path(native.__file__).resolve().parents[3]
    monkeypatch.syspath_prepend(str(root))
    import build_compiled

    monkeypatch.setattr(build_compiled.shutil, "which", lambda name: None)
    removed: list[bool] = []
    monkeypatch.setattr(build_compiled, "remove_compiled", lambda: removed.append(True) or 0)
    monkeypatch.setattr(build_compiled, "build", lambda: pytest.fail("built without a compiler"))
    assert build_compiled.compiler() is not None
    monkeypatch.setattr(sys, "argv", ["build_compiled.py"])
    assert build_compiled.main() == 0
    assert "no C compiler" in capsys.readouterr().out and removed == [True]
    monkeypatch.setattr(sys, "argv", ["build_compiled.py", "--require"])
    assert build_compiled.main() == 1


def test_cc_in_the_environment_is_the_compiler_looked_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """setuptools compiles with ``$CC`` when it is set: a ``CC`` that is not there means no
    compiler (said, and the build is pure), not a compiler error halfway through the build."""
    root = Path(native.__file__).resolve().parents[3]
    monkeypatch.syspath_prepend(str(root))
    import build_compiled

    monkeypatch.setenv("CC", "/nonexistent/cc -O2")
    assert build_compiled.compiler() == "no C compiler (/nonexistent/cc, from CC)"
    monkeypatch.setattr(build_compiled, "remove_compiled", lambda: 0)
    monkeypatch.setattr(build_compiled, "build", lambda: pytest.fail("built without a compiler"))
    monkeypatch.setattr(sys, "argv", ["build_compiled.py"])
    assert build_compiled.main() == 0
    assert "no C compiler (/nonexistent/cc, from CC): bela runs as pure Python" in (
        capsys.readouterr().out
    )
    monkeypatch.setenv("CC", sys.executable)  # a program that is there: it is the compiler
    assert "no C compiler" not in str(build_compiled.compiler())


def test_clean_removes_makes_mark_too_so_make_builds_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After ``build_compiled.py --clean`` the next ``make play`` or ``make test`` compiles
    again: make's mark (``build/.compiled``) goes with the compiled files, or make would take
    the build as done and run pure Python with no word of it."""
    root = Path(native.__file__).resolve().parents[3]
    monkeypatch.syspath_prepend(str(root))
    import build_compiled

    mark = tmp_path / "build" / ".compiled"
    mark.parent.mkdir()
    mark.touch()
    monkeypatch.setattr(build_compiled, "ROOT", tmp_path)
    monkeypatch.setattr(build_compiled, "remove_compiled", lambda: 0)
    monkeypatch.setattr(sys, "argv", ["build_compiled.py", "--clean"])
    assert build_compiled.main() == 0
    assert not mark.exists()
