"""Your puzzles: the costly moments of your own matches, judged as the pack's puzzles are.

A round's review (``bela.lab.card_review``) finds the cards where the player chose
differently from the hard bot, from the player's own information, and gave away at
least ``OWN_LOSS`` written points on average. Each such moment is put to the puzzle
judge (``bela.lab.puzzle_judge``) exactly as the generator puts a moment of a bot's deal
(``bela.lab.puzzle_gen``): on fresh guessed deals, kept only when clear with the pack's
room to spare, and only when the judge's answer is not the card the player played. The
puzzle is the pack's line, with the theme ``yours`` added, so the puzzles screen and
``bela puzzles --theme yours`` ask it and rate it like any other.

A puzzle is dealt from its seed under the default rules (``Round.from_seed``), which a
match's round is too (``Match.deal``: the round's own seed and dealer), so a match under
house rules gives none. Pure: the archive stores the lines (``bela.archive.own_puzzles``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from random import Random
from typing import Any, Final

from bela.engine import Card, Match, Play, Round
from bela.engine.actions import choice_of
from bela.engine.deal import round_seed
from bela.engine.rules import DEFAULT_RULES
from bela.lab.card_review import RoundReview
from bela.lab.puzzle_gen import SHIP_SHARE, GenSettings, moment_puzzle, verified
from bela.lab.puzzle_judge import DEALS, judge

__all__ = ["OWN_LOSS", "OWN_THEME", "puzzles_of_review"]

OWN_LOSS: Final = 10.0
"""A moment is looked at when the player's card gave away at least this many written
points on average against the hard bot's (the pack's own margin, ``MIN_GAP``)."""

OWN_THEME: Final = "yours"
"""The theme every puzzle of the player's own matches carries."""


def puzzles_of_review(
    match: Match,
    review: RoundReview,
    deals: int = DEALS,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """The puzzles (pack lines) of ``review``'s round of ``match``: see the module docstring."""
    if match.rules != DEFAULT_RULES:
        return []
    played = next(r for r in match.rounds if r.index == review.index)
    seed = round_seed(match.seed, review.index)
    dealer = (match.first_dealer + review.index) % 4
    start = Round.from_seed(seed, dealer, DEFAULT_RULES)
    moments = [
        c
        for c in review.cards
        if c.judged and c.loss >= OWN_LOSS and c.hard != c.played and c.trick < 8
    ]
    out: list[dict[str, Any]] = []
    for done, card in enumerate(moments, start=1):
        rnd = start.copy()
        before = played.actions[: card.step]
        for action in before:
            rnd.push(action)
        verdict = judge(rnd, Random(_judge_seed(seed, card.step)), deals, share=SHIP_SHARE)
        answer = {choice_of(a) for a in verdict.answer}
        if verified(verdict, deals) and choice_of(Play(Card.parse(card.played))) not in answer:
            line = moment_puzzle(seed, start, before, rnd, verdict, GenSettings(deals=deals))
            line["themes"] = [*line["themes"], OWN_THEME]
            out.append(line)
        if progress is not None:
            progress(done, len(moments))
    return out


def _judge_seed(seed: int, step: int) -> int:
    """The judge's guessed deals at one moment of the player's round (fixed, so the same
    review always gives the same puzzles)."""
    digest = hashlib.blake2b(f"yours:{seed}:{step}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")
