"""The statistics of the matches played (issue #13), with two plots.

The numbers are ``bela.archive.stats.statistics`` over the history index, worked out
in a thread worker (the index may need a refresh first). The plots are the
score race of one match (both columns round by round toward the target: the
newest match unless one is given) and the results over time (the margin of
each finished match and the running share won).

They are drawn with textual-plotext, imported here only, when the screen opens
(the start screen must not pay for it, issue #12); where it cannot be
imported, each plot is a few lines of plain text instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from bela.i18n import N_, _, ngettext, pgettext
from bela.table_text import SEAT_NAMES
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer
from bela.wording import level_name, padded, points

if TYPE_CHECKING:
    from bela.archive.stats import CallRecord, RacePoint, ResultPoint, Statistics

__all__ = ["StatsScreen", "race_text", "results_text", "stats_text"]

_BAR = 30


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _calls(name: str, record: CallRecord) -> str:
    return (
        "  "
        + padded(name, 16)
        + " "
        + _(
            "called {called:>4} · made {made:>4} ({made_rate}) · pad {fell:>4} ({pad_rate})"
        ).format(
            called=record.called,
            made=record.made,
            made_rate=_rate(record.made_rate),
            fell=record.fell,
            pad_rate=_rate(record.pad_rate),
        )
    )


def stats_text(s: Statistics) -> Text:
    """The numbers, one fact a line, as plain text (a level's name comes from the index:
    ``level_name`` passes one it does not know through the gate)."""
    head = _(
        "Matches {played}: won {won} · lost {lost} · unfinished {unfinished} · won {rate} "
        "of the finished"
    ).format(
        played=s.played, won=s.won, lost=s.lost, unfinished=s.unfinished, rate=_rate(s.win_rate)
    )
    if s.damaged:
        head += _(" · damaged records {n}").format(n=s.damaged)
    lines = [head]
    for level in s.by_difficulty:
        lines.append(
            "  "
            + padded(level_name(level.difficulty), 8)
            + " "
            + _(
                "played {played:>4} · won {won:>4} · lost {lost:>4} · unfinished "
                "{unfinished:>3} ({rate})"
            ).format(
                played=level.played,
                won=level.won,
                lost=level.lost,
                unfinished=level.unfinished,
                rate=_rate(level.win_rate),
            )
        )
    lines.append(
        _("Rounds {rounds} ({redeals} redealt: all four passed)").format(
            rounds=s.rounds, redeals=s.redeals
        )
    )
    lines.append(_("Trump calls, and how often they were made (pad: the callers fell)"))
    from bela.archive.history import NETWORK

    lines.append(_calls(_("you"), s.you))
    if all(level.difficulty != NETWORK for level in s.by_difficulty):  # bots only: named
        lines.append(_calls(_("mi (you, {partner})").format(partner=SEAT_NAMES[2]), s.mi))
        lines.append(
            _calls(_("vi ({right}, {left})").format(right=SEAT_NAMES[1], left=SEAT_NAMES[3]), s.vi)
        )
    else:  # network matches too: the partners and opponents were people, each time others
        lines.append(_calls(_("mi (you and your partner)"), s.mi))
        lines.append(_calls(_("vi (the opponents)"), s.vi))
    average = s.average_written
    per_round = "-" if average is None else f"mi {average[0]:.1f} · vi {average[1]:.1f}"
    lines += [
        _("Štiglja (all eight tricks): mi {mi} · vi {vi}").format(mi=s.stiglja[0], vi=s.stiglja[1]),
        _("Points written per round: {average}").format(average=per_round),
        _("Zvanja: {mi} · {vi}").format(
            mi=ngettext(
                "mi in {n} round ({points})", "mi in {n} rounds ({points})", s.zvanja_rounds[0]
            ).format(n=s.zvanja_rounds[0], points=points(s.zvanja_points[0])),
            vi=ngettext(
                "vi in {n} round ({points})", "vi in {n} rounds ({points})", s.zvanja_rounds[1]
            ).format(n=s.zvanja_rounds[1], points=points(s.zvanja_points[1])),
        ),
        _("Bela: mi {mi} · vi {vi}   Belot: mi {mi_belot} · vi {vi_belot}").format(
            mi=s.bela[0], vi=s.bela[1], mi_belot=s.belot[0], vi_belot=s.belot[1]
        ),
    ]
    return Text("\n".join(lines))


def outcome_word(won: bool) -> str:
    return pgettext("outcome", "won") if won else pgettext("outcome", "lost")


def _bar(value: int, top: int) -> str:
    return "█" * max(0, min(_BAR, round(_BAR * value / top))) if top > 0 else ""


def race_text(points: list[RacePoint], target: int) -> Text:
    """The score race without a plot: a pair of bars per round, scaled to the target."""
    lines = [_("Score race to {target}").format(target=target)]
    top = max([target, *(max(p.mi, p.vi) for p in points)])
    for point in points[1:]:
        lines.append(f"{point.round:>3} mi {_bar(point.mi, top):<{_BAR}} {point.mi}")
        lines.append(f"    vi {_bar(point.vi, top):<{_BAR}} {point.vi}")
    if len(points) <= 1:
        lines.append("  " + _("no round finished yet"))
    return Text("\n".join(lines))


def results_text(series: list[ResultPoint]) -> Text:
    """The results over time without a plot: each finished match's margin, oldest first."""
    lines = [_("Results over time (mi − vi at the end; share won so far)")]
    for point in series:
        lines.append(
            f"{point.played_at.astimezone():%Y-%m-%d} "
            + padded(outcome_word(point.won), 4)
            + f" {point.margin:>+5} · {point.won_so_far}/{point.finished_so_far}"
            f" ({point.win_rate_so_far:.0%})"
        )
    if not series:
        lines.append("  " + _("no finished match yet"))
    return Text("\n".join(lines))


def _plot_widget() -> type[Widget] | None:
    try:
        from textual_plotext import PlotextPlot
    except ImportError:
        return None
    return PlotextPlot


class StatsScreen(Screen[None]):
    """What the history adds up to, and two plots."""

    DEFAULT_CSS = """
    StatsScreen #stats { height: 1fr; padding: 0 1; }
    StatsScreen .plot { height: 16; }
    StatsScreen .plot-text { height: auto; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", N_("Back")),
    ]

    def __init__(self, file: str | None = None) -> None:
        """``file``: the match whose score race is drawn (default: the newest one; the
        history's match view passes the one on show, ``s``)."""
        super().__init__()
        self.file = file
        self.statistics: Statistics | None = None

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with VerticalScroll(id="stats"):
            yield Static(_("Statistics: reading the history…"), id="stats-numbers", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#stats", VerticalScroll).focus()
        self._load()

    @work(thread=True, exclusive=True, group="stats")
    def _load(self) -> None:
        """Refresh the index and add it up off the UI thread."""
        from bela.archive.history import Outcome, open_history
        from bela.archive.stats import results_over_time, score_race, statistics
        from bela.foundation.untrusted import oneline

        try:
            with open_history() as history:
                numbers = statistics(history)
                series = results_over_time(history)
                file = self.file
                if file is None:
                    usable = [
                        row
                        for row in history.matches()
                        if row.outcome is not Outcome.DAMAGED and row.rounds
                    ]
                    file = usable[0].file if usable else None
                row = None if file is None else history.match(file)
                race = [] if row is None else score_race(history, row.file)
                target = row.target if row is not None and row.target else 0
                seed = None if row is None else row.seed
                notice = history.notice
        except Exception as exc:  # any failure is shown, and the app goes on
            message = oneline(_("the statistics failed: {error}").format(error=exc))
            self.app.call_from_thread(self._failed, message)
            return
        self.app.call_from_thread(self._loaded, numbers, series, race, (target, seed), notice)

    def _failed(self, message: str) -> None:
        self.query_one("#stats-numbers", Static).update(Text(message))

    def _loaded(
        self,
        numbers: Statistics,
        series: list[ResultPoint],
        race: list[RacePoint],
        match: tuple[int, int | None],
        notice: str | None,
    ) -> None:
        target, seed = match
        self.statistics = numbers
        self.query_one("#stats-numbers", Static).update(stats_text(numbers))
        if notice is not None:
            self.notify(notice, severity="warning", timeout=10)
        scroll = self.query_one("#stats", VerticalScroll)
        plot = _plot_widget()
        if plot is None:
            scroll.mount(Static(race_text(race, target), classes="plot-text", id="race"))
            scroll.mount(Static(results_text(series), classes="plot-text", id="results"))
            return
        race_plot = plot(classes="plot", id="race")
        results_plot = plot(classes="plot", id="results")
        scroll.mount(race_plot, results_plot)
        _draw_race(race_plot, race, target, seed)
        _draw_results(results_plot, series)

    def action_close(self) -> None:
        self.dismiss(None)


def _draw_race(widget: Any, points: list[RacePoint], target: int, seed: int | None) -> None:
    plt = widget.plt
    plt.title(
        _("Score race of the match of seed {seed}, to {target}").format(seed=seed, target=target)
        if points
        else _("No match yet")
    )
    if points:
        rounds = [p.round for p in points]
        plt.plot(rounds, [p.mi for p in points], label="mi")
        plt.plot(rounds, [p.vi for p in points], label="vi")
        if target:
            plt.plot(rounds, [target] * len(rounds), label=_("target"))
        plt.xticks(_whole_ticks(rounds))  # rounds are whole: no "2.5" on the axis
        plt.xlabel(_("round"))
    widget.refresh()


def _whole_ticks(values: list[int], most: int = 10) -> list[int]:
    """At most ``most`` ticks within the span of ``values``: the multiples of a round step
    (1, 2 or 5 times a power of ten), so 0 is one of them whenever the span crosses it."""
    low, high = min(values), max(values)
    steps = (m * 10**k for k in range(19) for m in (1, 2, 5))
    step = next(s for s in steps if high // s - -(-low // s) + 1 <= most)
    first = -(-low // step) * step
    return list(range(first, high + 1, step))


def _draw_results(widget: Any, series: list[ResultPoint]) -> None:
    plt = widget.plt
    plt.title(_("Results over time: mi − vi at each match's end"))
    if series:
        numbers = list(range(1, len(series) + 1))
        margins = [p.margin for p in series]
        plt.bar(numbers, margins)
        plt.xticks(_whole_ticks(numbers))
        plt.yticks(_whole_ticks([0, *margins], 6))  # written points are whole too
        plt.xlabel(_("finished match, oldest first"))
    widget.refresh()
