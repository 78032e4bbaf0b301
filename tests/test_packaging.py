"""bela installed the way terminal apps are (issue #37): a free name, compiled wheels, the data.

The whole install (sdist and wheel, with and without a compiler, into fresh venvs) is
``make install-check`` (tools/install_check.py, CI runs it): minutes, so not here. These pin
what decides it, cheaply: the package's name, which setup.py runs compile, and that every data
file the game reads is in the wheel.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pyproject() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def setup_module_() -> ModuleType:
    """setup.py imported, not run (it calls setup() only as the backend's __main__)."""
    spec = importlib.util.spec_from_file_location("bela_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_distribution_is_not_named_bela_and_the_command_is() -> None:
    """``pipx install bela`` installs another project (an annotation library): ours is
    croatian-bela on the index, and the command it installs is still bela."""
    from bela import DISTRIBUTION

    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert project["name"] == DISTRIBUTION == "croatian-bela"
    assert project["scripts"] == {"bela": "bela.cli:main"}


def test_the_build_backend_is_setuptools_with_mypyc() -> None:
    system = pyproject()["build-system"]
    assert isinstance(system, dict)
    assert system["build-backend"] == "setuptools.build_meta"
    assert any(req.startswith("mypy") for req in system["requires"])


def test_every_data_file_the_game_reads_is_in_the_wheel() -> None:
    """Translations, the puzzle pack, normal's bid model, the stylesheet: every file under
    src/bela that is not Python source matches the package data (or is a .po/.pot, which the
    game never reads)."""
    tool = pyproject()["tool"]
    assert isinstance(tool, dict)
    patterns = tool["setuptools"]["package-data"]["*"]
    tracked = subprocess.run(
        ["git", "ls-files", "src/bela"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    if not tracked:
        pytest.fail("git ls-files found no files: run from a clone")
    data = [Path(p) for p in tracked if not p.endswith((".py", ".po", ".pot"))]
    assert {p.name for p in data} >= {"bela.mo", "puzzles.jsonl.gz", "bid_weights.json"}
    missing = [p for p in data if not any(fnmatch.fnmatch(p.name, pat) for pat in patterns)]
    assert not missing


@pytest.mark.parametrize(
    "argv",
    [
        ["setup.py", "egg_info"],  # metadata, the build requirements
        ["setup.py", "dist_info"],
        ["setup.py", "sdist"],
        ["setup.py", "editable_wheel", "--dist-info-dir", "x"],  # make compiled's job
    ],
)
def test_only_a_wheel_or_an_install_compiles(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = setup_module_()
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setattr(
        setup.build_compiled, "extensions", lambda: pytest.fail(f"compiled for {argv[1]}")
    )
    assert setup._extensions() == []


def test_a_wheel_is_compiled_where_a_compiler_is_and_pure_where_not(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same recipe as make compiled (build_compiled.extensions); CC pointing nowhere, as
    install-check sets it, gives a pure wheel and says why, not a compiler error."""
    setup = setup_module_()
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setattr(setup.build_compiled, "extensions", lambda: ["the compiled modules"])
    monkeypatch.setattr(setup.build_compiled, "compiler", lambda: None)
    assert setup._extensions() == ["the compiled modules"]
    monkeypatch.undo()
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.setattr(setup.build_compiled, "extensions", lambda: pytest.fail("compiled"))
    assert setup._extensions() == []
    assert "no C compiler (/nonexistent/cc, from CC): a pure Python wheel" in (
        capsys.readouterr().err
    )
