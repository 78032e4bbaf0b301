"""The bid puzzle judge and generator (``bela.lab.bid_puzzle_judge``, ``bid_puzzle_gen``).

The generator is pure per deal: the deal of seed 100002 gives the very lines the shipped
pack and the fixtures hold, and each line is one the pack reads. The judge's verdict is
checked on values made up for the purpose: best, also good (within ``ALSO_GOOD``), a
miss, and when a moment is clear.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bela.archive.puzzle_pack import parse_puzzle
from bela.engine import Action, Call, Pass, Round, Suit
from bela.engine.rules import DEFAULT_RULES
from bela.lab import bid_puzzle_gen
from bela.lab.bid_puzzle_judge import (
    ALSO_GOOD,
    CLEAR_GAP,
    GOOD_CREDIT,
    BidVerdict,
    bid_values,
    verdict_of,
)

FIXTURE = Path(__file__).parents[1] / "puzzles" / "fixtures" / "bid_puzzles.jsonl"


def _first_bid() -> Round:
    return Round.from_seed(100002, 2, DEFAULT_RULES)


def _made_up(means: dict[Action, int], deals: int = 40) -> BidVerdict:
    """A verdict on ``deals`` made-up deals: each option writes its mean, plus a swing the
    same for every option (so the differences are exact, their error 0)."""
    rnd = _first_bid()
    options = list(means)
    swing = [(d * 37) % 90 - 45 for d in range(deals)]
    values = [[means[o] + s for s in swing] for o in options]
    hands = [(0, 0, 0, 0)] * deals
    return verdict_of(rnd, options, values, hands)


def test_best_also_good_and_a_miss_are_told_apart_and_credited() -> None:
    hearts, spades, clubs = Call(Suit.HEARTS), Call(Suit.SPADES), Call(Suit.CLUBS)
    v = _made_up({Pass(): -20, hearts: 40, spades: 37, clubs: 10, Call(Suit.DIAMONDS): -50})
    assert v.best.action == hearts
    assert [o.action for o in v.good] == [spades]
    assert v.credit(hearts) == 1.0 and v.credit(spades) == GOOD_CREDIT
    assert v.credit(clubs) == 0.0 and v.credit(Pass()) == 0.0
    assert v.alternative.action == Pass()
    assert v.clear


def test_a_miss_too_close_to_the_best_leaves_the_moment_unclear() -> None:
    # clubs is no longer also good (more than ALSO_GOOD behind) and not CLEAR_GAP behind
    behind = int(ALSO_GOOD + (CLEAR_GAP - ALSO_GOOD) / 2)
    v = _made_up({Pass(): -20, Call(Suit.HEARTS): 40, Call(Suit.CLUBS): 40 - behind})
    assert not v.clear


def test_call_or_dalje_must_be_settled_for_a_free_bid() -> None:
    # dalje within ALSO_GOOD of the best call: call or dalje is not decided
    v = _made_up({Pass(): 38, Call(Suit.HEARTS): 40, Call(Suit.CLUBS): -30})
    assert not v.clear


def test_the_judge_values_every_legal_bid_on_the_same_deals() -> None:
    rnd = _first_bid()
    options, values, seen = bid_values(rnd, Random(1), 6)
    assert options == [Pass(), *(Call(s) for s in Suit)] or set(options) == {
        Pass(),
        *(Call(s) for s in Suit),
    }
    assert all(len(v) == 6 for v in values) and len(seen) == 6
    own = {int(c) for c in rnd.view(rnd.to_act or 0).hand}
    for hands in seen:  # the seat's six cards are its own in every guessed deal
        assert own <= {c for c in range(32) if hands[rnd.to_act or 0] >> c & 1}
        assert sum(h.bit_count() for h in hands) == 32


def test_a_deal_gives_the_shipped_lines_and_the_pack_reads_them() -> None:
    fixture = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    found = bid_puzzle_gen.bid_puzzles_of_deal(100002)
    assert found and any(p == f for p in found for f in fixture)
    for line in found:
        puzzle = parse_puzzle(json.dumps(line))
        assert puzzle.kind == "bid" and puzzle.bid is not None and puzzle.deals == 192


def test_the_generator_appends_its_puzzles_and_says_its_yield(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bids.jsonl"
    assert bid_puzzle_gen.main(["--deals", "1", "--seed", "100002", "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert "1 deals, 2 puzzles" in capsys.readouterr().err
    assert bid_puzzle_gen.main(["--deals", "1", "--seed", "100002", "--out", str(out)]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 4  # appended, not replaced


def test_the_pack_keeps_each_moment_and_shape_once_and_leaves_the_obvious_out() -> None:
    fixture = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    kept = bid_puzzle_gen.assemble(fixture + fixture)
    obvious = {
        p["id"]
        for p in fixture
        if all(p["bots"].values()) and bid_puzzle_gen.weighed_lead(p) >= bid_puzzle_gen.OBVIOUS_LEAD
    }
    assert [p["id"] for p in kept] == sorted(p["id"] for p in fixture if p["id"] not in obvious)
    # the same moment under another id (a copy) has the same shape: kept once
    twin = dict(fixture[0], id="0" * 10)
    assert len(bid_puzzle_gen.assemble([fixture[0], twin])) == 1
    # one every bot finds that leads by OBVIOUS_LEAD or more teaches nothing
    easy = dict(fixture[0], bots={"easy": True, "normal": True, "hard": True})
    lead = bid_puzzle_gen.weighed_lead(easy)
    assert (bid_puzzle_gen.assemble([easy]) == []) == (lead >= bid_puzzle_gen.OBVIOUS_LEAD)
    hard = dict(easy, bots={"easy": False, "normal": True, "hard": True})
    assert bid_puzzle_gen.assemble([hard]) == [hard]


def test_the_second_judgement_keeps_a_bid_puzzle_only_clear_with_room_on_fresh_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bela.lab.bid_puzzle_judge import BidOption, BidVerdict

    fixture = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    lines = [dict(fixture[0], id=f"{i:010d}", answer=["call D"]) for i in range(4)]
    call, dalje = Call(Suit.DIAMONDS), Pass()

    def verdict(best: Action, gap: float) -> BidVerdict:
        other = dalje if best == call else call
        return BidVerdict(
            seat=0,
            forced=False,
            options=(
                BidOption(best, 30.0, 0, 192, 0, 0.0),
                BidOption(other, 30.0 - gap, 20, 0, 172, 2.0),
            ),
            deals=192,
            typical=None,
        )

    fresh = {
        "0000000000": verdict(call, 40.0),  # kept
        "0000000001": verdict(call, 12.0),  # clear, without the room to spare
        "0000000002": verdict(dalje, 40.0),  # another answer
        "0000000003": verdict(call, 15.0),  # just the room
    }
    salts: list[str] = []

    def rejudge(line: dict[str, Any], salt: str) -> BidVerdict:
        salts.append(salt)
        return fresh[line["id"]]

    monkeypatch.setattr(bid_puzzle_gen, "rejudge_bid", rejudge)
    kept, unclear = bid_puzzle_gen.second_judgement(lines)
    assert [x["id"] for x in kept] == ["0000000000", "0000000003"] and unclear == 2
    assert set(salts) == {bid_puzzle_gen.SECOND_SALT, bid_puzzle_gen.THIRD_SALT}
    assert "rejudge" not in salts
    # the third set is asked only of what stood on the second, and it must stand there too
    assert salts.count(bid_puzzle_gen.THIRD_SALT) == 2
    third = {"0000000000": verdict(call, 40.0), "0000000003": verdict(call, 11.0)}

    def rejudge_both(line: dict[str, Any], salt: str) -> BidVerdict:
        return (third if salt == bid_puzzle_gen.THIRD_SALT else fresh)[line["id"]]

    monkeypatch.setattr(bid_puzzle_gen, "rejudge_bid", rejudge_both)
    kept, unclear = bid_puzzle_gen.second_judgement(lines)
    assert [x["id"] for x in kept] == ["0000000000"] and unclear == 3
