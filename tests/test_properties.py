"""Hypothesis properties of the engine over random deals and random legal play.

The scenario tests pin single rules on hand-built deals; these check that the
invariants hold everywhere random play can reach: each card played once, 162
card points, a legal set that is never empty and always inside the hand,
illegal actions rejected with the state untouched, exact replay, conservation
of written points, and seat views that show no hidden card.

The reference functions below (legality, trick winner, zvanja, match end) are
written again from the brief with plain lists and card strings, deliberately
sharing no table or mask with the engine, so a wrong table in the engine
cannot make both sides agree.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.engine import (
    Action,
    Call,
    Card,
    IllegalActionError,
    IllegalBelaError,
    IllegalBidError,
    IllegalPlayError,
    Match,
    OutOfTurnError,
    Pass,
    Phase,
    Play,
    Round,
    RoundOverError,
    Rules,
    Score,
    Suit,
    WrongPhaseError,
    ZvanjeKind,
    card_points,
    cards_in,
    find_zvanja,
    legal_plays,
    resolve_zvanja,
    round_seed,
    score_round,
    score_round_detail,
    trick_winner,
)

SEEDS = st.integers(0, 2**64 - 1)
DEALERS = st.integers(0, 3)
RULES = st.builds(Rules, no_forced_trump=st.booleans(), visi=st.booleans())
CHOICE_SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=150, deadline=None)
SLOW = settings(max_examples=60, deadline=None)

# ---------------------------------------------------------------------------------------------
# Reference rules, from the brief, on card strings ("10H") and plain lists.

SUITS = "HDSC"
NATURAL = ["7", "8", "9", "10", "J", "Q", "K", "A"]
TRUMP_ORDER = ["7", "8", "Q", "K", "10", "A", "9", "J"]  # low to high
PLAIN_ORDER = ["7", "8", "9", "J", "Q", "K", "10", "A"]  # low to high
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
FOUR_POINTS = {"J": 200, "9": 150, "A": 100, "10": 100, "K": 100, "Q": 100}
RUN_POINTS = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100}


def rank_of(card: Card) -> str:
    return str(card)[:-1]


def suit_of(card: Card) -> str:
    return str(card)[-1]


def ref_legal(hand: Sequence[Card], trick: Sequence[Card], trump: str) -> set[str]:
    """Brief, "Playing a trick", rules 1-4, one clause at a time."""
    names = [str(c) for c in hand]
    if not trick:
        return set(names)
    led = suit_of(trick[0])
    follow = [c for c in hand if suit_of(c) == led]
    trumped = led != trump and any(suit_of(c) == trump for c in trick)
    if follow:
        if trumped:
            return {str(c) for c in follow}
        order = TRUMP_ORDER if led == trump else PLAIN_ORDER
        top = max(order.index(rank_of(c)) for c in trick if suit_of(c) == led)
        higher = [c for c in follow if order.index(rank_of(c)) > top]
        return {str(c) for c in (higher or follow)}
    trumps = [c for c in hand if suit_of(c) == trump]
    if trumps:
        on_table = [TRUMP_ORDER.index(rank_of(c)) for c in trick if suit_of(c) == trump]
        if on_table:
            higher = [c for c in trumps if TRUMP_ORDER.index(rank_of(c)) > max(on_table)]
            return {str(c) for c in (higher or trumps)}
        return {str(c) for c in trumps}
    return set(names)


def ref_winner(trick: Sequence[Card], trump: str) -> int:
    """Brief rule 5: the highest trump, else the highest card of the suit led."""
    trumps = [i for i, c in enumerate(trick) if suit_of(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: TRUMP_ORDER.index(rank_of(trick[i])))
    led = suit_of(trick[0])
    followers = [i for i, c in enumerate(trick) if suit_of(c) == led]
    return max(followers, key=lambda i: PLAIN_ORDER.index(rank_of(trick[i])))


def ref_points(card: Card, trump: str) -> int:
    table = TRUMP_POINTS if suit_of(card) == trump else PLAIN_POINTS
    return table[rank_of(card)]


def ref_declarations(cards: Sequence[Card]) -> list[tuple[int, int, int]]:
    """(points, is_four, top natural rank) of every declaration; belot is not compared."""
    found: list[tuple[int, int, int]] = []
    for s in SUITS:
        present = {NATURAL.index(rank_of(c)) for c in cards if suit_of(c) == s}
        if len(present) == 8:
            continue
        run = 0
        for r in range(9):
            if r < 8 and r in present:
                run += 1
                continue
            if run >= 3:
                found.append((RUN_POINTS[run], 0, r - 1))
            run = 0
    for rank, points in FOUR_POINTS.items():
        if all(f"{rank}{s}" in {str(c) for c in cards} for s in SUITS):
            found.append((points, 1, NATURAL.index(rank)))
    return found


def ref_resolve(hands: Sequence[Sequence[Card]], first: int) -> tuple[int | None, int]:
    """Best by (points, four over sequence, top card, earlier in playing order)."""
    decls = [ref_declarations(h) for h in hands]
    best: tuple[tuple[int, int, int, int], int] | None = None
    for offset in range(4):
        seat = (first + offset) % 4
        for points, four, top in decls[seat]:
            key = (points, four, top, -offset)
            if best is None or key > best[0]:
                best = (key, seat)
    if best is None:
        return None, 0
    team = best[1] % 2
    return team, sum(p for seat in (team, team + 2) for p, _, _ in decls[seat])


def ref_match_winner(scores: tuple[int, int], target: int, belot: int | None) -> int | None:
    """Belot wins at once; else a team at the target wins, the higher if both; a tie plays on."""
    if belot is not None:
        return belot
    if max(scores) >= target and scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    return None


def holds_belot(cards: Sequence[Card]) -> bool:
    return any(sum(1 for c in cards if suit_of(c) == s) == 8 for s in SUITS)


# ---------------------------------------------------------------------------------------------
# Driving rounds.


def choose(rnd: Round, rng: random.Random) -> Action:
    """A random legal action; passes are favoured so four-pass rounds happen often."""
    legal = rnd.legal_actions()
    if rnd.phase is Phase.BIDDING and Pass() in legal and rng.random() < 0.6:
        return Pass()
    return rng.choice(legal)


def walk(rnd: Round, rng: random.Random, steps: int) -> Round:
    """Up to ``steps`` random legal actions through the public ``apply``."""
    for _ in range(steps):
        if rnd.is_finished:
            break
        rnd = rnd.apply(choose(rnd, rng))
    return rnd


def play_to_end(rnd: Round, rng: random.Random) -> Round:
    return walk(rnd, rng, 10_000)


def snapshot(rnd: Round) -> tuple[Any, ...]:
    """Everything observable about a round, to prove that something did not change it."""
    return (
        rnd.actions,
        tuple(tuple(rnd.hand(s)) for s in range(4)),
        rnd.trick,
        rnd.phase,
        rnd.to_act,
        rnd.bids,
        rnd.trump,
        rnd.caller,
        rnd.tricks,
        rnd.trick_leader,
        rnd.card_points,
        rnd.tricks_won,
        rnd.bela_announced_by,
        rnd.result,
        tuple(rnd.legal_actions()),
    )


def assert_replays_exactly(fast: Round, seed: int, dealer: int, rules: Rules) -> None:
    """Every action the fast path took is legal through ``apply`` and leads to its result."""
    replayed = Round.from_seed(seed, dealer, rules)
    for action in fast.actions:
        assert replayed.is_legal(action), f"the fast path took an illegal {action}"
        replayed = replayed.apply(action)
    assert replayed.result == fast.result
    assert snapshot(replayed) == snapshot(fast)


def full_hands(rnd: Round) -> list[list[Card]]:
    """Each seat's eight cards as dealt (hand plus talon)."""
    return [cards_in(rnd.deal_hands[s] | rnd.deal_talons[s]) for s in range(4)]


# ---------------------------------------------------------------------------------------------
# Whole rounds.


@FAST
@given(seed=SEEDS, dealer=DEALERS, rules=RULES, choice=CHOICE_SEEDS)
def test_round_plays_every_card_once_for_162_points(
    seed: int, dealer: int, rules: Rules, choice: int
) -> None:
    rnd = play_to_end(Round.from_seed(seed, dealer, rules), random.Random(choice))
    result = rnd.result
    assert rnd.phase is Phase.FINISHED and rnd.to_act is None and result is not None
    if result.redeal:
        assert rules.no_forced_trump
        assert rnd.actions == (Pass(),) * 4 and result.points == (0, 0)
        return
    hands = full_hands(rnd)
    first_belot = next(
        (s for s in ((dealer + 1 + k) % 4 for k in range(4)) if holds_belot(hands[s])), None
    )
    assert result.belot_seat == first_belot
    if result.belot is not None:
        assert (
            first_belot is not None and result.belot == first_belot % 2 and result.points == (0, 0)
        )
        assert rnd.tricks == ()
        return
    tricks = rnd.tricks
    assert len(tricks) == 8
    played = [c for t in tricks for c in t.cards]
    assert sorted(played) == list(range(32))
    trump = str(result.trump)
    leader = (dealer + 1) % 4
    won = [0, 0]
    for i, trick in enumerate(tricks):
        assert trick.leader == leader and len(trick.cards) == 4
        assert trick.winner == (leader + ref_winner(trick.cards, trump)) % 4
        bonus = 10 if i == 7 else 0
        assert trick.points == sum(ref_points(c, trump) for c in trick.cards) + bonus
        won[trick.winner % 2] += trick.points
        leader = trick.winner
    assert result.card_points == (won[0], won[1]) and sum(won) == 162
    assert sum(result.tricks) == 8
    assert result.tricks == tuple(sum(1 for t in tricks if t.winner % 2 == k) for k in (0, 1))
    assert rnd.hand(0) == rnd.hand(1) == rnd.hand(2) == rnd.hand(3) == []


@FAST
@given(seed=SEEDS, dealer=DEALERS, rules=RULES, choice=CHOICE_SEEDS)
def test_legal_actions_never_empty_inside_hand_and_all_apply(
    seed: int, dealer: int, rules: Rules, choice: int
) -> None:
    rng = random.Random(choice)
    rnd = Round.from_seed(seed, dealer, rules)
    while not rnd.is_finished:
        legal = rnd.legal_actions()
        assert legal, "a player to act always has a legal action"
        seat = rnd.to_act
        assert seat is not None
        if rnd.phase is Phase.BIDDING:
            forced = len(rnd.bids) == 3 and not rules.no_forced_trump
            calls = [Call(s) for s in Suit]
            assert legal == (calls if forced else [Pass(), *calls])
        else:
            assert all(isinstance(a, Play) for a in legal)
            hand = rnd.hand(seat)
            cards = {a.card for a in legal if isinstance(a, Play)}
            assert cards <= set(hand)
            assert rnd.trump is not None
            assert cards == set(legal_plays(hand, rnd.trick, rnd.trump))
        before = snapshot(rnd)
        for action in legal:
            assert rnd.is_legal(action)
            after = rnd.apply(action, seat)
            assert len(after.actions) == len(rnd.actions) + 1
        assert snapshot(rnd) == before
        rnd = rnd.apply(choose(rnd, rng))
    assert rnd.legal_actions() == []


def illegal_candidates(rnd: Round) -> list[tuple[Action, type[IllegalActionError]]]:
    """Actions that must be refused in this state, each with the error it must raise."""
    if rnd.is_finished:
        over: list[tuple[Action, type[IllegalActionError]]] = [
            (Pass(), RoundOverError),
            (Call(Suit.CLUBS), RoundOverError),
        ]
        return over + [(Play(Card(c)), RoundOverError) for c in (0, 17, 31)]
    if rnd.phase is Phase.BIDDING:
        out: list[tuple[Action, type[IllegalActionError]]] = [
            (Play(Card(c)), WrongPhaseError) for c in range(0, 32, 5)
        ]
        if len(rnd.bids) == 3 and not rnd.rules.no_forced_trump:
            out.append((Pass(), IllegalBidError))
        return out
    seat = rnd.to_act
    assert seat is not None
    hand = set(rnd.hand(seat))
    legal = {a.card for a in rnd.legal_actions() if isinstance(a, Play)}
    out = [(Pass(), WrongPhaseError)] + [(Call(s), WrongPhaseError) for s in Suit]
    out += [(Play(c), IllegalPlayError) for c in sorted(hand - legal)]
    out += [(Play(Card(c)), IllegalPlayError) for c in range(32) if Card(c) not in hand][:6]
    out += [
        (Play(c, bela=True), IllegalBelaError)
        for c in sorted(legal)
        if not rnd.can_announce_bela(c)
    ]
    return out


@FAST
@given(seed=SEEDS, dealer=DEALERS, rules=RULES, choice=CHOICE_SEEDS, steps=st.integers(0, 40))
def test_illegal_actions_raise_and_leave_state_unchanged(
    seed: int, dealer: int, rules: Rules, choice: int, steps: int
) -> None:
    rnd = walk(Round.from_seed(seed, dealer, rules), random.Random(choice), steps)
    before = snapshot(rnd)
    for action, error in illegal_candidates(rnd):
        assert not rnd.is_legal(action)
        with pytest.raises(error) as info:
            rnd.apply(action)
        assert isinstance(info.value, IllegalActionError) and str(info.value)
        assert snapshot(rnd) == before
        clone = rnd.copy()
        with pytest.raises(error):
            clone.push(action)
        assert snapshot(clone) == before
    if rnd.to_act is not None and rnd.legal_actions():
        wrong_seat = (rnd.to_act + 1) % 4
        with pytest.raises(OutOfTurnError):
            rnd.apply(rnd.legal_actions()[0], wrong_seat)
        assert snapshot(rnd) == before


@FAST
@given(seed=SEEDS, dealer=DEALERS, rules=RULES, choice=CHOICE_SEEDS)
def test_apply_never_mutates_any_earlier_round(
    seed: int, dealer: int, rules: Rules, choice: int
) -> None:
    rng = random.Random(choice)
    rnd = Round.from_seed(seed, dealer, rules)
    history = [(rnd, snapshot(rnd))]
    while not rnd.is_finished:
        rnd = rnd.apply(choose(rnd, rng))
        history.append((rnd, snapshot(rnd)))
    for state, taken in history:
        assert snapshot(state) == taken


@FAST
@given(seed=SEEDS, dealer=DEALERS, rules=RULES, choice=CHOICE_SEEDS)
def test_replay_from_seed_or_hands_reproduces_the_round(
    seed: int, dealer: int, rules: Rules, choice: int
) -> None:
    played = play_to_end(Round.from_seed(seed, dealer, rules), random.Random(choice))
    again = Round.from_seed(seed, dealer, rules).replay(played.actions)
    assert snapshot(again) == snapshot(played)
    hands = [cards_in(m) for m in played.deal_hands]
    talons = [cards_in(m) for m in played.deal_talons]
    by_hand = Round.from_hands(dealer, hands, talons, rules)
    for action in played.actions:
        by_hand = by_hand.apply(action)
    assert snapshot(by_hand) == snapshot(played)
    assert by_hand.result == played.result


@FAST
@given(seed=SEEDS, dealer=DEALERS, rules=RULES, choice=CHOICE_SEEDS, plays=st.integers(0, 31))
def test_play_out_random_replays_exactly_through_validated_apply(
    seed: int, dealer: int, rules: Rules, choice: int, plays: int
) -> None:
    rng = random.Random(choice)
    rnd = Round.from_seed(seed, dealer, rules)
    while rnd.phase is Phase.BIDDING:
        rnd = rnd.apply(choose(rnd, rng))
    if rnd.is_finished:  # belot or four passes: nothing left to play
        with pytest.raises(WrongPhaseError):
            rnd.copy().play_out_random(rng)
        return
    rnd = walk(rnd, rng, plays)
    if rnd.is_finished:
        return
    started_fresh = not rnd.tricks and not rnd.trick
    fast = rnd.copy()
    before = snapshot(rnd)
    result = fast.play_out_random(rng)
    assert snapshot(rnd) == before
    assert fast.result == result
    assert_replays_exactly(fast, seed, dealer, rules)
    if started_fresh and rnd.bela_seat is not None:
        assert result.bela[rnd.bela_seat % 2] == 20  # the fast path always announces bela


@FAST
@given(seed=SEEDS, dealer=DEALERS, rules=RULES, choice=CHOICE_SEEDS)
def test_play_out_random_from_the_deal_bids_legally_and_replays_exactly(
    seed: int, dealer: int, rules: Rules, choice: int
) -> None:
    fast = Round.from_seed(seed, dealer, rules)
    result = fast.play_out_random(random.Random(choice))
    assert fast.is_finished and fast.result == result
    assert_replays_exactly(fast, seed, dealer, rules)
    with pytest.raises(WrongPhaseError):
        fast.play_out_random(random.Random(choice))


def test_play_out_random_draws_every_first_bid_about_equally() -> None:
    """Dalje and the four suits each come first about a fifth of the time."""
    rng = random.Random(7)
    firsts: Counter[str] = Counter()
    for seed in range(5000):
        rnd = Round.from_seed(seed, seed & 3)
        rnd.play_out_random(rng)
        firsts[str(rnd.actions[0])] += 1
    assert len(firsts) == 5
    for n in firsts.values():
        assert 880 < n < 1120  # 1000 expected; about 3.5 standard deviations either way


# ---------------------------------------------------------------------------------------------
# Tricks against the reference.


@st.composite
def hand_and_trick(draw: st.DrawFn) -> tuple[list[Card], list[Card], Suit]:
    """A random trick in progress (0-3 cards) and a random hand from the other cards."""
    deck = [Card(c) for c in draw(st.permutations(range(32)))]
    size = draw(st.integers(0, 3))
    hand_size = draw(st.integers(1, 8))
    return deck[size : size + hand_size], deck[:size], Suit(draw(st.integers(0, 3)))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(case=hand_and_trick())
def test_legal_plays_match_the_reference(case: tuple[list[Card], list[Card], Suit]) -> None:
    hand, trick, trump = case
    got = legal_plays(hand, trick, trump)
    assert {str(c) for c in got} == ref_legal(hand, trick, str(trump))
    assert got and set(got) <= set(hand)
    as_text = legal_plays([str(c) for c in hand], [str(c) for c in trick], int(trump))
    assert as_text == got


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(cards=st.permutations(range(32)), size=st.integers(1, 4), trump=st.integers(0, 3))
def test_trick_winner_matches_the_reference(cards: list[int], size: int, trump: int) -> None:
    trick = [Card(c) for c in cards[:size]]
    assert trick_winner(trick, Suit(trump)) == ref_winner(trick, str(Suit(trump)))


def test_card_points_match_the_reference_table() -> None:
    for trump in Suit:
        for c in range(32):
            assert card_points(Card(c), trump) == ref_points(Card(c), str(trump))
        assert sum(card_points(Card(c), trump) for c in range(32)) == 152


# ---------------------------------------------------------------------------------------------
# Scoring.


class Numbers(NamedTuple):
    """The inputs of ``score_round``: the calling seat, then pairs (team 0, team 1)."""

    caller: int
    card_points: tuple[int, int]
    zvanja: tuple[int, int]
    bela: tuple[int, int]
    tricks: tuple[int, int]

    def detail(self, visi: bool = False) -> Score:
        return score_round_detail(**self._asdict(), visi=visi)

    def written(self) -> tuple[int, int]:
        return score_round(**self._asdict())


@st.composite
def round_numbers(draw: st.DrawFn) -> Numbers:
    """Plausible end-of-round numbers: 162 card points split by tricks, zvanja for one team."""
    tricks0 = draw(st.integers(0, 8))
    if tricks0 in (0, 8):
        cards0 = 162 if tricks0 == 8 else 0
    else:
        cards0 = draw(st.integers(0, 162))
    zteam = draw(st.sampled_from([None, 0, 1]))
    zpoints = draw(st.integers(20, 600)) if zteam is not None else 0
    bteam = draw(st.sampled_from([None, 0, 1]))
    return Numbers(
        caller=draw(st.integers(0, 3)),
        card_points=(cards0, 162 - cards0),
        zvanja=(zpoints if zteam == 0 else 0, zpoints if zteam == 1 else 0),
        bela=(20 if bteam == 0 else 0, 20 if bteam == 1 else 0),
        tricks=(tricks0, 8 - tricks0),
    )


def check_score(numbers: Numbers) -> None:
    """The brief's scoring, as properties of ``score_round_detail`` under both tie rules."""
    callers = numbers.caller % 2
    zv, bela, tricks = numbers.zvanja, numbers.bela, numbers.tricks
    plain = numbers.detail()
    assert numbers.written() == plain.points
    combined = sum(plain.totals)
    assert combined == sum(numbers.card_points) + sum(zv) + sum(bela) + (
        90 if plain.stiglja is not None else 0
    )
    for team in (0, 1):
        if tricks[team] == 8:  # štiglja: +90 and the swept team's zvanja and bela
            assert plain.stiglja == team
            assert plain.totals[team] == numbers.card_points[team] + 90 + sum(zv) + sum(bela)
            assert plain.totals[1 - team] == numbers.card_points[1 - team]
    if 8 not in tricks:
        assert plain.stiglja is None
        assert plain.totals == tuple(numbers.card_points[t] + zv[t] + bela[t] for t in (0, 1))
    assert sum(plain.points) == combined and plain.hanging == 0
    assert plain.fell == (2 * plain.totals[callers] <= combined)
    assert plain.tie == (2 * plain.totals[callers] == combined)
    if plain.fell:  # pad: the callers write 0, the defenders everything
        assert plain.points[callers] == 0 and plain.points[1 - callers] == combined
    else:
        assert 2 * plain.totals[callers] > combined and plain.points == plain.totals
    visi = numbers.detail(visi=True)
    assert visi.totals == plain.totals and visi.fell == plain.fell and visi.tie == plain.tie
    assert sum(visi.points) + visi.hanging == combined
    if visi.tie:
        assert visi.points[callers] == 0
        assert visi.points[1 - callers] == visi.totals[1 - callers]
        assert visi.hanging == visi.totals[callers]
    else:
        assert visi.points == plain.points and visi.hanging == 0


@settings(max_examples=300, deadline=None)
@given(numbers=round_numbers())
def test_written_points_conserve_the_combined_total(numbers: Numbers) -> None:
    check_score(numbers)


@pytest.mark.parametrize("caller", [0, 1, 2, 3])
def test_exact_tie_is_a_pad_and_hangs_under_visi(caller: int) -> None:
    """The tie branch is rare in random numbers, so it is exercised on purpose.

    The callers' bela (20) against the defenders' zvanja (20) on 81 card points
    each: 101 to 101, a tie, so the callers fall.
    """
    callers = caller % 2
    pair = (20, 0) if callers == 0 else (0, 20)
    numbers = Numbers(caller, (81, 81), (pair[1], pair[0]), pair, (4, 4))
    check_score(numbers)
    written = [0, 0]
    written[1 - callers] = 202
    assert numbers.written() == tuple(written)
    hung = numbers.detail(visi=True)
    written[1 - callers] = 101
    assert hung.points == tuple(written) and hung.hanging == 101 and hung.tie and hung.fell


@FAST
@given(seed=SEEDS, dealer=DEALERS, rules=RULES, choice=CHOICE_SEEDS)
def test_played_rounds_write_what_the_brief_says(
    seed: int, dealer: int, rules: Rules, choice: int
) -> None:
    rnd = play_to_end(Round.from_seed(seed, dealer, rules), random.Random(choice))
    result = rnd.result
    assert result is not None
    if result.redeal or result.belot is not None:
        assert result.points == (0, 0) and result.hanging == 0
        return
    assert result.caller is not None
    assert result.caller == rnd.caller and result.trump == rnd.trump
    assert result.zvanja == rnd.zvanja_points
    announced = rnd.bela_announced_by
    expected_bela = [0, 0]
    if announced is not None:
        assert announced == rnd.bela_seat
        expected_bela[announced % 2] = 20
    assert result.bela == tuple(expected_bela)
    numbers = Numbers(result.caller, result.card_points, result.zvanja, result.bela, result.tricks)
    check_score(numbers)
    expected = numbers.detail(visi=rules.visi)
    assert (result.points, result.totals, result.fell, result.tie, result.hanging) == (
        expected.points,
        expected.totals,
        expected.fell,
        expected.tie,
        expected.hanging,
    )
    assert result.stiglja == expected.stiglja
    assert sum(result.points) + result.hanging == result.combined


# ---------------------------------------------------------------------------------------------
# Zvanja.


@st.composite
def full_deals(draw: st.DrawFn) -> list[list[Card]]:
    """Four 8-card hands: either a seeded shuffle or a hypothesis permutation.

    Hypothesis builds permutations from few swaps of the sorted deck, so the
    second kind is rich in long sequences, fours and exact ties.
    """
    if draw(st.booleans()):
        order = list(range(32))
        random.Random(draw(SEEDS)).shuffle(order)
    else:
        order = draw(st.permutations(range(32)))
    cards = [Card(c) for c in order]
    return [cards[8 * s : 8 * s + 8] for s in range(4)]


@settings(max_examples=300, deadline=None)
@given(hands=full_deals(), first=st.integers(0, 3))
def test_resolve_zvanja_matches_the_reference(hands: list[list[Card]], first: int) -> None:
    assert resolve_zvanja(hands, first) == ref_resolve(hands, first)
    for hand in hands:
        found = find_zvanja_keys(hand)
        assert sorted(found) == sorted(ref_declarations(hand))


def find_zvanja_keys(hand: Sequence[Card]) -> list[tuple[int, int, int]]:
    zvanja = find_zvanja(hand)
    assert [z.key for z in zvanja] == sorted((z.key for z in zvanja), reverse=True)
    assert any(z.kind is ZvanjeKind.BELOT for z in zvanja) == holds_belot(hand)
    return [
        (z.points, 1 if z.kind is ZvanjeKind.FOUR else 0, int(z.top_rank))
        for z in zvanja
        if z.kind is not ZvanjeKind.BELOT
    ]


@settings(max_examples=300, deadline=None)
@given(hands=full_deals(), dealer=DEALERS, trump=st.integers(0, 3))
def test_round_recognises_the_reference_zvanja(
    hands: list[list[Card]], dealer: int, trump: int
) -> None:
    """The round's own fast comparison agrees with the reference once trump is named."""
    rnd = Round.from_hands(dealer, [h[:6] for h in hands], [h[6:] for h in hands])
    rnd = rnd.apply(Call(Suit(trump)))
    first = (dealer + 1) % 4
    belot = [s for s in ((first + k) % 4 for k in range(4)) if holds_belot(hands[s])]
    if belot:
        assert rnd.result is not None and rnd.result.belot_seat == belot[0]
        return
    team, points = ref_resolve(hands, first)
    assert rnd.zvanja_team == team
    assert rnd.zvanja_points == (
        (0, 0) if team is None else (points, 0) if team == 0 else (0, points)
    )
    for seat in range(4):
        declared = [
            (z.points, 1 if z.is_four else 0, int(z.top_rank)) for z in rnd.declarations(seat)
        ]
        assert sorted(declared) == sorted(ref_declarations(hands[seat]))


# ---------------------------------------------------------------------------------------------
# Seat views.


def cards_mentioned(obj: object) -> set[int]:
    """Every ``Card`` anywhere inside a view (dataclasses and tuples, recursively)."""
    if isinstance(obj, Card):
        return {int(obj)}
    if isinstance(obj, tuple | list):
        return set().union(*(cards_mentioned(x) for x in obj)) if obj else set()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return cards_mentioned([getattr(obj, f.name) for f in dataclasses.fields(obj)])
    return set()


@FAST
@given(seed=SEEDS, dealer=DEALERS, rules=RULES, choice=CHOICE_SEEDS, steps=st.integers(0, 40))
def test_seat_view_shows_no_hidden_card(
    seed: int, dealer: int, rules: Rules, choice: int, steps: int
) -> None:
    rnd = walk(Round.from_seed(seed, dealer, rules), random.Random(choice), steps)
    called = rnd.trump is not None
    played = {int(c) for t in rnd.tricks for c in t.cards} | {int(c) for c in rnd.trick}
    shown: set[int] = set()
    if rnd.zvanja_team is not None:
        for s in (rnd.zvanja_team, rnd.zvanja_team + 2):
            shown |= {int(c) for z in rnd.declarations(s) for c in z.cards}
    for seat in range(4):
        view = rnd.view(seat)
        own = rnd.deal_hands[seat] | (rnd.deal_talons[seat] if called else 0)
        allowed = {int(c) for c in cards_in(own)} | played | shown
        leaked = cards_mentioned(view) - allowed
        assert not leaked, f"seat {seat} sees {[str(Card(c)) for c in sorted(leaked)]}"
        assert list(view.hand) == rnd.hand(seat)
        assert view.talon == (tuple(rnd.talon(seat)) if called else ())
        assert view.played == tuple(c for t in rnd.tricks for c in t.cards) + rnd.trick
        assert all(s % 2 == rnd.zvanja_team for s, _ in view.shown_zvanja)
        if rnd.to_act == seat:
            assert list(view.legal_actions) == rnd.legal_actions()
        else:
            assert view.legal_actions == ()


# ---------------------------------------------------------------------------------------------
# Matches.


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, rules=RULES, choice=CHOICE_SEEDS)
def test_random_match_to_501_scores_rows_and_ends_by_the_rules(
    seed: int, rules: Rules, choice: int
) -> None:
    rng = random.Random(choice)
    match = Match.new(seed, target=501, rules=rules)
    for _ in range(5_000):
        if match.is_over:
            break
        assert match.current is not None
        match = match.apply(choose(match.current, rng))
    assert match.is_over and match.current is None
    with pytest.raises(RoundOverError):
        match.apply(Pass())
    scores = [0, 0]
    hanging = 0
    combined = 0
    for i, record in enumerate(match.rounds):
        result = record.result
        assert record.index == i and record.dealer == (3 + i) % 4
        assert record.seed == round_seed(seed, i)
        replayed = Round.from_seed(record.seed, record.dealer, rules).replay(record.actions)
        assert replayed.result == result
        combined += result.combined
        decided = not result.redeal and result.belot is None and not result.tie
        expected = list(result.points)
        if result.tie and rules.visi:
            hanging += result.hanging
        elif decided and hanging:
            assert result.caller is not None
            winner = result.caller % 2 if not result.fell else 1 - result.caller % 2
            expected[winner] += hanging
            hanging = 0
        assert record.written == tuple(expected)
        scores = [scores[0] + record.written[0], scores[1] + record.written[1]]
        verdict = ref_match_winner((scores[0], scores[1]), 501, result.belot)
        if i < len(match.rounds) - 1:
            assert verdict is None, f"the match should have ended after round {i}"
        else:
            assert verdict is not None and verdict == match.winner
    assert match.scores == (scores[0], scores[1])
    assert match.hanging == hanging
    assert sum(match.scores) + match.hanging == combined
    if not rules.visi:
        assert match.hanging == 0
