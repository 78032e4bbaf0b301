"""Exact play of the last tricks, over the holdings the card memory allows.

With two or three tricks to go so few cards are out that every way of dealing
them to the other players, consistent with the voids and "could not overtake"
deductions, can be listed. Each such deal is solved exactly (alpha-beta over
masks, both teams playing perfectly) for each card the bot may play, and the
card with the best average outcome is chosen. When the memory pins every card
to its holder there is a single deal and the play is simply exact.

The outcome is measured in written points (our written score minus theirs, so
a pad or a štiglja counts for what it is), with card points as a tie-break.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Final

from bela.engine import SeatView
from bela.engine.round import BELA_MASK, BELA_POINTS, LAST_TRICK_BONUS
from bela.engine.scoring import score_round_detail
from bela.engine.tricks import BEATS, CARD_POINTS, legal_mask
from bela.search.memory import CardMemory

__all__ = ["consistent_deals", "endgame_choice"]

_INF: Final = float("inf")


def _to_place(memory: CardMemory) -> tuple[list[int], list[int], list[int], int]:
    """What a deal of the unseen cards starts from.

    The other seats; each seat's hand so far (own hand, and the cards known to be
    with each other seat); how many more cards each other seat needs; the
    unseen cards nobody is known to hold, still to be placed.
    """
    seat = memory.seat
    others = [s for s in range(4) if s != seat]
    hands = [0, 0, 0, 0]
    hands[seat] = memory.hand
    need = [0, 0, 0, 0]
    free = memory.unseen
    for s in others:
        hands[s] = memory.known[s]
        need[s] = memory.sizes[s] - memory.known[s].bit_count()
        free &= ~memory.known[s]
    return others, hands, need, free


def consistent_deals(memory: CardMemory, limit: int) -> list[list[int]] | None:
    """Every assignment of the unseen cards to the other seats the memory allows.

    Each deal is a list of four hand masks by seat (the own seat's hand
    included). Returns None when there are more than ``limit`` deals.
    """
    others, hands, need, free = _to_place(memory)
    if min(need) < 0:
        return []
    cards: list[int] = []
    rest = free
    while rest:
        low = rest & -rest
        cards.append(low.bit_length() - 1)
        rest ^= low
    if len(cards) != sum(need):
        return []
    possible = memory.possible
    holders = [[s for s in others if possible[s] >> c & 1] for c in cards]
    order = sorted(range(len(cards)), key=lambda i: len(holders[i]))
    out: list[list[int]] = []

    def place(k: int) -> bool:
        if k == len(order):
            out.append(hands.copy())
            return len(out) <= limit
        i = order[k]
        bit = 1 << cards[i]
        for s in holders[i]:
            if need[s]:
                need[s] -= 1
                hands[s] |= bit
                ok = place(k + 1)
                hands[s] ^= bit
                need[s] += 1
                if not ok:
                    return False
        return True

    if not place(0):
        return None
    return out


def sampled_deals(memory: CardMemory, rng: Random, count: int) -> list[list[int]]:
    """``count`` random deals of the unseen cards the memory allows (near-uniform).

    Cards are placed most-constrained first, each with a seat chosen in
    proportion to its free places; a dead end starts the deal again.
    """
    others, base, need0, free = _to_place(memory)
    possible = memory.possible
    cards: list[tuple[int, list[int]]] = []
    while free:
        low = free & -free
        free ^= low
        card = low.bit_length() - 1
        cards.append((low, [s for s in others if possible[s] >> card & 1]))
    cards.sort(key=lambda item: len(item[1]))
    out: list[list[int]] = []
    attempts = 0
    while len(out) < count and attempts < 20 * count:
        attempts += 1
        hands = base.copy()
        need = need0.copy()
        for bit, holders in cards:
            total = 0
            for s in holders:
                total += need[s]
            if not total:
                break
            pick = rng.random() * total
            chosen = -1
            for s in holders:
                if need[s]:
                    chosen = s
                    pick -= need[s]
                    if pick < 0:
                        break
            hands[chosen] |= bit
            need[chosen] -= 1
        else:
            out.append(hands)
    return out


Value = Callable[[list[int], int, int, int, int, int, int, int, int, int, float, float], float]


def _solver(trump: int, team: int, leaf: Callable[[int, int], float]) -> Value:
    """Alpha-beta over the rest of the round with every hand known.

    The returned function takes (hands, led, win, win_seat, count, trick_pts,
    seat, pts, tricks, done, alpha, beta): the hands by seat (changed during
    the search, restored after), the trick so far (suit led, winning card and
    seat, cards played, points), the seat to play, our points and tricks from
    the start of the search, the number of finished tricks and the window.
    Closures rather than a class: the constants are cell lookups, the hot
    path's cheapest.
    """
    base = trump * 32
    beats = BEATS[base : base + 32]
    points = CARD_POINTS[base : base + 32]
    cache: dict[tuple[int, int], float] = {}

    def final(pts: int, tricks: int) -> float:
        key = (pts, tricks)
        got = cache.get(key)
        if got is None:
            got = cache[key] = leaf(pts, tricks)
        return got

    def value(
        hands: list[int],
        led: int,
        win: int,
        win_seat: int,
        count: int,
        trick_pts: int,
        seat: int,
        pts: int,
        tricks: int,
        done: int,
        alpha: float,
        beta: float,
    ) -> float:
        if done == 8:
            return final(pts, tricks)
        if done == 7:
            # The last trick: every hand holds one card, so the play is forced.
            while count < 4:
                card = hands[seat].bit_length() - 1
                if count == 0 or beats[win] >> card & 1:
                    win, win_seat = card, seat
                trick_pts += points[card]
                seat = (seat + 1) & 3
                count += 1
            if (win_seat & 1) == team:
                return final(pts + trick_pts + LAST_TRICK_BONUS, tricks + 1)
            return final(pts, tricks)
        hand = hands[seat]
        legal = legal_mask(hand, led, win, trump) if count else hand
        maximizing = (seat & 1) == team
        best = -_INF if maximizing else _INF
        while legal:
            bit = legal & -legal
            legal ^= bit
            card = bit.bit_length() - 1
            hands[seat] = hand ^ bit
            if count == 0:
                n_led, n_win, n_ws = card >> 3, card, seat
            elif beats[win] >> card & 1:
                n_led, n_win, n_ws = led, card, seat
            else:
                n_led, n_win, n_ws = led, win, win_seat
            n_pts = trick_pts + points[card]
            if count == 3:
                if (n_ws & 1) == team:
                    v = value(
                        hands,
                        -1,
                        -1,
                        -1,
                        0,
                        0,
                        n_ws,
                        pts + n_pts,
                        tricks + 1,
                        done + 1,
                        alpha,
                        beta,
                    )
                else:
                    v = value(hands, -1, -1, -1, 0, 0, n_ws, pts, tricks, done + 1, alpha, beta)
            else:
                v = value(
                    hands,
                    n_led,
                    n_win,
                    n_ws,
                    count + 1,
                    n_pts,
                    (seat + 1) & 3,
                    pts,
                    tricks,
                    done,
                    alpha,
                    beta,
                )
            hands[seat] = hand
            if maximizing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best

    return value


MATCH_WEIGHT: Final = 1000.0
"""What winning (or losing) the match is worth at a leaf, in written points: more than any
round's points, so a card that decides the match is chosen for that, points second."""


def _leaf_function(
    view: SeatView, memory: CardMemory, match_play: bool = False
) -> Callable[[int, int], float]:
    """Our written points minus theirs at the end of the round, given what we take from now.

    Arguments: the card points (last trick included) and tricks our team takes
    from now on. Card points break ties in written points. With ``match_play`` and
    the match score in the view (``SeatView.match_context``), an outcome that ends the
    match counts ``MATCH_WEIGHT`` for the winner first (the rule of ``decide_winner``:
    the one team over the target, or the higher of two; points hanging under visi are
    left out), so near the end the bot plays to win the match, not for the round's points.
    """
    team = view.seat & 1
    trump = memory.trump
    pts_now = [0, 0]
    tricks_now = [0, 0]
    for t in view.tricks:
        pts_now[t.winner & 1] += t.points
        tricks_now[t.winner & 1] += 1
    remaining = 162 - pts_now[0] - pts_now[1]
    zvanja = [0, 0]
    if view.zvanja_team is not None:
        zvanja[view.zvanja_team] = sum(z.points for _, zs in view.shown_zvanja for z in zs)
    bela = [0, 0]
    for s in view.bela_announced:
        bela[s & 1] += BELA_POINTS
    both = BELA_MASK[trump]
    if memory.hand & both == both:
        bela[team] += BELA_POINTS
    for s in range(4):
        if s != view.seat and memory.known[s] & both == both:
            bela[s & 1] += BELA_POINTS
    caller = view.caller if view.caller is not None else 0
    zv = (zvanja[0], zvanja[1])
    bl = (bela[0], bela[1])
    visi = view.rules.visi
    stiglja_bonus = view.rules.stiglja_bonus
    kept = view.rules.bela_always_counts
    tricks_left = 8 - len(view.tricks)
    context = view.match_context if match_play else None

    def leaf(pts: int, tricks: int) -> float:
        ours = pts_now[team] + pts
        theirs = pts_now[1 - team] + remaining - pts
        ours_t = tricks_now[team] + tricks
        theirs_t = tricks_now[1 - team] + tricks_left - tricks
        cp = (ours, theirs) if team == 0 else (theirs, ours)
        tr = (ours_t, theirs_t) if team == 0 else (theirs_t, ours_t)
        score = score_round_detail(
            caller=caller,
            card_points=cp,
            zvanja=zv,
            bela=bl,
            tricks=tr,
            visi=visi,
            stiglja_bonus=stiglja_bonus,
            bela_always_counts=kept,
        )
        written = score.points[team] - score.points[1 - team]
        value = written + 0.001 * (ours - theirs)
        if context is not None:
            totals = (context[0] + score.points[0], context[1] + score.points[1])
            over = (totals[0] >= context[2], totals[1] >= context[2])
            if over[0] != over[1]:
                value += MATCH_WEIGHT if over[team] else -MATCH_WEIGHT
            elif over[0] and totals[0] != totals[1]:
                value += MATCH_WEIGHT if totals[team] > totals[1 - team] else -MATCH_WEIGHT
        return value

    return leaf


def endgame_choice(
    view: SeatView,
    memory: CardMemory,
    legal: int,
    max_deals: int,
    rng: Random | None = None,
    sample: int = 0,
    match_play: bool = False,
) -> int | None:
    """The card (from the ``legal`` mask) with the best average exact outcome, or None.

    None when the holdings the memory allows number more than ``max_deals``.
    With ``sample`` and an ``rng``, when there are more than ``sample`` such
    deals only ``sample`` random ones (drawn by the rng) are solved, which
    bounds the time of a decision.
    """
    if sample and rng is not None and sample < max_deals:
        deals = consistent_deals(memory, sample)
        if deals is None:
            deals = sampled_deals(memory, rng, sample)
    else:
        deals = consistent_deals(memory, max_deals)
    if not deals:
        return None
    trump = memory.trump
    base = trump * 32
    team = view.seat & 1
    solve = _solver(trump, team, _leaf_function(view, memory, match_play))
    done = len(view.tricks)
    trick = view.trick
    leader = view.trick_leader if view.trick_leader is not None else view.seat
    led, win, win_seat, trick_pts = -1, -1, -1, 0
    for i, c in enumerate(trick):
        trick_pts += CARD_POINTS[base + c]
        if i == 0:
            led, win, win_seat = c >> 3, c, leader
        elif BEATS[base + win] >> c & 1:
            win, win_seat = c, (leader + i) & 3
    count = len(trick)
    seat = view.seat
    candidates: list[int] = []
    rest = legal
    while rest:
        low = rest & -rest
        candidates.append(low.bit_length() - 1)
        rest ^= low
    totals = [0.0] * len(candidates)
    for hands in deals:
        for k, card in enumerate(candidates):
            bit = 1 << card
            hands[seat] ^= bit
            if count == 0:
                n_led, n_win, n_ws = card >> 3, card, seat
            elif BEATS[base + win] >> card & 1:
                n_led, n_win, n_ws = led, card, seat
            else:
                n_led, n_win, n_ws = led, win, win_seat
            n_pts = trick_pts + CARD_POINTS[base + card]
            if count == 3:
                if done == 7:
                    n_pts += LAST_TRICK_BONUS
                ours = (n_ws & 1) == team
                v = solve(
                    hands,
                    -1,
                    -1,
                    -1,
                    0,
                    0,
                    n_ws,
                    n_pts if ours else 0,
                    1 if ours else 0,
                    done + 1,
                    -_INF,
                    _INF,
                )
            else:
                v = solve(
                    hands,
                    n_led,
                    n_win,
                    n_ws,
                    count + 1,
                    n_pts,
                    (seat + 1) & 3,
                    0,
                    0,
                    done,
                    -_INF,
                    _INF,
                )
            hands[seat] ^= bit
            totals[k] += v
    best = max(range(len(candidates)), key=lambda k: (totals[k], -_card_cost(candidates[k], trump)))
    return candidates[best]


def _card_cost(card: int, trump: int) -> int:
    """A tie-break among equally good cards: keep trumps and points in hand."""
    return CARD_POINTS[trump * 32 + card] + (40 if card >> 3 == trump else 0)
