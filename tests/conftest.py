"""Every test gets its own config directory: the player's saved settings never leak in or out.

Without this, a test run would read (and the app would write) the settings of
whoever runs the tests, and a setting saved by one test would change the next.
Likewise every test starts in English whatever the locale of whoever runs them
(``bela.i18n`` reads LANGUAGE, LC_ALL, LC_MESSAGES and LANG); a test that wants
another language says so (``--lang``, ``language=``, or its own environment).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bela.deck import set_deck
from bela.i18n import set_language
from bela.settings import DEFAULT_BOT_NAMES
from bela.wording import set_bot_names, set_player_name


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bela-config"
    monkeypatch.setenv("BELA_CONFIG_DIR", str(path))
    return path


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    set_language("en")
    set_bot_names(DEFAULT_BOT_NAMES)  # a test that names the bots leaves them to itself
    set_player_name("")  # and the player's name (F2)
    set_deck(None)  # and the French deck (a test of mađarice, or bela --deck, leaves it)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--progress-line",
        action="store_true",
        help="one line of progress (done/total, time gone and to go) instead of dots",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # on the controller and every xdist worker alike: they must agree on the order
    if config.getoption("progress_line"):
        from progress_line import spread

        items[:] = spread(items)


def pytest_configure(config: pytest.Config) -> None:
    # the controller counts; pytest-xdist's workers (which have workerinput) only run tests
    if config.getoption("progress_line") and not hasattr(config, "workerinput"):
        from progress_line import ProgressLine

        config.pluginmanager.register(ProgressLine(config), "progress-line")
