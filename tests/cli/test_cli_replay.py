"""``bela replay``: seeded rounds and matches played out by the bots, and record files."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import bela.ai
from bela.archive.records import NEWEST_VERSION, dumps, record_from_match
from bela.cli import main
from bela.cli.common import resolve_difficulty
from bela.cli.replay import play_seeded
from bela.engine import Card, Match, cards_in

# Round 1 of seed 42 (dealer seat 3) is the engine's seeded deal, whatever the bots do.
_DEAL_42 = Match.new(42).deal(0)
SEED_42_HANDS = [[str(c) for c in cards_in(h)] for h in _DEAL_42.deal_hands]
SEED_42_TALONS = [[str(c) for c in cards_in(t)] for t in _DEAL_42.deal_talons]
# the bots behind each level, whichever of them exist yet
NORMAL = resolve_difficulty("normal", bela.ai.BOT_KINDS)[0]
EASY = resolve_difficulty("easy", bela.ai.BOT_KINDS)[0]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def symbols(cards: list[str]) -> str:
    """Cards as the text replay shows them, high first within a suit."""
    parsed = sorted((Card.parse(c) for c in cards), key=lambda c: (c.suit, -c.rank))
    return " ".join(f"{c.rank}{c.suit.symbol}" for c in parsed)


def test_a_seeded_round_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["replay", "--seed", "42", "--round", "1"], capsys)
    assert code == 0
    for words in (
        "Match seed 42 · target 1001",
        "Round 1 · dealer seat 4 (vi)",
        "Deal",
        "Bids: seat 1:",
        "Trump",
        "Tricks",
        "Result",
        "last trick",
        "zvanja",
        "written",
        "Score sheet",
    ):
        assert words in out, words
    for seat in range(4):
        assert symbols(SEED_42_HANDS[seat]) in out
        assert symbols(SEED_42_TALONS[seat]) in out
    assert "Round 2" not in out


def test_a_seeded_round_as_json_is_the_pinned_deal_and_adds_up(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = run_json(["replay", "--seed", "42", "--round", "1"], capsys)
    assert (data["seed"], data["target"], data["difficulty"]) == (42, 1001, NORMAL)
    (rnd,) = data["rounds"]
    assert (rnd["number"], rnd["index"], rnd["dealer"], rnd["first_player"]) == (1, 0, 3, 0)
    assert rnd["hands"] == SEED_42_HANDS
    assert rnd["talons"] == SEED_42_TALONS
    assert rnd["bids"][0]["seat"] == 0
    assert rnd["bids"][-1]["bid"].startswith("call ")
    assert rnd["trump"] in "HDSC" and rnd["caller"] == rnd["bids"][-1]["seat"]
    result = rnd["result"]
    if result["belot"] is None:
        tricks = rnd["tricks"]
        assert len(tricks) == 8
        played = [c["card"] for t in tricks for c in t["cards"]]
        dealt = [c for seat in range(4) for c in rnd["hands"][seat] + rnd["talons"][seat]]
        assert sorted(played) == sorted(dealt)
        assert sum(t["points"] for t in tricks) == 162
        for team in (0, 1):
            parts = ("cards", "last_trick", "zvanja", "bela", "stiglja")
            assert sum(result[p][team] for p in parts) == result["totals"][team]
        assert sum(result["written"]) in (sum(result["totals"]), 0)
    assert data["scores"] == result["written"]


def test_seeded_replays_are_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(["replay", "--seed", "2024", "--round", "2"], capsys)
    second = run(["replay", "--seed", "2024", "--round", "2"], capsys)
    assert first == second
    assert first[0] == 0


def test_a_whole_seeded_match(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(["replay", "--seed", "7", "--target", "501"], capsys)
    assert data["finished"] and data["winner"] in (0, 1)
    rounds = data["rounds"]
    assert [r["number"] for r in rounds] == list(range(1, len(rounds) + 1))
    totals = [sum(r["result"]["written"][t] for r in rounds) for t in (0, 1)]
    assert totals == data["scores"]
    assert max(totals) >= 501 or rounds[-1]["result"]["belot"] is not None
    code, out, _ = run(["replay", "--seed", "7", "--target", "501"], capsys)
    assert code == 0
    assert out.count("Round ") == len(rounds)
    assert f"won {data['scores'][0]} : {data['scores'][1]}" in out


def test_a_later_round_only_plays_up_to_it(capsys: pytest.CaptureFixture[str]) -> None:
    whole = run_json(["replay", "--seed", "7", "--target", "501"], capsys)
    assert len(whole["rounds"]) > 1
    first = run_json(["replay", "--seed", "7", "--target", "501", "--round", "1"], capsys)
    assert first["rounds"] == [whole["rounds"][0]]
    assert not first["finished"]


def test_a_round_beyond_the_match_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["replay", "--seed", "7", "--target", "501", "--round", "500"], capsys)
    assert code == 2 and out == ""
    assert err.splitlines()[-1] == "bela: error: there is no round 500 in this match: " + (
        f"it has rounds 1 to {len(play_seeded(7, 501, NORMAL).rounds)}"
    )


def test_hard_falls_back_with_a_notice(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    without_hard = tuple(kind for kind in bela.ai.BOT_KINDS if kind != "hard")
    monkeypatch.setattr(bela.ai, "BOT_KINDS", without_hard)
    code, out, err = run(["replay", "--seed", "5", "--round", "1", "--difficulty", "hard"], capsys)
    assert code == 0 and "'hard'" in err
    assert f"bots {resolve_difficulty('hard', without_hard)[0]}" in out


def test_a_record_file_replays_like_its_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = play_seeded(11, 501, EASY)
    path = tmp_path / "match.json"
    path.write_text(dumps(record_from_match(match, EASY)))
    from_file = run_json(["replay", str(path)], capsys)
    from_seed = run_json(
        ["replay", "--seed", "11", "--target", "501", "--difficulty", "easy"], capsys
    )
    assert from_file == from_seed
    one = run_json(["replay", str(path), "--round", "2"], capsys)
    assert one["rounds"] == [from_seed["rounds"][1]]
    code, out, _ = run(["replay", str(path)], capsys)
    assert code == 0 and "Round 1" in out and "Score sheet" in out


def test_an_unfinished_record_shows_the_round_in_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = play_seeded(12, 501, NORMAL, rounds=1)
    assert match.current is not None
    for _ in range(9):  # a call and two tricks' worth of cards, give or take
        match = match.apply(match.current.legal_actions()[-1])
    path = tmp_path / "unfinished.json"
    path.write_text(dumps(record_from_match(match, NORMAL)))
    code, out, _ = run(["replay", str(path), "--round", "2"], capsys)
    assert code == 0
    assert "Round 2" in out and "in progress" in out
    data = run_json(["replay", str(path), "--round", "2"], capsys)
    assert data["rounds"][0]["result"] is None and not data["finished"]


def _good_record_text() -> str:
    return dumps(record_from_match(play_seeded(13, 501, NORMAL, rounds=2), NORMAL))


def _bad_records() -> dict[str, str | bytes]:
    good = _good_record_text()
    data = json.loads(good)
    newer = dict(data, schema_version=NEWEST_VERSION + 1)
    edited = json.loads(good)
    edited["rounds"][0]["result"]["written"][0] += 1
    illegal = json.loads(good)
    plays = [a for a in illegal["rounds"][0]["actions"] if not a["action"].startswith(("d", "c"))]
    plays[0]["action"], plays[5]["action"] = plays[5]["action"], plays[0]["action"]
    return {
        "truncated": good[: len(good) // 2],
        "empty": "",
        "binary": b"\x89PNG\r\n\x1a\n\x00\x00",
        "not json": "hello",
        "newer": json.dumps(newer),
        "hand-edited result": json.dumps(edited),
        "illegal actions": json.dumps(illegal),
        "unknown field": good.replace('"seed"', '"extra": 1, "seed"', 1),
    }


@pytest.mark.parametrize("case", sorted(_bad_records()))
def test_bad_record_files_exit_2_and_stay_untouched(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = _bad_records()[case]
    path = tmp_path / "bad.json"
    raw = content.encode() if isinstance(content, str) else content
    path.write_bytes(raw)
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("bela: error: ") and str(path) in err
    assert path.read_bytes() == raw
    assert [p.name for p in tmp_path.iterdir()] == ["bad.json"]


def test_newer_records_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new.json"
    path.write_text(json.dumps(dict(json.loads(_good_record_text()), schema_version=9)))
    code, _, err = run(["replay", str(path)], capsys)
    assert code == 2 and "newer bela" in err


@pytest.mark.parametrize("name", ["missing.json", "."])
def test_missing_files_and_directories(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["replay", str(tmp_path / name)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1


def test_a_round_not_in_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.json"
    path.write_text(_good_record_text())
    code, _, err = run(["replay", str(path), "--round", "9"], capsys)
    assert code == 2 and "no round 9" in err


def test_a_network_copy_replays_with_the_names_from_its_players_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player's copy of a network match names the seats by the players, the reader by
    the name they had at that table (issue #35: "You" is a pronoun for sentences, not a
    name; "Ti (mi)" read as if a player were called Ti) and their team "mi" (here seat 1:
    team 0's column is "vi"); a name that looks like markup is shown as it is."""
    import random

    rng = random.Random(3)
    match = Match.new(3, 501)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    names = ("[link=x]Ana[/link]", "Ivo", "Mara", "[b]Luka")
    record = record_from_match(match, "normal").model_copy(update={"players": names, "me": 1})
    path = tmp_path / "copy.json"
    path.write_text(dumps(record))
    code, out, err = run(["replay", str(path), "--round", "1"], capsys)
    assert code == 0, err
    assert "[link=x]Ana[/link] · seat 1 (vi)" in out and "Mara · seat 3 (vi)" in out
    assert "Ivo · seat 2 (mi)" in out and "[b]Luka · seat 4 (mi)" in out
    assert "You · " not in out  # the reader's own seat says their name
    code, sheet, err = run(["replay", str(path), "--sheet"], capsys)
    assert code == 0, err
    head = next(line for line in sheet.splitlines() if "Σ" in line)
    assert head.index("vi") < head.index("mi")  # team 0 (seats 0 and 2) is theirs here
    plain = record.model_copy(update={"players": None, "me": None})
    path.write_text(dumps(plain))
    code, out, err = run(["replay", str(path), "--round", "1"], capsys)
    assert code == 0 and "You · " not in out and "seat 1 (mi)" in out


def test_the_replay_says_in_which_rounds_a_bot_played_a_persons_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bot_rounds`` (a network record): the round's story says a bot played for that
    player, "your cards" for the reader's own seat, and no other round says so."""
    import random

    rng = random.Random(4)
    match = Match.new(4, 501)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    assert len(match.rounds) >= 3
    names = ("Ana", "Ivo", "Mara", "Luka")
    record = record_from_match(match, "easy").model_copy(
        update={"players": names, "me": 1, "bot_rounds": ((1, 1), (1, 3), (2, 3))}
    )
    path = tmp_path / "copy.json"
    path.write_text(dumps(record))
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 0, err
    flat = " ".join(out.split())
    parts = re.split(r"Round (\d+) · dealer", flat)
    told = {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}
    assert "A bot played your cards" in told[2] and "A bot played for Luka" in told[2]
    assert "A bot played for Luka" in told[3] and "your cards" not in told[3]
    assert all("A bot played" not in told[n] for n in told if n not in (2, 3))
    path.write_text(dumps(record.model_copy(update={"bot_rounds": None})))
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 0 and "A bot played" not in out and '"bot_rounds"' not in path.read_text()


@pytest.mark.parametrize(
    ("kept", "lang", "shown"),
    [
        ("Lucija", "hr", "Lucija · mjesto 1 (mi)"),  # the name set in F2, as the table said it
        ("Ti", "hr", "Ti · mjesto 1 (mi)"),  # saved without a name: the pronoun, as a label
        ("Ti", "en", "You · seat 1 (mi)"),  # ... in the reader's language, not the file's
        ("You", "hr", "Ti · mjesto 1 (mi)"),
    ],
)
def test_an_app_record_names_the_player_as_the_table_did(
    kept: str, lang: str, shown: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #35: after a name was set in F2 the replay still said "Ti" for the player. The
    record's own name is shown; a record saved with no name for the player (it keeps the
    pronoun, "Ti" or "You", when only the bots were named) reads in the reader's language."""
    from bela.archive.records import seated

    match = play_seeded(7, 501, "normal", rounds=1)
    record = seated(record_from_match(match, "normal"), "app", (kept, "Ivo", "Marko", "Ana"))
    path = tmp_path / "app.json"
    path.write_text(dumps(record))
    code, out, err = run(["--lang", lang, "replay", str(path), "--round", "1"], capsys)
    assert code == 0, err
    said = " ".join(out.split())
    assert shown in said, said[:400]
    assert "Marko · " in said
