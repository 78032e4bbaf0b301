"""The bot in your seat (``bela.lab.bot_in_seat``, ``bela replay --bot-in-my-seat``).

The retake must be the same deal with everything else as it was: the other seats'
decisions come from the same per-decision RNG as the match's bots. So a retake
whose seat bot is the match's own level reproduces a bot-played match exactly, and
in any retake each action is exactly what the acting seat's bot chooses from that
view with that RNG, which these tests recompute independently.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from archived import archive, random_match
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.ai import make_bot
from bela.ai.base import decision_rng
from bela.archive.records import dumps, record_from_match
from bela.cli import main
from bela.cli.replay import play_seeded
from bela.engine import Match
from bela.lab.bot_in_seat import summarize, swap_match, swap_round


def _margin(points: tuple[int, int] | list[int], team: int) -> int:
    return points[team] - points[1 - team]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), seat=st.integers(0, 3))
def test_the_match_level_in_the_seat_replays_a_bot_match_exactly(seed: int, seat: int) -> None:
    match = play_seeded(seed, 501, "normal", rounds=3)
    swaps = swap_match(match, seat, "normal", "normal")
    assert [s.index for s in swaps] == [r.index for r in match.rounds]
    for swap, played in zip(swaps, match.rounds, strict=True):
        assert swap.same
        assert swap.retaken.actions == played.actions
        assert swap.gain == 0


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), seat=st.integers(0, 3))
def test_each_retaken_action_is_the_acting_bots_choice(seed: int, seat: int) -> None:
    match = random_match(seed, steps=120)  # people playing at random: the bot differs
    bots = {"normal": make_bot("normal"), "easy": make_bot("easy")}
    for played in match.rounds:
        swap = swap_round(match, played.index, seat, "easy", "normal")
        rnd = match.deal(played.index)
        assert swap.retaken.deal_hands == rnd.deal_hands  # the same deal
        for step, action in enumerate(swap.retaken.actions):
            acting = rnd.to_act
            assert acting is not None
            kind = "normal" if acting == seat else "easy"
            view = rnd.view(acting)
            assert action == bots[kind].act(view, decision_rng(match.seed, played.index, step))
            rnd = rnd.apply(action, acting)
        result, before = swap.retaken.result, swap.played.result
        assert result is not None and before is not None
        assert swap.played.actions == played.actions
        team = seat % 2
        assert swap.gain == _margin(result.points, team) - _margin(before.points, team)


def test_summary_mean_and_interval() -> None:
    result = summarize([[10, -10], [30]])
    assert (result.rounds, result.matches, result.better, result.worse) == (3, 2, 2, 1)
    assert result.mean == pytest.approx(10.0)
    # sample sd of 10, -10, 30 is 20: 1.96 * 20 / sqrt(3)
    assert result.half_width == pytest.approx(1.96 * 20 / 3**0.5)
    assert summarize([]).rounds == 0


def _record_file(tmp_path: Path, match: Match, me: int | None = None) -> Path:
    record = record_from_match(match, "easy")
    if me is not None:
        record = record.model_copy(update={"players": ("Ana", "Ivo", "Mara", "Luka"), "me": me})
    path = tmp_path / "match.json"
    path.write_text(dumps(record), encoding="utf-8")
    return path


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_a_record_file_round_by_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = random_match(11, steps=150)
    path = _record_file(tmp_path, match, me=2)
    data = _json(["replay", str(path), "--bot-in-my-seat", "--bot", "normal"], capsys)
    assert data["seat"] == 2 and data["people_replaced"] is True
    assert [r["round"] for r in data["rounds"]] == [r.index + 1 for r in match.rounds]
    for entry, played in zip(data["rounds"], match.rounds, strict=True):
        assert entry["played"]["actions"] == [str(a) for a in played.actions]
        assert entry["played"]["written"] == list(played.result.points)
        gain = _margin(entry["bot"]["written"], 0) - _margin(entry["played"]["written"], 0)
        assert entry["gain"] == gain  # seat 2 is on team 0
        assert entry["same"] == (entry["bot"]["actions"] == entry["played"]["actions"])


@pytest.mark.slow
def test_one_round_as_text_in_croatian(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "hr_HR.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "BELA_LANG"):
        monkeypatch.delenv(name, raising=False)
    path = _record_file(tmp_path, random_match(3, steps=80))
    code = main(["replay", str(path), "--bot-in-my-seat", "--round", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Runda 1" in out and "Bot na tvom mjestu" in out
    assert "Round" not in out and "As played" not in out


def test_last_matches_of_the_archive(capsys: pytest.CaptureFixture[str]) -> None:
    matches = [random_match(seed, steps=100) for seed in (1, 2)]
    for match in matches:
        archive(match, difficulty="easy")
    argv = ["replay", "--bot-in-my-seat", "--last", "5", "--bot", "normal", "--jobs", "1"]
    data = _json(argv, capsys)
    assert data["matches"] == 2
    gains = [[s.gain for s in swap_match(m, 0, "easy", "normal")] for m in matches]
    expected = summarize(gains)
    assert data["rounds"] == expected.rounds == sum(len(m.rounds) for m in matches)
    assert data["mean"] == round(expected.mean, 2)
    assert (data["better"], data["worse"]) == (expected.better, expected.worse)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["replay", "--seed", "4", "--last", "3"], "--last, --bot and --jobs go with"),
        (["replay", "--seed", "4", "--bot-in-my-seat", "--last", "3"], "leave out FILE and --seed"),
        (["replay", "--bot-in-my-seat"], "give a record FILE, --seed N or --last N"),
        (["replay", "--seed", "4", "--bot-in-my-seat", "--sheet"], "leave out --sheet"),
        (["replay", "--seed", "4", "--bot-in-my-seat", "--jobs", "2"], "--jobs goes with --last"),
        (["replay", "--bot-in-my-seat", "--last", "0"], "at least 1"),
    ],
)
def test_bad_combinations_say_so(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) <= 2


def test_an_empty_archive_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", "--bot-in-my-seat", "--last", "10"])
    assert code == 0  # nothing to read yet is no error
    assert "no finished match" in capsys.readouterr().out


def test_the_retake_says_what_each_team_would_write_and_numbers_the_seats_1_to_4() -> None:
    """Issue #35: "upisali bismo 250 bodova više" where the bot's line wrote 125 more for us
    and 88 fewer for them; and the bids and tricks listed seats 0-3."""
    from rich.console import Console

    from bela.archive.retake_text import gain_text, retake_view
    from bela.i18n import set_language

    set_language("hr")
    try:
        said = gain_text((82, 133), (207, 45), 0, same=False)
        assert str(said) == (
            "S botom na tvom mjestu mi bismo upisali 207 umjesto 82, a oni 45 umjesto 133."
        )
        seat_2 = gain_text((133, 82), (45, 207), 1, same=False)  # the same, read from team 1
        assert str(seat_2) == str(said)
        assert "više" not in str(said)
        match = random_match(3, steps=60)
        played = match.rounds[0]
        rnd = match.deal(played.index).replay(played.actions)
        console = Console(record=True, width=120, file=io.StringIO())
        console.print(retake_view(played.index, 0, rnd, rnd))
        text = console.export_text()
    finally:
        set_language("en")
    seats = {int(n) for n in re.findall(r"(?<![\d♥♦♠♣])(\d):", text)}
    assert seats <= {1, 2, 3, 4} and 4 in seats  # seat 3 (the last) reads 4, none reads 0
