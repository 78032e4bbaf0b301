"""``bela serve`` in a real browser: headless Chromium (Debian's) driven by Playwright.

Slow (a browser, a web server and the app in a pseudo-terminal), so it is not part of
``make test``: ``make browser`` runs it. Single player: the page is opened, the app's
start screen comes up in the browser's terminal, Ctrl+N deals a new match, and Enter is
pressed until the player (seat 0) has played a card; the app's autosave (written after
every action) must then hold it. At a table (``bela serve --join``): the tab sits down at
a table of ``bela host --no-play``, starts the match and plays a card; the host's save of
the table must then hold it.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from bela.archive.records import loads

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


def _page_address(server: subprocess.Popen[str]) -> str:
    """The address ``bela serve`` prints: the page opens only there (it carries its key)."""
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"http://\S+\?key=\S+", line)
    assert found, f"bela serve printed no page address: {line!r}"
    return found.group(0)


def _open_app(page: object, address: str) -> None:
    """Open the served page, press its Start button if it shows one, focus the terminal."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    page.goto(address)
    start = page.locator("#start")
    if start.is_visible():
        start.click()
    page.wait_for_selector(".xterm", timeout=30_000)
    time.sleep(3)  # the app starts in its pseudo-terminal and draws its first screen
    page.locator(".xterm").click()


def _seat_0_played_at_a_table(data_dir: Path) -> bool:
    """Whether the host's save of its table holds a card played by seat 0."""
    import json

    for path in (data_dir / "tables").glob("*.json"):
        try:
            rounds = json.loads(path.read_text())["record"]["rounds"]
        except (OSError, ValueError, KeyError):
            continue  # caught mid-replace: read again next time
        for round_ in rounds:
            for entry in round_["actions"]:
                action = entry["action"]
                if entry["seat"] == 0 and action != "dalje" and not action.startswith("call"):
                    return True
    return False


def test_a_browser_tab_takes_a_seat_at_a_hosted_table(tmp_path: Path) -> None:
    """bela serve --join: the tab is a seat at a table hosted by bela host --no-play; it sits
    down first, so it starts the match (g), and plays a card with Enter."""
    host_data, web_data = tmp_path / "host", tmp_path / "web"
    host_env = dict(os.environ, BELA_DATA_DIR=str(host_data))
    host = subprocess.Popen(
        [sys.executable, "-m", "bela", "host", "--no-play", "--port", "0", "--bots", "random"],
        env=host_env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert host.stdout is not None
    line = ""
    while "Table open at" not in line:
        line = host.stdout.readline()
        assert line, "the host ended early"
    address, code = line.split()[3], line.split()[-1]
    port = _free_port()
    web_env = dict(os.environ, BELA_DATA_DIR=str(web_data), BELA_CONFIG_DIR=str(tmp_path / "c"))
    server = subprocess.Popen(
        [sys.executable, "-m", "bela", "serve", "--port", str(port), "--join", address, code],
        env=web_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        _wait_for_port(port)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            _open_app(page, _page_address(server))
            deadline = time.monotonic() + 90
            while not _seat_0_played_at_a_table(host_data):
                assert time.monotonic() < deadline, "no card was played from the browser"
                page.keyboard.press("g")  # start (refused once started: harmless)
                page.keyboard.press("Enter")
                time.sleep(0.7)
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
        host.terminate()
        host.wait(10)


def test_a_browser_starts_a_round_and_plays_a_card(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    env = dict(os.environ, BELA_DATA_DIR=str(data_dir), BELA_CONFIG_DIR=str(tmp_path / "config"))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "bela", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        _wait_for_port(port)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            _open_app(page, _page_address(server))
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
