"""Bela as a PettingZoo AEC environment, for agents trained outside bela (issue #26).

Needs the ``rl`` extra (``pip install 'croatian-bela[rl]'``: pettingzoo, gymnasium, numpy); nothing
else in bela imports this module. ``make rl-check`` installs the extra and runs PettingZoo's
own ``api_test`` on it. ``examples/rl_agents.py`` runs a random agent and bela's ``normal``
through it; docs/bots.md says how to pit an outside agent against bela's bots.

One episode is one round (a deal, the bidding, eight tricks), played by the four agents
``seat_0`` … ``seat_3``; seats 0 and 2 are a team, 1 and 3 the other. The agent to act is the
round's player to act.

- **Observation**: only what that seat may know (``Round.view``, the input bela's own bots get),
  as ``{"observation": float32 vector of OBSERVATION_SIZE, "action_mask": int8 of ACTIONS}``.
  Seats in the vector are counted from the observer (0 = me, 1 = my left, 2 = my partner...),
  so one policy can play every seat. The layout is ``observation_layout()``.
- **Actions** (``Discrete(ACTIONS)``): 0-31 play that card (``Card(i)``: suit * 8 + rank; bela
  announced with it whenever the rules allow, as bela's bots do), 32 pass ("dalje"),
  33-36 name trump (H D S C), 37 claim "dosta" (only under that house rule). The mask says which
  are legal; an illegal action raises ``bela.engine.IllegalActionError`` (wrap the environment in
  PettingZoo's ``TerminateIllegalWrapper`` to make it a penalty instead), and so does one that
  is not a whole number (a float, a string, bytes, a ``Decimal``, a bool: never rounded into
  a move), and ``step`` or ``last`` after the episode (``reset`` deals the next).
- **Rewards**: at the end of the round each seat gets the points its team writes on the score
  sheet (``RoundResult.points``); with ``zero_sum=True``, its team's points minus the other's.
- **House rules**: ``rules=bela.engine.Rules(...)``. A claim needs a match score: with
  ``Rules(dosta=True)`` the round is dealt as if both teams stood at ``claim_scores`` of
  ``claim_target``.
- **Seeds**: ``reset(seed=s)`` deals ``Round.from_seed`` from a sequence drawn from ``s``
  (dealer rotating); the same seed gives the same deals, the same observations and rewards.
"""

from __future__ import annotations

import operator
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from bela.engine import (
    Action,
    Call,
    Claim,
    IllegalActionError,
    Pass,
    Phase,
    Play,
    Round,
    Rules,
    SeatView,
    Suit,
)

__all__ = [
    "ACTIONS",
    "OBSERVATION_SIZE",
    "BelaEnv",
    "action_index",
    "action_of",
    "env",
    "observation_layout",
    "observe_view",
]

CARD_ACTIONS = 32
PASS_ACTION = 32
CALL_ACTIONS = 33  # + suit
CLAIM_ACTION = 37
ACTIONS = 38

# (name, length) of each block of the observation vector, in order.
_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 32),  # my cards
    ("talon", 32),  # my talon cards (known once trump is named)
    ("played_by", 4 * 32),  # cards each seat played in finished tricks, from me
    ("trick", 4 * 32),  # the cards on the table, by the seat that played them
    ("trick_leader", 4),  # who led the trick on the table (none: no trick)
    ("trump", 4),  # the trump suit (none: not named yet)
    ("caller", 4),  # who named it
    ("passed", 4),  # who said "dalje"
    ("dealer", 4),
    ("to_act", 4),  # whose turn (always me in an observation for my turn)
    ("bela", 4),  # who announced bela
    ("zvanja", 2),  # shown zvanja points / 500 (at most 1), my team then theirs
    ("tricks_won", 2),  # tricks taken / 8, my team then theirs
    ("points", 2),  # card points taken / 162, my team then theirs
    ("hand_sizes", 4),  # cards in each hand / 8
    ("phase", 3),  # bidding, playing, finished
    ("score", 3),  # match score / target, mine then theirs, and target / 1001 (dosta only)
)
OBSERVATION_SIZE = sum(n for _, n in _LAYOUT)


def observation_layout() -> list[tuple[str, int, int]]:
    """(block name, start, length) of each block of the observation vector."""
    out = []
    at = 0
    for name, n in _LAYOUT:
        out.append((name, at, n))
        at += n
    return out


_AT = {name: at for name, at, _ in observation_layout()}
_PHASES = (Phase.BIDDING, Phase.PLAYING, Phase.FINISHED)


def action_index(action: Action) -> int:
    """The environment's number of a bela action."""
    if isinstance(action, Play):
        return int(action.card)
    if isinstance(action, Call):
        return CALL_ACTIONS + int(action.suit)
    if isinstance(action, Claim):
        return CLAIM_ACTION
    return PASS_ACTION


def action_of(index: int, view: SeatView) -> Action:
    """The legal bela action numbered ``index`` for ``view`` (raises if it is not legal)."""
    index = _action_number(index)
    for action in view.legal_actions:
        if action_index(action) == index:
            if isinstance(action, Play) and not action.bela:
                # the same card with bela announced, when the rules allow it, is preferred
                with_bela = Play(action.card, True)
                if with_bela in view.legal_actions:
                    return with_bela
            return action
    raise IllegalActionError(f"action {index} is not legal now (see the action mask)")


def _action_number(action: object) -> int:
    """``action`` as an action's number, if it is a whole number (a Python or numpy integer,
    not a bool); ``IllegalActionError`` for anything else. ``int()`` would have turned 32.9
    into 32 (dalje), ``"32"`` and ``b"32"`` into 32, a ``Decimal`` into a number too: an
    agent's bug played as a move instead of said."""
    if isinstance(action, bool | np.bool_):
        raise IllegalActionError(f"an action is a whole number from 0 to {ACTIONS - 1}, not a bool")
    try:
        number = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalActionError(
            f"an action is a whole number from 0 to {ACTIONS - 1}, not {type(action).__name__}"
        ) from None
    if not 0 <= number < ACTIONS:
        raise IllegalActionError(f"an action is a whole number from 0 to {ACTIONS - 1}")
    return number


def _vector(view: SeatView) -> np.ndarray[Any, np.dtype[np.float32]]:
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % 4

    team = me % 2
    for card in view.hand:
        obs[_AT["hand"] + card] = 1.0
    for card in view.talon:
        obs[_AT["talon"] + card] = 1.0
    for trick in view.tricks:
        for i, card in enumerate(trick.cards):
            obs[_AT["played_by"] + 32 * rel(trick.seat_of(i)) + card] = 1.0
    if view.trick_leader is not None:
        obs[_AT["trick_leader"] + rel(view.trick_leader)] = 1.0
        for i, card in enumerate(view.trick):
            obs[_AT["trick"] + 32 * rel(view.trick_leader + i) + card] = 1.0
    if view.trump is not None:
        obs[_AT["trump"] + int(view.trump)] = 1.0
    if view.caller is not None:
        obs[_AT["caller"] + rel(view.caller)] = 1.0
    for seat, bid in view.bids:
        if isinstance(bid, Pass):
            obs[_AT["passed"] + rel(seat)] = 1.0
    obs[_AT["dealer"] + rel(view.dealer)] = 1.0
    if view.to_act is not None:
        obs[_AT["to_act"] + rel(view.to_act)] = 1.0
    for seat in view.bela_announced:
        obs[_AT["bela"] + rel(seat)] = 1.0
    if view.zvanja_team is not None:
        shown = sum(z.points for _, zs in view.shown_zvanja for z in zs)
        obs[_AT["zvanja"] + (view.zvanja_team != team)] = min(1.0, shown / 500)
    for trick in view.tricks:
        side = int(trick.winner % 2 != team)
        obs[_AT["tricks_won"] + side] += 1 / 8
        obs[_AT["points"] + side] += trick.points / 162
    for seat, size in enumerate(view.hand_sizes):
        obs[_AT["hand_sizes"] + rel(seat)] = size / 8
    obs[_AT["phase"] + _PHASES.index(view.phase)] = 1.0
    if view.claim_context is not None:
        s0, s1, target = view.claim_context
        mine, theirs = (s0, s1) if team == 0 else (s1, s0)
        score = (min(1.0, mine / target), min(1.0, theirs / target), min(1.0, target / 1001))
        obs[_AT["score"] : _AT["score"] + 3] = score
    return obs


def observe_view(view: SeatView) -> dict[str, np.ndarray[Any, Any]]:
    """The environment's observation of a seat's view: what a trained policy takes, also when it
    plays as a bela bot (``act(view, rng)``) in the arena (docs/bots.md)."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    if view.to_act == view.seat:
        for action in view.legal_actions:
            mask[action_index(action)] = 1
    return {"observation": _vector(view), "action_mask": mask}


class BelaEnv(AECEnv):  # type: ignore[misc, unused-ignore]  # Any without the rl extra
    """One round of Bela for four agents; see the module for the spaces and the rewards."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "bela_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        zero_sum: bool = False,
        claim_scores: tuple[int, int] = (400, 400),
        claim_target: int = 501,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules or Rules()
        self.zero_sum = zero_sum
        self.claim_scores = claim_scores
        self.claim_target = claim_target
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(4)]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.possible_agents}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.agent_selection = self.possible_agents[0]
        self.infos: dict[str, dict[str, Any]] = {}
        self._deals = random.Random()
        self._deal_index = 0
        self.round = self._deal()
        self._start()

    # -- the PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._deals = random.Random(seed)
            self._deal_index = 0
        self.round = self._deal()
        self._start()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        return observe_view(self.view(agent))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if not self.agents:
            raise IllegalActionError("the round is over: reset() deals the next one")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        if action is None:
            raise ValueError(f"{agent} is to act: an action is needed, not None")
        self.round.push(action_of(_action_number(action), self.round.view(seat)), seat)
        self._cumulative_rewards[agent] = 0
        result = self.round.result
        if result is not None:
            for a in self.agents:
                team = self._seat(a) % 2
                mine, theirs = result.points[team], result.points[1 - team]
                self.rewards[a] = float(mine - theirs if self.zero_sum else mine)
                self.terminations[a] = True
            self.infos = {a: {"result": result} for a in self.agents}
            self._accumulate_rewards()  # the agents then step out with None (_was_dead_step)
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            to_act = self.round.to_act
            assert to_act is not None
            self.agent_selection = self.possible_agents[to_act]
        if self.render_mode == "ansi":
            print(self.render())

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``; after the episode (every agent stepped out) a clear
        ``IllegalActionError`` instead of a ``KeyError`` on an agent no longer there."""
        if not self.agents:
            raise IllegalActionError("the round is over: reset() deals the next one")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        rnd = self.round
        trump = "-" if rnd.trump is None else Suit(rnd.trump).name
        trick = " ".join(str(c) for c in rnd.trick)
        return f"{rnd.phase.value} trump {trump} trick [{trick}] to act {rnd.to_act}"

    def close(self) -> None:
        pass

    # -- for agents that want bela's own view (bela's bots take it)

    def view(self, agent: str) -> SeatView:
        """What ``agent``'s seat may know now: the input bela's own bots act on."""
        return self.round.view(self._seat(agent))

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _deal(self) -> Round:
        seed = self._deals.getrandbits(63)
        dealer = self._deal_index % 4
        self._deal_index += 1
        rnd = Round.from_seed(seed, dealer, self.rules)
        if self.rules.dosta:
            rnd = rnd.with_claim_context(self.claim_scores, self.claim_target)
        return rnd

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        to_act = self.round.to_act
        assert to_act is not None
        self.agent_selection = self.possible_agents[to_act]


def env(**options: Any) -> BelaEnv:
    """``BelaEnv(**options)``, PettingZoo's usual name for a classic environment's maker."""
    return BelaEnv(**options)
