"""A browser's account at the public server (``bela server --web-port``): a cookie, and a
home named by its hash.

A browser page cannot hold a key (textual-serve's page is a terminal, nothing more), so the
server keeps it: per browser, a home directory under the server's data directory
(``web-homes/``, owner-only) whose ``config/`` holds the account's Ed25519 key, as a
``bela online`` player's config directory does. The browser holds a cookie of 32 bytes
from ``secrets`` (HttpOnly, Secure, SameSite=Strict, 400 days); the home is named by the
cookie's SHA-256, never by the cookie itself, so the directory listing (or a backup of it)
gives nobody a way in, and a client names no path: whatever it sends, it reaches the home
of that value's hash or none.

The cookie is set only over TLS (``Secure``; over plain HTTP it would travel in clear, so
such a page stays a guest). A home is made only when the page's player picks a name for
the account (``make_home``), not when a page is opened, so a flood of pages makes no
directories; a home whose sign-in never happened (no key in it) is removed when that
sign-in fails and, left behind by a process that died, by ``sweep`` when the page's door
starts (an hour old or more).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import Final

__all__ = [
    "ACCOUNT_COOKIE",
    "COOKIE_MAX_AGE",
    "HOMES_DIR",
    "WEB_HOME_ENV",
    "WEB_PLAIN_ENV",
    "drop_home",
    "has_key",
    "home_name",
    "home_of",
    "homes_root",
    "make_home",
    "new_cookie",
    "sweep",
    "well_formed",
]

ACCOUNT_COOKIE: Final = "bela_account"
COOKIE_BYTES: Final = 32
COOKIE_MAX_AGE: Final = 400 * 24 * 3600
"""400 days, the longest a browser keeps a cookie (Chromium caps Max-Age there); set again
at every visit, so an account used within that time is never forgotten."""
HOMES_DIR: Final = "web-homes"
WEB_HOME_ENV: Final = "BELA_WEB_HOME"
"""Set by ``bela.net.web_session`` for a guest page that may become an account: the home
``make_home`` makes when the player picks a name."""
WEB_PLAIN_ENV: Final = "BELA_WEB_PLAIN"
"""Set (to 1) for a page served over plain HTTP: a guest, and the page says why."""
KEY_PATH: Final = ("config", "online_key.pem")
"""Where ``bela online`` keeps the key in a home (``BELA_CONFIG_DIR`` is ``config``;
``bela.net.identity.KEY_FILE``, not imported: this module needs no cryptography)."""
STALE_SECONDS: Final = 3600
"""A home without a key this old is a sign-in that never happened (``sweep``)."""

_COOKIE = re.compile(r"[A-Za-z0-9_-]{43}")
_HOME = re.compile(r"[0-9a-f]{64}")


def new_cookie() -> str:
    """A browser's account cookie: 32 bytes from ``secrets``, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(COOKIE_BYTES)


def well_formed(cookie: str | None) -> bool:
    """Whether ``cookie`` is one ``new_cookie`` could have made (anything else is replaced
    by a fresh one, and never names a home)."""
    return cookie is not None and _COOKIE.fullmatch(cookie) is not None


def home_name(cookie: str) -> str:
    """The home's name: the cookie's SHA-256 in hex (the cookie itself is kept nowhere)."""
    return hashlib.sha256(cookie.encode("ascii")).hexdigest()


def homes_root(data: Path) -> Path:
    """``web-homes`` in the server's data directory, made owner-only (0700)."""
    root = data / HOMES_DIR
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(root, 0o700)
    return root


def home_of(root: Path, name: str) -> Path:
    """The home named ``name`` under ``root``; ``ValueError`` unless ``name`` is a hash
    (64 hex digits): no path, no ``..``, nothing of the client's."""
    if _HOME.fullmatch(name) is None:
        raise ValueError("a browser's home is named by 64 hex digits")
    return root / name


def has_key(home: Path) -> bool:
    """Whether the home holds an account's key (the player signed in as an account)."""
    return home.joinpath(*KEY_PATH).is_file()


def make_home(home: Path) -> bool:
    """Make ``home`` (0700) for an account about to be made; False when it was there
    already (another tab of the same browser made it: its key is the account)."""
    try:
        home.mkdir(mode=0o700)
    except FileExistsError:
        return False
    return True


def drop_home(home: Path) -> None:
    """Remove a home whose account was never made (its sign-in was refused)."""
    shutil.rmtree(home, ignore_errors=True)


def sweep(root: Path, now: float | None = None, stale: float = STALE_SECONDS) -> int:
    """Remove the homes under ``root`` that hold no key and are older than ``stale``
    seconds (a process died between making the home and signing in); returns how many.
    Homes with a key are accounts and stay."""
    now = time.time() if now is None else now
    removed = 0
    try:
        entries = list(root.iterdir())
    except OSError:
        return 0
    for entry in entries:
        if _HOME.fullmatch(entry.name) is None or not entry.is_dir() or entry.is_symlink():
            continue
        try:
            old = now - entry.stat().st_mtime > stale
        except OSError:
            continue
        if old and not has_key(entry):
            drop_home(entry)
            removed += 1
    return removed
