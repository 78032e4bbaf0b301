"""The actions a seated player can take: pass ("dalje"), name trump, play a card, claim "dosta",
keep one's zvanja to oneself ("šutim").

The action classes are plain Python classes in the compiled build too (``native_class=False``):
a mypyc native class checks its fields' types in the constructor, raising ``TypeError`` for
``Play("QH")`` before ``__post_init__`` converts the text (or says what is wrong with a bad
value), and refuses ``object.__new__``. Both builds must take and refuse the same values with
the same errors; actions are made once a move, so the plain classes cost nothing that counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from bela.engine.cards import Card, Suit, to_card, to_suit
from bela.engine.errors import CardParseError, MalformedActionError, shown
from bela.engine.pickling import by_fields

__all__ = ["Action", "Call", "Claim", "Pass", "Play", "Silent", "choice_of", "parse_action"]


@mypyc_attr(native_class=False)  # see the module
@dataclass(frozen=True, slots=True)
class Pass:
    """Say "dalje": leave the trump choice to the next player."""

    def __str__(self) -> str:
        return "dalje"


@mypyc_attr(native_class=False)  # see the module
@dataclass(frozen=True, slots=True)
class Call:
    """Name a trump suit: a ``Suit``, its letter or symbol, or its index 0..3."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    suit: Suit

    def __post_init__(self) -> None:
        suit: object = getattr(self, "suit")  # noqa: B009 (an object until checked: see the module)
        if type(suit) is not Suit:
            object.__setattr__(self, "suit", to_suit(suit))

    def __str__(self) -> str:
        return f"call {self.suit}"


@mypyc_attr(native_class=False)  # see the module
@dataclass(frozen=True, slots=True)
class Play:
    """Play a card; ``bela=True`` announces bela with it (trump K or Q, see ``Rules``).

    ``card`` is a ``Card``, text like ``"QH"`` or an index 0..31; ``bela`` is a bool.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    card: Card
    bela: bool = False

    def __post_init__(self) -> None:
        card: object = getattr(self, "card")  # noqa: B009 (an object until checked: see the module)
        if type(card) is not Card:
            object.__setattr__(self, "card", to_card(card))
        bela: object = getattr(self, "bela")  # noqa: B009
        if bela is not False and bela is not True:
            raise MalformedActionError(f"bela is True or False, not {shown(bela)}")

    def __str__(self) -> str:
        return f"{self.card} bela" if self.bela else str(self.card)


@mypyc_attr(native_class=False)  # see the module
@dataclass(frozen=True, slots=True)
class Claim:
    """Say "dosta": my team has reached the target (only under ``Rules(dosta=True)``).

    Allowed to the player who has just won a trick, before he leads the next;
    the engine checks the claim and ends the match on it either way.
    """

    def __str__(self) -> str:
        return "dosta"


@mypyc_attr(native_class=False)  # see the module
@dataclass(frozen=True, slots=True)
class Silent:
    """Keep my zvanja to myself: at a real table a player who says nothing forfeits them.

    Said in the first trick, at the player's turn, before the card: the player's
    declarations then take no part in the comparison and score nothing, as if
    the hand held none. Bela is not a declaration and stays obligatory.
    """

    def __str__(self) -> str:
        return "šutim"


Action = Pass | Call | Play | Claim | Silent


def choice_of(action: Action) -> object:
    """What an action chooses: a play's card whatever its bela flag, else the action itself.

    "QH" and "QH bela" are one choice of card (the engine adds the announcement where it
    may be made): a puzzle's answer, a player's try at it and the guessed-deal judge compare
    actions by this key.
    """
    return action.card if isinstance(action, Play) else action


def parse_action(text: object) -> Action:
    """The action ``str(action)`` wrote: "dalje", "call H", "10H", "QH bela", "dosta", "šutim".

    The one reader of the actions' text, for records, the network and puzzles alike;
    ``CardParseError`` when the text names no action (callers add where it came from).
    """
    if not isinstance(text, str):
        raise CardParseError(f"an action is written like dalje, call H or 10H, not {shown(text)}")
    stripped = text.strip()
    if stripped == "dalje":
        return Pass()
    if stripped == "dosta":
        return Claim()
    if stripped == "šutim":
        return Silent()
    if stripped.startswith("call "):
        return Call(Suit.parse(stripped[5:]))
    bela = stripped.endswith(" bela")
    if bela:
        stripped = stripped[:-5]
    return Play(Card.parse(stripped), bela)
