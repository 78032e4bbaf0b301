"""``bela server --web-port`` in a real browser (issue #39): a browser's account.

Headless Chromium (Debian's) driven by Playwright, against a real ``bela server`` over
HTTPS with its own certificate (the browser told to accept it, as a player accepts the
warning). A new browser is a guest; ``n`` and a name make it an account, whose key is
kept in the home named by the cookie's hash; the same browser's next page signs in as
that account, by the key alone; another browser is a guest again. Over ``--web-http`` the
page is a guest and sets no cookie. ``BELA_SHOTS=DIR`` keeps screenshots of each step.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _until(check: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.3)


@contextmanager
def _server(tmp_path: Path, *extra: str) -> Iterator[tuple[int, Path]]:
    """A real ``bela server --web-port``; yields the page's port and its standard error."""
    port, web = _free_port(), _free_port()
    err = tmp_path / "err.txt"
    env = dict(os.environ, BELA_DATA_DIR=str(tmp_path / "d"), BELA_CONFIG_DIR=str(tmp_path / "c"))
    command = [sys.executable, "-m", "bela", "server", "--data", str(tmp_path / "srv")]
    command += ["--port", str(port), "--web-port", str(web), *extra]
    with err.open("w") as sink:
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=sink)
    try:
        _until(lambda: "listening:" in err.read_text(), "the server did not start")
        time.sleep(1.0)
        yield web, err
    finally:
        server.terminate()
        server.wait(30)


def _lobby(page: Page, url: str, shots: Path | None, name: str) -> None:
    page.goto(url)
    page.wait_for_selector(".xterm", timeout=30_000)
    time.sleep(6)  # the app starts, signs in and draws the lobby
    page.locator(".xterm").click()
    if shots is not None:
        page.screenshot(path=str(shots / f"{name}.png"))


def _signed(err: Path) -> list[str]:
    return [
        line for line in err.read_text().splitlines() if ": login: " in line or ": guest: " in line
    ]


def test_a_browser_becomes_an_account_and_comes_back_as_it(tmp_path: Path) -> None:
    shots = Path(os.environ["BELA_SHOTS"]) if os.environ.get("BELA_SHOTS") else None
    with _server(tmp_path) as (web, err), sync_playwright() as playwright:
        url = f"https://127.0.0.1:{web}/"
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        first = browser.new_context(
            ignore_https_errors=True, viewport={"width": 1400, "height": 900}
        )
        page = first.new_page()
        _lobby(page, url, shots, "1-new-browser-guest")
        cookies = first.cookies()
        assert [c["name"] for c in cookies] == ["bela_account"]
        cookie = cookies[0]
        assert cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Strict"
        _until(lambda: any("guest: Gost-" in line for line in _signed(err)), "no guest signed in")
        homes = tmp_path / "srv" / "web-homes"
        assert not any(homes.iterdir())  # a page alone makes no home
        page.keyboard.press("n")
        time.sleep(1.0)
        page.keyboard.type("Zora")
        page.keyboard.press("Enter")
        _until(lambda: any(line.endswith("login: Zora") for line in _signed(err)), "no Zora")
        time.sleep(1.0)
        if shots is not None:
            page.screenshot(path=str(shots / "2-named-zora.png"))
        made = list(homes.iterdir())
        assert len(made) == 1 and len(made[0].name) == 64
        assert cookie["value"] not in made[0].name
        assert (made[0] / "config" / "online_key.pem").is_file()
        page.close()
        time.sleep(2.0)
        before = len(_signed(err))
        again = first.new_page()  # the same browser, another day
        _lobby(again, url, shots, "3-same-browser-again")
        _until(lambda: len(_signed(err)) > before, "the returning page did not sign in")
        assert all(line.endswith("login: Zora") for line in _signed(err)[before:])
        again.close()
        time.sleep(2.0)
        before = len(_signed(err))
        other = browser.new_context(
            ignore_https_errors=True, viewport={"width": 1400, "height": 900}
        )
        _lobby(other.new_page(), url, shots, "4-another-browser")
        _until(lambda: len(_signed(err)) > before, "the other browser did not sign in")
        assert all("guest: Gost-" in line for line in _signed(err)[before:])
        assert len(list(homes.iterdir())) == 1
        browser.close()


def test_over_plain_http_a_page_is_a_guest_and_keeps_no_cookie(tmp_path: Path) -> None:
    shots = Path(os.environ["BELA_SHOTS"]) if os.environ.get("BELA_SHOTS") else None
    with _server(tmp_path, "--web-http") as (web, err), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        _lobby(context.new_page(), f"http://127.0.0.1:{web}/", shots, "5-plain-http-guest")
        assert context.cookies() == []
        _until(lambda: any("guest: Gost-" in line for line in _signed(err)), "no guest signed in")
        browser.close()
