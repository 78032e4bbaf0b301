"""``bela serve`` in a real browser: headless Chromium (Debian's) driven by Playwright.

Slow (a browser, a web server and the app in a pseudo-terminal), so it is not part of
``make test``: ``make browser`` runs it. The page is opened, the app's start screen
comes up in the browser's terminal, Ctrl+N deals a new match, and Enter is pressed
until the player (seat 0) has played a card; the app's autosave (written after every
action) must then hold a card played by seat 0.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from bela.records import loads

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"nothing listens on {port}")


def _card_by_seat_0(data_dir: Path) -> bool:
    path = data_dir / "autosave.json"
    if not path.exists():
        return False
    try:
        record = loads(path.read_bytes())
    except ValueError:
        return False  # caught mid-replace: read again next time
    return any(
        entry.seat == 0
        and entry.action not in ("dalje", "dosta")
        and not entry.action.startswith("call")
        for round_ in record.rounds
        for entry in round_.actions
    )


def test_a_browser_starts_a_round_and_plays_a_card(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    env = dict(os.environ, BELA_DATA_DIR=str(data_dir), BELA_CONFIG_DIR=str(tmp_path / "config"))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "bela", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"http://127.0.0.1:{port}")
            start = page.locator("#start")
            if start.is_visible():
                start.click()
            page.wait_for_selector(".xterm", timeout=30_000)
            time.sleep(3)  # the app starts in its pseudo-terminal and draws the start screen
            page.locator(".xterm").click()
            page.keyboard.press("Control+n")
            deadline = time.monotonic() + 90
            while not _card_by_seat_0(data_dir):
                assert time.monotonic() < deadline, "no card was played from the browser"
                page.keyboard.press("Enter")  # dalje (or trump when it must), then a card
                time.sleep(0.7)
            page.screenshot(path=os.environ.get("BELA_BROWSER_SHOT", str(tmp_path / "played.png")))
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
