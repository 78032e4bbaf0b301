"""The actions a seated player can take: pass ("dalje"), name trump, play a card."""

from __future__ import annotations

from dataclasses import dataclass

from bela.engine.cards import Card, Suit

__all__ = ["Action", "Call", "Pass", "Play"]


@dataclass(frozen=True, slots=True)
class Pass:
    """Say "dalje": leave the trump choice to the next player."""

    def __str__(self) -> str:
        return "dalje"


@dataclass(frozen=True, slots=True)
class Call:
    """Name a trump suit."""

    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit):
            object.__setattr__(
                self,
                "suit",
                Suit.parse(self.suit) if isinstance(self.suit, str) else Suit(self.suit),
            )

    def __str__(self) -> str:
        return f"call {self.suit}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card; ``bela=True`` announces bela with the second of trump K and Q."""

    card: Card
    bela: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            card = Card.parse(self.card) if isinstance(self.card, str) else Card(self.card)
            object.__setattr__(self, "card", card)

    def __str__(self) -> str:
        return f"{self.card} bela" if self.bela else str(self.card)


Action = Pass | Call | Play
