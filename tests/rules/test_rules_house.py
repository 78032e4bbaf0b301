"""House rules (issue #13): each field of ``Rules`` with a scenario that shows what it changes.

Deals and lines are those of ``bela_scenarios`` (every number derived there from the brief's
tables). Deal T, dealer 0: seat 1 names hearts, so team 1 (seats 1, 3) calls; seat 3 holds
trump QH and KH and plays QH in trick 1, KH in trick 2.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from bela_scenarios import (
    DEAL_BELOT,
    DEAL_P,
    DEAL_S,
    DEAL_T,
    P_CALLERS_ZVANJA,
    PLAY_P_BELA,
    PLAY_S,
    PLAY_T_A_BELA,
    PLAY_T_B,
    PLAY_T_B_BELA,
    PLAY_T_B_BELA_SECOND,
    S_SWEPT_BELA,
    S_SWEPT_ZVANJA,
    T_A_CALLERS_CARDS,
    T_A_DEFENDERS_CARDS,
    call,
    match_around,
    new_round,
    play,
    play_match,
)

from bela.engine import (
    Card,
    Claim,
    IllegalBelaError,
    IllegalClaimError,
    InvalidValueError,
    Match,
    Play,
    Round,
    Rules,
    score_round_detail,
)
from bela.engine.match import decide_quick_winner
from bela.engine.rules import QUICK_TARGET, TARGETS

DOSTA = Rules(dosta=True)


def bela(card: str) -> Play:
    return Play(Card.parse(card), bela=True)


# ------------------------------------------------------------------ the defaults


def test_the_defaults_are_the_brief_of_revision_2() -> None:
    """Bela with the first card, štiglja 90, "na prolaz", zvanja and bela on, pad on a tie,
    counter-clockwise, played tricks may be looked at; 163 joins the targets."""
    rules = Rules()
    assert not rules.bela_on_second and rules.stiglja_bonus == 90
    assert not (rules.dosta or rules.no_zvanja or rules.no_bela or rules.bela_always_counts)
    assert not (rules.visi or rules.tens_over_kings or rules.clockwise or rules.no_forced_trump)
    assert not rules.hide_played_tricks
    assert rules.changed() == {}
    assert Rules(stiglja_bonus=100, dosta=True).changed() == {"stiglja_bonus": 100, "dosta": True}
    assert TARGETS == (QUICK_TARGET, 501, 701, 1001) and QUICK_TARGET == 163


@pytest.mark.parametrize("bad", [95, 0, "90", 90.0, True, None])
def test_stiglja_bonus_is_90_or_100(bad: object) -> None:
    with pytest.raises(InvalidValueError, match="stiglja_bonus is 90 or 100"):
        Rules(stiglja_bonus=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["bela_on_second", "dosta", "no_zvanja", "clockwise"])
def test_rule_flags_are_bools(field: str) -> None:
    with pytest.raises(InvalidValueError, match=f"{field} is True or False"):
        Rules(**{field: 1})  # type: ignore[arg-type]


# ------------------------------------------------------------------ bela with the first card


def test_bela_is_announced_with_the_first_card_by_default() -> None:
    """Revision 2: "bela!" goes with the first of trump K and Q (QH here), worth 20."""
    rnd = play(call(new_round(0, DEAL_T), "H"), "JH 7H")
    assert bela("QH") in rnd.legal_actions()
    rnd = rnd.apply(bela("QH"))
    assert rnd.bela_announced_by == 3
    rnd = play(rnd, "10H | 9H 8H")
    assert bela("KH") not in rnd.legal_actions()  # "od bele" is words only, not a second 20
    with pytest.raises(IllegalBelaError, match="first of the trump king and queen"):
        rnd.apply(bela("KH"))
    done = play(call(new_round(0, DEAL_T), "H"), PLAY_T_B_BELA)
    assert done.result is not None and done.result.bela == (0, 20)


def test_bela_given_up_with_a_silent_first_card() -> None:
    """A first card played without "bela!" gives bela up: the second cannot carry it."""
    rnd = play(call(new_round(0, DEAL_T), "H"), "JH 7H QH 10H | 9H 8H")
    before = rnd.actions
    with pytest.raises(IllegalBelaError):
        rnd.apply(bela("KH"))
    assert rnd.actions == before
    done = play(call(new_round(0, DEAL_T), "H"), PLAY_T_B)
    assert done.result is not None and done.result.bela == (0, 0)


def test_either_card_may_carry_bela_while_both_are_held() -> None:
    """Trick 1: seat 1 leads JH, the top trump; seat 3 cannot beat it and must play a trump,
    QH or KH. Both still in hand, so either may be the first and carry "bela!"."""
    rnd = play(call(new_round(0, DEAL_T), "H"), "JH 7H")
    legal = rnd.legal_actions()
    assert {bela("QH"), bela("KH"), Play(Card.parse("QH")), Play(Card.parse("KH"))} <= set(legal)
    after = rnd.apply(bela("KH"))
    assert after.bela_announced_by == 3
    after = play(after, "10H | 9H 8H")
    assert bela("QH") not in after.legal_actions()


def test_bela_on_the_second_card_remains_an_option() -> None:
    """``bela_on_second``: today's old behaviour (and every schema-1 record's meaning)."""
    second = Rules(bela_on_second=True)
    rnd = play(call(new_round(0, DEAL_T, second), "H"), "JH 7H")
    assert bela("QH") not in rnd.legal_actions()
    with pytest.raises(IllegalBelaError, match="second of the trump king and queen"):
        rnd.apply(bela("QH"))
    done = play(call(new_round(0, DEAL_T, second), "H"), PLAY_T_B_BELA_SECOND)
    assert done.result is not None and done.result.bela == (0, 20)
    with pytest.raises(IllegalBelaError):  # the first-card line is refused under the old rule
        play(call(new_round(0, DEAL_T, second), "H"), PLAY_T_B_BELA)


@pytest.mark.parametrize("bela_on_second", [False, True])
def test_the_fast_path_announces_bela_where_the_rules_say(bela_on_second: bool) -> None:
    """``play_out_random`` announces with the first card, or the second under the option, and
    its actions replay through the validated ``apply``."""
    rules = Rules(bela_on_second=bela_on_second)
    announced = 0
    for seed in range(300):
        rnd = Round.from_seed(seed, seed % 4, rules)
        result = rnd.copy()
        result.play_out_random(random.Random(seed))
        if result.bela_announced_by is None:
            continue
        plays = [a for a in result.actions if isinstance(a, Play)]
        at = next(i for i, a in enumerate(plays) if a.bela)
        pair = [
            i
            for i, a in enumerate(plays)
            if a.card.suit is result.trump and a.card.rank in (a.card.rank.KING, a.card.rank.QUEEN)
        ]
        assert at == (max(pair) if bela_on_second else min(pair))
        assert rnd.replay(result.actions).result == result.result
        announced += 1
    assert announced > 10


# ------------------------------------------------------------------ zvanja off, bela off


def test_no_zvanja_scores_no_declaration_but_bela_counts() -> None:
    """``no_zvanja``: seat 1's 9S 10S JS (20) in deal P counts nothing; seat 3's bela does."""
    rules = Rules(no_zvanja=True)
    rnd = play(call(new_round(0, DEAL_P, rules), "H"), PLAY_P_BELA)
    assert rnd.result is not None
    assert rnd.result.zvanja == (0, 0) and rnd.result.bela == (0, 20)
    assert rnd.declarations(1) == () and rnd.view(0).shown_zvanja == ()
    with_zvanja = play(call(new_round(0, DEAL_P), "H"), PLAY_P_BELA).result
    assert with_zvanja is not None and with_zvanja.zvanja == (0, P_CALLERS_ZVANJA)


def test_no_zvanja_plays_a_belot_deal_out() -> None:
    """Belot is a declaration too: without zvanja eight clubs are just a strong hand."""
    rnd = call(new_round(0, DEAL_BELOT, Rules(no_zvanja=True)), "H")
    assert rnd.result is None and rnd.phase.value == "playing"


def test_no_bela_makes_trump_k_and_q_worth_nothing_together() -> None:
    """``no_bela``: nobody may announce; deal T line B is then an 81 : 81 tie, a pad."""
    rules = Rules(no_bela=True)
    rnd = play(call(new_round(0, DEAL_T, rules), "H"), "JH 7H")
    assert rnd.bela_seat is None
    assert bela("QH") not in rnd.legal_actions()
    with pytest.raises(IllegalBelaError):
        rnd.apply(bela("QH"))
    done = play(call(new_round(0, DEAL_T, rules), "H"), PLAY_T_B)
    assert done.result is not None and done.result.tie and done.result.points == (162, 0)


# ------------------------------------------------------------------ bela se uvijek piše, visi


def test_bela_always_counts_keeps_the_falling_callers_bela() -> None:
    """Deal T line A with bela: callers 71 + 20 = 91 against 91, a tie and so a pad. Plain
    pad: 182 : 0 to the defenders. "Bela se uvijek piše": the callers write their 20 and the
    defenders the remaining 162."""
    plain = play(call(new_round(0, DEAL_T), "H"), PLAY_T_A_BELA).result
    kept = play(call(new_round(0, DEAL_T, Rules(bela_always_counts=True)), "H"), PLAY_T_A_BELA)
    assert plain is not None and kept.result is not None
    assert T_A_CALLERS_CARDS + 20 == T_A_DEFENDERS_CARDS == 91
    assert plain.points == (182, 0)
    assert kept.result.points == (162, 20) and kept.result.fell


def test_bela_always_counts_with_visi_hangs_the_rest() -> None:
    """With visi too the defenders write their own 91, the callers their 20, and 71 hangs."""
    rules = Rules(bela_always_counts=True, visi=True)
    rnd = play(call(new_round(0, DEAL_T, rules), "H"), PLAY_T_A_BELA)
    assert rnd.result is not None
    assert rnd.result.points == (91, 20) and rnd.result.hanging == 71


def test_bela_always_counts_as_plain_numbers() -> None:
    score = score_round_detail(
        caller=0,
        card_points=(60, 102),
        zvanja=(0, 0),
        bela=(20, 0),
        tricks=(3, 5),
        bela_always_counts=True,
    )
    assert score.fell and score.points == (20, 162)
    swept = score_round_detail(
        caller=0,
        card_points=(0, 162),
        zvanja=(0, 0),
        bela=(20, 0),
        tricks=(0, 8),
        bela_always_counts=True,
    )
    assert swept.points == (0, 162 + 90 + 20)  # a štiglja still takes the swept team's bela


# ------------------------------------------------------------------ štiglja 100


def test_stiglja_worth_100() -> None:
    """Deal S: seat 1's team takes all eight tricks; 90 by default, 100 under the option."""
    default = play(call(new_round(0, DEAL_S), "H"), PLAY_S).result
    hundred = play(call(new_round(0, DEAL_S, Rules(stiglja_bonus=100)), "H"), PLAY_S).result
    assert default is not None and hundred is not None
    assert default.totals[1] == 162 + 90 + S_SWEPT_ZVANJA + S_SWEPT_BELA
    assert hundred.totals[1] == 162 + 100 + S_SWEPT_ZVANJA + S_SWEPT_BELA == 332
    assert hundred.points == (0, 332)


# ------------------------------------------------------------------ the order of two fours

# Seat 1 holds four kings, seat 2 four tens, seat 3 a 3-sequence 7S 8S 9S; nobody else
# declares (seat 0: 7 8 A of hearts and of diamonds, QS, QC).
DEAL_FOURS = (
    "7H 8H AH 7D 8D AD QS QC",  # seat 0 (dealer)
    "KH KD KS KC 9H 9D 7C 8C",  # seat 1 (first player): four kings, 100
    "10H 10D 10S 10C JH JD AS AC",  # seat 2: four tens, 100
    "QH QD 7S 8S 9S JS 9C JC",  # seat 3: 7S 8S 9S, 20
)


def test_four_kings_beat_four_tens_by_default() -> None:
    """The brief: for two 100-point fours A > K > Q > 10 (natural order): team 1's four
    kings win, so team 1 scores them and seat 3's 20."""
    rnd = call(new_round(0, DEAL_FOURS), "H")
    assert rnd.zvanja_team == 1 and rnd.zvanja_points == (0, 120)


def test_tens_over_kings_puts_four_tens_above_four_kings() -> None:
    """``tens_over_kings``: A > 10 > K > Q, so seat 2's four tens win for team 0."""
    rnd = call(new_round(0, DEAL_FOURS, Rules(tens_over_kings=True)), "H")
    assert rnd.zvanja_team == 0 and rnd.zvanja_points == (100, 0)


# ------------------------------------------------------------------ na dosta


def dosta_match(scores: tuple[int, int], deal: tuple[str, ...] = DEAL_T) -> Match:
    rnd = new_round(0, deal, DOSTA).with_claim_context(scores, 1001)
    return match_around(rnd, rules=DOSTA, scores=scores)


def test_dosta_right_claim_ends_the_match_for_the_claimers() -> None:
    """Line A: seat 2 (team 0) wins trick 3, worth 21. At 990 that is 1011: "dosta" holds;
    each team writes what it counted (21 and 33 + 29 = 62) and team 0 wins at once."""
    match = play_match(dosta_match((990, 0)), "H", "JH 7H QH 10H | 9H 8H KH AH | 10D AD 9D 8D")
    assert match.current is not None and match.current.to_act == 2
    assert Claim() in match.current.legal_actions()
    over = match.apply(Claim(), seat=2)
    result = over.rounds[-1].result
    assert result.claim == 0 and result.claim_ok
    assert result.points == (21, 62) and over.scores == (1011, 62)
    assert over.winner == 0 and over.current is None


def test_dosta_wrong_claim_loses_the_match() -> None:
    """At 970 the same 21 make 991: the claim is wrong; the claimers write 0, the others both
    teams' counted points (21 + 62), and the match is theirs."""
    match = play_match(dosta_match((970, 0)), "H", "JH 7H QH 10H | 9H 8H KH AH | 10D AD 9D 8D")
    over = match.apply(Claim())
    result = over.rounds[-1].result
    assert result.claim == 0 and not result.claim_ok
    assert result.points == (0, 83) and over.winner == 1


@pytest.mark.parametrize(("before", "right"), [(930, True), (928, True), (927, False)])
def test_dosta_counts_zvanja_and_announced_bela(before: int, right: bool) -> None:
    """Deal P: after trick 1 (33 to seat 1) team 1 counts 33 + its 20 of zvanja + the bela
    seat 3 announced with QH: 73. 928 + 73 = 1001 is enough; 927 + 73 is not."""
    match = play_match(dosta_match((0, before), DEAL_P), "H", PLAY_P_BELA.split("|")[0])
    assert match.current is not None and match.current.counted(1) == before + 73
    over = match.apply(Claim(), seat=1)
    assert over.rounds[-1].result.claim_ok is right
    assert over.winner == (1 if right else 0)


def test_dosta_only_for_the_player_who_has_just_won_a_trick() -> None:
    match = dosta_match((990, 0))
    match = play_match(match, "H", "")
    with pytest.raises(IllegalClaimError, match="just won a trick"):  # before any trick
        match.apply(Claim())
    match = play_match(match, "", "JH 7H QH 10H | 9H")
    assert Claim() not in match.current.legal_actions()  # type: ignore[union-attr]
    with pytest.raises(IllegalClaimError):  # a card is already on the next trick
        match.apply(Claim())


def test_no_dosta_when_the_match_is_played_out() -> None:
    """ "Na prolaz" (the default): no claim, ever; the deal is played to its end."""
    rnd = play(call(new_round(0, DEAL_T), "H"), "JH 7H QH 10H")
    assert Claim() not in rnd.legal_actions()
    with pytest.raises(IllegalClaimError, match="na prolaz"):
        rnd.apply(Claim())


def test_a_match_na_dosta_deals_each_round_with_the_score_before_it() -> None:
    match = Match.new(4, 701, DOSTA)
    rng = random.Random(4)
    while match.current is not None and len(match.rounds) < 2:
        actions = [a for a in match.current.legal_actions() if not isinstance(a, Claim)]
        match = match.apply(rng.choice(actions))
    assert match.current is not None
    assert match.current.claim_context == (*match.scores, 701)
    assert match.deal(0).claim_context == (0, 0, 701)
    assert Match.new(4, QUICK_TARGET, DOSTA).current.claim_context is None  # type: ignore[union-attr]


# ------------------------------------------------------------------ brza 163


@pytest.mark.parametrize(
    ("scores", "deals", "belot", "winner"),
    [
        ((300, 100), 2, None, None),
        ((300, 100), 3, None, 0),
        ((100, 300), 3, None, 1),
        ((200, 200), 3, None, None),
        ((200, 201), 4, None, 1),
        ((0, 0), 1, 1, 1),
    ],
)
def test_quick_match_winner(
    scores: tuple[int, int], deals: int, belot: int | None, winner: int | None
) -> None:
    """Three played deals, the higher total wins; equal totals play on; belot wins at once."""
    assert decide_quick_winner(scores, deals, belot) == winner


def test_a_quick_match_lasts_three_played_deals() -> None:
    for seed in range(20):
        match = Match.new(seed, QUICK_TARGET, Rules(no_forced_trump=seed % 2 == 1))
        rng = random.Random(seed)
        while match.current is not None:
            match = match.apply(rng.choice(match.current.legal_actions()))
        played = [r for r in match.rounds if not r.result.redeal]
        if match.rounds[-1].result.belot is not None:
            assert len(played) <= 3
            continue
        assert len(played) >= 3 and match.scores[0] != match.scores[1]
        assert match.winner == (0 if match.scores[0] > match.scores[1] else 1)
        if len(played) > 3:  # only because the totals were equal after the third
            sums = [0, 0]
            for r in match.rounds[: match.rounds.index(played[2]) + 1]:
                sums = [sums[0] + r.written[0], sums[1] + r.written[1]]
            assert sums[0] == sums[1]


# ------------------------------------------------------------------ table customs


def test_direction_and_looking_back_change_nothing_in_the_engine() -> None:
    """``clockwise`` and ``hide_played_tricks`` are for the app: the same seed and the same
    choices give the same round under them."""
    for seed in range(30):
        plain = Round.from_seed(seed, 1)
        custom = Round.from_seed(seed, 1, Rules(clockwise=True, hide_played_tricks=True))
        a = plain.copy().play_out_random(random.Random(seed))
        b = custom.copy().play_out_random(random.Random(seed))
        assert a == b


def test_hanging_points_go_to_the_team_a_claim_favours() -> None:
    """Under visi and "na dosta", points hanging from an earlier tie go with the match: to the
    claimers when the claim holds, to the others when it is wrong (here: wrong, so team 1)."""
    rules = Rules(dosta=True, visi=True)
    rnd = new_round(0, DEAL_T, rules).with_claim_context((970, 0), 1001)
    match = dataclasses.replace(match_around(rnd, rules=rules, scores=(970, 0)), hanging=91)
    match = play_match(match, "H", "JH 7H QH 10H | 9H 8H KH AH | 10D AD 9D 8D")
    over = match.apply(Claim())
    assert over.rounds[-1].written == (0, 83 + 91) and over.hanging == 0 and over.winner == 1
