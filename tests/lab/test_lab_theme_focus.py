"""A generation run aimed at the themes a pack lacks (``GenSettings.focus``, ``pack_run
--focus``): which moments it judges, and that the names are the themes' own."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from theme_deals import CLUB_DEAL, FOLLOW_DEAL, VOID_DEAL
from theme_deals import deal as _round

from bela.engine import Round
from bela.foundation.puzzle_themes import THEMES
from bela.lab import pack_run, puzzle_gen
from bela.lab.puzzle_gen import GenSettings, puzzles_of_deal
from bela.lab.puzzle_themes import CHANCE_THEMES, theme_chances, theme_moment


def test_the_chances_are_named_by_the_themes_they_look_for() -> None:
    assert set(CHANCE_THEMES) <= set(THEMES) and len(set(CHANCE_THEMES)) == len(CHANCE_THEMES)
    assert "partner-void" in theme_chances(_round(VOID_DEAL, "AS 8S 7H 7S QD KD AD 9D"))
    assert "unblock" in theme_chances(_round(CLUB_DEAL, "AS 8S 7H 7S AC 7C"))
    follow = _round(FOLLOW_DEAL, "AS 8S 7S QS")
    assert "partner-void" not in theme_chances(follow)
    assert not theme_chances(_round(VOID_DEAL, "AS 8S 7H 7S QD"))  # one legal card


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_focused_run_judges_only_moments_of_its_themes(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    focus = frozenset({"partner-void", "unblock", "drive-out-ace"})
    looked: list[frozenset[str]] = []

    def look(rnd: Round, rng: Random, wanted: object = None) -> None:
        looked.append(theme_chances(rnd))
        return None  # judge nothing: only which moments were asked for counts here

    monkeypatch.setattr(puzzle_gen, "_look", look)
    puzzles_of_deal(seed, GenSettings(bids=False, focus=focus, variety=False))
    assert looked and all(chances & focus for chances in looked)
    unfocused: list[frozenset[str]] = []
    monkeypatch.setattr(
        puzzle_gen, "_look", lambda rnd, rng, wanted=None: unfocused.append(theme_chances(rnd))
    )
    puzzles_of_deal(seed, GenSettings(bids=False, variety=False))
    # the unfocused run judges the same moments and more: chance moments of no theme
    assert len(unfocused) > len(looked) and any(not c for c in unfocused)
    assert sum(1 for c in unfocused if c & focus) == len(looked)


def test_theme_moment_is_any_chance() -> None:
    for rnd in (
        _round(VOID_DEAL, "AS 8S 7H 7S QD KD AD 9D"),
        _round(FOLLOW_DEAL, "AS 8S 7S QS"),
        _round(VOID_DEAL, "AS 8S 7H"),
    ):
        assert theme_moment(rnd) == bool(theme_chances(rnd))


def test_pack_run_refuses_an_unknown_focus(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    with pytest.raises(SystemExit) as stop:
        pack_run.main(
            [str(tmp_path / "out.jsonl"), "--seed", "1", "--deals", "1", "--focus", "bela,nope"]
        )
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--focus: unknown themes nope" in err and not (tmp_path / "out.jsonl").exists()
