"""The settings file (issue #13): round trip, bad files set aside, failed writes said once.

Every test has its own ``BELA_CONFIG_DIR`` (``tests/conftest.py``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bela import settings as settings_module
from bela.cli.options import HOUSE_RULES
from bela.engine import Rules
from bela.settings import (
    RULE_CHOICES,
    SCHEMA_VERSION,
    Settings,
    SettingsStore,
    load_settings,
    rules_summary,
    save_settings,
    settings_path,
)

EVERYTHING_CHANGED = Settings(
    target=163,
    difficulty="hard",
    bot_delay=0.2,
    auto_bela=False,
    theme="nord",
    reduced_motion=True,
    rules=Rules(**{c.field: c.value for c in RULE_CHOICES}),  # type: ignore[arg-type]
)


def asides(config_dir: Path) -> list[Path]:
    return sorted(p for p in config_dir.iterdir() if p.name != "settings.json")


def test_the_path_follows_the_environment(config_dir: Path) -> None:
    assert settings_path() == config_dir / "settings.json"


def test_no_file_is_the_defaults_quietly() -> None:
    loaded = load_settings()
    assert loaded.settings == Settings() and loaded.notice is None and not loaded.found


def test_round_trip_of_every_setting(config_dir: Path) -> None:
    assert save_settings(EVERYTHING_CHANGED) is None
    data = json.loads(settings_path().read_text(encoding="utf-8"))
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["rules"]["stiglja_bonus"] == 100 and data["rules"]["dosta"] is True
    loaded = load_settings()
    assert loaded.settings == EVERYTHING_CHANGED and loaded.notice is None and loaded.found
    assert [p.name for p in config_dir.iterdir()] == ["settings.json"]  # no temp file left


def test_a_short_file_takes_defaults_for_what_it_leaves_out() -> None:
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text('{"schema_version": 1, "target": 501}', encoding="utf-8")
    assert load_settings().settings == Settings(target=501)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"{not json", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b"[]", "not a JSON object"),
        (b'{"target": 501}', "schema_version"),
        (b'{"schema_version": 1, "target": 500}', "target cannot be '500'"),
        (b'{"schema_version": 1, "auto_bela": 1}', "auto_bela cannot be '1'"),
        (b'{"schema_version": 1, "bot_delay": 1e999}', "bot_delay"),
        (b'{"schema_version": 1, "theme": "a\\u001b[2Jb"}', "theme"),
        (b'{"schema_version": 1, "volume": 11}', "unknown setting 'volume'"),
        (b'{"schema_version": 1, "rules": {"dosta": "yes"}}', "dosta"),
        (b'{"schema_version": 1, "rules": {"stiglja_bonus": 95}}', "stiglja_bonus"),
        (b'{"schema_version": 1, "rules": {"three_players": true}}', "three_players"),
        # issue #34: integers beyond a double, and other numbers no check expected
        (b'{"schema_version": 1, "bot_delay": 1' + b"0" * 400 + b"}", "bot_delay"),
        (b'{"schema_version": 1, "bot_delay": -1' + b"0" * 400 + b"}", "bot_delay"),
        (b'{"schema_version": 1, "bot_delay": NaN}', "bot_delay"),
        (b'{"schema_version": 1, "bot_delay": -Infinity}', "bot_delay"),
        (b'{"schema_version": 1, "bot_delay": "0.5"}', "bot_delay"),
        (b'{"schema_version": 1, "target": 1' + b"0" * 400 + b"}", "target"),
        (b'{"schema_version": 1, "target": 1001.0}', "target"),
        (b'{"schema_version": 1, "rules": {"stiglja_bonus": 1' + b"0" * 400 + b"}}", "stiglja"),
        (b'{"schema_version": 1' + b"0" * 400 + b"}", "schema_version"),
        pytest.param(
            b'{"schema_version": 1, "bot_names": ' + b"[" * 30_000 + b"]" * 30_000 + b"}",
            "JSON",
            id="nested-30000-deep",
        ),
    ],
)
def test_a_damaged_file_is_set_aside_with_one_line(
    config_dir: Path, content: bytes, reason: str
) -> None:
    config_dir.mkdir()
    settings_path().write_bytes(content)
    loaded = load_settings()
    assert loaded.settings == Settings() and not loaded.found and loaded.writable
    assert loaded.notice is not None and reason in loaded.notice, loaded.notice
    assert "\n" not in loaded.notice and "\x1b" not in loaded.notice
    (aside,) = asides(config_dir)
    assert aside.name.startswith("settings.corrupt-") and aside.read_bytes() == content
    assert not settings_path().exists()
    assert str(aside) in loaded.notice


def test_a_file_from_a_newer_bela_is_set_aside_not_overwritten(config_dir: Path) -> None:
    config_dir.mkdir()
    newer = json.dumps({"schema_version": SCHEMA_VERSION + 1, "sound": "loud"}).encode()
    settings_path().write_bytes(newer)
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert loaded.notice is not None and "newer bela" in loaded.notice
    (aside,) = asides(config_dir)
    assert aside.name.startswith("settings.newer-") and aside.read_bytes() == newer
    assert save_settings(Settings(target=501)) is None  # the defaults' changes are saved anew
    assert aside.read_bytes() == newer


def test_a_directory_in_the_files_place_is_moved_aside(config_dir: Path) -> None:
    settings_path().mkdir(parents=True)
    loaded = load_settings()
    assert loaded.notice is not None and "directory" in loaded.notice
    (aside,) = asides(config_dir)
    assert aside.name.startswith("settings.unreadable-") and aside.is_dir()


def test_a_bad_file_that_cannot_be_moved_is_left_and_never_saved_over(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_dir.mkdir()
    settings_path().write_bytes(b"{broken")

    def refuse(path: Path, kind: str) -> Path:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(settings_module, "move_aside", refuse)
    store = SettingsStore.load()
    assert store.notice is not None and "nor moved aside" in store.notice
    assert not store.writable
    assert store.change(target=501) is None  # said at startup; not said again
    assert store.saved.target == 501  # this run goes on with the change
    assert settings_path().read_bytes() == b"{broken"


def test_a_failed_write_is_said_once_and_leaves_the_old_file(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests run as root, so a read-only directory would not stop them: the write fails here."""
    assert save_settings(Settings(target=701)) is None
    before = settings_path().read_bytes()
    real_replace = os.replace

    def denied(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(settings_module.os, "replace", denied)
    store = SettingsStore.load()
    problem = store.change(target=501)
    assert problem is not None and "could not save the settings" in problem
    assert "Permission denied" in problem and "\n" not in problem
    assert store.change(difficulty="hard") is None  # the same failure: not said again
    assert settings_path().read_bytes() == before
    assert [p.name for p in config_dir.iterdir()] == ["settings.json"]  # temp file removed
    monkeypatch.setattr(settings_module.os, "replace", real_replace)
    assert store.change(auto_bela=False) is None  # works again: everything changed is saved
    assert load_settings().settings == Settings(target=501, difficulty="hard", auto_bela=False)


def test_only_what_changed_is_written_over_the_file() -> None:
    """A flag's value for one run never reaches the file: the store only writes changes."""
    save_settings(Settings(target=701, difficulty="easy"))
    store = SettingsStore.load()
    assert store.change(bot_delay=1.2) is None
    assert load_settings().settings == Settings(target=701, difficulty="easy", bot_delay=1.2)


def test_the_house_rules_have_the_names_of_the_command_line() -> None:
    assert [c.name for c in RULE_CHOICES] == list(HOUSE_RULES)
    for choice in RULE_CHOICES:
        assert HOUSE_RULES[choice.name][0] == {choice.field: choice.value}


def test_rules_summary() -> None:
    assert rules_summary(Rules()) == "standard"
    assert rules_summary(Rules(dosta=True, stiglja_bonus=100)) == "štiglja 100, na dosta"


def test_temp_files_of_saves_cut_short_are_removed_on_load(config_dir: Path) -> None:
    """``kill -9`` during a save leaves its ``.settings.*.tmp`` (issue #24, 5): the next start
    removes those old enough that no window can still be writing them, and nothing else."""
    from bela.foundation.files import write_temp

    save_settings(EVERYTHING_CHANGED)
    text = EVERYTHING_CHANGED.to_json()
    cut_short = [write_temp(config_dir, text, ".settings.") for _ in range(13)]
    writing_now = write_temp(config_dir, text, ".settings.")
    others = [config_dir / ".other.tmp", config_dir / "settings.corrupt-1.json"]
    old = os.stat(writing_now).st_mtime - 3600  # an hour: long dead
    for path in others:
        path.write_text("{}")
    for path in [*cut_short, *others]:
        os.utime(path, (old, old))
    loaded = SettingsStore.load()
    assert loaded.saved == EVERYTHING_CHANGED and loaded.notice is None
    assert not any(path.exists() for path in cut_short)
    assert writing_now.exists() and all(path.exists() for path in others)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ({"schema_version": None}, "schema_version je 'None', a to nije verzija"),
        ({"schema_version": 1, "colour": 1}, "nepoznata postavka 'colour'"),
        ({"schema_version": 1, "target": 2}, "target ne može biti '2'"),
        ({"schema_version": 1, "rules": {"visi": 3}}, "kućno pravilo visi je true ili false"),
        ({"schema_version": 99}, "zapisala ju je novija bela (schema_version 99; ova čita"),
    ],
)
def test_a_damaged_files_reason_is_in_the_players_language(
    config_dir: Path, content: dict[str, object], reason: str
) -> None:
    """Issue #35: the notice was Croatian around an English reason ("(schema_version is
    'None', not a version)"); the reason is a sentence of the player's language too."""
    from bela.i18n import set_language

    config_dir.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps(content), encoding="utf-8")
    set_language("hr")
    try:
        notice = load_settings().notice
    finally:
        set_language("en")
    assert notice is not None and reason in notice, notice
    assert notice.startswith("Postavke se ne mogu koristiti (")
    english = ("not a version", "unknown setting", "cannot be", "true or false, not", "written by")
    assert not [words for words in english if words in notice]
