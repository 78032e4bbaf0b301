"""Why a card or a bid is good, in one sentence a player would say.

The hard bot chooses by averaging written points over guessed deals; those
averages are the evidence, but "+12 over 10 guessed deals" tells a player
nothing they can learn from. This module looks at the position the way a
player does (how many trumps are still out, who holds the top trump, who is
winning the trick, what the card is worth) and names the card's *role*:
forced, drawing trumps, cashing a winner, winning the trick, smearing points
onto the partner's trick, ducking. The numbers stay available as details.

Cards are named by their codes (``JS``, ``10D``); the app turns those into
suit symbols. Everything here reads only the seat's view, like a bot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bela.engine import Action, Call, Card, Claim, Pass, Play, SeatView
from bela.engine.tricks import CARD_POINTS, PLAIN_STRENGTH, TRUMP_STRENGTH
from bela.i18n import _, ngettext
from bela.wording import points, suit_called, suit_name, suit_singular

if TYPE_CHECKING:
    from bela.ai.hard import Decision

__all__ = ["numbers", "reason"]

_ACE: Final = 7
_TEN: Final = 3
_JACK: Final = 4
_NINE: Final = 2


def reason(view: SeatView, action: Action) -> str:
    """One sentence, starting with the action, saying why it suits this position.

    ``view`` is the deciding seat's view and ``action`` one of its legal actions.
    """
    if isinstance(action, Play):
        return _play_reason(view, action)
    if isinstance(action, (Pass, Call)):
        return _bid_reason(view, action)
    raise ValueError(f"no reason for {action!r}")  # pragma: no cover - only bids and plays


# ---------------------------------------------------------------------- card play


class _Position:
    """The facts a player weighs before a card, read from one seat's view."""

    def __init__(self, view: SeatView) -> None:
        assert view.trump is not None
        self.view = view
        self.trump = int(view.trump)
        self.hand = frozenset(int(c) for c in view.hand)
        played = {int(c) for c in view.played}
        self.unseen = frozenset(c for c in range(32) if c not in played and c not in self.hand)
        self.partner = (view.seat + 2) % 4
        self.trick = tuple(int(c) for c in view.trick)
        self.leader = view.trick_leader if view.trick_leader is not None else view.seat
        self.legal = {int(a.card) for a in view.legal_actions if isinstance(a, Play)}

    def strength(self, card: int) -> int:
        table = TRUMP_STRENGTH if card >> 3 == self.trump else PLAIN_STRENGTH
        return table[card & 7]

    def points(self, card: int) -> int:
        return CARD_POINTS[self.trump * 32 + card]

    def beats(self, card: int, best: int) -> bool:
        """Whether ``card`` takes the trick from ``best``, the card winning it so far."""
        if card >> 3 == best >> 3:
            return self.strength(card) > self.strength(best)
        return card >> 3 == self.trump

    def winning(self) -> tuple[int, int]:
        """(the card winning the trick so far, the seat that played it)."""
        best_index = 0
        for i in range(1, len(self.trick)):
            if self.beats(self.trick[i], self.trick[best_index]):
                best_index = i
        return self.trick[best_index], (self.leader + best_index) % 4

    def trumps_out(self) -> list[int]:
        """Trumps nobody has played and this seat does not hold, strongest first."""
        out = [c for c in self.unseen if c >> 3 == self.trump]
        return sorted(out, key=self.strength, reverse=True)

    def is_top(self, card: int) -> bool:
        """Whether no card of its suit still out is stronger."""
        return all(
            self.strength(other) < self.strength(card)
            for other in self.unseen
            if other >> 3 == card >> 3
        )

    def side_winners(self) -> list[int]:
        """Plain aces and tens in hand: the cards that drawing trumps protects."""
        cards = [c for c in self.hand if c >> 3 != self.trump and c & 7 in (_ACE, _TEN)]
        return sorted(cards, key=lambda c: (-self.points(c), c))


def _name(card: int) -> str:
    return str(Card(card))


def _suit_word(card: int) -> str:
    return suit_singular(card >> 3)


def _and(names: list[str]) -> str:
    """``A and B`` (the language's "and")."""
    if len(names) <= 1:
        return "".join(names)
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def _play_reason(view: SeatView, action: Play) -> str:
    pos = _Position(view)
    card = int(action.card)
    lead = not pos.trick
    if lead and action.bela:
        head = _("lead {card} and say bela (20 points)")
    elif lead:
        head = _("lead {card}")
    elif action.bela:
        head = _("play {card} and say bela (20 points)")
    else:
        head = _("play {card}")
    if len(pos.legal) == 1:
        why = _("it is the only card the rules allow here")
    elif lead:
        why = _lead_reason(pos, card)
    else:
        why = _follow_reason(pos, card)
    return _("{head}: {why}").format(head=head.format(card=_name(card)), why=why)


def _lead_reason(pos: _Position, card: int) -> str:
    out = pos.trumps_out()
    if card >> 3 == pos.trump:
        if not out:
            return _("nobody else has a trump left, so it cannot be beaten")
        protected = [c for c in pos.side_winners() if c != card]
        if pos.is_top(card):
            first = _("you hold the top trump")
        else:
            first = ngettext(
                "{n} trump is still out (the top one is {card})",
                "{n} trumps are still out (the top one is {card})",
                len(out),
            ).format(n=len(out), card=_name(out[0]))
        if protected:
            listed = _and([_name(c) for c in protected[:2]])
            return _("{first}, and drawing trumps protects your {cards}").format(
                first=first, cards=listed
            )
        return _("{first}, and drawing them stops the opponents trumping your winners").format(
            first=first
        )
    if pos.is_top(card):
        if card & 7 == _ACE:
            why = _("cashing an ace: it is the highest {suit} left")
        else:
            why = _("cashing a winner: it is the highest {suit} left")
        why = why.format(suit=_suit_word(card))
        if out:
            return _("{why}, worth {points} before anyone runs out of them").format(
                why=why, points=points(pos.points(card))
            )
        return _("{why} and no trumps are out, so it wins").format(why=why)
    if pos.points(card) == 0:  # 7, 8 or 9: a low card, whatever is still out
        return _(
            "a low {suit} gives little away and leaves your partner room to win the trick"
        ).format(suit=_suit_word(card))
    if pos.points(card) <= 4:  # a king, queen or jack: not low, just not worth much
        return _(
            "it is worth only {points} and gives little away, and leaves your partner "
            "room to win the trick"
        ).format(points=points(pos.points(card)))
    higher = sorted(
        (c for c in pos.unseen if c >> 3 == card >> 3 and pos.strength(c) > pos.strength(card)),
        key=pos.strength,
        reverse=True,
    )
    if len(higher) == 1:
        return _("only {card} is still higher: this lead wins the trick or draws it out").format(
            card=_name(higher[0])
        )
    held = sorted((c for c in pos.hand if c >> 3 == card >> 3), key=pos.strength, reverse=True)
    listed = " ".join(_name(c) for c in held)
    return _("it opens your {suit} ({cards}); {higher} are still out").format(
        suit=suit_name(card >> 3), cards=listed, higher=_and([_name(c) for c in higher])
    )


def _follow_reason(pos: _Position, card: int) -> str:
    best, seat = pos.winning()
    last = len(pos.trick) == 3
    on_trick = sum(pos.points(c) for c in pos.trick)
    value = pos.points(card)
    takes = pos.beats(card, best)
    if seat == pos.partner and not takes:
        if value >= 10:
            if last:
                text = _("your partner wins the trick, so smear points onto it ({points})")
            else:
                text = _("your partner is winning the trick, so smear points onto it ({points})")
            return text.format(points=points(value))
        if last:
            return _("your partner wins the trick anyway; keep your stronger cards for later")
        return _("your partner is winning the trick, so keep your stronger cards for later")
    if takes:
        total = points(on_trick + value)
        trumping = card >> 3 == pos.trump and pos.trick[0] >> 3 != pos.trump
        if seat == pos.partner:
            if trumping:
                text = _("trumping takes the trick over from your partner ({points} on it)")
            else:
                text = _("it takes the trick over from your partner ({points} on it)")
            return text.format(points=total)
        if last:
            if trumping:
                return _("trumping wins the trick ({points})").format(points=total)
            return _("it wins the trick ({points})").format(points=total)
        safe = pos.is_top(card) and (trumping or not pos.trumps_out() or card >> 3 == pos.trump)
        if safe and not trumping:
            return _("it wins the trick: nothing still out beats it ({points} so far)").format(
                points=total
            )
        if trumping:
            return _("trumping takes the trick for now ({points} on it so far)").format(
                points=total
            )
        return _("it takes the trick for now ({points} on it so far)").format(points=total)
    cheapest = min(pos.points(c) for c in pos.legal)
    if len(pos.trick) == 1 and value > cheapest:  # the partner plays last
        return _("your partner plays last and may still win this trick")
    if value == cheapest:
        if last:
            text = _(
                "the opponents win this trick, so duck and give them as little as you can "
                "({points})"
            )
        else:
            text = _(
                "the opponents are winning this trick, so duck and give them as little as "
                "you can ({points})"
            )
        return text.format(points=points(value))
    return _("you cannot win this trick; this is the card you can best spare")


# ---------------------------------------------------------------------- bidding


def _bid_reason(view: SeatView, action: Pass | Call) -> str:
    hand = [int(c) for c in view.hand]

    def suit_cards(suit: int) -> list[int]:
        return sorted((c for c in hand if c >> 3 == suit), key=lambda c: -TRUMP_STRENGTH[c & 7])

    def strong(suit: int) -> list[int]:
        return [c for c in suit_cards(suit) if c & 7 in (_JACK, _NINE)]

    def aces_beside(suit: int) -> list[int]:
        return [c for c in hand if c & 7 == _ACE and c >> 3 != suit]

    if isinstance(action, Call):
        suit = int(action.suit)
        cards = suit_cards(suit)
        count = ngettext("{n} {suit}", "{n} {suit}", len(cards)).format(
            n=len(cards), suit=suit_name(suit)
        )
        if strong(suit):
            count = _("{cards} with {strong}").format(
                cards=count, strong=_and([_name(c) for c in strong(suit)])
            )
        parts = [count]
        aces = aces_beside(suit)
        if aces:
            parts.append(_("{aces} on the side").format(aces=_and([_name(c) for c in aces])))
        forced = Pass() not in view.legal_actions
        head = _("name {suit}").format(suit=suit_called(suit))
        if forced:
            return _(
                "{head}: as dealer you must name a suit, and this is your strongest: {parts}"
            ).format(head=head, parts=", ".join(parts))
        return _("{head}: you hold {parts}").format(head=head, parts=", ".join(parts))
    best = max(range(4), key=lambda s: (len(strong(s)), len(suit_cards(s))))
    cards = suit_cards(best)
    names = [_name(c) for c in cards]
    if len(cards) <= 2:
        held = _("has only {cards}").format(cards=_and(names))
    else:
        held = ngettext("has {n} card ({cards})", "has {n} cards ({cards})", len(cards)).format(
            n=len(cards), cards=" ".join(names)
        )
    return _(
        "say dalje: no suit is strong enough to play for more than half the points; "
        "your best, {suit}, {held}"
    ).format(suit=suit_name(best), held=held)


# ---------------------------------------------------------------------- the numbers


def numbers(decision: Decision) -> str:
    """The search's evidence for a hint (``i`` pressed twice), in the player's language.

    The same facts as ``bela.ai.hard.explain`` (which stays English for logs and the
    lab): averages over guessed deals of our written points minus theirs.
    """
    action = decision.action
    if decision.method == "only":
        return _("the only card you may play")
    if isinstance(action, Claim):
        return _("dosta: the points counted so far reach the target")
    if isinstance(action, (Pass, Call)):
        what = _bid_words(action)
        if decision.method != "bid-eval" or not decision.scores:
            return what
        other_bids = ", ".join(
            f"{_bid_words(a)} {v:+.0f}" for a, v in decision.scores.items() if a != action
        )
        return ngettext(
            "{what}: over {n} guessed deal it averages {score} (us minus them; {rivals})",
            "{what}: over {n} guessed deals it averages {score} (us minus them; {rivals})",
            decision.samples,
        ).format(
            what=what,
            n=decision.samples,
            score=f"{decision.scores[action]:+.0f}",
            rivals=other_bids,
        )
    if not decision.scores or action not in decision.scores or not isinstance(action, Play):
        return _("played by rules of thumb (the search ran out of budget)")
    mine = decision.scores[action]
    line = ngettext(
        "over {n} guessed deal {card} averages {score} (us minus them, the round's written points)",
        "over {n} guessed deals {card} averages {score} "
        "(us minus them, the round's written points)",
        decision.samples,
    ).format(n=decision.samples, card=_name(int(action.card)), score=f"{mine:+.0f}")
    rivals = [
        (value, other.card)
        for other, value in decision.scores.items()
        if isinstance(other, Play) and other.card != action.card
    ]
    if rivals:
        second, second_card = max(rivals, key=lambda vc: (vc[0], -int(vc[1])))
        if mine - second < 0.5:
            line += _("; {card} does as well").format(card=_name(int(second_card)))
        else:
            line += _("; {points} more than {card}").format(
                points=f"{mine - second:.0f}", card=_name(int(second_card))
            )
    return line


def _bid_words(action: Action) -> str:
    if isinstance(action, Call):
        return _("name {suit}").format(suit=suit_called(action.suit))
    return _("dalje")
