"""Letting bots take their turns in a match, reproducibly.

Every bot decision gets an RNG derived from (match seed, round index, action
index), so a match replays, or resumes from a save, with the same decisions.
"""

from __future__ import annotations

from collections.abc import Mapping

from bela.ai.base import Bot, decision_rng
from bela.engine import Action, Match, Round

__all__ = ["bot_action", "play_bots_until"]


def bot_action(match: Match, bot: Bot) -> Action:
    """The action ``bot`` takes for the seat to act in the match's current round."""
    rnd = match.current
    if rnd is None or rnd.to_act is None:
        raise ValueError("the match has no action to take")
    rng = decision_rng(match.seed, match.next_index, len(rnd.actions))
    return bot.act(rnd.view(rnd.to_act), rng)


def bot_action_in_round(rnd: Round, bot: Bot, match_seed: int, round_index: int) -> Action:
    """The same for a bare round (replays of a single deal)."""
    if rnd.to_act is None:
        raise ValueError("the round is over")
    rng = decision_rng(match_seed, round_index, len(rnd.actions))
    return bot.act(rnd.view(rnd.to_act), rng)


def play_bots_until(match: Match, bots: Mapping[int, Bot], stop_at_round_end: bool = True) -> Match:
    """Let the bots in ``bots`` (by seat) act until a seat without a bot is to act.

    With ``stop_at_round_end`` it also stops when the current round finishes.
    """
    start = match.next_index
    while match.current is not None:
        seat = match.current.to_act
        if seat is None or seat not in bots:
            break
        match = match.apply(bot_action(match, bots[seat]), seat)
        if stop_at_round_end and match.next_index != start:
            break
    return match
