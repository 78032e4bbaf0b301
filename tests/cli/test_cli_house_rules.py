"""``--rules`` and ``--target 163`` (issue #13): parsed into ``Rules``, handed to the app, the
seeded replay and the arena; refused with one line when they name nothing."""

from __future__ import annotations

import json
import random
import sys
from types import ModuleType
from typing import Any

import pytest

import bela.ai
import bela.cli.play
from bela.cli import main
from bela.cli.options import HOUSE_RULES, PlayOptions, ReplayOptions, parse
from bela.engine import Round, Rules


def test_each_house_rule_name_sets_its_field() -> None:
    expected = {
        "bela-second": Rules(bela_on_second=True),
        "no-zvanja": Rules(no_zvanja=True),
        "no-bela": Rules(no_bela=True),
        "bela-always": Rules(bela_always_counts=True),
        "stiglja-100": Rules(stiglja_bonus=100),
        "dosta": Rules(dosta=True),
        "visi": Rules(visi=True),
        "tens-over-kings": Rules(tens_over_kings=True),
        "clockwise": Rules(clockwise=True),
        "hide-tricks": Rules(hide_played_tricks=True),
        "no-forced-trump": Rules(no_forced_trump=True),
    }
    assert set(HOUSE_RULES) == set(expected)
    for name, rules in expected.items():
        options = parse(["play", "--rules", name])
        assert isinstance(options, PlayOptions) and options.rules == rules


def test_names_combine_in_any_case_with_spaces() -> None:
    options = parse(["play", "--rules", " Dosta, stiglja-100 ,BELA-SECOND"])
    assert isinstance(options, PlayOptions)
    assert options.rules == Rules(dosta=True, stiglja_bonus=100, bela_on_second=True)
    standard = parse(["play", "--rules", "standard"])
    assert isinstance(standard, PlayOptions) and standard.rules == Rules()
    unset = parse(["play"])
    assert isinstance(unset, PlayOptions) and unset.rules is None


@pytest.mark.parametrize("bad", ["bogus", "", ",", "dosta,nope", "stiglja=100", "\x1b[31mred"])
def test_an_unknown_rule_is_one_line_and_exit_2(
    bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(["play", "--rules", bad])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--rules" in err and "\x1b" not in err


def test_the_quick_target_is_accepted_everywhere() -> None:
    for argv in (
        ["play", "--target", "163"],
        ["replay", "--seed", "1", "--target", "163"],
        ["arena", "random", "random", "--target", "163"],
    ):
        assert parse(argv).target == 163  # type: ignore[union-attr]


@pytest.fixture
def app_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    fake = ModuleType("bela.tui")

    def run_app(**kwargs: Any) -> int:
        kwargs.pop("played")
        calls.append(kwargs)
        return 0

    fake.run_app = run_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bela.tui", fake)
    monkeypatch.setattr(bela.ai, "BOT_KINDS", ("easy", "normal", "random"))
    # a terminal that can run the app (pytest's output is not one: plain mode otherwise)
    monkeypatch.setattr(bela.cli.play, "wants_plain", lambda *args: False)
    return calls


def test_play_hands_the_rules_to_the_app(app_calls: list[dict[str, Any]]) -> None:
    assert main(["play", "--seed", "3", "--rules", "dosta,visi"]) == 0
    assert app_calls[0]["rules"] == Rules(dosta=True, visi=True)


def test_play_without_rules_leaves_the_choice_to_the_app(app_calls: list[dict[str, Any]]) -> None:
    assert main(["play", "--seed", "3"]) == 0
    assert "rules" not in app_calls[0]


def test_the_real_run_app_takes_rules() -> None:
    import inspect

    from bela.tui.app import run_app

    parameter = inspect.signature(run_app).parameters["rules"]
    assert parameter.default is None and parameter.kind is inspect.Parameter.KEYWORD_ONLY


def test_a_seeded_replay_is_played_under_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """The bots play the seed's match under ``--rules``: with "dosta" they claim, so the match
    ends on a claim; the JSON names the rules' target and the bela card rule changes plays."""
    options = parse(["replay", "--seed", "5", "--target", "501", "--rules", "dosta"])
    assert isinstance(options, ReplayOptions) and options.rules == Rules(dosta=True)
    from bela.cli.replay import play_seeded

    match = play_seeded(5, 501, "normal", rules=Rules(dosta=True))
    assert match.rules == Rules(dosta=True)
    assert match.rounds[-1].result.claim is not None and match.rounds[-1].result.claim_ok
    assert (
        main(["replay", "--seed", "5", "--target", "163", "--rules", "stiglja-100", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["target"] == 163


def test_a_record_file_has_its_own_rules(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(["replay", str(tmp_path / "m.json"), "--rules", "dosta"])
    assert exit_info.value.code == 2
    assert "a record file has its own" in capsys.readouterr().err


def test_the_replay_text_shows_the_rules_a_claim_and_a_100_štiglja() -> None:
    """``bela replay`` names the house rules, says what a "dosta" did, and takes a štiglja
    apart with the bonus of the match's rules."""
    from bela.archive.replay_text import breakdown, match_json, match_rounds, summary
    from bela.cli.replay import play_seeded

    match = play_seeded(5, 501, "normal", rules=Rules(dosta=True))
    last = match.rounds[-1]
    assert "said dosta and had reached the target" in summary(last.result, last.written)
    assert match_json(match, "normal")["rules"]["dosta"] is True
    rules = Rules(stiglja_bonus=100)
    for seed in range(200):
        rnd = Round.from_seed(seed, 0, rules)
        result = rnd.play_out_random(random.Random(seed))
        if result.stiglja is not None:
            parts = breakdown(result, rnd, result.points)
            assert parts.stiglja[result.stiglja] >= 100
            assert parts.totals == result.totals
            break
    else:  # pragma: no cover - random play sweeps now and then
        raise AssertionError("no štiglja in 200 random rounds")
    assert match_rounds(match)
