"""The arena: two bots on duplicate deals, so the luck of the cards cancels out.

Deal ``i`` of a run is dealt from ``round_seed(seed, i)`` by seat ``i % 4`` and
played twice: bot A in seats 0 and 2 with bot B in 1 and 3, then the other way
round, with the very same cards and dealer. The difference A minus B, averaged
over the two plays, is one sample; its mean over the deal pairs comes with a
95% confidence interval (mean ± 1.96·sd/√n). Full matches to the target are
paired the same way: one match seed played with the seats swapped.

With ``control`` the run also plays B against itself on the same deals with the same
decision seeds: the identical-bot control, whose expectation is 0, printed beside the
result so a reader sees how far pure search noise moves the figure. Its difference from A
against B deal by deal (``paired``) estimates the same thing as A − B; where A decides as B
would, the two plays of a deal are identical and add no noise, so it is the sharper figure
when A changes few decisions (issue #38).

Every deal and match is a pure function of (seed, index, bot names): each bot
decision gets ``decision_rng`` from the deal's seed, the play (0 or 1) and the
action's index; matches use the driver's own derivation. Work is cut into
fixed chunks run by ``bela.lab.runner.map_tasks``, which gives the results
back in task order, so the report is the same whatever the number of worker
processes, and on a Ray cluster (``cluster``) too. No more local workers start
than there are CPUs to run them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bela.ai.base import Bot, decision_rng
from bela.ai.driver import play_bots_until
from bela.ai.registry import make_bot
from bela.engine import Match, Round, Rules, round_seed
from bela.engine.rules import DEFAULT_RULES
from bela.i18n import _, ngettext
from bela.lab.progress import ProgressBar
from bela.lab.runner import map_tasks, usable_cpus, worker_count
from bela.settings import rule_names
from bela.wording import level_name

__all__ = [
    "ArenaReport",
    "DealRow",
    "Estimate",
    "MatchRow",
    "Task",
    "estimate_dict",
    "iter_tasks",
    "render_report",
    "report_to_dict",
    "run_arena",
    "run_task",
    "summarise",
    "worker_count",
]

DEAL_CHUNK = 25  # deal pairs per task
MATCH_CHUNK = 2  # match pairs per task
_MATCH_SALT = 0x6D61746368  # "match": match seeds differ from deal seeds


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its 95% confidence interval (normal approximation)."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @classmethod
    def of(cls, samples: list[float]) -> Estimate:
        n = len(samples)
        if n == 0:
            return cls(0.0, 0.0, 0)
        mean = math.fsum(samples) / n
        if n == 1:
            return cls(mean, 0.0, 1)
        var = math.fsum((x - mean) ** 2 for x in samples) / (n - 1)
        return cls(mean, 1.96 * math.sqrt(var) / math.sqrt(n), n)


@dataclass(frozen=True, slots=True)
class TeamStats:
    """How one side's calls went over all rounds it played (both seatings)."""

    rounds: int
    called: int
    made: int

    @property
    def call_share(self) -> float:
        """Share of rounds this side named trump."""
        return self.called / self.rounds if self.rounds else 0.0

    @property
    def made_share(self) -> float:
        """Share of rounds this side named trump and made it (did not fall)."""
        return self.made / self.rounds if self.rounds else 0.0

    @property
    def pad_rate(self) -> float:
        """Share of this side's calls that fell."""
        return (self.called - self.made) / self.called if self.called else 0.0


@dataclass(frozen=True, slots=True)
class ArenaReport:
    """What an arena run measured; A is ``bot_a``, B is ``bot_b``.

    ``written`` and ``card_points``: per deal, A's team minus B's team, averaged
    over the two seatings of the deal. ``match_wins``: share of matches A won
    (None when no matches were played).
    """

    bot_a: str
    bot_b: str
    seed: int
    deal_pairs: int
    written: Estimate
    card_points: Estimate
    a: TeamStats
    b: TeamStats
    belot_rounds: int
    match_pairs: int
    target: int
    match_wins: Estimate | None
    rules: Rules = DEFAULT_RULES
    control: Estimate | None = None
    """B against itself on the same deals (None without ``control``): 0 within its interval."""
    paired: Estimate | None = None
    """A − B minus the control, deal by deal (None without ``control``)."""


# Per played round: (A written, B written, A card points, B card points, caller side, fell, belot)
# caller side: 0 = A, 1 = B, -1 = nobody (belot before play or a redeal).
RoundRow = tuple[int, int, int, int, int, bool, bool]
DealRow = tuple[RoundRow, RoundRow]
MatchRow = tuple[int, int]  # A won the first match (A in seats 0/2), A won the second

_BOTS: dict[str, Bot] = {}


def _bot(name: str) -> Bot:
    bot = _BOTS.get(name)
    if bot is None:
        bot = _BOTS[name] = make_bot(name)
    return bot


def play_deal(
    bot_a: str, bot_b: str, seed: int, index: int, swap: int, rules: Rules = DEFAULT_RULES
) -> RoundRow:
    """Play deal ``index`` once; ``swap`` 0 puts A in seats 0/2, 1 in seats 1/3."""
    deal_seed = round_seed(seed, index)
    rnd = Round.from_seed(deal_seed, dealer=index % 4, rules=rules)
    a, b = _bot(bot_a), _bot(bot_b)
    bots = (a, b, a, b) if swap == 0 else (b, a, b, a)
    step = 0
    while rnd.to_act is not None:
        seat = rnd.to_act
        action = bots[seat].act(rnd.view(seat), decision_rng(deal_seed, swap, step))
        rnd.push(action, seat)  # validated: an illegal bot action raises here
        step += 1
    result = rnd.result
    assert result is not None
    a_team = swap  # A's team index: 0 when A sits in seats 0/2
    caller = -1 if result.caller is None or result.belot is not None else result.caller % 2
    side = -1 if caller < 0 else (0 if caller == a_team else 1)
    return (
        result.points[a_team],
        result.points[1 - a_team],
        result.card_points[a_team],
        result.card_points[1 - a_team],
        side,
        result.fell,
        result.belot is not None,
    )


def play_match(
    bot_a: str, bot_b: str, match_seed: int, target: int, swap: int, rules: Rules = DEFAULT_RULES
) -> int:
    """Play one full match; 1 if A's team won it."""
    a, b = _bot(bot_a), _bot(bot_b)
    bots = {0: a, 1: b, 2: a, 3: b} if swap == 0 else {0: b, 1: a, 2: b, 3: a}
    match = Match.new(match_seed, target=target, rules=rules)
    match = play_bots_until(match, bots, stop_at_round_end=False)
    if match.winner is None:  # pragma: no cover - only bots are seated
        raise RuntimeError("the match stopped before it was over")
    return 1 if match.winner == swap else 0


def match_seed_of(seed: int, index: int) -> int:
    """The seed of match pair ``index`` of a run."""
    return round_seed(round_seed(seed, _MATCH_SALT), index)


# kind, bot A, bot B, seed, start, stop, target, rules
Task = tuple[str, str, str, int, int, int, int, Rules]


def run_task(task: Task) -> list[Any]:
    """Play one task's deal pairs (``DealRow``s) or match pairs (``MatchRow``s)."""
    kind, bot_a, bot_b, seed, start, stop, target, rules = task
    if kind == "deal":
        return [
            (
                play_deal(bot_a, bot_b, seed, i, 0, rules),
                play_deal(bot_a, bot_b, seed, i, 1, rules),
            )
            for i in range(start, stop)
        ]
    return [
        (
            play_match(bot_a, bot_b, match_seed_of(seed, i), target, 0, rules),
            play_match(bot_a, bot_b, match_seed_of(seed, i), target, 1, rules),
        )
        for i in range(start, stop)
    ]


def iter_tasks(
    bot_a: str,
    bot_b: str,
    seed: int,
    deal_pairs: int,
    matches: int,
    target: int,
    rules: Rules = DEFAULT_RULES,
) -> Iterator[Task]:
    """The run's tasks in order, made one at a time: a list of them all would hold
    ``deal_pairs / DEAL_CHUNK`` tuples before the first deal is played."""
    for start in range(0, deal_pairs, DEAL_CHUNK):
        stop = min(start + DEAL_CHUNK, deal_pairs)
        yield ("deal", bot_a, bot_b, seed, start, stop, target, rules)
    for start in range(0, matches, MATCH_CHUNK):
        stop = min(start + MATCH_CHUNK, matches)
        yield ("match", bot_a, bot_b, seed, start, stop, target, rules)


def task_count(deal_pairs: int, matches: int) -> int:
    """How many tasks ``iter_tasks`` makes."""
    return -(-deal_pairs // DEAL_CHUNK) + -(-matches // MATCH_CHUNK)


def run_arena(
    bot_a: str,
    bot_b: str,
    *,
    deal_pairs: int,
    seed: int,
    jobs: int | None = None,
    matches: int = 0,
    target: int = 1001,
    progress: bool = True,
    rules: Rules = DEFAULT_RULES,
    cluster: str | None = None,
    control: bool = False,
) -> ArenaReport:
    """Play ``deal_pairs`` duplicate deals (and ``matches`` duplicate match pairs).

    ``jobs`` worker processes (default, and at most: the usable CPUs), or the Ray
    cluster at ``cluster`` (``bela.lab.runner``); the report depends on neither.
    A progress bar goes to stderr unless ``progress`` is False. Every deal and
    match is played under ``rules`` (the house rules, issue #13). ``control`` also plays B
    against itself on the same deals (the identical-bot control, see the module).
    """
    make_bot(bot_a)  # fail early, in this process, on an unknown name
    make_bot(bot_b)
    if deal_pairs < 0 or matches < 0:
        raise ValueError("the numbers of deals and matches are 0 or more")
    if jobs is None:
        jobs = usable_cpus()

    def all_tasks() -> Iterator[Task]:
        yield from iter_tasks(bot_a, bot_b, seed, deal_pairs, matches, target, rules)
        if control:
            yield from iter_tasks(bot_b, bot_b, seed, deal_pairs, 0, target, rules)

    work = deal_pairs * (2 if control else 1) + matches
    with ProgressBar(progress, work, f"{bot_a} vs {bot_b}") as bar:
        results = map_tasks(run_task, all_tasks(), jobs=jobs, cluster=cluster, progress=bar)
    deals: list[DealRow] = []
    control_deals: list[DealRow] = []
    match_rows: list[MatchRow] = []
    for task, rows in zip(all_tasks(), results, strict=True):
        if task[0] != "deal":
            match_rows.extend(rows)
        elif task[1] == bot_a and task[2] == bot_b and len(deals) < deal_pairs:
            deals.extend(rows)
        else:
            control_deals.extend(rows)
    report = replace(summarise(bot_a, bot_b, seed, deals, match_rows, target), rules=rules)
    if not control:
        return report
    ctrl = [_written(pair) for pair in control_deals]
    paired = [_written(a) - c for a, c in zip(deals, ctrl, strict=True)]
    return replace(report, control=Estimate.of(ctrl), paired=Estimate.of(paired))


def _written(pair: DealRow) -> float:
    """A's written points minus B's over a deal pair, averaged over its two seatings."""
    return sum(r[0] - r[1] for r in pair) / 2


def summarise(
    bot_a: str, bot_b: str, seed: int, deals: list[DealRow], matches: list[MatchRow], target: int
) -> ArenaReport:
    """The report of a run from its rows, in the order of the deals and matches."""
    written: list[float] = []
    cards: list[float] = []
    rounds = 0
    called = [0, 0]
    made = [0, 0]
    belot = 0
    for pair in deals:
        written.append(sum(r[0] - r[1] for r in pair) / 2)
        cards.append(sum(r[2] - r[3] for r in pair) / 2)
        for row in pair:
            rounds += 1
            side = row[4]
            if row[6]:
                belot += 1
            if side >= 0:
                called[side] += 1
                if not row[5]:
                    made[side] += 1
    wins = [sum(m) / 2 for m in matches]
    return ArenaReport(
        bot_a=bot_a,
        bot_b=bot_b,
        seed=seed,
        deal_pairs=len(deals),
        written=Estimate.of(written),
        card_points=Estimate.of(cards),
        a=TeamStats(rounds, called[0], made[0]),
        b=TeamStats(rounds, called[1], made[1]),
        belot_rounds=belot,
        match_pairs=len(matches),
        target=target,
        match_wins=Estimate.of(wins) if matches else None,
    )


def estimate_dict(e: Estimate) -> dict[str, float | int]:
    """An estimate as JSON-ready data: mean, interval ends and the number of samples."""
    return {"mean": e.mean, "ci95_low": e.low, "ci95_high": e.high, "n": e.n}


def _team_dict(t: TeamStats) -> dict[str, float | int]:
    return {
        "rounds": t.rounds,
        "called": t.called,
        "made": t.made,
        "call_share": t.call_share,
        "called_and_made_share": t.made_share,
        "pad_rate": t.pad_rate,
    }


def report_to_dict(report: ArenaReport) -> dict[str, Any]:
    """The report as plain JSON-ready data (for ``bela arena --json``)."""
    return {
        "bot_a": report.bot_a,
        "bot_b": report.bot_b,
        "seed": report.seed,
        "deal_pairs": report.deal_pairs,
        "written_points_per_deal_a_minus_b": estimate_dict(report.written),
        "card_points_per_deal_a_minus_b": estimate_dict(report.card_points),
        "a": _team_dict(report.a),
        "b": _team_dict(report.b),
        "belot_rounds": report.belot_rounds,
        "match_pairs": report.match_pairs,
        "target": report.target,
        "rules": report.rules.changed(),
        "a_match_win_share": (
            None if report.match_wins is None else estimate_dict(report.match_wins)
        ),
        "control_written_points_per_deal_b_minus_b": (
            None if report.control is None else estimate_dict(report.control)
        ),
        "written_points_per_deal_minus_control": (
            None if report.paired is None else estimate_dict(report.paired)
        ),
    }


def _pm(e: Estimate, digits: int = 1) -> str:
    d = digits
    return f"{e.mean:+.{d}f} ± {e.half_width:.{d}f}  [{e.low:+.{d}f}, {e.high:+.{d}f}]"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render_report(report: ArenaReport) -> RenderableType:
    """The report as a rich table (with a one-line verdict under it)."""
    table = Table(
        title=_("{a} (A) vs {b} (B)").format(
            a=level_name(report.bot_a), b=level_name(report.bot_b)
        ),
        title_justify="left",
    )
    table.add_column(_("measure"))
    table.add_column(_("value"), justify="right")
    table.add_row(_("deal pairs (seed)"), f"{report.deal_pairs} ({report.seed})")
    changed = report.rules.changed()
    if changed:
        table.add_row(_("house rules"), ", ".join(rule_names(report.rules)))
    table.add_row(_("written points per deal, A − B (95% CI)"), _pm(report.written))
    if report.control is not None and report.paired is not None:
        table.add_row(
            _("identical-bot control: B against B on the same deals (95% CI)"),
            _pm(report.control),
        )
        table.add_row(
            _("written points per deal, A − B less the control, deal by deal (95% CI)"),
            _pm(report.paired),
        )
    table.add_row(_("card points per deal, A − B (95% CI)"), _pm(report.card_points))
    for label, side in (("A", report.a), ("B", report.b)):
        table.add_row(_("{bots}: named trump").format(bots=label), _pct(side.call_share))
        table.add_row(
            _("{bots}: named trump and made it").format(bots=label), _pct(side.made_share)
        )
        table.add_row(
            _("{bots}: pad rate (calls that fell)").format(bots=label), _pct(side.pad_rate)
        )
    if report.belot_rounds:
        table.add_row(_("rounds ended by belot"), str(report.belot_rounds))
    if report.match_wins is not None:
        m = report.match_wins
        table.add_row(
            ngettext(
                "matches to {target} won by A ({matches} match)",
                "matches to {target} won by A ({matches} matches)",
                2 * report.match_pairs,
            ).format(target=report.target, matches=2 * report.match_pairs),
            f"{_pct(m.mean)} ± {_pct(m.half_width)}",
        )
    w = report.written
    if w.n < 2:
        verdict = Text(_("too few deals for a verdict"), style="dim")
    elif w.low > 0:
        verdict = Text(
            _("{bot} is stronger (significant at 95%)").format(bot=level_name(report.bot_a)),
            style="bold green",
        )
    elif w.high < 0:
        verdict = Text(
            _("{bot} is stronger (significant at 95%)").format(bot=level_name(report.bot_b)),
            style="bold red",
        )
    else:
        verdict = Text(_("no significant difference"), style="yellow")
    return Group(table, verdict)
