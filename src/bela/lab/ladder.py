"""The ladder: every pair of bots on duplicate deals, and one Elo scale from the results.

Each pair plays the arena's duplicate deals (``bela.lab.arena``) with the same
seed, so every pair meets the same cards and a pair's line is exactly what
``bela arena A B --deals N --seed S`` reports. Slow bots can be given fewer
deal pairs (``caps``): a pair plays the smallest of ``deal_pairs`` and its
bots' caps, always the first deals of the seed.

The model (Bradley–Terry on duplicate deal pairs)
-------------------------------------------------
The unit of play is one deal pair: the same cards played twice with the seats
swapped. The side whose average written points are higher wins it; an exact
tie counts half to each. Bradley–Terry says bot i beats bot j on a deal pair
with probability ``1 / (1 + 10 ** ((R_j - R_i) / 400))``, the Elo curve:
100 points of difference means winning 64% of deal pairs, 200 means 76%.

Why wins and not the points themselves: a deal's written points are dominated
by a few huge swings (a fallen call moves 162 points and more, štiglja adds 90),
so a point margin would rate a bot by its luck with pads; a won or lost deal
pair counts every deal once, keeps the model the one Elo and Bradley–Terry are
made for, and needs no guess of how points turn into chances. The points are
still in the report, per pair, with their interval (the arena's measure).
A match to 1001 is some ten deals long, so match-win shares are more lopsided
than these per-deal figures.

The fit is the maximum likelihood by Hunter's MM iteration (2004), with one
drawn virtual deal pair added to every pair that played: a bot that won every
deal pair against another would otherwise be rated infinitely above it; one
draw among hundreds of deal pairs moves a finite rating by little. Ratings are
relative to the first bot named (its rating is 0).

The 95% intervals come from a bootstrap over deal pairs (``BOOTSTRAP``
resamples, percentile intervals): the deal indices are resampled and every pair
that played the same number of deals takes the same resample, so the
correlation that common cards put between pairs is kept. The resamples come
from the seed, so the whole report is a function of (bots, seed, deals, caps).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from operator import mul
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bela.ai.registry import make_bot
from bela.engine import Rules
from bela.engine.rules import DEFAULT_RULES
from bela.i18n import _, ngettext
from bela.lab.arena import (
    ArenaReport,
    DealRow,
    Task,
    estimate_dict,
    iter_tasks,
    run_task,
    summarise,
)
from bela.lab.progress import ProgressBar
from bela.lab.runner import map_tasks, usable_cpus

__all__ = [
    "BOOTSTRAP",
    "ELO_SCALE",
    "PRIOR_DRAWS",
    "LadderReport",
    "PairResult",
    "Rating",
    "fit_elo",
    "ladder_to_dict",
    "render_ladder",
    "run_ladder",
]

ELO_SCALE = 400.0
PRIOR_DRAWS = 1.0
BOOTSTRAP = 200
_BOOTSTRAP_SALT = 0x6C6164646572  # "ladder": the resamples differ from the deals
_TOLERANCE = 1e-10
_MAX_ITERATIONS = 20_000


@dataclass(frozen=True, slots=True)
class PairResult:
    """One pair's deal pairs: A is the bot named first, wins and ties are per deal pair."""

    bot_a: str
    bot_b: str
    a_wins: int
    ties: int
    b_wins: int
    arena: ArenaReport

    @property
    def deal_pairs(self) -> int:
        return self.a_wins + self.ties + self.b_wins

    @property
    def a_score(self) -> float:
        """A's share of the deal pairs, a tie counting half."""
        n = self.deal_pairs
        return (self.a_wins + self.ties / 2) / n if n else 0.5


@dataclass(frozen=True, slots=True)
class Rating:
    """A bot's Elo with its 95% bootstrap interval, and its record over all pairs."""

    bot: str
    elo: float
    low: float
    high: float
    deal_pairs: int
    score: float


@dataclass(frozen=True, slots=True)
class LadderReport:
    """What a ladder measured: ``ratings`` best first, ``pairs`` in the order played."""

    bots: tuple[str, ...]
    seed: int
    deal_pairs: int
    caps: Mapping[str, int]
    ratings: tuple[Rating, ...]
    pairs: tuple[PairResult, ...]
    bootstrap: int = BOOTSTRAP
    rules: Rules = field(default=DEFAULT_RULES)


def fit_elo(n: int, games: Sequence[tuple[int, int, float, float]]) -> list[float]:
    """Bradley–Terry ratings on the Elo scale, player 0 at 0.

    ``games`` are ``(i, j, score_i, played)``: i scored ``score_i`` (wins plus half
    the ties) in ``played`` games against j. Every pair listed gets
    ``PRIOR_DRAWS`` drawn games more, so the fit is finite whatever the results;
    a player who met nobody is rated 0.
    """
    wins = [0.0] * n
    played: dict[tuple[int, int], float] = {}
    for i, j, score, count in games:
        if i == j or count <= 0:
            continue
        wins[i] += score + PRIOR_DRAWS / 2
        wins[j] += count - score + PRIOR_DRAWS / 2
        key = (min(i, j), max(i, j))
        played[key] = played.get(key, 0.0) + count + PRIOR_DRAWS
    opponents: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for (i, j), count in played.items():
        opponents[i].append((j, count))
        opponents[j].append((i, count))
    strength = [1.0] * n
    for _iteration in range(_MAX_ITERATIONS):
        new = []
        for i in range(n):
            denominator = math.fsum(c / (strength[i] + strength[j]) for j, c in opponents[i])
            new.append(wins[i] / denominator if denominator > 0 else strength[i])
        # keep the geometric mean at 1 so the numbers stay in range
        log_mean = math.fsum(math.log(s) for s in new) / n
        new = [s / math.exp(log_mean) for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < _TOLERANCE:
            break
    base = math.log10(strength[0])
    return [ELO_SCALE * (math.log10(s) - base) for s in strength]


def run_ladder(
    bots: Sequence[str],
    *,
    deal_pairs: int,
    seed: int,
    jobs: int | None = None,
    cluster: str | None = None,
    caps: Mapping[str, int] | None = None,
    progress: bool = True,
    rules: Rules = DEFAULT_RULES,
    bootstrap: int = BOOTSTRAP,
) -> LadderReport:
    """Play every pair of ``bots`` on duplicate deals and rate them.

    All the pairs' tasks go to ``map_tasks`` at once (local processes, or the Ray
    cluster at ``cluster``), so a slow pair does not hold up a fast one; the
    report does not depend on where they ran.
    """
    names = tuple(bots)
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError("a ladder needs two or more different bots")
    for name in names:
        make_bot(name)  # fail early, in this process, on an unknown name
    limits = dict(caps or {})
    if deal_pairs < 1 or any(n < 1 for n in limits.values()):
        raise ValueError("every pair plays at least one deal pair")
    if jobs is None:
        jobs = usable_cpus()
    pairs = [
        (a, b, min(deal_pairs, limits.get(a, deal_pairs), limits.get(b, deal_pairs)))
        for a, b in combinations(names, 2)
    ]
    tasks: list[Task] = []
    owner: list[int] = []
    for index, (a, b, n) in enumerate(pairs):
        for task in iter_tasks(a, b, seed, n, 0, 1001, rules):
            tasks.append(task)
            owner.append(index)
    units = sum(n for _, _, n in pairs)
    label = f"ladder of {len(names)} bots"
    with ProgressBar(progress, units, label) as bar:
        results = map_tasks(run_task, tasks, jobs=jobs, cluster=cluster, progress=bar)
    rows: list[list[DealRow]] = [[] for _ in pairs]
    for index, chunk in zip(owner, results, strict=True):
        rows[index].extend(chunk)
    outcomes = [[_outcome(row) for row in pair_rows] for pair_rows in rows]
    results_by_pair = tuple(
        _pair_result(a, b, seed, pair_rows, pair_outcomes, rules)
        for (a, b, _), pair_rows, pair_outcomes in zip(pairs, rows, outcomes, strict=True)
    )
    ratings = _ratings(names, pairs, outcomes, seed, bootstrap)
    return LadderReport(
        bots=names,
        seed=seed,
        deal_pairs=deal_pairs,
        caps={name: limits[name] for name in names if name in limits},
        ratings=ratings,
        pairs=results_by_pair,
        bootstrap=bootstrap,
        rules=rules,
    )


def _outcome(row: DealRow) -> float:
    """A's result on one deal pair: 1 won, 0.5 tied, 0 lost (by average written points)."""
    margin = sum(r[0] - r[1] for r in row)
    return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5


def _pair_result(
    a: str, b: str, seed: int, rows: list[DealRow], outcomes: list[float], rules: Rules
) -> PairResult:
    arena = replace(summarise(a, b, seed, rows, [], 1001), rules=rules)
    return PairResult(
        bot_a=a,
        bot_b=b,
        a_wins=sum(1 for o in outcomes if o == 1.0),
        ties=sum(1 for o in outcomes if o == 0.5),
        b_wins=sum(1 for o in outcomes if o == 0.0),
        arena=arena,
    )


def _games(
    names: tuple[str, ...],
    pairs: list[tuple[str, str, int]],
    scores: list[float],
) -> list[tuple[int, int, float, float]]:
    index = {name: i for i, name in enumerate(names)}
    return [
        (index[a], index[b], score, float(n))
        for (a, b, n), score in zip(pairs, scores, strict=True)
    ]


def _ratings(
    names: tuple[str, ...],
    pairs: list[tuple[str, str, int]],
    outcomes: list[list[float]],
    seed: int,
    bootstrap: int,
) -> tuple[Rating, ...]:
    elo = fit_elo(len(names), _games(names, pairs, [math.fsum(o) for o in outcomes]))
    rng = random.Random(seed ^ _BOOTSTRAP_SALT)
    samples: list[list[float]] = [[] for _ in names]
    sizes = sorted({n for _, _, n in pairs})
    for _resample in range(bootstrap):
        # one resample of the deal indices per number of deals played, shared by those pairs
        counts = {n: _resample_counts(rng, n) for n in sizes}
        scores = [
            math.fsum(map(mul, counts[n], o)) for (_, _, n), o in zip(pairs, outcomes, strict=True)
        ]
        for i, value in enumerate(fit_elo(len(names), _games(names, pairs, scores))):
            samples[i].append(value)
    played = [0] * len(names)
    scored = [0.0] * len(names)
    position = {name: i for i, name in enumerate(names)}
    for (a, b, n), o in zip(pairs, outcomes, strict=True):
        score = math.fsum(o)
        played[position[a]] += n
        played[position[b]] += n
        scored[position[a]] += score
        scored[position[b]] += n - score
    ratings = []
    for i, name in enumerate(names):
        low, high = _interval(samples[i], elo[i])
        ratings.append(
            Rating(name, elo[i], low, high, played[i], scored[i] / played[i] if played[i] else 0.5)
        )
    # best first; equal ratings keep the order the bots were named in
    order = sorted(range(len(names)), key=lambda i: (-round(ratings[i].elo, 9), i))
    return tuple(ratings[i] for i in order)


def _resample_counts(rng: random.Random, n: int) -> list[int]:
    """How often each of ``n`` deal pairs is drawn in one bootstrap resample of size ``n``."""
    counts = [0] * n
    for k in rng.choices(range(n), k=n):
        counts[k] += 1
    return counts


def _interval(samples: list[float], point: float) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of ``samples`` (the point itself when there are none)."""
    if not samples:
        return point, point
    ordered = sorted(samples)
    last = len(ordered) - 1

    def at(q: float) -> float:
        position = q * last
        below = math.floor(position)
        above = min(below + 1, last)
        return ordered[below] + (ordered[above] - ordered[below]) * (position - below)

    return at(0.025), at(0.975)


def ladder_to_dict(report: LadderReport) -> dict[str, Any]:
    """The report as plain JSON-ready data (``bela ladder --json``); the keys are stable."""
    return {
        "bots": list(report.bots),
        "seed": report.seed,
        "deal_pairs": report.deal_pairs,
        "caps": dict(report.caps),
        "rules": report.rules.changed(),
        "model": {
            "name": "bradley-terry",
            "outcome": "duplicate deal pair won on written points, a tie counting half",
            "elo_scale": ELO_SCALE,
            "anchor": report.bots[0],
            "prior_draws_per_pair": PRIOR_DRAWS,
            "interval": "95% percentile bootstrap over deal pairs",
            "bootstrap_resamples": report.bootstrap,
        },
        "ratings": [
            {
                "rank": rank,
                "bot": r.bot,
                "elo": r.elo,
                "ci95_low": r.low,
                "ci95_high": r.high,
                "deal_pairs": r.deal_pairs,
                "score": r.score,
            }
            for rank, r in enumerate(report.ratings, start=1)
        ],
        "pairs": [
            {
                "bot_a": p.bot_a,
                "bot_b": p.bot_b,
                "deal_pairs": p.deal_pairs,
                "a_wins": p.a_wins,
                "ties": p.ties,
                "b_wins": p.b_wins,
                "a_score": p.a_score,
                "written_points_per_deal_a_minus_b": estimate_dict(p.arena.written),
            }
            for p in report.pairs
        ],
    }


def render_ladder(report: LadderReport) -> RenderableType:
    """The rating table and the pairs' results, as rich tables; bot names are plain text."""
    capped = report.caps
    title = Text(
        ngettext(
            "ladder: {deals} deal pair a pair, seed {seed}",
            "ladder: {deals} deal pairs a pair, seed {seed}",
            report.deal_pairs,
        ).format(deals=report.deal_pairs, seed=report.seed)
    )
    if capped:
        title.append(
            _(" (pairs with {caps})").format(
                caps=", ".join(
                    _("{name}: at most {n}").format(name=name, n=n) for name, n in capped.items()
                )
            )
        )
    ratings = Table(title=title, title_justify="left")
    for name, justify in (
        ("#", "right"),
        (_("bot"), "left"),
        ("Elo", "right"),
        ("95% CI", "right"),
        (_("score"), "right"),
        (_("deal pairs"), "right"),
    ):
        ratings.add_column(name, justify=justify)  # type: ignore[arg-type]
    anchor = report.bots[0]
    for rank, r in enumerate(report.ratings, start=1):
        ratings.add_row(
            str(rank),
            Text(r.bot),
            "0" if r.bot == anchor else f"{r.elo:+.0f}",
            _("anchor") if r.bot == anchor else f"[{r.low:+.0f}, {r.high:+.0f}]",
            f"{100 * r.score:.1f}%",
            str(r.deal_pairs),
        )
    pairs = Table(
        title=_("pairs: deal pairs won by A, and written points A − B a deal (95% CI)"),
        title_justify="left",
    )
    for name in ("A", "B", _("deal pairs"), _("A won / tied / lost"), _("A − B a deal")):
        pairs.add_column(name, justify="left" if name in ("A", "B") else "right")
    for p in report.pairs:
        w = p.arena.written
        pairs.add_row(
            Text(p.bot_a),
            Text(p.bot_b),
            str(p.deal_pairs),
            f"{p.a_wins} / {p.ties} / {p.b_wins}",
            f"{w.mean:+.1f} ± {w.half_width:.1f}",
        )
    note = Text(
        _(
            "Elo from a Bradley–Terry fit on deal pairs won (a tie is half), relative to "
            "{anchor}; +100 means winning {share} of deal pairs. "
            "Intervals: {resamples} bootstrap resamples of the deals."
        ).format(anchor=report.bots[0], share="64%", resamples=report.bootstrap),
        style="dim",
    )
    return Group(ratings, pairs, note)
