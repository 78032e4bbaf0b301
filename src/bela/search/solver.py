"""Double-dummy solver: the exact card points of the rest of a round, every card visible.

``solve(pos)`` returns what each team still takes under best play by both
teams, and the value of each legal card for the side to move. The points
counted are those still in play: the cards on the table and in the hands,
the last trick's 10, and (option ``stiglja``, on by default) the 90 for
taking all eight tricks when that is still reachable, i.e. the other team has
not completed a trick yet. Bela and zvanja are left out on purpose: they are
fixed outside the card play (bela is announced on the trump K or Q when its
holder plays the second, whoever wins the tricks), so no card choice changes
them.

The game searched is zero-sum in the margin, team 0's points minus team 1's:
team 0 (seats 0 and 2) maximises it, team 1 minimises it. Without štiglja
the remaining points are a constant, so this is the same as team 0
maximising its points and team 1 minimising them; with štiglja the margin is
what both sides really play for (a side that cannot score a point still
wants to stop the other side's sweep).

Method: alpha-beta over single cards (fail-soft), a transposition table at
trick boundaries keyed by the four hands, the leader and which teams can
still sweep (it stores bounds and the best lead), bounds from the points
left and from the trumps a team is sure to win with (its unbroken run from
the top), move ordering (the stored best lead, then the top card of each
plain suit, the other plain cards, trumps last; when following, winners
strongest first (the cheapest first for the last player beating the
opponents), other cards cheapest first unless the partner is winning),
and equivalent cards searched once: two cards of one suit in one hand with
no live card between them in trick strength and the same points (the 9 8 7
of a plain suit, the 8 7 of trump) always lead to the same outcome. Plain
ints and the engine's tables; the recursion is one frame per card, so never
deeper than 32.

Use ``solve(pos)`` for every legal card's value, ``solve_value(pos)`` for
the outcome alone (one search, about 60% of the time), and a ``Solver`` kept
across calls to share its table between positions of one deal (e.g. the
successive positions of a round being analysed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final, final

from mypy_extensions import mypyc_attr

from bela.engine import LAST_TRICK_BONUS, STIGLJA_BONUS, Card
from bela.engine.cards import SUIT_MASK
from bela.engine.guards import check_flag
from bela.engine.pickling import by_fields
from bela.engine.tricks import BEATS, CARD_POINTS, PLAIN_STRENGTH, TRUMP_STRENGTH
from bela.search.solver_position import Position, position_of

__all__ = [
    "NodeLimitExceeded",
    "Position",
    "SolveResult",
    "Solver",
    "equivalence_classes",
    "remaining_points",
    "solve",
    "solve_value",
]

_INF: Final = 10_000
_NO_LIMIT: Final = 1 << 62


@mypyc_attr(native_class=False)  # a builtin exception's subclass: a Python class compiled
class NodeLimitExceeded(RuntimeError):
    """The search tried more cards than the solver's ``node_limit`` allows for one call."""


_LAST: Final = LAST_TRICK_BONUS
_SWEEP: Final = STIGLJA_BONUS


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The exact outcome of the rest of the round under best play by both teams.

    ``points_team0``/``points_team1``: the points each team still takes (cards
    on the table and in hands, the last trick's 10, a štiglja's 90).
    ``card_values``: for each legal card of the seat to act, the points the
    mover's team takes if it plays that card and both teams then play best.
    ``card_margins``: the same, as the mover's team's points minus the other
    team's (the quantity actually optimised; it differs from the points only
    in separating "we take nothing" from "they sweep"). ``nodes`` counts
    searched cards, for benchmarks.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    points_team0: int
    points_team1: int
    mover: int
    card_values: dict[Card, int]
    card_margins: dict[Card, int]
    nodes: int = field(default=0, compare=False)

    @property
    def best_cards(self) -> list[Card]:
        """The legal cards that reach the best margin for the mover (one or more)."""
        top = max(self.card_margins.values())
        return [c for c, m in self.card_margins.items() if m == top]

    @property
    def mover_points(self) -> int:
        return self.points_team1 if self.mover & 1 else self.points_team0


# ---------------------------------------------------------------------- tables


def _strength(trump: int, card: int) -> int:
    return (TRUMP_STRENGTH if card >> 3 == trump else PLAIN_STRENGTH)[card & 7]


@lru_cache(maxsize=4)
def _order_tables(trump: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """(DESC, ASC): ``DESC[suit * 256 + byte]`` the cards of that suit byte, strongest first.

    Within a suit, points never disagree with trick strength (only the
    zero-point cards tie), so "strongest first" is also "richest first" and
    ASC, its reverse, is "cheapest first".
    """
    desc = tuple(
        tuple(
            sorted(
                (s * 8 + r for r in range(8) if byte >> r & 1),
                key=lambda c: -_strength(trump, c),
            )
        )
        for s in range(4)
        for byte in range(256)
    )
    return desc, tuple(order[::-1] for order in desc)


def _drop_table() -> tuple[int, ...]:
    """DROP[live * 8 + legal] over the three lowest ranks of a suit (their zero-point cards).

    A legal card is dropped when the next lower live card of its suit is also
    legal (so also the mover's): the two are equivalent and the lower stays.
    Among the zero-point cards (plain 7 8 9, trump 7 8) natural rank order is
    trick-strength order, and every card below them is zero-point too.
    """
    out = []
    for live in range(8):
        for legal in range(8):
            drop = 0
            if legal & ~live == 0:
                for r in range(3):
                    if legal >> r & 1:
                        below = live & ((1 << r) - 1)
                        if below and legal >> (below.bit_length() - 1) & 1:
                            drop |= 1 << r
            out.append(drop)
    return tuple(out)


_DROP: Final = _drop_table()


@lru_cache(maxsize=1)
def _sure_table() -> tuple[int, ...]:
    """SURE[live << 8 | held] for the trump suit's byte: points sure to go to a team.

    ``live`` is the trumps still in hands, ``held`` the team's share of them.
    The team's unbroken run from the top of the live trumps wins every trick
    it is played to (only a stronger live trump could beat one of its cards,
    and those are the team's own), and every card is played before the round
    ends, so the team takes at least those cards' points. Bit 8 says the run
    is not empty: the team takes a trick, so the other team cannot sweep.
    """
    by_strength = sorted(range(8), key=lambda r: -TRUMP_STRENGTH[r])
    trump_points = CARD_POINTS[:8]  # hearts as trump: the trump points by rank
    out = []
    for live in range(256):
        for held in range(256):
            value = 0
            if held & ~live == 0:
                for r in by_strength:
                    if not live >> r & 1:
                        continue
                    if not held >> r & 1:
                        break
                    value = (value | 256) + trump_points[r]
            out.append(value)
    return tuple(out)


def equivalence_classes(pos: object) -> list[list[Card]]:
    """The legal cards of the mover grouped into classes that are sure to score the same."""
    return _equivalence_classes(position_of(pos))


def _equivalence_classes(pos: Position) -> list[list[Card]]:
    legal = pos.legal_mask()
    live = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
    for c in pos.trick:
        live |= 1 << c
    classes: list[list[Card]] = []
    for s in range(4):
        zero = 3 if s == pos.trump else 7
        z = (legal >> (8 * s)) & zero
        lz = (live >> (8 * s)) & zero
        rest = (legal >> (8 * s)) & 0xFF & ~zero
        group: list[Card] = []
        for r in range(8):
            card = Card(s * 8 + r)
            if rest >> r & 1:
                classes.append([card])
            elif z >> r & 1:
                if group and _DROP[lz * 8 + z] >> r & 1:
                    group.append(card)
                else:
                    group = [card]
                    classes.append(group)
    return classes


# ---------------------------------------------------------------------- search


@final
class _Search:
    """The alpha-beta search proper for one trump: the per-trump tables, the hands being
    searched (moves are applied to and undone from them in place) and the table.

    A class of its own, not closures, so that the compiled build calls ``lead`` and
    ``follow`` as native methods with unboxed arguments (a closure is called like any
    Python object, every argument boxed: the solver ran at about 2.3x the pure build
    that way). Written for speed in both builds: tables read into locals once per
    call, loops duplicated for the maximising and minimising side instead of a test
    per move.
    """

    def __init__(self, trump: int) -> None:
        base = trump * 32
        self.trump = trump
        self.beats: tuple[int, ...] = BEATS[base : base + 32]
        self.points: tuple[int, ...] = CARD_POINTS[base : base + 32]
        self.tmask: int = SUIT_MASK[trump]
        self.desc, self.asc = _order_tables(trump)
        self.sure: tuple[int, ...] = _sure_table()
        self.plain_suits: tuple[int, ...] = tuple(s for s in range(4) if s != trump)
        self.tshift: int = 8 * trump
        self.zero_bits: tuple[int, ...] = tuple(3 if s == trump else 7 for s in range(4))
        self.hands: list[int] = [0, 0, 0, 0]
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.counter: int = 0
        self.limit: int = _NO_LIMIT

    def spread(self, mask: int, live: int, table: tuple[tuple[int, ...], ...]) -> list[int]:
        """The cards of a many-suit mask, one per equivalence class, suit by suit in order."""
        zero_bits = self.zero_bits
        out: list[int] = []
        for s in range(4):
            byte = (mask >> (8 * s)) & 0xFF
            if byte:
                z = byte & zero_bits[s]
                if z & (z - 1):
                    byte &= ~_DROP[((live >> (8 * s)) & zero_bits[s]) * 8 + z]
                out.extend(table[s * 256 + byte])
        return out

    def lead_order(self, hand: int, live: int) -> list[int]:
        """Leads to try: the top card of each plain suit, the other plain cards, then trumps.

        Trumps last because leading them mostly only draws the opponents'
        trumps, the tops first because they often win.
        """
        desc = self.desc
        tops: list[int] = []
        rest: list[int] = []
        for s in self.plain_suits:
            byte = (hand >> (8 * s)) & 0xFF
            if byte:
                z = byte & 7
                if z & (z - 1):
                    byte &= ~_DROP[((live >> (8 * s)) & 7) * 8 + z]
                cards = desc[s * 256 + byte]
                tops.append(cards[0])
                rest.extend(cards[1:])
        tops.extend(rest)
        tshift = self.tshift
        byte = (hand >> tshift) & 0xFF
        if byte:
            z = byte & 3
            if z == 3:
                byte &= ~_DROP[((live >> tshift) & 3) * 8 + z]
            tops.extend(desc[self.trump * 256 + byte])
        return tops

    def lead(self, leader: int, rem: int, sweep: int, alpha: int, beta: int) -> int:
        """Margin (team 0 minus team 1) of the rest, ``leader`` to lead a fresh trick."""
        hands = self.hands
        h = hands[leader]
        if not h & (h - 1):  # the last trick: one card each, no choice left
            beats = self.beats
            self.counter += 4
            win = h.bit_length() - 1
            ws = leader
            seat = (leader + 1) & 3
            c = hands[seat].bit_length() - 1
            if beats[win] >> c & 1:
                win, ws = c, seat
            seat = leader ^ 2
            c = hands[seat].bit_length() - 1
            if beats[win] >> c & 1:
                win, ws = c, seat
            seat = (leader + 3) & 3
            if beats[win] & hands[seat]:
                ws = seat
            team = ws & 1
            v = rem + _LAST + (_SWEEP if sweep >> team & 1 else 0)
            return -v if team else v
        if self.counter > self.limit:
            raise NodeLimitExceeded(f"gave up after {self.counter} cards searched")
        h0, h1, h2, h3 = hands
        live = h0 | h1 | h2 | h3
        tshift = self.tshift
        sure = self.sure
        live_trumps = (live >> tshift) & 0xFF
        held = ((h0 | h2) >> tshift) & 0xFF
        sure0 = sure[live_trumps << 8 | held]
        sure1 = sure[live_trumps << 8 | (live_trumps ^ held)]
        hi = rem + _LAST - 2 * (sure1 & 255) + (_SWEEP if sweep & 1 and sure1 < 256 else 0)
        if hi <= alpha:
            return hi
        lo = 2 * (sure0 & 255) - rem - _LAST - (_SWEEP if sweep & 2 and sure0 < 256 else 0)
        if lo >= beta:
            return lo
        key = h0 | h1 << 32 | h2 << 64 | h3 << 96 | leader << 128 | sweep << 130
        tt = self.tt
        entry = tt.get(key)
        first = -1
        if entry is not None:
            lo, hi, first = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        moves = self.lead_order(h, live)
        if first >= 0:
            moves.remove(first)
            moves.insert(0, first)
        points = self.points
        nxt = (leader + 1) & 3
        a0, b0 = alpha, beta
        best_card = moves[0]
        self.counter += len(moves)
        if leader & 1:
            best = _INF
            for c in moves:
                hands[leader] = h ^ (1 << c)
                p = points[c]
                v = self.follow(nxt, 1, c >> 3, c, leader, p, rem - p, live, sweep, alpha, beta)
                if v < best:
                    best, best_card = v, c
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        else:
            best = -_INF
            for c in moves:
                hands[leader] = h ^ (1 << c)
                p = points[c]
                v = self.follow(nxt, 1, c >> 3, c, leader, p, rem - p, live, sweep, alpha, beta)
                if v > best:
                    best, best_card = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        hands[leader] = h
        # Store what this search proved, relative to the window it searched.
        if entry is None:
            lo, hi = -_INF, _INF
        else:
            lo, hi = entry[0], entry[1]
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = hi = best
        tt[key] = (lo, hi, best_card)
        return best

    def follow(
        self,
        seat: int,
        k: int,
        led: int,
        win: int,
        ws: int,
        tpts: int,
        rem: int,
        live: int,
        sweep: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Margin of the rest with ``k`` cards on the table and ``seat`` to play.

        ``led`` is the suit led, ``win``/``ws`` the card winning so far and
        its seat, ``tpts`` the points on the table, ``rem`` the points
        left in the hands, ``live`` the cards in hands or on the table.

        Under Bela's must-beat rules the legal cards either all take the
        lead of the trick or none does (a player who can beat must), so one
        test decides the ordering: winners strongest first (the cheapest
        winner first for the last player against the opponents), and
        losers richest first when the partner is winning, else cheapest.
        """
        hands = self.hands
        trump = self.trump
        h = hands[seat]
        bw = self.beats[win]
        legal = h & SUIT_MASK[led]
        takes = False
        if legal:
            s = led
            if legal & bw and (led == trump or win >> 3 != trump):
                legal &= bw
                takes = True
        else:
            legal = h & self.tmask
            if legal:
                s = trump
                if legal & bw:
                    legal &= bw
                    takes = True
            else:
                s = -1
                legal = h
        mine = not (ws ^ seat) & 1  # the mover's team is winning the trick so far
        moves: Sequence[int]
        if s >= 0:
            zero = self.zero_bits[s]
            byte = (legal >> (8 * s)) & 0xFF
            z = byte & zero
            if z & (z - 1):
                byte &= ~_DROP[((live >> (8 * s)) & zero) * 8 + z]
            if takes:
                moves = (self.asc if k == 3 and not mine else self.desc)[s * 256 + byte]
            else:
                moves = (self.desc if mine else self.asc)[s * 256 + byte]
        else:
            moves = self.spread(legal, live, self.desc if mine else self.asc)
        self.counter += len(moves)
        points = self.points
        if k < 3:
            nxt = (seat + 1) & 3
            k += 1
            if seat & 1:
                best = _INF
                for c in moves:
                    hands[seat] = h ^ (1 << c)
                    p = points[c]
                    if takes:
                        v = self.follow(
                            nxt, k, led, c, seat, tpts + p, rem - p, live, sweep, alpha, beta
                        )
                    else:
                        v = self.follow(
                            nxt, k, led, win, ws, tpts + p, rem - p, live, sweep, alpha, beta
                        )
                    if v < best:
                        best = v
                        if v < beta:
                            beta = v
                            if alpha >= beta:
                                break
            else:
                best = -_INF
                for c in moves:
                    hands[seat] = h ^ (1 << c)
                    p = points[c]
                    if takes:
                        v = self.follow(
                            nxt, k, led, c, seat, tpts + p, rem - p, live, sweep, alpha, beta
                        )
                    else:
                        v = self.follow(
                            nxt, k, led, win, ws, tpts + p, rem - p, live, sweep, alpha, beta
                        )
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
            hands[seat] = h
            return best
        # The trick is complete after this card; it goes to the mover when the card takes.
        w = seat if takes else ws
        team = w & 1
        if not h & (h - 1):  # the very last card of the round
            t = tpts + points[moves[0]] + _LAST + (_SWEEP if sweep >> team & 1 else 0)
            return -t if team else t
        sweep &= 1 << team
        if seat & 1:
            best = _INF
            for c in moves:
                hands[seat] = h ^ (1 << c)
                p = points[c]
                t = tpts + p
                if team:
                    v = self.lead(w, rem - p, sweep, alpha + t, beta + t) - t
                else:
                    v = self.lead(w, rem - p, sweep, alpha - t, beta - t) + t
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        else:
            best = -_INF
            for c in moves:
                hands[seat] = h ^ (1 << c)
                p = points[c]
                t = tpts + p
                if team:
                    v = self.lead(w, rem - p, sweep, alpha + t, beta + t) - t
                else:
                    v = self.lead(w, rem - p, sweep, alpha - t, beta - t) + t
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        hands[seat] = h
        return best


class Solver:
    """One search engine for one trump; keeps its transposition table between calls.

    ``solve`` / ``solve_value`` below make a fresh one per call, which is what
    a bot sampling many different deals wants. Reusing a ``Solver`` pays off
    when positions share hands, e.g. the successive positions of one round.
    """

    def __init__(self, trump: int, stiglja: bool = True, node_limit: int | None = None) -> None:
        """``node_limit``: give up (``NodeLimitExceeded``) once one call has tried that many cards.

        A deterministic budget for callers that must answer in time (a bot
        can fall back to a cheaper evaluation); the table stays valid.
        """
        self.trump = trump
        self.stiglja = stiglja
        self.node_limit = node_limit
        self._search = _Search(trump)
        self.tt: dict[int, tuple[int, int, int]] = self._search.tt

    # ------------------------------------------------------------------ entry points

    def _load(self, pos: Position) -> tuple[int, int, int, int, int, int, int]:
        """Set the hands; return (sweep, rem, table points, live, led, win, win seat)."""
        if pos.trump != self.trump:
            raise ValueError("this solver was built for another trump")
        search = self._search
        if self.node_limit is not None and search.limit == _NO_LIMIT:
            search.limit = search.counter + self.node_limit
        hands = search.hands
        points = search.points
        rem = 0
        live = 0
        for seat in range(4):
            hands[seat] = h = pos.hands[seat]
            live |= h
            while h:
                b = h & -h
                rem += points[b.bit_length() - 1]
                h ^= b
        tpts = 0
        for c in pos.trick:
            tpts += points[c]
            live |= 1 << c
        sweep = 0
        if self.stiglja:
            won0, won1 = pos.tricks_won
            sweep = (1 if won1 == 0 else 0) | (2 if won0 == 0 else 0)
        led = pos.trick[0] >> 3 if pos.trick else -1
        win, ws = pos.winning()
        return sweep, rem, tpts, live, led, win, ws

    def _after(self, pos: Position, card: int, alpha: int, beta: int) -> int:
        """Margin of the rest (table points included) after the mover plays ``card``."""
        sweep, rem, tpts, live, led, win, ws = self._load(pos)
        seat = pos.to_act
        search = self._search
        hands = search.hands
        points = search.points
        p = points[card]
        last = hands[seat] & (hands[seat] - 1) == 0
        hands[seat] ^= 1 << card
        search.counter += 1
        if led < 0:
            return search.follow(
                (seat + 1) & 3, 1, card >> 3, card, seat, p, rem - p, live, sweep, alpha, beta
            )
        if search.beats[win] >> card & 1:
            win, ws = card, seat
        k = len(pos.trick) + 1
        t = tpts + p
        if k < 4:
            return search.follow(
                (seat + 1) & 3, k, led, win, ws, t, rem - p, live, sweep, alpha, beta
            )
        team = ws & 1
        sweep &= 1 << team
        if last:
            t += _LAST + (_SWEEP if sweep else 0)
            return -t if team else t
        if team:
            return search.lead(ws, rem - p, sweep, alpha + t, beta + t) - t
        return search.lead(ws, rem - p, sweep, alpha - t, beta - t) + t

    @property
    def nodes(self) -> int:
        """Cards tried by the search so far (a machine-independent measure of work)."""
        return self._search.counter

    def card_margins(self, pos: Position) -> dict[Card, int]:
        """Exact margin (team 0 minus team 1, from now) after each legal card of the mover."""
        out: dict[Card, int] = {}
        try:
            for group in _equivalence_classes(pos):
                value = self._after(pos, group[0], -_INF, _INF)
                for card in group:
                    out[card] = value
        finally:
            self._search.limit = _NO_LIMIT
        return out

    def margin(self, pos: Position) -> int:
        """Exact margin (team 0 minus team 1, from now) under best play: one search."""
        try:
            sweep, rem, tpts, live, led, win, ws = self._load(pos)
            if not pos.trick:
                return self._search.lead(pos.leader, rem, sweep, -_INF, _INF)
            k = len(pos.trick)
            return self._search.follow(
                pos.to_act, k, led, win, ws, tpts, rem, live, sweep, -_INF, _INF
            )
        finally:
            self._search.limit = _NO_LIMIT

    def solve(self, pos: Position) -> SolveResult:
        """Exact points of the rest of the round for both teams, and each legal card's value."""
        start = self.nodes
        margins = self.card_margins(pos)
        mover = pos.to_act
        team = mover & 1
        total = _remaining_points(pos)
        best = min(margins.values()) if team else max(margins.values())
        p0, p1 = _split(total, best)
        values: dict[Card, int] = {}
        mine: dict[Card, int] = {}
        for card, m in margins.items():
            values[card] = _split(total, m)[team]
            mine[card] = -m if team else m
        return SolveResult(p0, p1, mover, values, mine, self.nodes - start)

    def value(self, pos: Position) -> tuple[int, int]:
        """(team 0, team 1) points of the rest under best play; cheaper than ``solve``."""
        return _split(_remaining_points(pos), self.margin(pos))

    def clear(self) -> None:
        """Forget the transposition table (it only grows otherwise)."""
        self.tt.clear()


def remaining_points(pos: object) -> int:
    """Card points still to be taken: the table, the hands and the last trick's 10."""
    return _remaining_points(position_of(pos))


def _remaining_points(pos: Position) -> int:
    points = CARD_POINTS[pos.trump * 32 : pos.trump * 32 + 32]
    total = _LAST + sum(points[c] for c in pos.trick)
    for h in pos.hands:
        while h:
            b = h & -h
            total += points[b.bit_length() - 1]
            h ^= b
    return total


def _split(total: int, margin: int) -> tuple[int, int]:
    """(team 0, team 1) points from the margin: only a sweep takes it past the total."""
    if margin > total:
        return margin, 0
    if margin < -total:
        return 0, -margin
    return (total + margin) // 2, (total - margin) // 2


def solve(pos: object, stiglja: object = True) -> SolveResult:
    """Exact points of the rest of the round for both teams, and each legal card's value.

    A fresh ``Solver`` per call; see ``Solver`` to keep the table between calls.
    """
    position = position_of(pos)
    return Solver(position.trump, check_flag(stiglja, "stiglja")).solve(position)


def solve_value(pos: object, stiglja: object = True) -> tuple[int, int]:
    """(team 0, team 1) points of the rest under best play: one search, cheaper than ``solve``."""
    position = position_of(pos)
    return Solver(position.trump, check_flag(stiglja, "stiglja")).value(position)
