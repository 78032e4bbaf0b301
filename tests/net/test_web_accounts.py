"""Issue #39: a browser's account at the public server is a cookie and a home named by its
hash. The cookie is 32 bytes from ``secrets``; the home is the cookie's SHA-256 (never the
cookie, never a path of the client's) under an owner-only directory; a malformed cookie
names no home; a home is made only when the player picks a name, and one whose sign-in
never happened is swept away."""

from __future__ import annotations

import base64
import hashlib
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bela.net.web_accounts import (
    COOKIE_MAX_AGE,
    KEY_PATH,
    has_key,
    home_name,
    home_of,
    homes_root,
    make_home,
    new_cookie,
    sweep,
    well_formed,
)
from bela.net.web_door import page_command
from bela.net.web_session import keep, main


def test_a_cookie_is_32_bytes_from_secrets_and_new_each_time() -> None:
    cookies = {new_cookie() for _ in range(200)}
    assert len(cookies) == 200
    for cookie in cookies:
        assert well_formed(cookie)
        assert len(base64.urlsafe_b64decode(cookie + "=")) == 32
    assert COOKIE_MAX_AGE >= 365 * 24 * 3600


@pytest.mark.parametrize(
    "bad",
    [None, "", "x" * 42, "x" * 44, "../../etc/passwd", "a/" * 21 + "a", "é" * 43, "x" * 42 + "="],
)
def test_a_malformed_cookie_names_no_home(bad: str | None) -> None:
    assert not well_formed(bad)
    assert page_command("web_session 4713", Path("/srv/homes"), True, bad) == "web_session 4713"


def test_the_home_is_the_cookies_hash_and_never_the_cookie(tmp_path: Path) -> None:
    cookie = new_cookie()
    name = home_name(cookie)
    assert name == hashlib.sha256(cookie.encode()).hexdigest()
    home = home_of(tmp_path, name)
    assert home.parent == tmp_path and cookie not in str(home)
    command = page_command("web_session 4713", tmp_path, True, cookie)
    assert command == f"web_session 4713 {tmp_path} {name}" and cookie not in command


@given(st.text(max_size=80))
def test_no_name_but_a_hash_reaches_a_home(name: str) -> None:
    root = Path("/srv/bela/web-homes")
    try:
        home = home_of(root, name)
    except ValueError:
        return
    assert home.parent == root and len(home.name) == 64


def test_over_plain_http_the_page_is_a_guest_and_its_cookie_is_not_read() -> None:
    cookie = new_cookie()
    assert page_command("s 1", Path("/h"), False, cookie) == "s 1 --plain"
    assert page_command("s 1", None, True, cookie) == "s 1"  # bela serve: no accounts


def test_the_homes_directory_is_owner_only(tmp_path: Path) -> None:
    (tmp_path / "web-homes").mkdir(mode=0o755)
    root = homes_root(tmp_path)
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    home = home_of(root, home_name(new_cookie()))
    assert make_home(home) and not make_home(home)  # a second tab finds it made
    assert stat.S_IMODE(home.stat().st_mode) == 0o700


def _with_key(home: Path) -> None:
    key = home.joinpath(*KEY_PATH)
    key.parent.mkdir(parents=True, exist_ok=True)
    key.write_text("key")


def test_a_home_whose_sign_in_never_happened_is_swept_and_accounts_stay(tmp_path: Path) -> None:
    root = homes_root(tmp_path)
    stale, fresh, account = (home_of(root, home_name(new_cookie())) for _ in range(3))
    other = root / "notes"
    for home in (stale, fresh, account, other):
        home.mkdir()
    _with_key(account)
    hour_ago = 1_000_000.0
    for home in (stale, account, other):
        os.utime(home, (hour_ago, hour_ago))
    assert sweep(root, now=hour_ago + 3601) == 1
    assert not stale.exists() and fresh.exists() and account.exists() and other.exists()
    assert has_key(account) and not has_key(fresh)


def test_a_guest_who_became_an_account_keeps_what_the_page_wrote(tmp_path: Path) -> None:
    guest, home = tmp_path / "guest", tmp_path / "home"
    (guest / "data").mkdir(parents=True)
    (guest / "data" / "history.jsonl").write_text("match")
    (guest / "config").mkdir()
    (guest / "config" / "settings.json").write_text("{}")
    keep(guest, home)  # no key: not an account, nothing moved
    assert not home.exists()
    _with_key(home)
    keep(guest, home)
    assert (home / "data" / "history.jsonl").read_text() == "match"
    assert (home / "config" / "settings.json").exists() and has_key(home)


@pytest.mark.parametrize(
    "argv", [[], ["x"], ["4713", "--other"], ["4713", "/h", "../../etc"], ["1", "2", "3", "4"]]
)
def test_the_session_refuses_odd_arguments(argv: list[str]) -> None:
    assert main(argv) == 2
