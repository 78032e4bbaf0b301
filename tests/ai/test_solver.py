"""The double-dummy solver against an independent brute-force minimax, and hand-solved endgames.

The brute force below shares nothing with the solver but the engine's public
rules functions (``legal_mask``, ``card_points``; the trick winner is worked out
here from the brief's strength order): plain
minimax over every legal card, no pruning, no table, no equivalent cards. It
plays the same zero-sum game (team 0's points minus team 1's, with štiglja's
90 for a team that takes every trick of the round), and every legal card's
value must match exactly.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bela.engine import Card, Phase, Round, cards_in, mask_of
from bela.engine.tricks import card_points, legal_mask, legal_plays
from bela.search.solver import (
    NodeLimitExceeded,
    Position,
    Solver,
    SolveResult,
    equivalence_classes,
    remaining_points,
    solve,
    solve_value,
)

# ---------------------------------------------------------------------- brute force

# Trick strength straight from the brief (high to low), by natural rank 7 8 9 10 J Q K A = 0..7:
# trump J 9 A 10 K Q 8 7, other suits A 10 K Q J 9 8 7.
TRUMP_ORDER = [4, 2, 7, 3, 6, 5, 1, 0]
PLAIN_ORDER = [7, 3, 6, 5, 4, 2, 1, 0]


def winner_index(trick: list[int], trump: int) -> int:
    """Index of the card that takes the trick: the highest trump, else the highest of the lead."""

    def strength(card: int) -> int:
        suit, rank = divmod(card, 8)
        if suit == trump:
            return 100 - TRUMP_ORDER.index(rank)
        if suit == trick[0] // 8:
            return 50 - PLAIN_ORDER.index(rank)
        return 0

    values = [strength(c) for c in trick]
    return values.index(max(values))


def brute_margin(
    hands: list[int],
    trump: int,
    leader: int,
    trick: list[int],
    won: list[int],
    stiglja: bool,
    points: list[int],
) -> int:
    """Team 0's points minus team 1's from here on, both teams perfect; mutates and restores.

    ``trick`` holds the cards on the table; ``hands`` are masks by seat.
    """
    seat = (leader + len(trick)) % 4
    if trick:
        legal = legal_mask(hands[seat], trick[0] // 8, trick[winner_index(trick, trump)], trump)
    else:
        legal = hands[seat]
    values = []
    for card in cards_in(legal):
        hands[seat] -= 1 << card
        trick.append(card)
        if len(trick) < 4:
            v = brute_margin(hands, trump, leader, trick, won, stiglja, points)
        else:
            winner = (leader + winner_index(trick, trump)) % 4
            pts = sum(points[c] for c in trick)
            won[winner % 2] += 1
            done = won[0] + won[1] == 8
            if done:
                pts += 10
                if stiglja and won[winner % 2] == 8:
                    pts += 90
            sign = 1 if winner % 2 == 0 else -1
            rest = 0 if done else brute_margin(hands, trump, winner, [], won, stiglja, points)
            v = sign * pts + rest
            won[winner % 2] -= 1
        trick.pop()
        hands[seat] += 1 << card
        values.append(v)
    return min(values) if seat % 2 else max(values)


def brute_card_margins(pos: Position, stiglja: bool = True) -> dict[Card, int]:
    """Team 0's margin after each legal card of the mover, by exhaustive minimax."""
    points = [card_points(c, pos.trump) for c in range(32)]
    hands = list(pos.hands)
    trick = list(pos.trick)
    seat = pos.to_act
    out = {}
    for card in legal_plays(cards_in(hands[seat]), trick, pos.trump):
        # play the card, then let the brute force go on from the position after it
        hands[seat] -= 1 << card
        trick.append(card)
        won = list(pos.tricks_won)
        if len(trick) < 4:
            out[card] = brute_margin(hands, pos.trump, pos.leader, trick, won, stiglja, points)
        else:
            winner = (pos.leader + winner_index(trick, pos.trump)) % 4
            pts = sum(points[c] for c in trick)
            won[winner % 2] += 1
            done = won[0] + won[1] == 8
            if done:
                pts += 10 + (90 if stiglja and won[winner % 2] == 8 else 0)
            rest = 0 if done else brute_margin(hands, pos.trump, winner, [], won, stiglja, points)
            out[card] = (1 if winner % 2 == 0 else -1) * pts + rest
        trick.pop()
        hands[seat] += 1 << card
    return out


# ---------------------------------------------------------------------- positions


def random_position(seed: int, tricks_left: int, on_table: int) -> Position | None:
    """A random deal, a random call, random legal play up to the given point (None: no play)."""
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, dealer=seed % 4)
    while rnd.phase is Phase.BIDDING:
        rnd.push(rng.choice(rnd.legal_actions()))
    if rnd.phase is not Phase.PLAYING:
        return None
    cards = (8 - tricks_left) * 4 + on_table
    for _ in range(cards):
        legal = cards_in(rnd.legal_mask())
        rnd.push_card(rng.choice(legal))
    return Position.from_round(rnd)


def positions(count: int, tricks: tuple[int, ...], seed0: int) -> list[Position]:
    """Random positions; in a third of them each team has still a sweep to make or stop.

    Random play seldom leaves a sweep open, so for those the completed tricks
    are credited to one team (which team took them does not change the cards).
    """
    out = []
    seed = seed0
    while len(out) < count:
        seed += 1
        pos = random_position(seed, tricks[seed % len(tricks)], (seed // 7) % 4)
        if pos is None:
            continue
        done = pos.tricks_done
        if seed % 6 == 0:
            pos = replace(pos, tricks_won=(done, 0))
        elif seed % 6 == 1:
            pos = replace(pos, tricks_won=(0, done))
        out.append(pos)
    return out


def team_points_from_margins(pos: Position, result: SolveResult) -> None:
    """The result's points agree with its margins and add up to what is left."""
    trump = pos.trump
    total = 10 + sum(card_points(c, trump) for c in pos.trick)
    total += sum(card_points(c, trump) for h in pos.hands for c in cards_in(h))
    p0, p1 = result.points_team0, result.points_team1
    assert p0 + p1 in (total, total + 90)
    best = max(result.card_margins.values())
    mover_team = pos.to_act % 2
    assert (p1 - p0 if mover_team else p0 - p1) == best
    assert result.mover_points == max(result.card_values.values())


# ---------------------------------------------------------------------- tests


@pytest.mark.parametrize(
    ("tricks", "count", "seed0"),
    [((1, 2), 600, 0), ((3,), 900, 10_000), ((4,), 150, 20_000)],
)
@pytest.mark.slow
def test_solver_matches_brute_force_on_random_endgames(
    tricks: tuple[int, ...], count: int, seed0: int
) -> None:
    """Every legal card's exact margin and points equal the brute force (mid-trick too)."""
    mid_trick = sweeps = 0
    for pos in positions(count, tricks, seed0):
        expected = brute_card_margins(pos)
        result = solve(pos)
        sign = -1 if pos.to_act % 2 else 1
        assert {c: sign * m for c, m in result.card_margins.items()} == expected, str(pos)
        team_points_from_margins(pos, result)
        assert solve_value(pos) == (result.points_team0, result.points_team1)
        mid_trick += bool(pos.trick)
        sweeps += result.points_team0 + result.points_team1 > remaining_points(pos)
    assert mid_trick > count // 2
    assert sweeps > count // 100  # štiglja is exercised, not only allowed for


def test_solver_matches_brute_force_without_stiglja() -> None:
    for pos in positions(300, (2, 3), 30_000):
        expected = brute_card_margins(pos, stiglja=False)
        result = solve(pos, stiglja=False)
        sign = -1 if pos.to_act % 2 else 1
        assert {c: sign * m for c, m in result.card_margins.items()} == expected, str(pos)
        assert result.points_team0 + result.points_team1 == (
            10
            + sum(card_points(c, pos.trump) for c in pos.trick)
            + sum(card_points(c, pos.trump) for h in pos.hands for c in cards_in(h))
        )


def test_stiglja_is_counted_only_while_reachable() -> None:
    # Trump hearts; seat 0 holds the top trumps and wins both remaining tricks.
    hands = ["JH 9H", "7S 8S", "AS 10S", "7D 8D"]
    fresh = Position.from_cards(hands, "H", leader=0, tricks_won=(6, 0))
    lost_one = Position.from_cards(hands, "H", leader=0, tricks_won=(5, 1))
    points = 20 + 14 + 11 + 10 + 10  # JH 9H AS 10S and the last trick
    assert solve_value(fresh) == (points + 90, 0)
    assert solve_value(fresh, stiglja=False) == (points, 0)
    assert solve_value(lost_one) == (points, 0)


def test_defenders_take_a_blank_trick_to_stop_the_sweep() -> None:
    """Trump hearts (none left); team 0 has won all six tricks; seat 1 leads.

    Seat 1 holds 7S 8D; nobody else has a spade. Leading 7S wins a trick of
    discards (team 0 throws 9C and 7D, seat 3 a club: 0 points), then AD and
    10D go to team 0 with the last trick: 31 for team 0. Leading 8D lets team
    0 take both tricks: the same 31 card points plus štiglja's 90. Team 1
    takes 0 points either way; only the margin tells the 7S is right.
    """
    pos = Position.from_cards(
        ["10D 7D", "7S 8D", "AD 9C", "7C 8C"], "H", leader=1, tricks_won=(6, 0)
    )
    result = solve(pos)
    seven, eight = Card.parse("7S"), Card.parse("8D")
    assert result.card_values == {seven: 0, eight: 0}
    assert result.card_margins == {seven: -31, eight: -121}
    assert result.best_cards == [seven]
    assert (result.points_team0, result.points_team1) == (31, 0)
    plain = solve(pos, stiglja=False)
    assert plain.card_margins == {seven: -31, eight: -31}


def test_hand_solved_two_trick_endgame() -> None:
    """Trump spades. Seat 0 leads; seat 1 holds the AH guarded by the JS.

    Seat 0: AD 7H, seat 1: AH JS, seat 2: 10D 8H, seat 3: KD 9S.
    Leading AD, every seat follows diamonds or... seat 1 has no diamond, so it
    must trump with JS (20) and takes AD 10D KD: 11+10+4+20 = 45; then seat 1
    leads AH and takes 7H 8H 9S? Seat 3 has no heart and must trump with 9S
    (14) and wins: 11+0+0+14 + 10 = 35 for team 1 as well. Team 1 takes all 80.
    Leading 7H instead: seat 1 must beat with AH, seat 2 plays 8H, seat 3
    trumps 9S and takes 11+14 = 25 (team 1); seat 3 then leads KD... it has
    only KD left: AD wins for team 0? seat 0 AD, seat 1 JS must trump: team 1.
    Team 1 again takes all: 80, so both cards are worth 0 to team 0.
    """
    pos = Position.from_cards(["AD 7H", "AH JS", "10D 8H", "KD 9S"], "S", 0, tricks_won=(3, 3))
    result = solve(pos)
    assert result.card_values == {Card.parse("7H"): 0, Card.parse("AD"): 0}
    assert (result.points_team0, result.points_team1) == (0, 80)


def test_hand_solved_forced_trump_then_last_trick() -> None:
    """Trump hearts; seat 1 led AS, seat 2 played 10S, seat 3 KS; seat 0 holds JH 7D.

    Seat 0 has no spade, so it must trump: JH takes 11 + 10 + 4 + 20 = 45.
    The last trick 7D 8D 9D QD goes to seat 3's QD: 3 + 10 = 13 for team 1.
    """
    pos = Position.from_cards(
        ["JH 7D", "8D", "9D", "QD"], "H", leader=1, trick="AS 10S KS", tricks_won=(3, 3)
    )
    result = solve(pos)
    assert result.card_values == {Card.parse("JH"): 45}
    assert (result.points_team0, result.points_team1) == (45, 13)


def test_hand_solved_partner_smears_the_ten() -> None:
    """Trump clubs; seat 0 led AS and wins the trick; seat 2 (partner) has 10S or 7S.

    Seat 1 played 8S, seat 2 is to play with 10S 7S and the rest is fixed:
    giving the 10S adds 10 to team 0's trick. The last trick: seat 0 leads
    7D, seat 1 8D, seat 2 the spade it kept, seat 3 9D: 9D wins only if no
    higher diamond... 7D 8D 9D all diamonds, the spade is off-suit: seat 3's
    9D wins 0 + 10 for team 1.
    """
    pos = Position.from_cards(
        ["7D", "8D", "10S 7S", "9D QS"], "C", leader=0, trick="AS 8S", tricks_won=(4, 2)
    )
    result = solve(pos)
    # Seat 2 must beat AS if it can: it cannot, any spade goes. Seat 3 then plays QS or 9D?
    # Seat 3 holds QS, must follow spades (QS), AS wins: 11 + 0 + (10 or 0) + 3.
    assert result.card_values == {Card.parse("10S"): 24, Card.parse("7S"): 14}
    assert (result.points_team0, result.points_team1) == (24, 10)


def test_equivalent_low_cards_are_grouped_only_when_adjacent() -> None:
    # Trump hearts. Seat 0 leads with 7S 8S 9S; nobody else holds a low spade: one class.
    pos = Position.from_cards(
        ["7S 8S 9S", "AS 10D KD", "QD JD 9D", "8D 7D AD"], "H", 0, tricks_won=(3, 2)
    )
    classes = equivalence_classes(pos)
    assert sorted(len(g) for g in classes) == [3]
    # Seat 1 holding the 8S splits 7S from 9S.
    pos = Position.from_cards(
        ["7S 9S KS", "8S 10D KD", "QD JD 9D", "8D 7D AD"], "H", 0, tricks_won=(3, 2)
    )
    groups = {tuple(str(c) for c in g) for g in equivalence_classes(pos)}
    assert groups == {("7S",), ("9S",), ("KS",)}


def test_principal_line_replayed_in_the_engine_scores_the_predicted_points() -> None:
    """Play the solver's best cards in a real Round: its card points grow as predicted."""
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        rnd = Round.from_seed(seed, dealer=seed % 4)
        while rnd.phase is Phase.BIDDING:
            rnd.push(rng.choice(rnd.legal_actions()))
        if rnd.phase is not Phase.PLAYING:
            continue
        for _ in range(16 + seed % 4):
            rnd.push_card(rng.choice(cards_in(rnd.legal_mask())))
        pos = Position.from_round(rnd)
        before = rnd.card_points
        p0, p1 = solve_value(pos, stiglja=False)
        while rnd.result is None:
            result = solve(Position.from_round(rnd), stiglja=False)
            rnd.push_card(result.best_cards[0])
        after = rnd.result.card_points
        assert (after[0] - before[0], after[1] - before[1]) == (p0, p1)
        checked += 1
    assert checked > 30


def test_solver_reused_along_a_line_keeps_exact_values() -> None:
    """A Solver keeps its table between calls; answers along a line stay exact."""
    for pos in positions(30, (4,), 40_000):
        solver = Solver(pos.trump)
        while True:
            margins = solver.card_margins(pos)
            assert margins == Solver(pos.trump).card_margins(pos)
            card = min(margins)
            if pos.tricks_left == 1 and len(pos.trick) == 3:
                break
            pos = pos.play(card)


def test_node_limit_gives_up_and_leaves_the_solver_usable() -> None:
    pos = positions(1, (6,), 60_000)[0]
    exact = solve(pos)
    solver = Solver(pos.trump, node_limit=50)
    with pytest.raises(NodeLimitExceeded):
        solver.solve(pos)
    solver.node_limit = None
    assert solver.solve(pos) == exact
    generous = Solver(pos.trump, node_limit=exact.nodes + 100)
    assert generous.solve(pos) == exact


def test_position_play_follows_the_engine() -> None:
    """Position.play gives the same position as the engine playing the card; views agree."""
    rng = random.Random(11)
    for seed in range(30):
        rnd = Round.from_seed(seed, dealer=seed % 4)
        while rnd.phase is Phase.BIDDING:
            rnd.push(rng.choice(rnd.legal_actions()))
        while rnd.phase is Phase.PLAYING:
            pos = Position.from_round(rnd)
            assert pos.legal_mask() == rnd.legal_mask()
            assert pos.to_act == rnd.to_act
            hands = [rnd.hand_mask(s) for s in range(4)]
            assert Position.from_view(rnd.view(pos.to_act), hands) == pos
            card = rng.choice(cards_in(rnd.legal_mask()))
            rnd.push_card(card)
            if rnd.phase is Phase.PLAYING:
                assert pos.play(card) == Position.from_round(rnd)
            else:
                with pytest.raises(ValueError, match="ends the round"):
                    pos.play(card)


def test_position_validation_rejects_inconsistent_input() -> None:
    with pytest.raises(ValueError, match="should hold 2 cards"):
        Position.from_cards(["JH 9H", "7S", "AS 10S", "7D 8D"], "H", 0, tricks_won=(6, 0))
    with pytest.raises(ValueError, match="already seen"):
        Position((mask_of("JH"), mask_of("JH"), mask_of("7S"), mask_of("8S")), 0, 0, (), (7, 0))
    with pytest.raises(ValueError, match="already seen"):
        Position.from_cards(
            ["JH", "7S 9S", "AS 10S", "7D 8D"], "H", 0, trick="8D", tricks_won=(6, 0)
        )
    with pytest.raises(ValueError, match="should hold 0 cards"):
        Position.from_cards(["JH", "7S", "AS", "7D"], "H", 0, trick="8D", tricks_won=(7, 0))
    with pytest.raises(ValueError, match="not a legal play"):
        Position.from_cards(["JH 7S", "8S 9S", "AS 10S", "7D 8D"], "H", 0, tricks_won=(6, 0)).play(
            "QS"
        )
    rnd = Round.from_seed(3)
    with pytest.raises(ValueError, match="play phase"):
        Position.from_round(rnd)
    rnd.push(rnd.legal_actions()[-1])  # name a trump: the play phase
    hands = [rnd.hand_mask(s) for s in range(4)]
    wrong = [hands[1], hands[0], hands[2], hands[3]]
    with pytest.raises(ValueError, match="own hand"):
        Position.from_view(rnd.view(rnd.to_act or 0), wrong)
