"""Install bela the ways a player does, each into a fresh venv outside the tree, and play it.

``make install-check`` (CI runs it): builds the sdist and the wheel (``python -m build``; the
wheel is built from the sdist, as an index's installer would), installs each into its own new
venv, and runs the installed ``bela``:

- ``bela --version`` says ``compiled with mypyc`` where a C compiler is present, else pure;
- ``bela replay --seed 42 --round 1`` prints the same round as every other install (the builds
  give identical results);
- ``bela puzzles --json --count 1`` reads one puzzle from the shipped pack;
- ``bela play --plain --lang hr``, answered ``q``, speaks Croatian (the translations shipped).

Then the same from the sdist with ``CC`` pointing nowhere: the pure build, said so. Where
``pipx`` or ``uv`` is on the PATH, ``pipx install`` and ``uv tool install`` of the clone too
(their homes in the scratch folder). Everything is installed from PyPI and the tree, nothing
else; the player's own settings and saves are never touched (``HOME`` and ``XDG_*`` point into
the scratch folder, which is removed at the end). About three minutes with a compiler on two
cores (two compiled builds: the wheel, and the install from the sdist).

Run: ``python tools/install_check.py [--keep]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOWHERE = "/nonexistent/cc"
REPLAY = ["replay", "--seed", "42", "--round", "1"]

sys.path.insert(0, str(ROOT))
from build_compiled import compiler  # noqa: E402


class Failed(Exception):
    """One check did not hold: the message says which and what was seen."""


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    """``cmd``'s standard output; its whole output in the error when it fails."""
    result = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise Failed(
            f"{' '.join(cmd)} exited {result.returncode}:\n{result.stdout[-3000:]}"
            f"{result.stderr[-3000:]}"
        )
    return result.stdout


def environment(scratch: Path, cc: str | None) -> dict[str, str]:
    """The process environment with a home of its own, English, and ``CC`` when given."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BELA_", "VIRTUAL_ENV"))}
    home = scratch / "home"
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_STATE_HOME=str(home / "state"),
        LANGUAGE="en",
        LC_ALL="C.UTF-8",
        PYTHONDONTWRITEBYTECODE="1",
    )
    env.pop("CC", None)
    if cc is not None:
        env["CC"] = cc
    # pip's own cache stays the machine's: the dependencies come from it or PyPI
    env.setdefault("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip"))
    return env


def play(bela: Path, scratch: Path, env: dict[str, str], compiled: bool, label: str) -> str:
    """Run the installed ``bela`` three ways; the replay's text, to compare across installs."""
    version = run([str(bela), "--version"], scratch, env).strip()
    said = "compiled with mypyc" in version
    if said != compiled:
        want = "compiled" if compiled else "pure"
        raise Failed(f"{label}: expected the {want} build, bela --version says: {version}")
    replay = run([str(bela), *REPLAY], scratch, env)
    if "Round 1" not in replay:
        raise Failed(f"{label}: bela {' '.join(REPLAY)} printed no round:\n{replay[:2000]}")
    puzzles = json.loads(run([str(bela), "puzzles", "--json", "--count", "1"], scratch, env))
    if not (isinstance(puzzles, list) and len(puzzles) == 1 and puzzles[0].get("actions")):
        raise Failed(f"{label}: bela puzzles --json --count 1 gave {str(puzzles)[:500]}")
    # the translations are in the wheel: a plain-mode start in Croatian, saved and left
    plain = subprocess.run(
        [str(bela), "play", "--plain", "--seed", "1", "--lang", "hr"],
        cwd=scratch,
        env=env,
        input="q\n",
        capture_output=True,
        text=True,
    )
    if plain.returncode != 0 or "Spremljeno" not in plain.stdout:
        raise Failed(f"{label}: bela play --plain --lang hr said:\n{plain.stdout[-1500:]}")
    print(f"  {label}: {version}; replay, puzzles and plain mode in hr ok", flush=True)
    return replay


def fresh_venv(path: Path, env: dict[str, str]) -> Path:
    """A new venv at ``path`` with a current pip; its python."""
    run([sys.executable, "-m", "venv", str(path)], path.parent, env)
    python = path / "bin" / "python"
    run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], path.parent, env)
    return python


def install_and_play(scratch: Path, name: str, what: str, cc: str | None, compiled: bool) -> str:
    """Install ``what`` (a wheel, an sdist) into a fresh venv ``name``; play it."""
    env = environment(scratch, cc)
    python = fresh_venv(scratch / name, env)
    start = time.monotonic()
    run([str(python), "-m", "pip", "install", "--quiet", what], scratch, env)
    print(f"  {name}: installed in {time.monotonic() - start:.0f} s", flush=True)
    return play(scratch / name / "bin" / "bela", scratch, env, compiled, name)


def check(scratch: Path) -> None:
    has_compiler = compiler() is None
    print(
        "a C compiler is present: the compiled build, then the pure one (CC nowhere)"
        if has_compiler
        else f"{compiler()}: the pure build only",
        flush=True,
    )
    env = environment(scratch, None)
    tools = fresh_venv(scratch / "tools", env)
    run([str(tools), "-m", "pip", "install", "--quiet", "build"], scratch, env)
    dist = scratch / "dist"
    start = time.monotonic()
    run([str(tools), "-m", "build", "--outdir", str(dist), str(ROOT)], scratch, env)
    wheels = sorted(dist.glob("*.whl"))
    sdists = sorted(dist.glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        raise Failed(f"python -m build made {[p.name for p in dist.iterdir()]}")
    wheel, sdist = wheels[0], sdists[0]
    pure_tag = wheel.name.endswith("-py3-none-any.whl")
    print(f"  built {sdist.name} and {wheel.name} in {time.monotonic() - start:.0f} s")
    if pure_tag == has_compiler:
        raise Failed(f"{wheel.name}: a {'pure' if pure_tag else 'compiled'} wheel, not expected")

    replays = {
        "wheel": install_and_play(scratch, "wheel", str(wheel), None, has_compiler),
        "sdist": install_and_play(scratch, "sdist", str(sdist), None, has_compiler),
        "sdist-no-cc": install_and_play(scratch, "sdist-no-cc", str(sdist), NOWHERE, False),
    }
    for tool, install in tool_installs(scratch).items():
        replays[tool] = install()
    first = next(iter(replays.values()))
    differ = [name for name, text in replays.items() if text != first]
    if differ:
        raise Failed(f"the replay differs between installs: {differ}")
    print(f"every install printed the same replay ({len(replays)} installs)")


def tool_installs(scratch: Path) -> dict[str, Callable[[], str]]:
    """``pipx install`` and ``uv tool install`` of the clone, where they are on the PATH."""
    found: dict[str, Callable[[], str]] = {}
    env = environment(scratch, None)
    has_compiler = compiler() is None
    if shutil.which("pipx"):
        pipx_env = {
            **env,
            "PIPX_HOME": str(scratch / "pipx"),
            "PIPX_BIN_DIR": str(scratch / "pipx-bin"),
        }

        def pipx() -> str:
            run(["pipx", "install", str(ROOT)], scratch, pipx_env)
            return play(scratch / "pipx-bin" / "bela", scratch, env, has_compiler, "pipx")

        found["pipx"] = pipx
    else:
        print("  pipx: not on the PATH, not tried")
    if shutil.which("uv"):
        uv_env = {
            **env,
            "UV_TOOL_DIR": str(scratch / "uv-tools"),
            "UV_TOOL_BIN_DIR": str(scratch / "uv-bin"),
        }

        def uv() -> str:
            run(["uv", "tool", "install", str(ROOT)], scratch, uv_env)
            return play(scratch / "uv-bin" / "bela", scratch, env, has_compiler, "uv tool")

        found["uv"] = uv
    else:
        print("  uv: not on the PATH, not tried")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bela-install-check-"))
    start = time.monotonic()
    try:
        check(scratch)
    except Failed as exc:
        print(f"install check FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"install check passed in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
