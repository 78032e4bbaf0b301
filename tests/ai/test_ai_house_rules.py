"""The bots under the house rules (issue #13): what an announced bela reveals, "dosta" said
exactly when it holds, and every bot playing legal, consistent rounds and matches under any
combination of rules."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bela.ai import decision_rng, make_bot
from bela.ai.base import claim_action, counted_points
from bela.ai.driver import play_bots_until
from bela.engine import Card, Claim, Match, Play, Round, Rules
from bela.engine.rules import QUICK_TARGET
from bela.lab.arena import play_deal, report_to_dict, run_arena
from bela.search.memory import CardMemory
from bela.search.sampling import DealSampler, knowledge_of
from house_rules import ANY_RULES

# Deal T of the rule scenarios: dealer 0, seat 1 names hearts; seat 3 holds trump QH and KH.
DEAL_T = (
    "AH 10H 8D QD AS 10S AC 10C",
    "JH 9H 10D 7D 9S JS 9C JC",
    "8H 7H AD JD KS QS KC QC",
    "KH QH 9D KD 7S 8S 7C 8C",
)
KH = Card.parse("KH")


def t_round(rules: Rules, moves: str) -> Round:
    hands = [h.split() for h in DEAL_T]
    rnd = Round.from_hands(0, [h[:6] for h in hands], [h[6:] for h in hands], rules)
    rnd = rnd.apply(rnd.legal_actions()[1 + 0])  # seat 1: Call(H) (legal: dalje, H, D, S, C)
    for token in moves.split():
        rnd = rnd.apply(Play(Card.parse(token.rstrip("!")), bela=token.endswith("!")))
    return rnd


def test_an_announced_bela_puts_the_other_card_in_the_announcers_hand() -> None:
    """Seat 3 says "bela!" with QH in trick 1: seat 0 now knows KH is seat 3's."""
    rnd = t_round(Rules(), "JH 7H QH! 10H")
    assert rnd.trump is not None and rnd.trump.name == "HEARTS"
    memory = CardMemory.from_view(rnd.view(0))
    assert memory.known[3] >> KH & 1
    assert not memory.possible[1] >> KH & 1 and not memory.possible[2] >> KH & 1
    knowledge = knowledge_of(rnd.view(0))
    assert knowledge.required[3] >> KH & 1
    sampler = DealSampler(knowledge)
    rng = random.Random(3)
    assert all(sampler.sample(rng)[3] >> KH & 1 for _ in range(50))


def test_a_silent_queen_reveals_nothing() -> None:
    """The same QH played without "bela!": KH may be anywhere still out."""
    rnd = t_round(Rules(), "JH 7H QH 10H")
    memory = CardMemory.from_view(rnd.view(0))
    assert not memory.known[3] >> KH & 1
    assert memory.possible[2] >> KH & 1 or memory.possible[1] >> KH & 1


def test_the_bots_announce_bela_under_either_rule() -> None:
    """Seat 3's bot, playing QH or KH first, announces with the card the rules allow."""
    for rules in (Rules(), Rules(bela_on_second=True)):
        rnd = t_round(rules, "")
        bots = {s: make_bot("normal") for s in range(4)}
        step = 0
        while not rnd.is_finished:
            seat = rnd.to_act
            assert seat is not None
            rnd = rnd.apply(bots[seat].act(rnd.view(seat), decision_rng(1, 0, step)), seat)
            step += 1
        assert rnd.bela_announced_by == 3
        assert rnd.result is not None and rnd.result.bela == (0, 20)
        plays = [a for a in rnd.actions if isinstance(a, Play) and a.card.suit is rnd.trump]
        pair = [a for a in plays if a.card.rank.name in ("KING", "QUEEN")]
        assert pair[1 if rules.bela_on_second else 0].bela


def test_bots_say_dosta_exactly_when_it_holds() -> None:
    """Every "dosta" a bot says is right; and whenever one may be said rightly, the bot to act
    says it (so no bot lets a won match slip)."""
    claims = 0
    for seed in range(6):
        for kind in ("easy", "normal"):
            match = Match.new(seed, 501, Rules(dosta=True))
            bots = {s: make_bot(kind) for s in range(4)}
            while match.current is not None:
                rnd = match.current
                seat = rnd.to_act
                assert seat is not None
                view = rnd.view(seat)
                action = bots[seat].act(view, decision_rng(seed, match.next_index, 0))
                counted = counted_points(view, seat % 2)
                if counted is not None:
                    assert counted == rnd.counted(seat % 2)
                right = claim_action(view) is not None
                assert isinstance(action, Claim) == right
                match = match.apply(action, seat)
            last = match.rounds[-1].result
            if last.claim is not None:
                assert last.claim_ok and match.winner == last.claim
                claims += 1
    assert claims >= 6  # most matches na dosta end on a claim


RULES = ANY_RULES


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULES, seed=st.integers(0, 2**32), kind=st.sampled_from(("random", "easy", "normal")))
def test_bots_play_legal_consistent_rounds_under_any_rules(
    rules: Rules, seed: int, kind: str
) -> None:
    """A full round per deal: every bot action is legal (``push`` validates), every card is
    played once unless a claim or belot stopped the round, and what is written adds up."""
    rnd = Round.from_seed(seed, seed % 4, rules)
    bots = {s: make_bot(kind) for s in range(4)}
    step = 0
    while not rnd.is_finished:
        seat = rnd.to_act
        assert seat is not None
        rnd.push(bots[seat].act(rnd.view(seat), decision_rng(seed, 0, step)), seat)
        step += 1
    result = rnd.result
    assert result is not None
    if result.redeal or result.belot is not None:
        assert result.points == (0, 0)
        return
    assert sum(result.card_points) == 162 and sum(result.tricks) == 8
    if rules.no_zvanja:
        assert result.zvanja == (0, 0)
    if rules.no_bela:
        assert result.bela == (0, 0)
    assert result.points[0] + result.points[1] + result.hanging == result.combined


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=RULES,
    seed=st.integers(0, 2**32),
    target=st.sampled_from((QUICK_TARGET, 501)),
    kind=st.sampled_from(("random", "easy")),
)
def test_bots_finish_matches_under_any_rules(
    rules: Rules, seed: int, target: int, kind: str
) -> None:
    """A whole match: it ends, the scores are the sum of the rows, the winner follows."""
    match = play_bots_until(
        Match.new(seed, target, rules), {s: make_bot(kind) for s in range(4)}, False
    )
    assert match.winner is not None
    rows = [r.written for r in match.rounds]
    assert match.scores == (sum(r[0] for r in rows), sum(r[1] for r in rows))
    last = match.rounds[-1].result
    if last.claim is not None:
        assert match.winner == (last.claim if last.claim_ok else 1 - last.claim)
    elif last.belot is None:
        assert match.scores[match.winner] > match.scores[1 - match.winner]
    if target == QUICK_TARGET and last.belot is None:
        assert sum(1 for r in match.rounds if not r.result.redeal) >= 3


def test_the_arena_plays_under_house_rules() -> None:
    rules = Rules(dosta=True, stiglja_bonus=100, bela_on_second=True, no_zvanja=True)
    report = run_arena(
        "easy",
        "random",
        deal_pairs=6,
        seed=2,
        jobs=1,
        matches=1,
        target=501,
        progress=False,
        rules=rules,
    )
    assert report.rules == rules
    assert report_to_dict(report)["rules"] == rules.changed()
    assert play_deal("easy", "random", 2, 0, 0, rules) == play_deal(
        "easy", "random", 2, 0, 0, rules
    )


def test_the_searching_bots_score_a_sweep_and_a_kept_bela_by_the_rules() -> None:
    """The hard bot's and the analysis's written points follow ``stiglja_bonus`` and
    ``bela_always_counts``: a sweep is worth 162 + 100; falling callers keep their bela."""
    from bela.search.analysis import written_points

    sweep = {
        "caller": 0,
        "taken": (100, 0),
        "won": (5, 0),
        "margin": 62 + 90,  # the solver's margin: more than the rest, so a sweep
        "rest": 62,
        "zvanja": (0, 0),
        "bela": (0, 0),
    }
    assert written_points(**sweep) == (252, 0)  # type: ignore[arg-type]
    assert written_points(**sweep, stiglja_bonus=100) == (262, 0)  # type: ignore[arg-type]
    fall = {
        "caller": 0,
        "taken": (40, 60),
        "won": (3, 3),
        "margin": -62,
        "rest": 62,
        "zvanja": (0, 0),
        "bela": (20, 0),
    }
    assert written_points(**fall) == (0, 182)  # type: ignore[arg-type]
    assert written_points(**fall, bela_always_counts=True) == (20, 162)  # type: ignore[arg-type]
