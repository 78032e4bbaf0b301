"""What a bid puzzle adds to a pack line: the also-good bids and how each choice fared.

A bid puzzle (``bela.lab.bid_puzzle_gen``) is a pack line of kind ``bid`` with a ``bid``
object more:

* ``good``: the bids within ``ALSO_GOOD`` written points of the answer on average (two
  suits about as strong): a player who names one has not erred, and earns
  ``GOOD_CREDIT`` of a right answer (half a win in the rating);
* ``versus``: for every choice, in the order of ``choices``, on how many of the guessed
  deals it wrote more than the answer, as much, and less (the answer's own is
  ``[0, deals, 0]``): the explanation's "how often".

Pure data, checked by ``bela.archive.puzzle_pack`` like the rest of the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bela.engine import Action

__all__ = ["ALSO_GOOD", "BID_PACK_NAME", "GOOD_CREDIT", "BidFacts"]

BID_PACK_NAME: Final = "bid_puzzles.jsonl.gz"
"""The shipped bid puzzles, a resource of this package beside the card puzzles."""

ALSO_GOOD: Final = 5.0
"""Written points within which a bid is also good (``bela.lab.bid_puzzle_judge``; a test keeps
them equal)."""

GOOD_CREDIT: Final = 0.5
"""The score of an also-good answer: the best scores 1, a miss 0."""


@dataclass(frozen=True, slots=True)
class BidFacts:
    """A bid puzzle's also-good bids and, choice by choice, (more, equal, less) than the
    answer over the guessed deals."""

    good: tuple[Action, ...]
    versus: tuple[tuple[int, int, int], ...]
