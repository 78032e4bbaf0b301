"""Building seat views of constructed positions, for the bot tests.

A ``SeatView`` is plain data, so a test can describe a position by its cards
(the seat's hand, the finished tricks, the trick on the table) without playing
a whole round to reach it. ``position_view`` checks the description is a
possible one (no card twice, 32 cards in all, every played card legal when it
was played) and fills in what follows from it: trick winners and points, hand
sizes, and the legal actions with bela where it may be announced.
"""

from __future__ import annotations

from collections.abc import Sequence

from bela.engine import (
    Call,
    Card,
    CompletedTrick,
    Pass,
    Phase,
    Play,
    Round,
    Rules,
    SeatView,
    Suit,
    card_points,
    cards_in,
    legal_plays,
    trick_winner,
)
from bela.engine.zvanja import Zvanje

__all__ = ["cards", "position_view", "rebuild", "two_tricks_left_view"]


def cards(text: str) -> tuple[Card, ...]:
    """``"AH 10H 7S"`` as cards."""
    return tuple(Card.parse(t) for t in text.split())


def position_view(
    *,
    seat: int,
    hand: str,
    trump: str,
    caller: int,
    dealer: int = 3,
    tricks: Sequence[tuple[int, str]] = (),
    leader: int | None = None,
    trick: str = "",
    shown_zvanja: tuple[tuple[int, tuple[Zvanje, ...]], ...] = (),
    zvanja_team: int | None = None,
    bela_announced: tuple[int, ...] = (),
    other_hands: Sequence[str] | None = None,
) -> SeatView:
    """The view of ``seat`` in the play phase.

    ``tricks`` are the finished tricks as (leader, "cards in play order");
    ``leader``/``trick`` the trick in progress (the seat to act is the next
    one). ``other_hands``, if given, are the four seats' current hands (the
    own seat's is ignored) and are used only to check every card is dealt
    once and each earlier play was legal for its player.
    """
    trump_suit = Suit.parse(trump)
    done: list[CompletedTrick] = []
    for t_leader, text in tricks:
        played = cards(text)
        win = (t_leader + trick_winner(played, trump_suit)) % 4
        points = sum(card_points(c, trump_suit) for c in played)
        if len(done) == 7:
            points += 10
        done.append(CompletedTrick(t_leader, played, win, points))
    on_table = cards(trick)
    lead = leader if leader is not None else (done[-1].winner if done else (dealer + 1) % 4)
    own = cards(hand)
    to_act = (lead + len(on_table)) % 4
    if to_act != seat:
        raise ValueError(f"seat {to_act} is to act, not seat {seat}")
    n_done = len(done)
    sizes = [8 - n_done] * 4
    for i in range(len(on_table)):
        sizes[(lead + i) % 4] -= 1
    if len(own) != sizes[seat]:
        raise ValueError(f"seat {seat} should hold {sizes[seat]} cards, not {len(own)}")
    seen = [c for t in done for c in t.cards] + list(on_table) + list(own)
    if other_hands is not None:
        hands = [cards(h) for h in other_hands]
        hands[seat] = own
        for s in range(4):
            if len(hands[s]) != sizes[s]:
                raise ValueError(f"seat {s} should hold {sizes[s]} cards")
        everything = seen + [c for s in range(4) if s != seat for c in hands[s]]
        if sorted(everything) != list(range(32)):
            raise ValueError("the position does not use each of the 32 cards once")
        _check_history(done, on_table, lead, hands, trump_suit)
    elif len(set(seen)) != len(seen):
        raise ValueError("a card appears twice")
    legal = legal_plays(own, on_table, trump_suit)
    actions: list[Play] = []
    both = {Card.of(5, trump_suit), Card.of(6, trump_suit)}
    for c in legal:
        actions.append(Play(c))
        # bela: the second of trump K and Q, the first played earlier by this seat
        if c in both and (both - {c}) <= _played_by(done, on_table, lead, seat):
            actions.append(Play(c, True))
    bids: list[tuple[int, Pass | Call]] = []
    first = (dealer + 1) % 4
    for k in range(4):
        s = (first + k) % 4
        if s == caller:
            bids.append((s, Call(trump_suit)))
            break
        bids.append((s, Pass()))
    return SeatView(
        seat=seat,
        dealer=dealer,
        rules=Rules(),
        phase=Phase.PLAYING,
        hand=tuple(sorted(own)),
        talon=(),
        bids=tuple(bids),
        trump=trump_suit,
        caller=caller,
        own_zvanja=(),
        shown_zvanja=shown_zvanja,
        zvanja_team=zvanja_team,
        tricks=tuple(done),
        trick_leader=lead,
        trick=on_table,
        bela_announced=bela_announced,
        hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        to_act=seat,
        legal_actions=tuple(actions),
    )


def _played_by(
    done: Sequence[CompletedTrick], on_table: Sequence[Card], lead: int, seat: int
) -> set[Card]:
    out = {t.cards[i] for t in done for i in range(len(t.cards)) if t.seat_of(i) == seat}
    out |= {c for i, c in enumerate(on_table) if (lead + i) % 4 == seat}
    return out


def _check_history(
    done: Sequence[CompletedTrick],
    on_table: Sequence[Card],
    lead: int,
    hands: list[tuple[Card, ...]],
    trump: Suit,
) -> None:
    """Replay the tricks backwards from the current hands, checking each play was legal."""
    holding = [set(h) for h in hands]
    for i, c in enumerate(on_table):
        holding[(lead + i) % 4].add(c)
    for t in done:
        for i, c in enumerate(t.cards):
            holding[t.seat_of(i)].add(c)
    for t in done:
        for i, c in enumerate(t.cards):
            s = t.seat_of(i)
            if c not in legal_plays(sorted(holding[s]), t.cards[:i], trump):
                raise ValueError(f"{c} by seat {s} was not a legal play")
            holding[s].discard(c)
    for i, c in enumerate(on_table):
        s = (lead + i) % 4
        if c not in legal_plays(sorted(holding[s]), on_table[:i], trump):
            raise ValueError(f"{c} by seat {s} was not a legal play")


def rebuild(rnd: Round, seat: int, hands: Sequence[int]) -> Round:
    """The round as it would be had the cards hidden from ``seat`` been ``hands`` (by seat).

    Replayed through the validated ``push``, so a deal the view rules out fails here.
    """
    view = rnd.view(seat)
    played = [0, 0, 0, 0]
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            played[t.seat_of(i)] |= 1 << c
    assert view.trick_leader is not None
    for i, c in enumerate(view.trick):
        played[(view.trick_leader + i) % 4] |= 1 << c
    six: list[list[Card]] = []
    talons: list[list[Card]] = []
    for s in range(4):
        eight = cards_in(hands[s] | played[s])
        talon = list(view.talon) if s == seat else eight[:2]
        talons.append(talon)
        six.append([c for c in eight if c not in talon])
    new = Round.from_hands(rnd.dealer, six, talons, rules=rnd.rules)
    for action in rnd.actions:
        new.push(action)
    return new


def two_tricks_left_view() -> SeatView:
    """Seat 0 to lead trick 7 of 8 with JH AS, hearts trump (seat 1 called).

    Six tricks are played: seat 3 discarded 9D on a spade lead, so holds no spade
    and no trump. All spades but the ace are gone, so whoever holds the 9H (seat 1)
    would trump the ace: leading the jack first takes both tricks. The hidden
    hands are seat 1 9H KD, seat 2 7D 8D, seat 3 QC KC.
    """
    return position_view(
        seat=0,
        hand="JH AS",
        trump="H",
        caller=1,
        dealer=0,
        tricks=[
            (1, "7S 8S 9S 10S"),
            (0, "7H 8H QH KH"),
            (3, "7C 10H 8C 9C"),
            (0, "10D JD QD AD"),
            (3, "10C AH JC AC"),
            (0, "KS JS QS 9D"),
        ],
        other_hands=["", "9H KD", "7D 8D", "QC KC"],
    )
