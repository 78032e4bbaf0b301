"""The shipped puzzle pack: every line is a real moment, and a sample stays clear when re-judged.

``make puzzles-check`` re-judges the whole pack (half an hour of CPU); here a fixed
random sample of the cheaper puzzles (from the fourth trick on) and a few early ones
are judged again on fresh guessed deals, as the whole-pack check does.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bela.engine import Play
from bela.engine.actions import parse_action
from bela.lab.puzzle_check import moment_of, read_pack, rejudge, stays_clear
from bela.lab.puzzle_judge import BEST_SHARE, MIN_GAP
from bela.lab.puzzle_themes import ROLES, THEMES

PACK = Path(__file__).resolve().parents[2] / "src" / "bela" / "archive" / "puzzles.jsonl.gz"


@pytest.fixture(scope="module")
def pack() -> list[dict[str, Any]]:
    return read_pack(PACK)


def test_every_shipped_puzzle_replays_to_its_moment_with_a_legal_clear_answer(
    pack: list[dict[str, Any]],
) -> None:
    assert len({p["id"] for p in pack}) == len(pack)
    for p in pack:
        rnd = moment_of(p)
        legal = {a.card if isinstance(a, Play) else a for a in rnd.view(p["seat"]).legal_actions}
        for text in p["answer"]:
            action = parse_action(text)
            assert (action.card if isinstance(action, Play) else action) in legal
        assert p["deals"] >= 96
        best, second = p["choices"][0], p["choices"][1]
        assert best["best"] >= BEST_SHARE
        assert best["written"] - second["written"] >= MIN_GAP
        assert set(p["themes"]) <= set(THEMES)


def test_the_pack_has_puzzles_from_every_phase_of_the_play(pack: list[dict[str, Any]]) -> None:
    tricks = Counter(p["trick"] for p in pack if p["kind"] == "card")
    assert all(tricks[t] > 0 for t in range(2, 8))
    leads = sum(1 for p in pack if "lead" in p["themes"] and 2 <= p["trick"] <= 5)
    assert leads > 0
    roles = Counter(t for p in pack for t in p["themes"] if t in ROLES)
    assert set(roles) == set(ROLES)


def test_a_sample_of_the_pack_stays_clear_on_fresh_deals(pack: list[dict[str, Any]]) -> None:
    rng = Random(25)
    late = [p for p in pack if p["trick"] >= 4]
    early = [p for p in pack if 2 <= p["trick"] < 4]
    sample = rng.sample(late, 6) + rng.sample(early, 2)
    clear = [stays_clear(p, rejudge(p, "make-test")) for p in sample]
    assert sum(clear) >= 7, [p["id"] for p, ok in zip(sample, clear, strict=True) if not ok]


def test_the_shipped_pack_keeps_its_variety() -> None:
    """Issue #36's shares: "always play the cheapest card" solves at most a quarter, three
    legal cards or more in at least 60%, each near-duplicate once."""
    from bela.lab.puzzle_figures import CHEAPEST_SHARE, MANY_SHARE, figures

    got = figures(read_pack(PACK))
    assert got.cards > 0
    assert got.cheapest <= CHEAPEST_SHARE * got.cards
    assert got.many >= MANY_SHARE * got.cards
    assert got.duplicated == 0


def test_the_app_reads_every_line_of_the_shipped_pack() -> None:
    """A first rebuild shipped six lines whose rating the reader refuses (-1321)."""
    import gzip

    from bela.archive.puzzle_pack import read_lines

    with gzip.open(PACK, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    pack = read_lines(lines, "shipped", shipped=True)
    assert pack.skipped == () and len(pack.puzzles) == len(lines)


BIDS = PACK.with_name("bid_puzzles.jsonl.gz")


def test_a_bid_puzzle_is_judged_again_by_the_bid_judge() -> None:
    """``make puzzles-check`` re-judges the bid pack too: a bid line goes to the bid judge,
    and a line whose answer is not the fresh verdict's best bid does not stay clear."""
    from bela.engine.actions import choice_of
    from bela.lab.puzzle_check import bid_stays_clear, check_pack, rejudge_bid

    line = read_pack(BIDS)[0]
    verdict = rejudge_bid(line, "make-test", 48)
    assert verdict.deals == 48 and choice_of(verdict.best.action) in {
        choice_of(parse_action(t)) for t in line["answer"]
    }
    other = next(o for o in verdict.options if o is not verdict.best)
    wrong = dict(line, answer=[str(other.action)])
    assert bid_stays_clear(line, verdict) == verdict.clear and not bid_stays_clear(wrong, verdict)
    report = check_pack([dict(line, deals=48), dict(wrong, deals=48)], "make-test")
    assert report.judged == 2 and wrong["id"] in {pid for pid, _s, _g in report.unclear}


def test_puzzles_check_reports_each_pack_it_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    from bela.lab.puzzle_check import main

    status = main([str(PACK), str(BIDS), "--sample", "1", "--jobs", "1", "--salt", "make-test"])
    out = capsys.readouterr().out.splitlines()
    heads = [line for line in out if not line.startswith("  ")]
    assert [h.split(":")[0] for h in heads] == [PACK.name, BIDS.name]
    assert all("of 1 puzzles stay clear" in h for h in heads)
    assert status == (0 if all("(100.0%" in h for h in heads) else 1)
