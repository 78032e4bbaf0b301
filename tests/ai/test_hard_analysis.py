"""Post-mortem analysis: each card against the best card with all hands visible."""

from __future__ import annotations

import json
import random

import pytest

from bela.engine import Call, Pass, Phase, Play, Round, Rules, Suit
from bela.search.analysis import analysis_json, analyze_round
from bela.search.solver import Position, Solver


def random_round(seed: int) -> Round:
    """A seeded deal played to the end with random bids and cards."""
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, dealer=seed % 4)
    while rnd.to_act is not None:
        rnd.push(rng.choice(rnd.legal_actions()))
    return rnd


def round_with_best_play_from(seed: int, from_trick: int) -> Round:
    """Random play until trick ``from_trick``, then a solver-best card every time."""
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, dealer=seed % 4)
    while rnd.phase is Phase.BIDDING:
        rnd.push(rng.choice(rnd.legal_actions()))
    while rnd.phase is Phase.PLAYING:
        if len(rnd.tricks) + 1 < from_trick:
            rnd.push(rng.choice(rnd.legal_actions()))
            continue
        result = Solver(int(rnd.trump or 0)).solve(Position.from_round(rnd))
        card = min(result.best_cards)
        rnd.push(Play(card, rnd.can_announce_bela(card)))
    return rnd


def played_rounds(count: int, seed: int = 0) -> list[Round]:
    out = []
    while len(out) < count:
        seed += 1
        rnd = random_round(seed)
        assert rnd.result is not None
        if rnd.result.trump is not None and rnd.result.belot is None:
            out.append(rnd)
    return out


def test_every_card_from_the_first_analysed_trick_is_there() -> None:
    for rnd in played_rounds(6):
        analysis = analyze_round(rnd, from_trick=5)
        assert [(m.trick, m.order) for m in analysis.moves] == [
            (t, o) for t in range(5, 9) for o in range(4)
        ]
        for move, (trick_index, order) in zip(
            analysis.moves, [(t, o) for t in range(4, 8) for o in range(4)], strict=True
        ):
            trick = rnd.tricks[trick_index]
            assert move.played == trick.cards[order]
            assert move.seat == trick.seat_of(order)
            assert move.played in [c.card for c in move.choices]
            assert move.lost_points >= 0 and move.lost_written >= 0
            if move.played in move.best:
                assert not move.costly


def test_the_last_trick_is_valued_as_it_fell() -> None:
    """Trick 8 has no choice left: each card's value is what its team really took."""
    for rnd in played_rounds(8, seed=100):
        result = rnd.result
        assert result is not None
        analysis = analyze_round(rnd, from_trick=8)
        last = rnd.tricks[-1]
        for move in analysis.moves:
            assert move.forced
            team = move.seat % 2
            value = move.choice.value
            took = last.points if last.winner % 2 == team else 0
            if result.stiglja == team:
                took += 90
            assert value == took


def test_best_play_loses_nothing_and_is_worth_what_was_taken() -> None:
    checked = 0
    for seed in range(1, 8):
        rnd = round_with_best_play_from(seed, 5)
        result = rnd.result
        assert result is not None
        if result.trump is None or result.belot is not None:
            continue
        analysis = analyze_round(rnd, from_trick=5)
        assert all(not m.costly for m in analysis.moves)
        first = analysis.moves[0]
        team = first.seat % 2
        taken = sum(t.points for t in rnd.tricks[4:] if t.winner % 2 == team)
        if result.stiglja == team:
            taken += 90
        assert first.choice.value == taken
        checked += 1
    assert checked >= 4


def test_a_bad_card_is_marked_with_what_it_cost() -> None:
    """Play the worst card at one point of a best-play round: the analysis prices it exactly."""
    checked = 0
    for seed in range(1, 60):
        rng = random.Random(seed)
        rnd = Round.from_seed(seed, dealer=seed % 4)
        while rnd.phase is Phase.BIDDING:
            rnd.push(rng.choice(rnd.legal_actions()))
        if rnd.phase is not Phase.PLAYING:
            continue
        bad_at = 4 * 4 + 1 + seed % 3  # trick 5, a card after the lead
        mistake = None
        while rnd.phase is Phase.PLAYING:
            step = len(rnd.tricks) * 4 + len(rnd.trick)
            if step < 16:
                rnd.push(rng.choice(rnd.legal_actions()))
                continue
            result = Solver(int(rnd.trump or 0)).solve(Position.from_round(rnd))
            if step == bad_at:
                worst = min(result.card_margins.values())
                best = max(result.card_margins.values())
                card = min(c for c, m in result.card_margins.items() if m == worst)
                if worst < best:
                    mistake = (rnd.to_act, card, result.card_values, best, worst)
            else:
                card = min(result.best_cards)
            rnd.push(Play(card, rnd.can_announce_bela(card)))
        if mistake is None:
            continue
        seat, card, values, _best, _worst = mistake
        analysis = analyze_round(rnd, from_trick=5)
        move = analysis.moves[bad_at - 16]
        assert (move.seat, move.played) == (seat, card)
        assert move.costly
        best_value = max(v for c, v in values.items() if c in move.best)
        assert move.lost_points == max(0, best_value - values[card])
        assert move.lost_written > 0 or move.lost_points > 0
        assert analysis.costly_moves() == (move,)
        checked += 1
    assert checked >= 10


def test_rounds_that_were_not_played_say_so() -> None:
    rnd = Round.from_seed(3, rules=Rules(no_forced_trump=True))
    for _ in range(4):
        rnd.push(Pass())
    analysis = analyze_round(rnd)
    assert analysis.moves == ()
    assert "nobody named trump" in analysis.note


def test_a_belot_round_says_so() -> None:
    rnd = Round.from_hands(
        0,
        ["7H 8H 9H 10H JH QH", "7D 8D 9D 10D JD QD", "7S 8S 9S 10S JS QS", "7C 8C 9C 10C JC QC"],
        ["KH AH", "KD AD", "KS AS", "KC AC"],
    )
    rnd.push(Call(Suit.HEARTS))
    assert rnd.phase is Phase.FINISHED
    analysis = analyze_round(rnd)
    assert analysis.moves == () and "belot" in analysis.note


def test_an_unfinished_round_is_refused() -> None:
    rnd = Round.from_seed(3)
    with pytest.raises(ValueError, match="finished"):
        analyze_round(rnd)
    with pytest.raises(ValueError, match=r"1\.\.8"):
        analyze_round(random_round(1), from_trick=9)


def test_json_has_every_move_and_card() -> None:
    rnd = played_rounds(1, seed=40)[0]
    data = json.loads(json.dumps(analysis_json(analyze_round(rnd, from_trick=6))))
    assert len(data["moves"]) == 12
    assert data["trump"] == str(rnd.trump)
    for move in data["moves"]:
        assert move["played"] in [c["card"] for c in move["choices"]]
        assert move["best"][0] == move["choices"][0]["card"]
    total = sum(m["lost_points"] for m in data["moves"])
    assert total == sum(s["points"] for s in data["lost_by_seat"])
