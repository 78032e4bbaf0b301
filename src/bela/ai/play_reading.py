"""Reading the play: how likely each guessed deal makes the cards the others played.

The sampler (``bela.search.sampling``) deals the unseen cards consistently with
the hard facts of the play (voids, "could not overtake"), and ``inference.py``
weighs each deal by the bids. A card played is softer evidence too: a player
who led the ace of clubs more likely holds the ten than one who led a small
one. This is policy-based inference, as Skat programs use on top of their
sampling (Solinas, Rebstock and Buro, "Improving Search with Supervised
Learning in Trick-Based Card Games", AAAI 2019): each guessed deal is replayed
from the start, and at every card another seat played, the bots' own play
policy (the heuristic player, ``normal``'s play, the one the hard bot imagines
in its rollouts) is asked what it would have played holding that guessed hand.

* it would have played the same card: the play has chance ``fit``;
* another card: chance ``(1 - fit)`` shared among the other legal cards;
* one legal card: no evidence.

A guessed deal's weight is the product over those plays, raised to ``power``
(below one it tempers the product, so that a few surprising plays do not leave
one guessed deal to decide alone). The hard bot averages its choices over the
guessed deals with these weights (importance weights on top of the sampler's).

Only plays of the first ``tricks`` tricks are read: from three tricks left the
heuristic plays by an exact search of its own over guessed deals, which is far
slower to replay and says little more. The chance the real player follows the
policy (``fit``) and the tempering were measured on positions of hard players
against each other (docs/bots.md, "Reading the play").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bela.ai.normal.heuristic import choose_card
from bela.ai.normal.judgement import PlayStyle
from bela.engine import Round, SeatView
from bela.search.sampling import Hands, Knowledge

__all__ = ["PlayReading", "play_likelihood", "rebuild_round"]


@dataclass(frozen=True, slots=True)
class PlayReading:
    """How the play is read: see the module docstring."""

    fit: float = 0.6
    power: float = 0.5
    tricks: int = 5
    style: PlayStyle = field(default_factory=PlayStyle)


def rebuild_round(
    view: SeatView,
    knowledge: Knowledge,
    hands: Hands,
    before_card: Callable[[Round, int], None] | None = None,
) -> Round:
    """A round in the view's state with the guessed hands (the others' talons split anyhow).

    ``before_card(round, card)``, when given, sees the round just before each card of the
    view's history is played (``play_likelihood`` asks the policy there).
    """
    six: list[int] = [0, 0, 0, 0]
    talons: list[int] = [0, 0, 0, 0]
    own_talon = 0
    for c in view.talon:
        own_talon |= 1 << c
    for s in range(4):
        eight = hands[s] | knowledge.played[s]
        if s == view.seat:
            talon = own_talon
        else:
            low = eight & -eight  # which two were the talon does not matter in play
            rest = eight ^ low
            talon = low | (rest & -rest)
        talons[s] = talon
        six[s] = eight & ~talon
    rnd = Round(view.dealer, six, talons, view.rules)
    for _, bid in view.bids:
        rnd.push(bid)
    announcer = view.bela_announced[0] if view.bela_announced else -1
    for card in [int(c) for t in view.tricks for c in t.cards] + [int(c) for c in view.trick]:
        if before_card is not None:
            before_card(rnd, card)
        rnd.push_card(card, rnd.to_act == announcer and rnd.can_announce_bela(card))
    return rnd


def play_likelihood(
    view: SeatView,
    knowledge: Knowledge,
    hands: Hands,
    reading: PlayReading,
    memo: dict[tuple[int, int, int], bool] | None = None,
) -> float:
    """How well the guessed hands explain the others' play (a chance in (0, 1]).

    A seat's view holds only its own cards and what the table saw, so whether the policy
    plays the card it did depends on that seat's eight cards alone: ``memo``, shared by the
    deals of one decision, keeps the answer by (seat, its eight cards, which card of the
    history), and late in a round, when few cards are unseen, most deals ask nothing new.
    """
    seat = view.seat
    fit, miss = reading.fit, 1.0 - reading.fit
    style = reading.style
    weight = 1.0
    eights = knowledge.eights(hands)
    played = 0

    def ask(rnd: Round, card: int) -> None:
        nonlocal weight, played
        played += 1
        actor = rnd.to_act
        if actor is None or actor == seat or len(rnd.tricks) >= reading.tricks:
            return
        n = rnd.legal_mask().bit_count()
        if n <= 1:
            return
        key = (actor, eights[actor], played)
        same = None if memo is None else memo.get(key)
        if same is None:
            same = choose_card(rnd.view(actor), style) == card
            if memo is not None:
                memo[key] = same
        weight *= fit if same else miss / (n - 1)

    rebuild_round(view, knowledge, hands, ask)
    return float(weight**reading.power)
