"""Bidding situations labelled by search: what each choice is worth, in written points.

The data ``normal``'s bid model is fitted to (``bid_fit.py``). Deal ``i`` of a
run is dealt from ``round_seed(seed, i)`` by seat ``i % 4``, and the bidding is
walked with the policy bot (``normal-v1`` by default): every seat that gets to
speak is one situation (its six cards, how many passed before it, whether it is
the dealer forced to name a suit), up to and including the first call. So the
situations come from all four places in the bidding, in the proportions a
table meets them, and the earlier passes are passes that player would make.

Each situation is labelled by search over guessed deals, as the ``hard`` bot
decides its bids: the other 26 cards (the own talon included) are dealt
``samples`` times, a player who passed holding the jack and nine of one suit
less often (``bidding_deals``); on every guessed deal each legal choice (dalje,
and each of the four suits) is played out, the policy bot bidding and playing
for all four seats, and the last four tricks solved exactly. A choice's value
is the average over the guessed deals of what the round writes, our team minus
theirs (a pad, a štiglja and the zvanja count for what they are). Every choice
sees the same guessed deals, so the differences between choices, which are
what a bid decides, carry far less noise than the values themselves.

One JSON line per situation::

    {"seed": 1, "deal": 7, "seat": 2, "dealer": 3, "passes": 2, "forced": false,
     "hand": [3, 9, ...], "samples": 32,
     "values": {"dalje": -4.1, "0": 12.3, "1": -40.2, "2": -35.0, "3": -51.8}}

``values`` holds the legal choices only (no "dalje" for a forced dealer); the
keys are suit numbers. A run is a pure function of (seed, deals, samples,
policy): each deal gets its own RNG from the seed, the work is cut into deals
and put back in order, so the file is the same for any number of processes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from random import Random
from typing import Any

from bela.ai.base import Bot, decision_rng
from bela.ai.hard import play_out
from bela.ai.registry import make_bot
from bela.engine import Action, Call, Pass, Phase, Round, SeatView, round_seed
from bela.search.sampling import bidding_deals

__all__ = [
    "BidDataConfig",
    "choice_key",
    "deal_situations",
    "generate",
    "label_view",
]

_LABEL_SALT = 0x626964  # "bid": the labelling RNG differs from the deal's own


@dataclass(frozen=True, slots=True)
class BidDataConfig:
    """What a run labels and how hard it searches.

    ``samples``: guessed deals per situation (every choice is played on each);
    ``policy``: the bot (by registry name) that bids and plays for all four
    seats after the choice, and whose bids lead to the situations;
    ``rollout_to``: tricks left when the solver takes over; ``node_limit``: the
    solver's budget per deal (a deal that runs out is played out by the policy).
    """

    samples: int = 32
    policy: str = "normal-v1"
    rollout_to: int = 4
    node_limit: int = 20_000


def choice_key(action: Action) -> str:
    """The key of a bid in ``values``: ``"dalje"`` or the suit's number."""
    return str(int(action.suit)) if isinstance(action, Call) else "dalje"


_POLICIES: dict[str, Bot] = {}


def _policy(name: str) -> Bot:
    bot = _POLICIES.get(name)
    if bot is None:
        bot = _POLICIES[name] = make_bot(name)
    return bot


def label_view(view: SeatView, rng: Random, config: BidDataConfig) -> dict[str, float]:
    """Each legal bid's average written points (ours minus theirs) over guessed deals."""
    policy = _policy(config.policy)
    options = [a for a in view.legal_actions if isinstance(a, (Pass, Call))]
    policy_rng = Random(rng.getrandbits(64))
    team = view.seat & 1
    sums = dict.fromkeys((choice_key(a) for a in options), 0.0)
    n = 0
    for hands, talons in bidding_deals(view, rng, config.samples):
        n += 1
        base = Round(view.dealer, hands, talons, view.rules)
        for _, bid in view.bids:
            base.push(bid)
        for option in options:
            rnd = base.copy()
            rnd.push(option)
            pts = play_out(rnd, policy, policy_rng, config.rollout_to, config.node_limit)
            sums[choice_key(option)] += pts[team] - pts[1 - team]
    return {k: round(s / n, 3) for k, s in sums.items()}


def deal_situations(seed: int, index: int, config: BidDataConfig) -> list[dict[str, Any]]:
    """The labelled situations of deal ``index``: each seat that speaks, up to the first call."""
    deal_seed = round_seed(seed, index)
    rnd = Round.from_seed(deal_seed, dealer=index % 4)
    policy = _policy(config.policy)
    out: list[dict[str, Any]] = []
    step = 0
    while rnd.phase is Phase.BIDDING and rnd.to_act is not None:
        seat = rnd.to_act
        view = rnd.view(seat)
        values = label_view(view, Random(round_seed(deal_seed ^ _LABEL_SALT, step)), config)
        out.append(
            {
                "seed": seed,
                "deal": index,
                "seat": seat,
                "dealer": rnd.dealer,
                "passes": len(view.bids),
                "forced": Pass() not in view.legal_actions,
                "hand": [int(c) for c in view.hand],
                "samples": config.samples,
                "values": values,
            }
        )
        action = policy.act(view, decision_rng(deal_seed, 0, step))
        rnd.push(action)
        step += 1
    return out


_Task = tuple[int, int, BidDataConfig]


def _run(task: _Task) -> list[dict[str, Any]]:
    seed, index, config = task
    return deal_situations(seed, index, config)


def generate(
    seed: int,
    situations: int,
    config: BidDataConfig,
    *,
    jobs: int = 1,
    cluster: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """The first ``situations`` situations of the run, in deal order.

    Deals are labelled in batches (each deal one task) until enough situations
    have come; the cut falls at the same place whatever ``jobs`` is. A
    generator, so a long run can write each line as it comes (and a run cut
    short keeps what it did); ``progress(done, total)`` after each batch. The
    batches go through ``bela.lab.runner.map_tasks``: local processes, or a Ray
    cluster when ``cluster`` names one.
    """
    from bela.lab.runner import map_tasks

    batch = max(8, 4 * jobs)
    done = 0
    index = 0
    while done < situations:
        tasks: list[_Task] = [(seed, i, config) for i in range(index, index + batch)]
        index += batch
        for rows in map_tasks(_run, tasks, jobs=jobs, cluster=cluster):
            for row in rows:
                if done >= situations:
                    break
                yield row
                done += 1
            if progress is not None:
                progress(done, situations)
            if done >= situations:
                break


def write_lines(rows: Iterable[dict[str, Any]], path: str) -> int:
    """Append the rows to ``path`` as JSON lines (flushed as they come); the count written."""
    n = 0
    with open(path, "a", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            out.flush()
            n += 1
    return n
