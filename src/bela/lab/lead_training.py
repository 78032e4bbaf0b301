"""Fitting the lead weights of ``leads.py`` to double-dummy values (offline, not used in play).

``collect`` plays seeded deals (the normal bot against the opponents named,
duplicate: the normal bot in seats 0/2, then 1/3) and, at every lead of a
normal-bot seat with a real choice in the first six tricks, records the
position (deal seed, dealer, the actions so far) and each legal lead's
double-dummy value in the actual deal: the margin the leader's team gets with
that lead when every card is visible and both sides play perfectly
(``bela.search.solver``). Positions are stored, not features, so features can be
changed and refitted without solving again.

``fit`` replays each position, computes each lead's features as the leader
sees them, and solves the ridge regression of the value on the features,
both taken relative to their mean over the leads of the same position (only
the differences between leads count). The leader does not know the deal, but
the features are only what it can see, so the fit estimates what each
feature is worth on average over the deals it cannot tell apart. It prints
the held-out regret (double-dummy points lost against the best lead) of the
single-trick value alone and of the fitted weights, and the weights.

Reproduce the shipped weights (10,639 positions; an hour or two on two cores)::

    python -m bela.lab.lead_training collect --deals 1500 --seed 81 --against random --out r.jsonl
    python -m bela.lab.lead_training fit r.jsonl

(The positions depend on the bot that plays them, so a collection run with
other weights or another version of the heuristic finds other positions.)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from collections.abc import Sequence
from typing import Any

from bela.ai.base import decision_rng
from bela.ai.normal.heuristic import HeuristicBot, table_of
from bela.ai.normal.leads import LEAD_FEATURES, lead_features
from bela.ai.registry import make_bot
from bela.engine import Action, Call, Card, Pass, Phase, Play, Round, Suit, round_seed
from bela.search.solver import Position, solve

__all__ = ["collect_deal", "fit", "main", "position_samples"]

Sample = list[tuple[list[float], int]]  # one position: (features, double-dummy margin) per lead


def collect_deal(seed: int, index: int, against: str) -> list[dict[str, Any]]:
    """The lead positions of deal ``index``, played both ways round, with solved margins."""
    ours = HeuristicBot("normal")
    other = make_bot(against)
    out: list[dict[str, Any]] = []
    deal_seed = round_seed(seed, index)
    dealer = index % 4
    for swap in (0, 1):
        rnd = Round.from_seed(deal_seed, dealer=dealer)
        bots = (ours, other, ours, other) if swap == 0 else (other, ours, other, ours)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            view = rnd.view(seat)
            if (
                bots[seat] is ours
                and view.phase is Phase.PLAYING
                and not view.trick
                and len(view.tricks) < 6
                and len({a.card for a in view.legal_actions if isinstance(a, Play)}) > 1
            ):
                margins = solve(Position.from_round(rnd)).card_margins
                out.append(
                    {
                        "seed": deal_seed,
                        "dealer": dealer,
                        "actions": [str(a) for a in rnd.actions],
                        "margins": {str(c): m for c, m in margins.items()},
                    }
                )
            rnd.push(bots[seat].act(view, decision_rng(deal_seed, swap, step)), seat)
            step += 1
    return out


def _parse_action(text: str) -> Action:
    if text == "dalje":
        return Pass()
    if text.startswith("call "):
        return Call(Suit.parse(text[5:]))
    card, _, bela = text.partition(" ")
    return Play(Card.parse(card), bela == "bela")


def position_samples(record: dict[str, Any]) -> Sample:
    """Replay a stored position and pair each lead's features with its margin."""
    rnd = Round.from_seed(record["seed"], dealer=record["dealer"])
    for text in record["actions"]:
        rnd.push(_parse_action(text))
    seat = rnd.to_act
    assert seat is not None
    view = rnd.view(seat)
    legal = 0
    for a in view.legal_actions:
        if isinstance(a, Play):
            legal |= 1 << a.card
    margins = {int(Card.parse(c)): m for c, m in record["margins"].items()}
    return [(f, margins[card]) for card, f in lead_features(table_of(view), legal)]


def _collect_task(args: tuple[int, int, str]) -> list[dict[str, Any]]:
    return collect_deal(*args)


def fit(samples: Sequence[Sample], ridge: float = 10.0) -> list[float]:
    """Ridge-regression weights of the margin on the features, both centred per position."""
    n = len(samples[0][0][0])
    xtx = [[0.0] * n for _ in range(n)]
    xty = [0.0] * n
    for position in samples:
        k = len(position)
        mean_f = [sum(f[i] for f, _ in position) / k for i in range(n)]
        mean_y = sum(y for _, y in position) / k
        for f, y in position:
            x = [f[i] - mean_f[i] for i in range(n)]
            dy = y - mean_y
            for i in range(n):
                if x[i]:
                    xty[i] += x[i] * dy
                    row = xtx[i]
                    for j in range(n):
                        row[j] += x[i] * x[j]
    for i in range(n):
        xtx[i][i] += ridge
    return _solve_linear(xtx, xty)


def _solve_linear(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the system is small and well conditioned)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        for r in range(n):
            if r != col and m[r][col]:
                factor = m[r][col] / p
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def regret(samples: Sequence[Sample], weights: Sequence[float]) -> float:
    """Mean double-dummy points lost by choosing the top-scoring lead instead of the best."""
    total = 0.0
    for position in samples:
        scores = [sum(w * x for w, x in zip(weights, f, strict=True)) for f, _ in position]
        chosen = max(range(len(position)), key=lambda i: scores[i])
        total += max(y for _, y in position) - position[chosen][1]
    return total / len(samples) if samples else 0.0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fit the lead weights to double-dummy values.")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play deals and store solved lead positions")
    c.add_argument("--deals", type=int, required=True)
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--start", type=int, default=0)
    c.add_argument("--against", default="random")
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the weights to stored positions")
    f.add_argument("files", nargs="+")
    f.add_argument("--ridge", type=float, default=10.0)
    args = parser.parse_args(argv)
    if args.command == "collect":
        tasks = [(args.seed, i, args.against) for i in range(args.start, args.start + args.deals)]
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.jobs) as pool, open(args.out, "a", encoding="utf-8") as out:
            for found in pool.imap(_collect_task, tasks, chunksize=4):
                for record in found:
                    out.write(json.dumps(record) + "\n")
                out.flush()
        return
    records: list[dict[str, Any]] = []
    for name in args.files:
        with open(name, encoding="utf-8") as fh:
            records.extend(json.loads(line) for line in fh if line.strip())
    data = [position_samples(r) for r in records]
    random.Random(0).shuffle(data)
    cut = int(len(data) * 0.8)
    weights = fit(data[:cut], args.ridge)
    baseline = [1.0] + [0.0] * (len(LEAD_FEATURES) - 1)
    print(
        f"# {len(data)} positions; held-out regret: single-trick value "
        f"{regret(data[cut:], baseline):.2f}, fitted {regret(data[cut:], weights):.2f}"
    )
    weights = fit(data, args.ridge)
    print("LEAD_WEIGHTS: Final[tuple[float, ...]] = (")
    for name, w in zip(LEAD_FEATURES, weights, strict=True):
        print(f"    {w:+.3f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
