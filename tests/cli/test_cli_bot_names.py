"""The bots' names from the settings on the command line, and names a bot may not take
(issue #34)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from archived import archive, random_match

from bela.cli import main
from bela.settings import (
    SettingsError,
    clean_bot_name,
    load_settings,
    parse_settings,
    settings_path,
)


def _name_bots(config_dir: Path, names: list[str]) -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps({"schema_version": 1, "bot_names": names}))


def test_replay_names_the_bots_as_the_settings_do(
    config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = archive(random_match(5, steps=40))
    _name_bots(config_dir, ["Zora", "Mile", "Vesna"])
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Zora" in out or "Mile" in out or "Vesna" in out
    assert not any(name in out for name in ("Ivo", "Marko"))


def test_the_puzzles_name_the_bots_as_the_settings_do(
    config_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from bela.wording import seat_name

    _name_bots(config_dir, ["Zora", "Mile", "Vesna"])
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["puzzles", "--stats"]) == 0
    capsys.readouterr()
    assert [seat_name(s) for s in (1, 2, 3)] == ["Zora", "Mile", "Vesna"]


@pytest.mark.parametrize("name", ["You", "you", "Ti", "Tú", "Ты", "你", "أنت"])
def test_a_bot_may_not_be_called_you_in_any_language(name: str, config_dir: Path) -> None:
    with pytest.raises(ValueError, match="what the table calls you"):
        clean_bot_name(name)
    settings = json.dumps({"schema_version": 1, "bot_names": [name, "Mile", "Vesna"]})
    with pytest.raises(SettingsError):
        parse_settings(settings.encode())
    _name_bots(config_dir, [name, name, name])
    loaded = load_settings()  # an edited file with three "You" is set aside, in one line
    assert loaded.notice is not None and "bot_names" in loaded.notice
    assert loaded.settings.bot_names == ("Ivo", "Marko", "Ana")


def test_a_bot_may_take_any_other_name() -> None:
    assert clean_bot_name("  Youri ") == "Youri"
