"""Bid puzzles (issue #36): call or dalje, which suit, pod mus, with also-good answers.

``fixtures/bid_puzzles.jsonl`` holds four lines ``python -m bela.lab.bid_puzzle_gen`` wrote
(192 guessed deals each): a call, a dalje, a pod mus, and a pod mus with an also-good
suit. The shipped bid pack is checked whole: every line usable, at least 300.
"""

from __future__ import annotations

import gzip
import io
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from bela.archive import bid_puzzles
from bela.archive.glicko import Rating, update
from bela.archive.puzzle_pack import load_pack, own_dir, parse_puzzle, puzzle_data, read_lines
from bela.archive.puzzle_store import JOURNAL_NAME, PuzzleStore
from bela.archive.records import parse_action
from bela.bid_puzzle_words import bid_reasons, bid_verdict, credit_text
from bela.cli import main
from bela.engine import Call, Pass, Suit
from bela.lab import bid_puzzle_judge

FIXTURE = Path(__file__).parent / "fixtures" / "bid_puzzles.jsonl"


def lines() -> list[str]:
    return FIXTURE.read_text(encoding="utf-8").splitlines()


def data() -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines()]


def by_theme(theme: str, good: bool = False) -> dict[str, Any]:
    return next(d for d in data() if d["themes"] == [theme] and bool(d["bid"]["good"]) == good)


def test_the_generators_lines_are_read_with_their_also_good_bids_and_counts() -> None:
    pack = read_lines(lines(), "bids")
    assert not pack.skipped and len(pack.puzzles) == 4
    for puzzle in pack.puzzles:
        assert puzzle.kind == "bid" and puzzle.bid is not None
        assert len(puzzle.bid.versus) == len(puzzle.choices)
        assert puzzle.bid.versus[0] == (0, puzzle.deals, 0)
        assert puzzle_data(puzzle)["bid"]["versus"][0] == [0, puzzle.deals, 0]
    good = parse_puzzle(json.dumps(by_theme("pod-mus", good=True)))
    assert good.bid is not None and good.bid.good == (Call(Suit.SPADES),)


def test_the_answer_scores_one_an_also_good_bid_half_and_a_miss_nothing() -> None:
    puzzle = parse_puzzle(json.dumps(by_theme("pod-mus", good=True)))
    assert puzzle.credit(Call(Suit.HEARTS)) == 1.0
    assert puzzle.credit(Call(Suit.SPADES)) == bid_puzzles.GOOD_CREDIT == 0.5
    misses = [c.actions[0] for c in puzzle.choices[2:]]
    assert misses and all(puzzle.credit(a) == 0.0 for a in misses)
    # a card puzzle's credit is right or not
    call = parse_puzzle(json.dumps(by_theme("call")))
    assert call.credit(Pass()) == 0.0


def test_the_lab_and_the_archive_agree_on_also_good_and_its_credit() -> None:
    assert bid_puzzle_judge.ALSO_GOOD == bid_puzzles.ALSO_GOOD
    assert bid_puzzle_judge.GOOD_CREDIT == bid_puzzles.GOOD_CREDIT


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda b, d: b.update(good=["call C"]), "near the answer"),
        (lambda b, d: b.update(good=["call H"]), "near the answer"),
        (lambda b, d: b.update(good=["call X"]), "not an action"),
        (lambda b, d: b.update(versus=b["versus"][1:]), "one record a choice"),
        (lambda b, d: b["versus"][1].__setitem__(0, 999), "add up"),
        (lambda b, d: b["versus"].__setitem__(0, [1, d - 1, 0]), "its own record"),
        (lambda b, d: b["versus"][1].__setitem__(0, "many"), "add up"),
        (lambda b, d: b.update(good="call S"), "not a list"),
    ],
)
def test_a_bid_object_that_lies_is_refused(change: Any, reason: str) -> None:
    line = by_theme("pod-mus", good=True)
    change(line["bid"], line["deals"])
    with pytest.raises(ValueError, match=reason):
        parse_puzzle(json.dumps(line))


def test_a_card_puzzle_with_bid_facts_is_refused() -> None:
    from puzzle_fixtures import sample_data

    card = sample_data()[0]
    card["bid"] = {"good": [], "versus": []}
    with pytest.raises(ValueError, match="card puzzle"):
        parse_puzzle(json.dumps(card))


def test_an_also_good_answer_is_rated_as_half_a_win(data_dir: Path) -> None:
    puzzle = parse_puzzle(json.dumps(by_theme("pod-mus", good=True)))
    data_dir.mkdir(parents=True)
    with PuzzleStore(data_dir / "history.sqlite3") as store:
        before = store.player()
        opponent = store.puzzle_rating(puzzle)
        outcome = store.record(puzzle, Call(Suit.SPADES), 5.0)
    assert not outcome.right and outcome.credit == 0.5
    assert outcome.after == update(before, [(opponent, 0.5)])
    win = update(before, [(opponent, 1.0)]).rating
    loss = update(before, [(opponent, 0.0)]).rating
    assert loss < outcome.after.rating < win
    assert Rating(outcome.puzzle_rating).rating == update(opponent, [(before, 0.5)]).rating


def test_the_reasons_say_how_often_each_choice_writes_more_and_the_averages() -> None:
    puzzle = parse_puzzle(json.dumps(by_theme("call")))
    assert puzzle.bid is not None
    at = next(i for i, c in enumerate(puzzle.choices) if c.actions[0] == Pass())
    more, _equal, less = puzzle.bid.versus[at]
    said = bid_reasons(puzzle, Pass())
    n = puzzle.deals
    weighed = f"writes more than dalje on {less} of the {n} deals and less on {more}"
    assert any(weighed in line for line in said), said
    assert any(line.startswith("Average written points, ours minus theirs: ") for line in said)
    assert not any(line.startswith("Your ") for line in said)  # dalje, weighed, said once
    other = next(c for c in puzzle.choices[1:] if c.actions[0] != Pass())
    more, _equal, less = puzzle.bid.versus[puzzle.choices.index(other)]
    mine = bid_reasons(puzzle, other.actions[0])[-1]
    assert mine.startswith("Your ") and f"on {more} of the {n} deals and less on {less}." in mine
    assert bid_verdict(puzzle, Pass()).startswith("Not this time")
    good = parse_puzzle(json.dumps(by_theme("pod-mus", good=True)))
    assert bid_verdict(good, Call(Suit.SPADES)).startswith("Also good")
    assert any("is also good" in line for line in bid_reasons(good, Call(Suit.HEARTS)))
    assert "half a win" in credit_text(0.5)


def test_the_shipped_bid_pack_holds_at_least_300_usable_bid_puzzles() -> None:
    data = resources.files("bela.archive").joinpath(bid_puzzles.BID_PACK_NAME).read_bytes()
    text = gzip.decompress(data).decode("utf-8")
    pack = read_lines(text.splitlines(), bid_puzzles.BID_PACK_NAME, shipped=True)
    assert not pack.skipped, pack.skipped[:3]
    assert len(pack.puzzles) >= 300
    assert all(p.kind == "bid" and p.bid is not None for p in pack.puzzles)
    themes = {t for p in pack.puzzles for t in p.themes}
    assert themes == {"call", "pass", "pod-mus"}


def test_the_shipped_pack_reads_the_bid_pack_beside_the_card_pack(
    no_shipped_pack: Path,
) -> None:
    (no_shipped_pack / bid_puzzles.BID_PACK_NAME).write_bytes(
        gzip.compress("\n".join(lines()).encode())
    )
    pack = load_pack(None)
    assert len(pack.puzzles) == 4 and all(p.shipped for p in pack.puzzles)


def _run(argv: list[str], capsys: Any, monkeypatch: Any, stdin: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["puzzles", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_bela_puzzles_bids_asks_bid_puzzles_and_says_why(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from puzzle_fixtures import sample_lines

    folder = own_dir(data_dir)
    folder.mkdir(parents=True)
    (folder / "mixed.jsonl").write_text("\n".join(sample_lines() + lines()) + "\n")
    code, out, err = _run(["--bids", "--count", "4"], capsys, monkeypatch, "s\n\ns\n\ns\n\ns\n")
    assert code == 0, err
    assert out.count("Find the best bid") + out.count("You must call") == 4
    assert "Find the best card" not in out
    assert "Your hand: " in out and "Judged on 192 guessed deals that fit the bids so far" in out
    assert "Average written points, ours minus theirs: " in out
    assert "A typical guessed deal (eight cards each, the talon taken up):" in out
    assert "Counted as " in out
    journal = (data_dir / JOURNAL_NAME).read_text(encoding="utf-8").splitlines()
    assert {parse_action(json.loads(line)["action"]) for line in journal} == {Call(Suit.SPADES)}


def test_the_bid_prompt_names_the_suits_and_letters_of_the_deck_in_use(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #35: with mađarice the prompt said "call H / D / S / C", the French letters,
    where hr's s is srce; it names the deck's suits and the app's keys for them (issue #36:
    and dalje's), and a bare s is read as srce (hearts), as the prompt says."""
    folder = own_dir(data_dir)
    folder.mkdir(parents=True)
    (folder / "bids.jsonl").write_text("\n".join(lines()) + "\n")
    code, out, err = _run(["--bids", "--count", "1"], capsys, monkeypatch, "s\n")
    assert code == 0, err
    assert (  # a pod mus puzzle asks for the trump alone
        "hearts, diamonds, spades, clubs, or h / d / s / c; q to stop): " in out
        or "(h d s c name trump: hearts, diamonds, spades, clubs; p says dalje; q to stop): " in out
    )
    code, out, err = _run(
        ["--lang", "hr", "--deck", "german", "--bids", "--count", "1"], capsys, monkeypatch, "s\n"
    )
    assert code == 0, err
    assert (
        "srce, bundeva, list, žir ili s / u / t / ž; q za kraj): " in out
        or "(s u t ž zovu aduta: srce, bundeva, list, žir; d kaže dalje; q za kraj): " in out
    )
    assert "H / D / S / C" not in out
    journal = (data_dir / JOURNAL_NAME).read_text(encoding="utf-8").splitlines()
    assert [parse_action(json.loads(line)["action"]) for line in journal] == [
        Call(Suit.SPADES),
        Call(Suit.HEARTS),
    ]


def test_bids_goes_with_playing_not_with_daily(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _out, err = _run(["--bids", "--daily"], capsys, monkeypatch, "")
    assert code == 2 and "leave out --bids" in err


def test_a_pod_mus_prompt_offers_the_suits_not_dalje(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #36's play test: under pod mus the command line asked "Your bid (dalje, or a
    trump: ...)" and then refused the dalje it had offered; it asks for the trump alone."""
    folder = own_dir(data_dir)
    folder.mkdir(parents=True)
    (folder / "bids.jsonl").write_text("\n".join(lines()) + "\n")
    code, out, err = _run(["--theme", "pod-mus", "--count", "1"], capsys, monkeypatch, "s\n")
    assert code == 0, err
    assert "You must call: find the best trump." in out
    assert "Your trump (hearts, diamonds, spades, clubs, or h / d / s / c; q to stop): " in out
    assert "dalje, or a trump" not in out
    code, out, err = _run(
        ["--lang", "hr", "--theme", "pod-mus", "--count", "1"], capsys, monkeypatch, "s\n"
    )
    assert code == 0, err
    assert "Tvoj adut (herc, karo, pik, tref ili h / k / p / t; q za kraj): " in out
    assert "dalje, ili adut" not in out


def test_the_first_to_speak_is_not_told_what_a_dalje_before_means() -> None:
    """Issue #36's play test: "Judged on 192 guessed deals that fit the bids so far (a
    player who said dalje seldom holds a strong suit)" was said to the first to speak,
    before whom nobody had said anything."""
    import dataclasses

    second = parse_puzzle(json.dumps(by_theme("call")))
    assert len(second.actions) == 1
    said = bid_reasons(second, second.answer[0])[0]
    assert "a player who said dalje seldom holds a strong suit" in said
    first = dataclasses.replace(second, actions=())
    said = bid_reasons(first, first.answer[0])[0]
    assert "dalje" not in said
    assert said.startswith("Judged on 192 guessed deals that fit your cards (nobody has spoken")
