"""One browser page at the public server (``bela server --web-port``): an account the
browser keeps, or a guest.

textual-serve starts this module for every page that opens its websocket, with the
serving process's whole environment (its HOME, its data directory, whatever secrets its
environment holds). This module is the gate between: it starts ``bela online`` over
localhost with an environment built from nothing but what Python needs (``PASSED_ON``),
the web driver's variables and the page's own directory as HOME, data and config.

- **A returning browser** (``PORT HOMES HASH``, the page served over TLS with the
  browser's account cookie, whose SHA-256 is ``HASH``, ``bela.net.web_accounts``): when
  ``HOMES/HASH`` holds a key, ``bela online`` runs there without ``--guest``: it signs in
  with that key, as the same account every time, and what it writes (settings, history)
  stays in that home.
- **A new browser** (the same arguments, no home yet): a guest in a directory of its own,
  removed when the page closes, that may become an account: ``WEB_HOME_ENV`` names the
  home, which the app makes (and keeps the new key in) when the player picks a name
  (``n`` in the lobby). Until then nothing is made for the page.
- **A page over plain HTTP** (``PORT --plain``) or without the cookie (``PORT``): a guest
  only, as ``bela online --guest``; the lobby says why (``WEB_PLAIN_ENV``).

So a browser player reaches the lobby and the tables it seats them at, and of the server
machine nothing but the app itself and their own home.

Run as ``python -m bela.net.web_session PORT [--plain | HOMES HASH]``.
"""

from __future__ import annotations

import ipaddress
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
from bela.net.web_accounts import WEB_HOME_ENV, WEB_PLAIN_ENV, has_key, home_of
from bela.settings import CONFIG_DIR_ENV

__all__ = ["PASSED_ON", "guest_name", "keep", "main", "session_command", "session_env"]

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


def session_command(port: int, name: str, guest: bool = True, host: str = "127.0.0.1") -> list[str]:
    """``bela online`` at the server's port on ``host`` (the server's own address: localhost,
    or the one ``--listen`` binds); ``name``: the guest's, or a new account's should the key
    have none (the server's own data was lost)."""
    # --name=... in one word: a name is never read as an option
    return [
        sys.executable,
        "-m",
        "bela",
        "online",
        f"{host}:{port}",
        *(["--guest"] if guest else []),
        f"--name={name}",
    ]


def _usage() -> int:
    print(
        "usage: python -m bela.net.web_session [ADDRESS:]PORT [--plain | HOMES HASH]",
        file=sys.stderr,
    )
    return 2


def _address(text: str) -> tuple[str, int] | None:
    """``PORT`` (on localhost) or ``ADDRESS:PORT`` with an IP address: where the server listens."""
    host, _, port = text.rpartition(":")
    if not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    if not host:
        return "127.0.0.1", int(port)
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        return None
    return host, int(port)


def main(argv: list[str]) -> int:
    where = _address(argv[0]) if argv else None
    if where is None or len(argv) > 3:
        return _usage()
    (host, port), web = where, {}
    if argv[1:] == ["--plain"]:
        web[WEB_PLAIN_ENV] = "1"
    elif len(argv) == 3:
        root = Path(argv[1])
        try:
            home = home_of(root, argv[2])
        except ValueError:
            return _usage()
        if has_key(home):  # the browser's account: its home, kept
            os.utime(home)
            done = subprocess.run(
                session_command(port, guest_name(), guest=False, host=host),
                env=session_env(home, os.environ),
                cwd=home,
                check=False,
            )
            return done.returncode
        web[WEB_HOME_ENV] = str(home)
    elif len(argv) != 1:
        return _usage()
    return _guest(host, port, web)


def _guest(host: str, port: int, web: dict[str, str]) -> int:
    """A guest in a temporary directory, removed when the page closes; ``web``: what the
    app is told of the page (``WEB_HOME_ENV`` or ``WEB_PLAIN_ENV``)."""
    home = Path(tempfile.mkdtemp(prefix="bela-web-guest-"))
    try:
        env = session_env(home, os.environ) | web
        done = subprocess.run(
            session_command(port, guest_name(), host=host), env=env, cwd=home, check=False
        )
        if WEB_HOME_ENV in web:
            keep(home, Path(web[WEB_HOME_ENV]))
        return done.returncode
    finally:
        shutil.rmtree(home, ignore_errors=True)


def keep(guest: Path, home: Path) -> None:
    """The player became an account during this page (the home holds its key): what the
    guest's directory holds (the matches played, the settings) goes to the home, where
    the account's next pages find it; anything the home has already stays."""
    if not has_key(home):
        return
    for part in ("data", "config"):
        source = guest / part
        if not source.is_dir():
            continue
        for entry in source.iterdir():
            target = home / part / entry.name
            if not target.exists() and not entry.is_symlink():
                target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                shutil.move(entry, target)


if __name__ == "__main__":  # pragma: no cover - textual-serve starts it for a page
    sys.exit(main(sys.argv[1:]))
