"""``bela history``, ``bela stats`` and ``bela replay FILE --sheet`` on the command line."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from archived import archive, direct_counts, long_match, random_match, records

from bela.archive.history import INDEX_NAME, open_history
from bela.archive.replay_text import sheet_marks
from bela.archive.stats import statistics
from bela.archive.storage import matches_dir
from bela.cli import main
from bela.engine import Match, Rules

MATCH_KEYS = {
    "players",
    "seat",
    "file",
    "path",
    "played_at",
    "result",
    "reason",
    "seed",
    "target",
    "difficulty",
    "rules",
    "rounds",
    "scores",
    "winner",
    "belot",
}
STATS_KEYS = {
    "matches",
    "by_difficulty",
    "rounds",
    "calls",
    "stiglja",
    "written",
    "average_written",
    "zvanja_rounds",
    "zvanja_points",
    "bela",
    "belot",
    "notice",
}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def archived(data_dir: Path) -> list[Path]:
    paths = [
        archive(random_match(1, target=501), "easy"),
        archive(random_match(2, 30, target=701), "hard"),
        archive(random_match(3, target=1001, rules=Rules(visi=True)), "hard"),
    ]
    (matches_dir() / "broken.json").write_text('{"schema_version": 1')
    return paths


def test_history_lists_every_match_newest_first(
    archived: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["history"], capsys)
    assert code == 0 and err == ""
    for path in archived:
        assert path.name in out
    assert "broken.json" in out and "damaged" in out and "not complete JSON" in out
    assert "unfinished" in out and "visi" in out and "701" in out
    data = run_json(["history"], capsys)
    names = [entry["file"] for entry in data["matches"]]
    assert set(names) == {p.name for p in archived} | {"broken.json"}
    dates = [entry["played_at"] for entry in data["matches"]]
    assert dates == sorted(dates, reverse=True)


def test_history_json_has_the_same_keys_for_every_match(
    archived: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = run_json(["history"], capsys)
    assert set(data) == {"archive", "notice", "matches"}
    for entry in data["matches"]:
        assert set(entry) == MATCH_KEYS
        assert Path(entry["path"]) == matches_dir() / entry["file"]
    damaged = [e for e in data["matches"] if e["result"] == "damaged"]
    assert [e["file"] for e in damaged] == ["broken.json"]
    assert damaged[0]["seed"] is None and damaged[0]["reason"]
    visi = [e for e in data["matches"] if e["seed"] == 3]
    assert visi[0]["rules"] == ["visi"] and visi[0]["target"] == 1001


def test_history_filters(archived: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    hard = run_json(["history", "--difficulty", "hard"], capsys)["matches"]
    assert {e["seed"] for e in hard} == {2, 3}
    unfinished = run_json(["history", "--result", "unfinished"], capsys)["matches"]
    assert [e["seed"] for e in unfinished] == [2]
    damaged = run_json(["history", "--result", "DAMAGED"], capsys)["matches"]
    assert [e["file"] for e in damaged] == ["broken.json"]
    newest = run_json(["history", "--limit", "1"], capsys)["matches"]
    assert len(newest) == 1
    none = run_json(["history", "--difficulty", "easy", "--result", "unfinished"], capsys)
    assert none["matches"] == []


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["history", "--result", "tie"], "the result is one of won, lost, unfinished, damaged"),
        (["history", "--limit", "0"], "the limit is a whole number from 1"),
        (["history", "--limit", "9" * 100], "the limit is a whole number from 1"),
        (["history", "--difficulty", "[bold]x\x1b[2J"], "a difficulty is a name"),
        (["stats", "--limit", "3"], "unrecognized arguments"),
        (["replay", "x.json", "--sheet", "--round", "2"], "--sheet shows every round"),
    ],
)
def test_bad_arguments_are_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert words in err and err.count("\n") == 1 and "\x1b" not in err


@pytest.mark.parametrize("command", ["history", "stats"])
def test_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0 and "--json" in out and "--difficulty" in out


def test_empty_history_and_stats(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["history"], capsys)
    assert code == 0 and "No matches to list." in out and err == ""
    code, out, err = run(["stats"], capsys)
    assert code == 0 and "No matches played yet" in out
    assert run_json(["history"], capsys)["matches"] == []
    assert not (data_dir / INDEX_NAME).exists()


def test_hostile_file_names_stay_text(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    matches_dir().mkdir(parents=True)
    name = "[bold red]x [@click=app.quit] \x1b]0;owned\x07.json"
    (matches_dir() / name).write_text("{")
    code, out, err = run(["history"], capsys)
    assert code == 0 and err == ""
    assert "\x1b" not in out and "\x07" not in out
    assert "[bold red]x" in out and "[@click=app.quit]" in out
    assert run_json(["history"], capsys)["matches"][0]["file"] == name  # JSON escapes it itself


def test_stats_json_equals_the_statistics_and_direct_counts(
    archived: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = run_json(["stats"], capsys)
    assert set(data) == STATS_KEYS
    assert set(data["matches"]) == {
        "total",
        "played",
        "won",
        "lost",
        "unfinished",
        "damaged",
        "win_rate",
    }
    assert set(data["calls"]) == {"you", "mi", "vi"}
    assert set(data["calls"]["you"]) == {"called", "made", "fell", "pad_rate", "seats"}
    with open_history() as history:
        stats = statistics(history)
    n = direct_counts(records())["n"]
    assert data["matches"]["total"] == 4 and data["matches"]["damaged"] == 1
    assert data["rounds"]["total"] == stats.rounds == n["rounds"]
    assert data["calls"]["you"]["called"] == n["you_called"]
    assert data["calls"]["mi"]["made"] == n["mi_made"]
    assert data["written"] == {"mi": n["written_mi"], "vi": n["written_vi"]}
    assert data["stiglja"] == {"mi": n["stiglja_mi"], "vi": n["stiglja_vi"]}
    assert [level["difficulty"] for level in data["by_difficulty"]] == ["easy", "hard"]
    hard = run_json(["stats", "--difficulty", "hard"], capsys)
    assert hard["matches"]["total"] == 2


def test_stats_as_tables(archived: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["stats"], capsys)
    assert code == 0
    for words in ("Matches", "Trump called", "you (seat 1)", "pad rate", "štiglja", "bela"):
        assert words in out, words
    assert "1 damaged record" in out


def test_an_unwritable_index_is_a_notice_on_stderr(
    archived: list[Path], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (data_dir / INDEX_NAME).mkdir()
    code, out, err = run(["history"], capsys)
    assert code == 0 and archived[0].name in out
    assert err.startswith("bela: the match history cannot be kept in") and err.count("\n") == 1
    data = run_json(["stats"], capsys)
    assert data["notice"] and data["matches"]["total"] == 4


# ---------------------------------------------------------------------- the score sheet


def sheet_lines(out: str) -> dict[int, str]:
    """The lines of a printed sheet by round number (the first cell of each)."""
    lines: dict[int, str] = {}
    for line in out.splitlines():
        found = re.match(r"^│\s+(\d+) │", line)
        if found:
            lines[int(found.group(1))] = line
    return lines


def test_the_sheet_lists_every_round_of_a_long_match(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = long_match(60)
    assert len(match.rounds) > 60
    path = archive(match)
    code, out, err = run(["replay", str(path), "--sheet"], capsys)
    assert code == 0, err
    lines = sheet_lines(out)
    assert sorted(lines) == list(range(1, len(match.rounds) + 1))  # not one row dropped
    assert "target 501" in out
    sums = [0, 0]
    for played in match.rounds:
        sums = [sums[0] + played.written[0], sums[1] + played.written[1]]
        cells = [cell.strip() for cell in lines[played.index + 1].split("│")[1:-1]]
        assert cells[3:7] == [str(played.written[0]), str(played.written[1]), *map(str, sums)]
        if played.result.redeal:
            assert "redeal" in cells[7]
    total = [line for line in out.splitlines() if "total" in line]
    assert total and f"{match.scores[0]}" in total[0] and f"{match.scores[1]}" in total[0]
    assert "Round 1 ·" not in out  # only the sheet, not the rounds told in full


def test_the_sheet_marks_pad_and_stiglja(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first seeds whose random matches hold each mark."""
    wanted: dict[str, tuple[Match, int] | None] = {"pad": None, "štiglja": None}
    for seed in range(400):
        match = random_match(seed, target=501)
        for played in match.rounds:
            r = played.result
            for mark, present in (("pad", r.fell), ("štiglja", r.stiglja is not None)):
                if present and wanted[mark] is None:
                    wanted[mark] = (match, played.index)
        if all(wanted.values()):
            break
    for mark, found in wanted.items():
        assert found is not None, mark
        match, index = found
        path = archive(match)
        data = run_json(["replay", str(path), "--sheet"], capsys)
        assert len(data["rounds"]) == len(match.rounds)
        assert any(m.startswith(mark) for m in data["rounds"][index]["marks"]), mark
        code, out, _ = run(["replay", str(path), "--sheet"], capsys)
        assert code == 0 and mark in sheet_lines(out)[index + 1]


def test_sheet_marks_for_belot_visi_and_redeal() -> None:
    """Marks too rare for random play, on results built by hand from a real one."""
    played = random_match(1).rounds[0]
    belot = replace(played, result=played.result._replace(belot=1, fell=False, caller=None))
    assert sheet_marks(belot) == ["belot vi"]
    tie = played.result._replace(caller=0, fell=True, tie=True, hanging=81, stiglja=None)
    assert sheet_marks(replace(played, result=tie)) == ["visi: 81 points hang"]
    collected = played.result._replace(caller=1, fell=False, points=(0, 100), stiglja=None)
    marks = sheet_marks(replace(played, result=collected, written=(0, 181)))
    assert marks == ["+81 points of visi to vi"]
    plain_tie = played.result._replace(caller=2, fell=True, tie=True, hanging=0, stiglja=None)
    assert sheet_marks(replace(played, result=plain_tie)) == ["pad mi (tie)"]
    claimed = played.result._replace(claim=0, claim_ok=True, fell=False, stiglja=None)
    assert sheet_marks(replace(played, result=claimed)) == ["dosta mi (held)"]
    wrong = played.result._replace(claim=1, claim_ok=False, fell=False, stiglja=None)
    assert sheet_marks(replace(played, result=wrong)) == ["dosta vi (wrong)"]


def test_a_network_match_is_filed_as_one_with_the_other_players_names(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player's copy of a network match (its bots were "easy") is listed as a network
    match with the partner and the opponents by name, counted on its own line in the
    statistics, and not under "easy"; the statistics name the seat the player sat in."""
    archive(random_match(31), "easy", me=2)  # Ana, Ivo, Mara, Luka: this player is Mara
    code, out, err = run(["history"], capsys)
    assert code == 0, err
    assert "network, with Ana against Luka and Ivo" in " ".join(out.split())
    data = run_json(["history"], capsys)
    (entry,) = data["matches"]
    assert entry["difficulty"] == "network" and entry["seat"] == 2
    assert entry["players"] == ["Ana", "Ivo", "Mara", "Luka"]
    assert run_json(["history", "--difficulty", "easy"], capsys)["matches"] == []
    stats = run_json(["stats"], capsys)
    assert [level["difficulty"] for level in stats["by_difficulty"]] == ["network"]
    assert stats["calls"]["you"]["seats"] == [2]
    code, out, err = run(["stats"], capsys)
    assert code == 0 and "you (seat 3)" in out and "easy" not in out
    archive(random_match(32), "easy")  # against the bots: seat 0 there
    code, out, err = run(["stats"], capsys)
    assert "you (your own seat)" in out and "easy" in out and "network" in out
