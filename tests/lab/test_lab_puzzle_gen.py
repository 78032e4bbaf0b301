"""Finding puzzles in played deals, putting them in a pack, and judging the pack again."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bela.engine import Play, Round
from bela.engine.actions import parse_action
from bela.engine.cards import Card
from bela.lab import puzzle_gen
from bela.lab.puzzle_assemble import assemble, retypical, shows_nothing, verdict_of
from bela.lab.puzzle_assemble import main as assemble_main
from bela.lab.puzzle_check import check_pack, moment_of, rejudge, stays_clear
from bela.lab.puzzle_gen import GenSettings, generate, puzzles_of_deal
from bela.lab.puzzle_judge import judge
from bela.lab.puzzle_rating import LEVELS, TRIALS, first_rating, misses_of
from bela.lab.puzzle_themes import THEMES, themes_of

pytestmark = pytest.mark.slow  # judging real deals: about a minute of CPU in all

SEEDS = (10, 12, 17)
SMALL = GenSettings(deals=16, bids=False, from_trick=5, variety=False)


@pytest.fixture(scope="module")
def found() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for seed in SEEDS:
        out.extend(puzzles_of_deal(seed, SMALL))
    assert out, "three deals gave no puzzle at all"
    return out


def _key(text: str) -> object:
    action = parse_action(text)
    return action.card if isinstance(action, Play) else action


def test_every_puzzle_replays_to_its_moment_and_its_answer_is_a_legal_choice(
    found: list[dict[str, Any]],
) -> None:
    for p in found:
        rnd = moment_of(p)
        legal = {a.card if isinstance(a, Play) else a for a in rnd.view(p["seat"]).legal_actions}
        assert {_key(t) for t in p["answer"]} <= legal
        assert p["answer"] == p["choices"][0]["actions"]
        assert p["trick"] == len(rnd.tricks) + 1
        assert p["deals"] == SMALL.deals
        assert p["choices"][0]["best"] >= 0.9
        assert p["choices"][0]["written"] - p["choices"][1]["written"] >= 10
        assert set(p["themes"]) <= set(THEMES)
        assert p["themes"][0] in ("lead", "second", "third", "fourth")
        assert p["themes"][0] == ("lead", "second", "third", "fourth")[len(rnd.trick)]


def test_a_puzzle_is_what_the_judge_says_of_its_moment_with_the_moment_seed(
    found: list[dict[str, Any]],
) -> None:
    for p in found:
        rnd = moment_of(p)
        index = len(p["actions"])
        verdict = judge(rnd, Random(puzzle_gen._mix(p["seed"], index)), SMALL.deals)
        assert verdict.clear
        assert [str(a) for a in verdict.answer] == p["answer"]
        assert list(themes_of(rnd, verdict)) == p["themes"]


def test_a_puzzles_first_rating_is_the_solvers_ladder_reading_of_its_misses(
    found: list[dict[str, Any]],
) -> None:
    for p in found:
        assert set(p["misses"]) == set(LEVELS)
        assert all(0 <= p["misses"][k] <= TRIALS[k] for k in LEVELS)
        assert p["misses"] == misses_of(p, moment_of(p))  # reproducible from the id
        assert p["rating"] == round(first_rating(p["misses"]))
        assert p["bots"]["easy"] == (p["misses"]["easy"] == 0)


def test_the_typical_deal_holds_the_unplayed_cards_and_both_lines_finish_the_round(
    found: list[dict[str, Any]],
) -> None:
    for p in found:
        typical = p["typical"]
        assert typical is not None
        rnd = moment_of(p)
        played = {int(c) for t in rnd.tricks for c in t.cards} | {int(c) for c in rnd.trick}
        held = [{int(Card.parse(c)) for c in hand} for hand in typical["hands"]]
        assert set().union(*held) | played == set(range(32))
        assert held[p["seat"]] == {int(c) for c in rnd.view(p["seat"]).hand}
        assert [line["actions"][0] for line in typical["lines"]] == [
            p["choices"][0]["actions"][0],
            p["choices"][1]["actions"][0],
        ]
        for line in typical["lines"]:
            cards_left = sum(len(h) for h in held)
            assert len(line["actions"]) == cards_left
        team = p["seat"] & 1
        right, other = (line["written"] for line in typical["lines"])
        assert right[team] - right[1 - team] > other[team] - other[1 - team]


def test_the_same_deal_gives_the_same_puzzles() -> None:
    assert puzzles_of_deal(12, SMALL) == puzzles_of_deal(12, SMALL)


def test_generate_hands_each_chunk_to_the_sink_and_counts_them() -> None:
    batches: list[list[dict[str, Any]]] = []
    counted: list[tuple[int, int]] = []
    total = generate(
        [10, 12, 17],
        batches.append,
        SMALL,
        jobs=1,
        chunk=2,
        progress=lambda d, t: counted.append((d, t)),
    )
    assert len(batches) == 2
    assert total == sum(len(b) for b in batches)
    assert [p["id"] for b in batches for p in b] == [
        p["id"] for s in (10, 12, 17) for p in puzzles_of_deal(s, SMALL)
    ]
    assert counted[-1] == (3, 3)


def test_assembling_keeps_one_line_per_moment_and_drops_lines_that_do_not_replay(
    found: list[dict[str, Any]], tmp_path: Path
) -> None:
    broken = dict(found[0], id="broken", seat=(found[0]["seat"] + 1) % 4)
    lines = [*found, found[0], broken, {"no": "id"}]
    assert assemble(lines) == ([], len(lines))  # judged on 16 deals: under the pack's floor
    puzzles, dropped = assemble(lines, SMALL.deals)
    assert [p["id"] for p in puzzles] == sorted({p["id"] for p in found})
    assert dropped == 3
    src = tmp_path / "gen.jsonl"
    src.write_text("".join(json.dumps(p) + "\n" for p in lines))
    out = tmp_path / "pack.jsonl.gz"
    assert assemble_main([str(out), str(src), "--keep-all", "--deals", str(SMALL.deals)]) == 0
    with gzip.open(out, "rt") as f:
        assert [json.loads(line)["id"] for line in f] == [p["id"] for p in puzzles]


def test_a_puzzle_line_gives_back_the_verdict_it_records(found: list[dict[str, Any]]) -> None:
    for p in found:
        verdict = verdict_of(p)
        assert verdict.clear
        assert [str(a) for a in verdict.answer] == p["answer"]


def test_judging_again_on_fresh_deals_finds_the_same_answer(found: list[dict[str, Any]]) -> None:
    report = check_pack(found[:2], salt="test", jobs=1)
    assert report.judged == 2
    for p in found[:2]:
        verdict = rejudge(p, "test", p["deals"])
        assert stays_clear(p, verdict) == (p["id"] not in {u[0] for u in report.unclear})
    wrong = dict(found[0], answer=found[0]["choices"][1]["actions"])
    assert not stays_clear(wrong, rejudge(found[0], "test", found[0]["deals"]))


def test_a_moment_that_does_not_replay_is_refused(found: list[dict[str, Any]]) -> None:
    p = found[0]
    with pytest.raises(ValueError, match="is not the one to act"):
        moment_of(dict(p, seat=(p["seat"] + 1) % 4))
    assert isinstance(moment_of(p), Round)


def test_a_typical_deal_that_shows_nothing_is_found_again(found: list[dict[str, Any]]) -> None:
    p = found[0]
    lines = p["typical"]["lines"]
    flat = dict(
        p, typical=dict(p["typical"], lines=[lines[0], dict(lines[1], written=lines[0]["written"])])
    )
    assert shows_nothing(flat) and not shows_nothing(p)
    again = retypical(flat)
    assert not shows_nothing(again)
    assert {k: v for k, v in again.items() if k != "typical"} == {
        k: v for k, v in p.items() if k != "typical"
    }


def test_a_verdict_on_fewer_deals_than_asked_is_not_a_puzzle() -> None:
    """A deal whose solve passes the judge's node limit is skipped: a rebuild of the pack
    shipped one puzzle judged on 95 deals, under the issue's floor of 96."""
    from bela.engine import Play
    from bela.engine.cards import Card
    from bela.lab.puzzle_gen import verified
    from bela.lab.puzzle_judge import DEALS, Choice, Verdict

    def verdict(deals: int) -> Verdict:
        best = Choice((Play(Card.parse("AH")),), 40.0, deals)
        other = Choice((Play(Card.parse("7H")),), 0.0, 0)
        return Verdict("card", 0, (best, other), deals, True)

    assert verified(verdict(DEALS)) and not verified(verdict(DEALS - 1))
    assert verified(verdict(16), 16) and not verified(verdict(15), 16)
