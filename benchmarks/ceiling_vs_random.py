"""How far above the heuristic can any player get against ``random``? Figures for issue #3.

Run: ``.venv/bin/python benchmarks/ceiling_vs_random.py [--deals N] [--seed S] [--jobs J]
[--against BOT] [--baseline PLAYER] [players...]``.

``--against hard-v2 --baseline hard-v2 see-all-v2`` asks the same of the strongest bot
(issue #26): how much would seeing every card be worth to ``hard-v2``'s play, its bids
unchanged? That bounds what any better card play, without cheating, could gain over it.

Every player is measured on the same duplicate deal pairs as ``bela arena X random``
(same deals, dealers and decision RNGs, so ``heuristic`` here prints exactly what the
arena prints for the same seed and number of pairs), and also against the heuristic on
those pairs (the paired difference, where the luck of the cards cancels). Players:

* ``heuristic``: the default bot;
* ``never-call``: the heuristic that names trump only when forced (the bidding extreme
  against a random caller who falls more often than not);
* ``hard-play``: the hard bot's search for every card, bidding like the heuristic
  (it beats the heuristic by about +19 a deal head to head);
* ``told-partner``: the heuristic told its partner's hand (``CardMemory.reveal``): the
  most any signalling between partners could give it;
* ``told-all``: the heuristic told every hand: its own judgement with nothing hidden;
* ``see-all``: a cheat for scale: double-dummy play with every hand visible (heuristic
  bids). It bounds what information the heuristic lacks could be worth;
* ``see-all-v2``: the same cheat's play with ``hard-v2``'s bids;
* any bot of the registry by its name (``hard``, ``hard-v2``, ...).

``hard-play`` and ``see-all`` take seconds per deal pair; 200 pairs take a few minutes.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from multiprocessing import Pool
from random import Random

from bela.ai import BOT_KINDS, decision_rng, make_bot
from bela.ai.base import Bot, play_action
from bela.ai.normal.bidding import BidModel, choose_bid
from bela.ai.normal.heuristic import HeuristicBot, PlayStyle, choose_card
from bela.engine import Action, Phase, Round, SeatView, round_seed
from bela.search.memory import CardMemory
from bela.search.solver import Solver
from bela.search.solver_position import Position

Chooser = Callable[[Round, SeatView, Random], Action]


def _bot_chooser(bot: Bot) -> Chooser:
    return lambda _rnd, view, rng: bot.act(view, rng)


def _hard_play() -> Chooser:
    hard, model = make_bot("hard"), BidModel()

    def choose(_rnd: Round, view: SeatView, rng: Random) -> Action:
        if view.phase is Phase.BIDDING:
            return choose_bid(view, model)
        return hard.act(view, rng)

    return choose


def _told(which: str) -> Chooser:
    model, style = BidModel(), PlayStyle()

    def choose(rnd: Round, view: SeatView, _rng: Random) -> Action:
        if view.phase is Phase.BIDDING:
            return choose_bid(view, model)
        memory = CardMemory.from_view(view)
        partner = (view.seat + 2) & 3
        for seat in range(4):
            if seat == partner or (which == "all" and seat != view.seat):
                memory.reveal(seat, rnd.hand_mask(seat))
        return play_action(view, choose_card(view, style, memory))

    return choose


def _see_all(bids: Bot | None = None) -> Chooser:
    """Double-dummy play; bids by ``bids`` (default the heuristic's threshold model)."""
    model = BidModel()
    # One solver (and transposition table) per round. Its table is keyed by the hands, so
    # a solver reused by a later round with a recycled id() and the same trump is still right.
    current: list[tuple[tuple[int, int], Solver]] = []

    def choose(rnd: Round, view: SeatView, rng: Random) -> Action:
        if view.phase is Phase.BIDDING:
            return choose_bid(view, model) if bids is None else bids.act(view, rng)
        assert view.trump is not None
        key = (id(rnd), int(view.trump))
        if not current or current[0][0] != key:
            current[:] = [(key, Solver(int(view.trump)))]
        solver = current[0][1]
        margins = solver.card_margins(Position.from_round(rnd))  # team 0's margin
        sign = 1 if view.seat % 2 == 0 else -1
        best = max(sorted(margins), key=lambda c: sign * margins[c])
        return play_action(view, int(best))

    return choose


PLAYERS: dict[str, Callable[[], Chooser]] = {
    "heuristic": lambda: _bot_chooser(make_bot("heuristic")),
    "never-call": lambda: _bot_chooser(
        HeuristicBot("never-call", bid_model=BidModel(threshold=math.inf))
    ),
    "hard-play": _hard_play,
    "told-partner": lambda: _told("partner"),
    "told-all": lambda: _told("all"),
    "see-all": _see_all,
    "see-all-v2": lambda: _see_all(make_bot("hard-v2")),
}
_CHOOSERS: dict[str, Chooser] = {}


def _chooser(player: str) -> Chooser:
    chooser = _CHOOSERS.get(player)
    if chooser is None:
        make = PLAYERS.get(player)
        chooser = _CHOOSERS[player] = make() if make else _bot_chooser(make_bot(player))
    return chooser


def play_pair(player: str, seed: int, index: int, against: str = "random") -> float:
    """Written points per deal, player's team minus ``against``'s, averaged over both seatings."""
    chooser = _chooser(player)
    other = _chooser(against)
    deal_seed = round_seed(seed, index)
    total = 0
    for swap in (0, 1):
        rnd = Round.from_seed(deal_seed, dealer=index % 4)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            view = rnd.view(seat)
            rng = decision_rng(deal_seed, swap, step)
            ours = seat % 2 == swap
            action = (chooser if ours else other)(rnd, view, rng)
            rnd.push(action, seat)
            step += 1
        result = rnd.result
        assert result is not None
        total += result.points[swap] - result.points[1 - swap]
    return total / 2


def _task(job: tuple[str, int, int, str]) -> float:
    return play_pair(*job)


def _estimate(samples: list[float]) -> str:
    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))
    return f"{mean:+7.1f} ± {half:4.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", nargs="*", help=f"any of {', '.join(PLAYERS)} (default: all)")
    parser.add_argument("--deals", type=int, default=200, help="deal pairs (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--against", default="random", help="the bot on the other side")
    parser.add_argument(
        "--baseline", default="heuristic", help="the player the others are compared with"
    )
    args = parser.parse_args()
    known = set(PLAYERS) | set(BOT_KINDS)
    unknown = [p for p in [*args.players, args.against, args.baseline] if p not in known]
    if unknown:
        parser.error(f"unknown player {unknown[0]!r}: choose from {', '.join(sorted(known))}")
    if args.deals < 2:
        parser.error("--deals must be at least 2 (an interval needs two pairs)")
    chosen = args.players or list(PLAYERS)
    base = args.baseline
    players = chosen if base in chosen else [base, *chosen]
    print(f"against {args.against}: {args.deals} duplicate deal pairs, seed {args.seed}")
    print(f"{'player':12s} {'per deal':>14s} {'minus ' + base:>17s} {'seconds':>8s}")
    results: dict[str, list[float]] = {}
    with Pool(args.jobs) as pool:
        for player in players:
            start = time.perf_counter()
            jobs = [(player, args.seed, i, args.against) for i in range(args.deals)]
            results[player] = pool.map(_task, jobs, chunksize=5)
            paired = [a - b for a, b in zip(results[player], results[base], strict=True)]
            versus = "" if player == base else _estimate(paired)
            took = time.perf_counter() - start
            print(
                f"{player:12s} {_estimate(results[player]):>14s} {versus:>17s} {took:8.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
