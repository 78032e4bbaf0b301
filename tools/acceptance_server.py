"""Issue #39's acceptance run, for real and repeatable: four players at a rated 501.

Run by hand (``make server-acceptance``; not in ``make test``): it starts ``bela server``
with the SSH door and the browser page, then four players, each the way a stranger comes:

- Ana over real OpenSSH (``ssh -p SSH -i KEY Ana@127.0.0.1``) in a tmux window,
- Ivo and Marko with ``bela online 127.0.0.1:PORT`` in tmux windows (each with its own
  ``BELA_CONFIG_DIR``, so its own key and account),
- Eva in the browser: headless Chromium (Playwright) on the server's page, the terminal read
  from xterm.js's own buffer (the page's script is handed a line that names the terminal)
  and keys typed with the page's keyboard.

Ivo creates a rated table to 501 in the lobby (``c``, the dialog's choices), the others find
it in their lobby list and sit down by its number, Ivo starts it (``g``). Then every screen
is read in turn and answered with keys a player would press: a bid (a suit or dalje) when
the screen says it is our turn to name trump, a card that is not dimmed (its number, then
Enter) when it is our turn to play, Enter or Esc for the moments (zvanja, bela, the round's
summary). Mid-round a client is killed (SIGKILL; the page closed) and started again, first
Ana's ``ssh``, a round later Eva's page (``--drop``): each must be seated back, hand and
all, without a key. With ``--workers 4`` (and a real
PostgreSQL and Redis: ``bash tools/server_check.sh python tools/acceptance_server.py
--workers 4``, which exports ``BELA_TEST_POSTGRES`` and ``BELA_TEST_REDIS``) the worker
holding the table is killed (SIGKILL) mid-match instead, and every client must come back
by itself (no key is pressed until all four are back). Each player's page is read before
and after (``bela online --guest --player``): the ratings must have moved. Then each player
quits the finished table (Ctrl+Q), comes again and opens the leaderboard in the lobby.

Everything it sees is printed, and each client's last screen is kept in the run's
directory (``--keep`` keeps the directory; its path is printed). Exit status 0 only if the
match ended, the dropped client (or every client, after the worker's death) was seated
back, and the ratings moved.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
STARTED = time.monotonic()

CARD = re.compile(r"([│┃┆])(10|[7-9JQKA])([♥♦♠♣])\s?([│┃┆])")
"""A card's face in the hand: its border says whether it may be played (``┆``: dimmed)."""

MOMENTS = {
    "Any key: play on": "Escape",  # the zvanja moment
    "Card points": "Enter",  # a round's summary (its buttons' words may be cut off)
    "Bela! (Enter)": "Enter",
    "Declare (Enter)": "Enter",
    "Continue (Enter)": "Enter",  # a round's summary
    "Play on (Enter)": "Enter",  # the dosta question
    "Back (Esc)": "Escape",  # a page opened over the table (an analysis, the last trick)
}
"""What a dialog over the table says, and the key that answers it."""


def say(text: str) -> None:
    print(f"[{time.monotonic() - STARTED:7.1f}s] {text}", flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports (the workers sit on the ones after)."""
    for _ in range(200):
        first = random.randrange(20000, 60000)
        ok = True
        for port in range(first, first + count):
            with socket.socket() as probe:
                try:
                    probe.bind(("127.0.0.1", port))
                except OSError:
                    ok = False
                    break
        if ok:
            return first
    raise SystemExit("no free ports")


def wait_for_port(port: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit(f"nothing listens on {port}")


# ---------------------------------------------------------------- clients


class Client:
    """One player's screen and keyboard."""

    name: str
    kind: str

    def screen(self) -> list[str]:
        raise NotImplementedError

    def press(self, *keys: str) -> None:
        raise NotImplementedError

    def type_text(self, text: str) -> None:
        raise NotImplementedError

    def kill(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        raise NotImplementedError

    def text(self) -> str:
        return "\n".join(self.screen())


class Tmux:
    """A tmux server of the run's own (its own socket: nothing else of the machine's)."""

    def __init__(self, socket_name: str, width: int, height: int) -> None:
        self.socket, self.width, self.height = socket_name, width, height
        self.started = False

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False
        )
        return done.stdout

    def window(self, name: str, command: str) -> None:
        size = ["-x", str(self.width), "-y", str(self.height)]
        if not self.started:
            self.run("new-session", "-d", "-s", "acc", *size, "-n", name, command)
            self.run("set-option", "-g", "remain-on-exit", "on")
            self.started = True
        else:
            self.run("new-window", "-d", "-t", "acc", "-n", name, command)
        self.run("resize-window", "-t", f"acc:{name}", *size)

    def close(self) -> None:
        if self.started:
            socket_path = self.run("display-message", "-p", "#{socket_path}").strip()
            self.run("kill-server")
            if socket_path:  # tmux leaves the socket's file behind
                Path(socket_path).unlink(missing_ok=True)


class TmuxClient(Client):
    def __init__(self, tmux: Tmux, name: str, kind: str, command: str) -> None:
        self.tmux, self.name, self.kind, self.command = tmux, name, kind, command
        self.target = f"acc:{name}"

    def start(self) -> None:
        if self.tmux.run("list-windows", "-F", "#{window_name}").split().count(self.name):
            self.tmux.run("respawn-pane", "-k", "-t", self.target, self.command)
        else:
            self.tmux.window(self.name, self.command)

    def screen(self) -> list[str]:
        return self.tmux.run("capture-pane", "-p", "-t", self.target).splitlines()

    def press(self, *keys: str) -> None:
        for key in keys:
            self.tmux.run("send-keys", "-t", self.target, key)
            time.sleep(0.15)

    def type_text(self, text: str) -> None:
        self.tmux.run("send-keys", "-t", self.target, "-l", text)

    def pid(self) -> int:
        return int(self.tmux.run("display-message", "-p", "-t", self.target, "#{pane_pid}"))

    def ended(self) -> bool:
        return (
            self.tmux.run("display-message", "-p", "-t", self.target, "#{pane_dead}").strip() == "1"
        )

    def kill(self) -> None:
        pid = self.pid()
        say(f"{self.name}: SIGKILL to the {self.kind} client (pid {pid})")
        os.kill(pid, signal.SIGKILL)


XTERM_HOOK = "this.terminal=window.__belaTerminal=new "
READ_SCREEN = """() => {
  const t = window.__belaTerminal;
  if (!t) return null;
  const b = t.buffer.active, out = [];
  for (let i = 0; i < t.rows; i++) {
    const line = b.getLine(b.viewportY + i);
    out.push(line ? line.translateToString(true) : "");
  }
  return out;
}"""
BROWSER_KEYS = {"Up": "ArrowUp", "Down": "ArrowDown", "BTab": "Shift+Tab", "C-q": "Control+q"}


class BrowserClient(Client):
    """A page of the server's lobby in headless Chromium; one browser context, so one
    cookie jar: a page opened again is the same browser (the same account, once named)."""

    def __init__(self, name: str, address: str, context: Any) -> None:
        self.name, self.kind, self.address, self.context = name, "browser", address, context
        self.page: Any = None

    def start(self) -> None:
        page = self.context.new_page()

        def hooked(route: Any) -> None:
            response = route.fetch()
            body = response.text().replace("this.terminal=new ", XTERM_HOOK, 1)
            route.fulfill(response=response, body=body)

        page.route("**/textual.js", hooked)
        page.goto(self.address)
        start = page.locator("#start")
        if start.is_visible():
            start.click()
        page.wait_for_selector(".xterm", timeout=30_000)
        page.wait_for_function("() => window.__belaTerminal !== undefined", timeout=30_000)
        # focus without a click: a click is a mouse press in the app, on whatever is under
        # the page's centre (a dialog's button)
        page.evaluate("() => window.__belaTerminal.focus()")
        self.page = page
        size = page.evaluate("() => [window.__belaTerminal.cols, window.__belaTerminal.rows]")
        say(f"{self.name}: the page is open, its terminal {size[0]}x{size[1]}")

    def screen(self) -> list[str]:
        if self.page is None:
            return []
        try:
            lines = self.page.evaluate(READ_SCREEN)
        except Exception:  # the page is closing
            return []
        return list(lines or [])

    def press(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(BROWSER_KEYS.get(key, key))
            time.sleep(0.15)

    def type_text(self, text: str) -> None:
        self.page.keyboard.type(text, delay=50)

    def kill(self) -> None:
        say(f"{self.name}: the browser's page closed")
        self.close()

    def close(self) -> None:
        if self.page is not None:
            self.page.close()
            self.page = None


# ---------------------------------------------------------------- reading screens


def wait_for(client: Client, words: str, timeout: float = 60.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = client.screen()
        if any(words in line for line in lines):
            return lines
        time.sleep(0.4)
    dump(client, f"never showed {words!r}")
    raise SystemExit(f"{client.name}: the screen never showed {words!r}")


def dump(client: Client, why: str) -> None:
    say(f"{client.name}'s screen ({why}):")
    for line in client.screen():
        print("    | " + line.rstrip(), flush=True)


def hand(lines: list[str]) -> list[tuple[str, bool]]:
    """Our hand, left to right: each card and whether it may be played now."""
    top = next((i for i, line in enumerate(lines) if "(you)" in line and "·" in line), None)
    if top is None:
        return []
    found: list[tuple[int, str, bool]] = []
    for line in lines[top + 1 : top + 8]:
        cut = line.find("╭─ ", 40)  # the table talk's and the sheet's boxes on the right
        line = line if cut < 0 else line[:cut]
        for match in CARD.finditer(line):
            found.append((match.start(), match.group(2) + match.group(3), match.group(1) != "┆"))
    found.sort()
    return [(card, legal) for _col, card, legal in found]


def status(lines: list[str]) -> str:
    return next((line.split("  ")[0] for line in lines[:8] if "·" in line and "turn" in line), "")


class Player:
    """What the script knows of one seat: its client and what it last did."""

    def __init__(self, client: Client, rng: random.Random) -> None:
        self.client, self.rng = client, rng
        self.last_screen = ""
        self.acted_at = 0.0
        self.cards_played = 0

    def step(self) -> str | None:
        """Answer the screen once, if it asks something of us; what was done, or None."""
        lines = self.client.screen()
        text = "\n".join(lines)
        if text == self.last_screen and time.monotonic() - self.acted_at < 4:
            return None  # our last keys have not shown yet
        for words, key in MOMENTS.items():
            if words in text:
                return self._do(text, [key], f"{words!r}: {key}")
        line = status(lines)
        if "your turn" not in line:
            return None
        if "Trump not named yet" in line:
            key = self.rng.choice("hdscppp")
            return self._do(text, [key], "dalje" if key == "p" else f"trump {key}")
        cards = hand(lines)
        legal = [i for i, (_card, ok) in enumerate(cards) if ok]
        if "Enter plays" not in text or not legal:
            return None
        pick = self.rng.choice(legal)
        self.cards_played += 1
        return self._do(text, [str(pick + 1), "Enter"], f"plays {cards[pick][0]}")

    def _do(self, text: str, keys: list[str], what: str) -> str:
        self.client.press(*keys)
        self.last_screen, self.acted_at = text, time.monotonic()
        return what


# ---------------------------------------------------------------- the run


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.dir = Path(tempfile.mkdtemp(prefix="bela-acceptance-"))
        self.data = self.dir / "server"
        self.port = free_ports(args.workers + 1)
        self.ssh_port, self.web_port = free_port(), free_port()
        self.server: subprocess.Popen[bytes] | None = None
        self.tmux = Tmux(f"bela-acc-{os.getpid()}", args.width, args.height)
        self.bela = shlex.split(args.bela)
        self.web_scheme = "https" if args.https else "http"
        self.problems: list[str] = []

    # the server

    def start_server(self) -> None:
        command = [
            *self.bela,
            "server",
            "--data",
            str(self.data),
            "--port",
            str(self.port),
            "--ssh-port",
            str(self.ssh_port),
            "--web-port",
            str(self.web_port),
        ]
        if self.args.workers > 1:
            postgres, redis = (
                os.environ.get("BELA_TEST_POSTGRES"),
                os.environ.get("BELA_TEST_REDIS"),
            )
            if not postgres or not redis:
                raise SystemExit(
                    "--workers needs BELA_TEST_POSTGRES and BELA_TEST_REDIS: run it under "
                    "bash tools/server_check.sh"
                )
            command += ["--workers", str(self.args.workers), "--postgres", postgres]
            command += ["--redis", redis]
        say("server: " + shlex.join(command))
        log = (self.dir / "server.log").open("wb")
        self.server = subprocess.Popen(
            ["nice", *command], stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        wait_for_port(self.port)
        wait_for_port(self.ssh_port)
        wait_for_port(self.web_port)
        if self.args.workers > 1:
            for port in range(self.port + 1, self.port + 1 + self.args.workers):
                wait_for_port(port)
        say(f"server: listening on {self.port}, ssh {self.ssh_port}, web {self.web_port}")

    def server_log(self) -> str:
        return (self.dir / "server.log").read_text(errors="replace")

    def stop_server(self) -> None:
        if self.server is not None and self.server.poll() is None:
            os.killpg(self.server.pid, signal.SIGTERM)
            try:
                self.server.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.server.pid, signal.SIGKILL)

    # the clients

    def online_command(self, name: str, *extra: str) -> str:
        home = self.dir / name.lower()
        env = f"env BELA_CONFIG_DIR={home}/config BELA_DATA_DIR={home}/data"
        bela = shlex.join(self.bela)
        return f"{env} nice {bela} online 127.0.0.1:{self.port} --name {name} {shlex.join(extra)}"

    def ssh_command(self, name: str) -> str:
        key = self.dir / "ssh_key"
        if not key.exists():
            subprocess.run(
                ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True
            )
        options = (
            "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes"
        )
        return f"ssh -p {self.ssh_port} -i {key} {options} {name}@127.0.0.1"

    def ask(self, *request: str) -> str:
        """A reading of the server, as a player with the app would print it (a guest, so no
        account of ours is signed out by it)."""
        home = self.dir / "reader"
        env = dict(
            os.environ, BELA_CONFIG_DIR=str(home / "config"), BELA_DATA_DIR=str(home / "data")
        )
        command = [*self.bela, "online", f"127.0.0.1:{self.port}", "--guest", "--name", "Reader"]
        command += request
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        return (done.stdout + done.stderr).strip()

    def ratings(self, names: list[str]) -> dict[str, str]:
        """Each player's rating as their page gives it (``Ana: 1500? ± 350, ...``)."""
        found: dict[str, str] = {}
        for name in names:
            page = self.ask("--player", name).splitlines()
            found[name] = next((line for line in page if line.startswith(f"{name}: ")), "-")
        return found


def lobby_sit(player: Player, table_words: str) -> None:
    """In the lobby: read the list again until the table shows, then its number."""
    client = player.client
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        client.press("r")
        time.sleep(1.5)
        for line in client.screen():
            found = re.search(r"(\d)\. (\S+) · to 501 · rated · waiting", line)
            if found and table_words in line:
                say(f"{client.name} sees in the lobby: {' '.join(line.strip('█▊▎ ').split())}")
                client.press(found.group(1))
                wait_for(client, "(you)", 30)
                say(f"{client.name} sits at the table")
                return
    dump(client, "the table never showed")
    raise SystemExit(f"{client.name}: the table never showed in the lobby")


def create_table(player: Player) -> str:
    """Ivo's lobby: c, the target 501 (two up from 1001), Create; the table's id."""
    client = player.client
    client.press("c")
    wait_for(client, "A new table")
    client.press("Enter")
    time.sleep(0.8)
    client.press("Up", "Up", "Enter")
    time.sleep(0.5)
    client.press("BTab", "BTab", "Enter")
    lines = wait_for(client, "(you)", 30)
    title = next((line for line in lines if "Table to" in line), "")
    code = next((line for line in lines if "code" in line), "")
    say(f"{client.name} created: {title.strip()} {code.strip('│ ')}")
    if "501" not in title:
        raise SystemExit(f"{client.name}: the new table is not to 501: {title!r}")
    return title


@contextlib.contextmanager
def browser_context(headless: bool = True) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox"], headless=headless
        )
        context = browser.new_context(
            viewport={"width": 1000, "height": 700}, ignore_https_errors=True
        )
        try:
            yield context
        finally:
            browser.close()


def seated_back(player: Player, timeout: float) -> float:
    """Seconds until the client shows its seat at the table again (its hand, a moment)."""
    begun = time.monotonic()
    while time.monotonic() - begun < timeout:
        text = player.client.text()
        if re.search(r"\(you\).* · \d+ cards?", text) and "Round " in text:
            return time.monotonic() - begun
        if any(words in text for words in MOMENTS):
            return time.monotonic() - begun
        time.sleep(0.5)
    dump(player.client, "not back at the table")
    raise SystemExit(f"{player.client.name}: not back at the table after {timeout:.0f} s")


def round_number(lines: list[str]) -> int:
    for line in lines[:8]:
        found = re.search(r"Round (\d+) ·", line)
        if found:
            return int(found.group(1))
    return 0


def worker_pid(supervisor: int, port: int) -> int | None:
    """The worker process of the supervisor serving ``port`` (its command line names it)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            line = (proc / "cmdline").read_bytes().split(b"\0")
            stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ours = int(stat[1]) in (supervisor, *children(supervisor))
        if b"--worker-port" in line and str(port).encode() in line and ours:
            return int(proc.name)
    return None


def children(pid: int) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(proc.name))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--bela", default=str(ROOT / ".venv" / "bin" / "bela"))
    parser.add_argument("--width", type=int, default=100)
    parser.add_argument("--height", type=int, default=32)
    parser.add_argument(
        "--browser",
        choices=("seat", "watch"),
        default="seat",
        help="the browser sits at the table (an account: needs the HTTPS page) or watches",
    )
    parser.add_argument("--https", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument(
        "--drop",
        choices=("online", "ssh", "browser"),
        action="append",
        help="a client killed mid-round and started again (one process; again for more, "
        "each 40 cards after the one before; default: ssh, then browser)",
    )
    parser.add_argument("--drop-after", type=int, default=14, help="cards played before")
    parser.add_argument("--down", type=float, default=10.0, help="seconds the dropped is away")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=1500.0, help="seconds for the match")
    parser.add_argument("--keep", action="store_true", help="keep the run's directory")
    parser.add_argument("--moves", action="store_true", help="print every bid and card")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    run = Run(args)
    say(f"the run's directory: {run.dir}")
    try:
        with browser_context() as context:
            return play(run, context, rng)
    finally:
        run.tmux.close()
        run.stop_server()
        (run.dir / "server.log").exists() and print(
            "---- the server's log (its last 60 lines):\n"
            + "\n".join(run.server_log().splitlines()[-60:]),
            flush=True,
        )
        if not args.keep:
            shutil.rmtree(run.dir, ignore_errors=True)


def play(run: Run, context: Any, rng: random.Random) -> int:
    args = run.args
    run.start_server()
    web = f"{run.web_scheme}://127.0.0.1:{run.web_port}/"
    ana = TmuxClient(run.tmux, "Ana", "ssh", run.ssh_command("Ana"))
    ivo = TmuxClient(run.tmux, "Ivo", "online", run.online_command("Ivo"))
    marko = TmuxClient(run.tmux, "Marko", "online", run.online_command("Marko"))
    eva = BrowserClient("Eva", web, context)
    terminals: list[TmuxClient] = [ivo, ana, marko]
    if args.browser == "watch":  # a guest's page: a fourth bela online sits instead
        terminals.append(TmuxClient(run.tmux, "Luka", "online", run.online_command("Luka")))
    for client in terminals:
        client.start()
        say(f"{client.name} ({client.kind}): {client.command}")
    eva.start()
    for client in (*terminals, eva):
        wait_for(client, "Tables at", 60)
        say(f"{client.name}: in the lobby")
    if args.browser == "seat":
        eva.press("n")
        wait_for(eva, "name?")
        eva.type_text("Eva")
        eva.press("Enter")
        lines = wait_for(eva, "You are Eva now", 30)
        say("Eva (browser): " + next(line for line in lines if "You are" in line).strip("█ "))
    seated: list[Client] = [ivo, ana, eva, marko] if args.browser == "seat" else terminals
    players = {c.name: Player(c, random.Random(rng.random())) for c in seated}
    names = list(players)
    create_table(players["Ivo"])
    for player in players.values():
        if player.client is not ivo:
            lobby_sit(player, "Ivo (1500")
    before = run.ratings(names)
    say("before the match:\n    " + "\n    ".join(before.values()))
    ivo.press("g")
    wait_for(ivo, "Round 1", 30)
    say("Ivo started the match")
    if args.browser == "watch":
        watch(eva)
    drops = list(args.drop or ["ssh", "browser"]) if args.workers == 1 else ["worker"]
    if args.browser == "watch":
        drops = [kind for kind in drops if kind != "browser"] or ["online"]
    killed_at: float | None = None
    deadline = time.monotonic() + args.timeout
    total_cards = 0
    next_drop = args.drop_after
    last_round = 0
    while time.monotonic() < deadline:
        ended = [p for p in players.values() if "Match over (" in p.client.text()]
        if len(ended) == len(players):
            break
        for player in players.values():
            did = player.step()
            if did is not None and "plays" in did:
                total_cards += 1
            if did is not None and args.moves:
                say(f"{player.client.name}: {did}")
        current = round_number(ivo.screen())
        if current != last_round:
            last_round = current
            score = next((line for line in ivo.screen()[:6] if "Round" in line), "")
            say(f"{score.split('  ')[0]} (cards played so far {total_cards})")
        if drops and total_cards >= next_drop:
            kind = drops.pop(0)
            next_drop = total_cards + 40
            if kind == "worker":
                killed_at = kill_worker(run, players)
            else:
                drop_and_return(run, players, kind)
        time.sleep(0.3)
    else:
        for player in players.values():
            dump(player.client, "the match did not end in time")
        raise SystemExit("the match did not end in time")
    ended_at = time.monotonic()
    settle = time.monotonic() + 8  # the last round's summary closed, as a player would
    while time.monotonic() < settle:
        if all(p.step() is None for p in players.values()):
            time.sleep(0.5)
    for player in players.values():
        screen = player.client.screen()
        (run.dir / f"{player.client.name}.screen").write_text("\n".join(screen) + "\n")
        found = re.search(r"Match over \(\d+ : \d+\)", "\n".join(screen))
        said = found.group(0) if found else "(the end's line is covered)"
        say(f"{player.client.name} ({player.client.kind}) reads: {said}")
    if args.browser == "watch":
        dump(eva, "the watcher at the end")
    after = run.ratings(names)
    say("after the match:\n    " + "\n    ".join(after.values()))
    say("the leaderboard:\n    " + "\n    ".join(run.ask("--leaders").splitlines()))
    moved = [n for n in names if before.get(n) != after.get(n)]
    for name in names:
        page = run.ask("--player", name).splitlines()[1:6]
        say(f"{name}'s page:\n    " + "\n    ".join(page))
    leaders_in_the_app(players, ended_at)
    ok = len(moved) == len(names)
    if killed_at is not None:
        back = [n for n, p in players.items() if p.acted_at > killed_at]
        say(f"played on after the worker's death (by their own keys at their turns): {back}")
        log = run.server_log()
        say(
            "the server's log after the kill:\n    "
            + "\n    ".join(
                line for line in log.splitlines() if re.search(r"worker|back:|took|claim", line)
            )
        )
        ok = ok and len(back) == len(names)
    say("RATINGS MOVED for all four" if ok else f"ratings moved only for {moved}")
    return 0 if ok else 1


def quit_app(client: Client) -> None:
    """Ctrl+Q, as a player leaves the app; the page is closed after it."""
    client.press("C-q")
    if isinstance(client, TmuxClient):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not client.ended():
            time.sleep(0.3)
        if not client.ended():
            dump(client, "Ctrl+Q did not end the app within 15 s")
            client.kill()
    elif isinstance(client, BrowserClient):
        time.sleep(1.5)
        client.close()


def leaders_in_the_app(players: dict[str, Player], ended_at: float) -> None:
    """Each player quits the finished table (Ctrl+Q: the app has no way back to the lobby
    from a table), starts the client again and opens the leaderboard (l) in the lobby.
    Coming back within the minute the server keeps a finished table leads to that table
    again (its seat is still theirs, for još jednu): then they wait for it to close, quit
    and come again, as a player would."""
    begun = time.monotonic()
    for player in players.values():
        quit_app(player.client)
        player.client.start()
    pending = dict(players)
    while pending and time.monotonic() - begun < 180:
        for name, player in list(pending.items()):
            client, text = player.client, player.client.text()
            took = time.monotonic() - ended_at
            if "Tables at" in text:
                client.press("l")
                wait_for(client, "The leaderboard", 30)
                time.sleep(0.5)
                found = (re.search(r"\d+\. \S+ +\d+\??, \d+%", x) for x in client.screen())
                rows = [" ".join(m.group(0).split()) for m in found if m]
                say(
                    f"{name} ({client.kind}) in the lobby {took:.0f} s after the match; "
                    f"the leaderboard there: " + " | ".join(rows)
                )
                client.press("Escape")
                del pending[name]
            elif "The table has closed" in text:
                say(
                    f"{name} ({client.kind}): back at the finished table, which has closed "
                    f"{took:.0f} s after the match; Ctrl+Q and again"
                )
                quit_app(client)
                client.start()
            elif "Card points" in text:  # the last round's summary, shown again
                client.press("Enter")
        time.sleep(0.5)
    if pending:
        for player in pending.values():
            dump(player.client, "never in the lobby after the match")
        raise SystemExit(f"never in the lobby after the match: {list(pending)}")


def watch(client: Client) -> None:
    """The page watches the table (w on it in the lobby)."""
    client.press("r")
    time.sleep(1.5)
    client.press("w")
    lines = wait_for(client, "Round ", 30)
    say(f"{client.name} watches: " + next(line for line in lines if "Round " in line).strip())


def drop_and_return(run: Run, players: dict[str, Player], kind: str) -> None:
    victim = next(p for p in players.values() if p.client.kind == kind)
    client = victim.client
    hand_before = [card for card, _ok in hand(client.screen())]
    client.kill()
    time.sleep(run.args.down)
    others = [p.client.name for p in players.values() if p is not victim]
    say(f"{client.name} away for {run.args.down:.0f} s; {', '.join(others)} see:")
    for line in players[others[0]].client.screen()[:24]:
        if client.name in line or "away" in line.lower():
            print("    | " + line.rstrip(), flush=True)
    client.start()
    took = seated_back(victim, 90)
    hand_after: list[str] = []
    drawn = time.monotonic() + 5
    while not hand_after and time.monotonic() < drawn:  # the hand is drawn a moment later
        hand_after = [card for card, _ok in hand(client.screen())]
        time.sleep(0.3)
    say(
        f"{client.name} is back at the table {took:.1f} s after starting again, without a key "
        f"pressed; hand before {' '.join(hand_before)} / now {' '.join(hand_after)}"
    )


def kill_worker(run: Run, players: dict[str, Player]) -> float:
    listing = subprocess.run(
        [*run.bela, "server", "admin", "list", "--data", str(run.data)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    say("admin list:\n    " + "\n    ".join(listing.splitlines()))
    found = re.search(r"@127\.0\.0\.1:(\d+)", listing)
    if found is None and listing.split():  # an admin list without the worker: the log's
        table = re.escape(listing.split()[0])
        held = re.findall(rf"\[(\d+)\]: (?:start|resume|back): {table}", run.server_log())
        found = re.match(r"(\d+)", held[-1]) if held else None
    if not found or run.server is None:
        raise SystemExit("the table's worker is not in the admin list nor the log")
    port = int(found.group(1))
    pid = worker_pid(run.server.pid, port)
    if pid is None:
        raise SystemExit(f"no worker process for port {port}")
    say(f"SIGKILL to the worker on port {port} (pid {pid}), which holds the table")
    killed_at = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    # no key is pressed until every client is back: each must come back by itself
    lost: dict[str, float] = {}
    back: dict[str, float] = {}
    while len(back) < len(players) and time.monotonic() - killed_at < 120:
        for name, player in players.items():
            if name in back:
                continue
            text = player.client.text()
            now = time.monotonic() - killed_at
            reconnecting = "reconnecting with your seat" in text  # the line under the table
            if reconnecting and name not in lost:
                lost[name] = now
                line = next(x for x in text.splitlines() if "reconnecting with your seat" in x)
                say(f"{name} ({player.client.kind}) at {now:.1f} s: {line.split('  ')[0]}")
            elif name in lost and not reconnecting and status(text.splitlines()):
                back[name] = now
                turn = status(text.splitlines())
                say(f"{name} ({player.client.kind}) back at {now:.1f} s, no key pressed: {turn}")
        time.sleep(0.3)
    missing = [name for name in players if name not in back]
    if missing:
        for name in missing:
            dump(players[name].client, "not back after the worker's death")
        raise SystemExit(f"not back after the worker's death: {missing}")
    say(f"all four back at their seats {max(back.values()):.1f} s after the kill")
    return killed_at


if __name__ == "__main__":
    sys.exit(main())
