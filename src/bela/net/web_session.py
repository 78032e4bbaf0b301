"""One browser page at the public server (``bela server --web-port``): a guest in the lobby.

textual-serve starts this module for every page that opens its websocket, with the
serving process's whole environment (its HOME, its data directory, whatever secrets its
environment holds). This module is the gate between: it makes a directory of the page's
own, starts ``bela online`` over localhost as a guest in it with an environment built from
nothing but what Python needs (``PASSED_ON``), the web driver's variables and that
directory as HOME, data and config, and removes the directory when the page closes.

So a browser player reaches the lobby and the tables it seats them at, and of the server
machine nothing but the app itself: settings, history and keys it writes stay in the
page's directory and go with it. A guest has no key, so a page is never an account: it
plays unrated tables, like ``bela online --guest`` (an account in the browser would need
its key kept in the browser, which textual-serve's page cannot hold).

Run as ``python -m bela.net.web_session PORT``.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from bela.archive.storage import DATA_DIR_ENV
from bela.foundation.native import PURE_ENV
from bela.settings import CONFIG_DIR_ENV

__all__ = ["PASSED_ON", "guest_name", "main", "session_command", "session_env"]

PASSED_ON: Final = ("PATH", "PYTHONPATH", PURE_ENV)
"""Of the serving process's environment, only where Python and bela are and which build
to run (as the SSH door passes on)."""
WEB_DRIVER: Final = ("TEXTUAL_", "COLUMNS", "LINES", "TERM_PROGRAM")
"""What textual-serve sets for the app to talk to the page (prefixes)."""


def session_env(home: Path, inherited: Mapping[str, str]) -> dict[str, str]:
    """The page's app's environment: ``PASSED_ON`` and the web driver's variables of
    ``inherited``, the page's own directory as HOME, data and config; nothing else."""
    env = {key: inherited[key] for key in PASSED_ON if key in inherited}
    env.update({k: v for k, v in inherited.items() if k.startswith(WEB_DRIVER)})
    env.update(
        {
            "HOME": str(home),
            DATA_DIR_ENV: str(home / "data"),
            CONFIG_DIR_ENV: str(home / "config"),
        }
    )
    return env


def guest_name() -> str:
    """A browser guest's name: "Gost" (guest) and 24 bits from ``secrets``, so two pages do
    not ask for one name."""
    return f"Gost-{secrets.token_hex(3)}"


def session_command(port: int, name: str) -> list[str]:
    # --name=... in one word: a name is never read as an option
    return [
        sys.executable,
        "-m",
        "bela",
        "online",
        f"127.0.0.1:{port}",
        "--guest",
        f"--name={name}",
    ]


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].isdigit():
        print("usage: python -m bela.net.web_session PORT", file=sys.stderr)
        return 2
    home = Path(tempfile.mkdtemp(prefix="bela-web-guest-"))
    try:
        done = subprocess.run(
            session_command(int(argv[0]), guest_name()),
            env=session_env(home, os.environ),
            cwd=home,
            check=False,
        )
        return done.returncode
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover - textual-serve starts it for a page
    sys.exit(main(sys.argv[1:]))
