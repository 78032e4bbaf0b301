"""Issue #37: keys remappable in settings.json (Textual's keymap, by binding id), with the
per-language collision check of the shipped letters applied to every remap."""

from __future__ import annotations

import json
from pathlib import Path

from tui_pilot import make_app, settle, table

from bela.engine import Pass
from bela.keys import ACTIONS, checked_keymap
from bela.settings import Settings, parse_settings


def _keymap(config_dir: Path, keymap: dict[str, str]) -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    data = {"schema_version": 1, "keymap": keymap}
    (config_dir / "settings.json").write_text(json.dumps(data), encoding="utf-8")


async def test_a_remapped_key_says_dalje(config_dir: Path) -> None:
    _keymap(config_dir, {"pass": "f12"})
    app = make_app(seed=7, language="en")
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        await pilot.press("p")  # dalje's own letter no longer says it
        await pilot.pause()
        rnd = screen.match.current
        assert rnd is not None and not rnd.bids
        await pilot.press("f12")
        await pilot.pause()
        rnd = screen.match.current
        assert rnd is not None and rnd.bids and rnd.bids[0] == (0, Pass())


async def test_a_colliding_remap_is_refused_in_one_line_and_changes_nothing(
    config_dir: Path,
) -> None:
    """x hands a seat to a bot at a network table while trump is named: not dalje too."""
    _keymap(config_dir, {"pass": "x"})
    app = make_app(seed=7, language="en")
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        said = [str(n.message) for n in app._notifications]
        assert any(
            m == "keymap: x cannot be Dalje: in English it is Seat to a bot already; "
            "Dalje keeps its letter"
            for m in said
        ), said
        screen = table(app)
        await pilot.press("x")
        await pilot.pause()
        rnd = screen.match.current
        assert rnd is not None and not rnd.bids
        await pilot.press("p")  # still dalje
        await pilot.pause()
        rnd = screen.match.current
        assert rnd is not None and rnd.bids and rnd.bids[0] == (0, Pass())


def test_a_remap_is_checked_in_every_language() -> None:
    """v is free in English, but a Croatian puzzle's theme, and dalje answers a puzzle."""
    used, problems = checked_keymap({"pass": "v", "hint": "f12"})
    assert used == {"hint": "f12"}
    assert problems == [
        "keymap: v cannot be Dalje: in Hrvatski it is Theme already; Dalje keeps its letter"
    ]


def test_unknown_ids_and_odd_keys_and_the_tables_own_keys_are_refused() -> None:
    used, problems = checked_keymap({"hnt": "f12", "hint": "ctrl + b", "dosta": "enter"})
    assert used == {}
    assert len(problems) == 3
    assert problems[0].startswith("keymap: 'hnt' is not a binding id")
    assert all(p.count("\n") == 0 for p in problems)


def test_every_binding_id_can_be_remapped_to_a_free_key() -> None:
    for action in ACTIONS:
        assert checked_keymap({action: "f12"}) == ({action: "f12"}, [])


def test_the_keymap_is_kept_in_the_settings_file() -> None:
    settings = parse_settings(b'{"schema_version": 1, "keymap": {"hint": "f12"}}')
    assert settings.keymap == (("hint", "f12"),)
    assert parse_settings(settings.to_json().encode()) == settings
    assert json.loads(Settings().to_json())["keymap"] == {}


def test_the_readme_lists_every_binding_id() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    listed = ", ".join(f"`{action}`" for action in ACTIONS)
    assert " ".join(listed.split()) in " ".join(readme.split())
