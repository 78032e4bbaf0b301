"""Do the table's conventions pay? Figures for docs/bots.md, "Conventions" (issue #14).

Run: ``nice .venv/bin/python benchmarks/conventions.py arena [--deals N] [--seed S] [--jobs J]
[variants...]`` and ``... search [--deals N] [--positions M] [--seed S] [variants...]``.

Each variant is ``normal-v1``'s play (``PlayStyle()``) with one convention switched on
(``bela.ai.normal.judgement.PlayStyle``); bidding is ``BidModel()`` on both sides, so
only the play differs.

* ``arena``: the variant against the default style on the arena's duplicate deals
  (same deals, dealers and decision RNGs as ``bela arena``): written points per deal,
  variant's team minus default's, averaged over both seatings, with a 95% interval.
* ``search``: the default style plays seeded deals in all four seats; wherever the
  variant would play another card, both cards are judged (1) by the ``hard`` bot's
  search over deals guessed from the seat's view (its average written points, ours
  minus theirs: what a fair searcher thinks of the convention) and (2) by the
  double-dummy solver on the true deal (card points of the mover's team: what perfect
  play seeing every card thinks). Printed: how often the variant differs, and the mean
  of convention card minus default card by both judges, with 95% intervals.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from multiprocessing import Pool
from random import Random

from bela.ai import decision_rng
from bela.ai.hard import HardBot, HardConfig
from bela.ai.normal.bidding import BidModel
from bela.ai.normal.heuristic import HeuristicBot, PlayStyle, choose_card
from bela.ai.normal.judgement import CONVENTIONS
from bela.engine import Phase, Play, Round, round_seed
from bela.search.solver import NodeLimitExceeded, Solver
from bela.search.solver_position import Position

VARIANTS: dict[str, PlayStyle] = {
    "conventions": CONVENTIONS,  # all that normal adopted (levels.make_normal)
    "lead-back-5": PlayStyle(lead_back=5.0),
    "lead-back-10": PlayStyle(lead_back=10.0),
    "partner-trump-5": PlayStyle(partner_trump=5.0),
    "partner-trump-10": PlayStyle(partner_trump=10.0),
    "load-90": PlayStyle(load_p=0.9),
    "load-75": PlayStyle(load_p=0.75),
    "ten-guard-3": PlayStyle(ten_guard=3.0),
    "ten-guard-6": PlayStyle(ten_guard=6.0),
    "ten-guard-leads-6": PlayStyle(ten_guard=6.0, ten_guard_leads=True),
    "draw-limit-1": PlayStyle(draw_limit=1),
    "draw-limit-2": PlayStyle(draw_limit=2),
    "lead-back-15": PlayStyle(lead_back=15.0),
    "lead-back-20": PlayStyle(lead_back=20.0),
    "load-90-plain": PlayStyle(load_p=0.9, load_masters=False),
    "load-spare-99": PlayStyle(load_p=0.99, load_masters=False, load_spare=True),
    "load-spare-90": PlayStyle(load_p=0.9, load_masters=False, load_spare=True),
    "load-spare-75": PlayStyle(load_p=0.75, load_masters=False, load_spare=True),
    "all-spare": PlayStyle(
        lead_back=10.0, load_p=0.9, load_masters=False, load_spare=True, trump_again=5.0
    ),
    "trump-again-5": PlayStyle(trump_again=5.0),
    "trump-again-10": PlayStyle(trump_again=10.0, draw_limit=1),
    "trump-again-10-draw": PlayStyle(trump_again=10.0),
    "all-3": PlayStyle(lead_back=10.0, load_p=0.9, load_masters=False, trump_again=5.0),
    "all-4": PlayStyle(
        lead_back=10.0, load_p=0.9, load_masters=False, trump_again=5.0, partner_trump=5.0
    ),
    "all-5": PlayStyle(
        lead_back=10.0,
        load_p=0.9,
        load_masters=False,
        trump_again=5.0,
        partner_trump=5.0,
        ten_guard=3.0,
    ),
}


def _bot(name: str) -> HeuristicBot:
    return HeuristicBot(name, BidModel(), VARIANTS[name] if name in VARIANTS else PlayStyle())


def play_pair(variant: str, seed: int, index: int) -> float:
    """Written points per deal, variant's team minus the default's, over both seatings."""
    a, b = _bot(variant), _bot("default")
    deal_seed = round_seed(seed, index)
    total = 0
    for swap in (0, 1):
        rnd = Round.from_seed(deal_seed, dealer=index % 4)
        bots = (a, b, a, b) if swap == 0 else (b, a, b, a)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            rnd.push(bots[seat].act(rnd.view(seat), decision_rng(deal_seed, swap, step)), seat)
            step += 1
        result = rnd.result
        assert result is not None
        total += result.points[swap] - result.points[1 - swap]
    return total / 2


def _pair_task(job: tuple[str, int, int]) -> float:
    return play_pair(*job)


def _ci(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{(xs[0] if xs else 0.0):+.2f} (n={len(xs)})"
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:+.2f} ± {h:.2f} [{m - h:+.2f}, {m + h:+.2f}] (n={len(xs)})"


def run_arena(variants: list[str], deals: int, seed: int, jobs: int) -> None:
    print(f"arena: variant vs default style, {deals} duplicate deal pairs, seed {seed}")
    with Pool(jobs) as pool:
        for v in variants:
            t0 = time.perf_counter()
            diffs = pool.map(_pair_task, [(v, seed, i) for i in range(deals)], chunksize=25)
            print(f"  {v:18} {_ci(diffs)}   {time.perf_counter() - t0:.0f}s", flush=True)


def differing(variant: str, seed: int, index: int) -> list[tuple[Round, int, int]]:
    """Positions of one default self-play deal where the variant plays another card."""
    default, style = PlayStyle(), VARIANTS[variant]
    bot = _bot("default")
    deal_seed = round_seed(seed, index)
    rnd = Round.from_seed(deal_seed, dealer=index % 4)
    out = []
    step = 0
    while rnd.to_act is not None:
        seat = rnd.to_act
        view = rnd.view(seat)
        if view.phase is Phase.PLAYING and len(view.legal_actions) > 1:
            mine, theirs = choose_card(view, style), choose_card(view, default)
            if mine != theirs:
                out.append((rnd.copy(), mine, theirs))
        rnd.push(bot.act(view, decision_rng(deal_seed, 0, step)), seat)
        step += 1
    return out


def judge(job: tuple[str, int, int]) -> list[tuple[float, float | None]]:
    """(hard's written diff, true double-dummy card diff) of each differing position."""
    variant, seed, index = job
    hard = HardBot("judge", HardConfig(bid_samples=0))
    out: list[tuple[float, float | None]] = []
    for k, (rnd, mine, theirs) in enumerate(differing(variant, seed, index)):
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        scores = hard.decide(view, Random(round_seed(seed, index * 64 + k))).scores
        by_card = {int(a.card): s for a, s in scores.items() if isinstance(a, Play)}
        w = by_card[mine] - by_card[theirs]
        dd: float | None = None
        try:
            margins = Solver(int(view.trump or 0), node_limit=3_000_000).card_margins(
                Position.from_round(rnd)
            )
            sign = 1 if seat % 2 == 0 else -1  # the solver's margin is team 0's
            dd = sign * (margins[mine] - margins[theirs]) / 2  # card points of our team
        except NodeLimitExceeded:
            pass
        out.append((w, dd))
    return out


def run_search(variants: list[str], deals: int, positions: int, seed: int, jobs: int) -> None:
    print(f"search: default self-play, seed {seed}, up to {deals} deals / {positions} positions")
    with Pool(jobs) as pool:
        for v in variants:
            t0 = time.perf_counter()
            rows: list[tuple[float, float | None]] = []
            decisions = 0
            used = 0
            for res in pool.imap(judge, [(v, seed, i) for i in range(deals)]):
                rows.extend(res)
                used += 1
                if len(rows) >= positions:
                    break
            decisions = used
            hard = [w for w, _ in rows]
            dd = [d for _, d in rows if d is not None]
            print(
                f"  {v:18} differs in {len(rows)} positions of {decisions} deals;"
                f" conv - default: hard (written) {_ci(hard)};"
                f" double-dummy (card pts) {_ci(dd)}   {time.perf_counter() - t0:.0f}s",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("arena", "search"))
    parser.add_argument("variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_intermixed_args()
    unknown = [v for v in args.variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant(s) {', '.join(unknown)}: choose from {', '.join(VARIANTS)}")
    if args.mode == "arena":
        run_arena(args.variants, args.deals, args.seed, args.jobs)
    else:
        run_search(args.variants, args.deals, args.positions, args.seed, args.jobs)


if __name__ == "__main__":
    main()
