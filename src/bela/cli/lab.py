"""``bela lab``: the lab's long runs, for whoever refits a bot.

* ``bela lab bid-data``: bidding situations labelled by search over guessed
  deals (``bela.lab.bid_data``), one JSON line each, written as they come so a
  run cut short keeps what it did;
* ``bela lab bid-fit``: fit ``normal``'s bid model to such a file
  (``bela.lab.bid_fit``; needs the ``lab`` extra, numpy and scikit-learn), print
  the held-out comparison with the search's choices, and write the weights;
* ``bela lab train-locations``: self-play data and the fit of the card-location model
  (``bela.lab.locations``, plain Python), its loss printed each pass, the weights written.

The options live here rather than in ``options.py`` so the command is one
module; ``options.py`` only registers the subparser.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bela.cli.common import CliError, writing_output
from bela.foundation.untrusted import shown, shown_path
from bela.i18n import _, ngettext

__all__ = ["LabOptions", "add_lab_parser", "lab_options", "run_lab"]

MAX_SITUATIONS = 1_000_000
MAX_SAMPLES = 10_000
MAX_ROUNDS = 1_000_000
MAX_EPOCHS = 1_000


@dataclass(frozen=True, slots=True)
class LabOptions:
    """``bela lab bid-data`` (``data`` is None) or ``bela lab bid-fit DATA``."""

    task: str
    out: Path
    situations: int = 0
    seed: int = 1
    jobs: int | None = None
    samples: int = 48
    policy: str = "normal-v1"
    cluster: str | None = None
    data: Path | None = None
    alpha: float = 1.0
    rounds: int = 0
    epochs: int = 3


def add_lab_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``lab`` subparser (with ``bid-data`` and ``bid-fit``) to ``commands``."""
    from bela.cli.options import (
        COMMANDS,
        MAX_JOBS,
        _count,
        _Parser,
        add_cluster_option,
        parse_seed,
    )

    lab: argparse.ArgumentParser = commands.add_parser(
        "lab",
        help=_(COMMANDS["lab"]),
        description=_(
            "Long runs for refitting the bots: bidding situations labelled by search, "
            "and the fit of normal's bid model to them."
        ),
        allow_abbrev=False,
    )
    tasks = lab.add_subparsers(dest="lab_task", metavar="TASK", parser_class=_Parser)
    tasks.required = True
    data = tasks.add_parser(
        "bid-data",
        help=_("label bidding situations by search over guessed deals"),
        description=_(
            "Deal seeded rounds, walk their bidding with the policy bot, and label every "
            "situation met (all four places in the bidding, the forced dealer included) with what "
            "each choice (dalje, each suit) is worth in written points, our team minus theirs, "
            "averaged over guessed deals played out by the policy bot and solved at the end. The "
            "same seed gives the same file for any --jobs. Progress goes to stderr."
        ),
        epilog=_("example: bela lab bid-data --situations 5000 --seed 1 --jobs 2 --out bids.jsonl"),
        allow_abbrev=False,
    )
    data.add_argument(
        "--situations",
        type=_count(1, MAX_SITUATIONS),
        required=True,
        metavar="N",
        help=_("how many situations to label, 1 to {max}").format(max=f"{MAX_SITUATIONS:,}"),
    )
    data.add_argument("--seed", type=parse_seed, default=1, help=_("seed of the deals (default 1)"))
    data.add_argument(
        "--jobs",
        type=_count(1, MAX_JOBS),
        metavar="N",
        help=_("worker processes (default: the CPUs bela may use; the file is the same for any N)"),
    )
    data.add_argument(
        "--samples",
        type=_count(1, MAX_SAMPLES),
        default=48,
        metavar="N",
        help=_("guessed deals per situation, each choice played on each (default 48)"),
    )
    data.add_argument(
        "--policy",
        default="normal-v1",
        metavar="BOT",
        help=_("the bot that bids and plays the guessed deals out (default normal-v1)"),
    )
    data.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help=_("a new file for the JSON lines")
    )
    add_cluster_option(data)
    fit = tasks.add_parser(
        "bid-fit",
        help=_("fit normal's bid model to labelled situations"),
        description=_(
            "Fit the bid model (ridge regression per place in the bidding) to a "
            "bid-data file, print how often it chooses what the search chose on held-out "
            "situations (every fifth deal) and what it loses where it does not, next to "
            "normal-v1's threshold, and write the weights. Needs the lab extra "
            "(pip install 'croatian-bela[lab]')."
        ),
        epilog=_("example: bela lab bid-fit bids.jsonl --out src/bela/ai/normal/bid_weights.json"),
        allow_abbrev=False,
    )
    fit.add_argument("data", type=Path, metavar="DATA", help=_("a bid-data file (JSON lines)"))
    fit.add_argument(
        "--out", type=Path, required=True, metavar="WEIGHTS", help=_("where to write the weights")
    )
    fit.add_argument(
        "--alpha",
        type=float,
        default=1.0,
        metavar="A",
        help=_("ridge penalty (default 1.0)"),
    )
    locations = tasks.add_parser(
        "train-locations",
        help=_("learn where the hidden cards are from self-play"),
        description=_(
            "Play seeded self-play rounds with the policy bot, take every card decision's view "
            "as an example of where the unseen cards really were, fit the card-location model "
            "(every fifth round held out) and print its loss after each pass next to the "
            "baseline's (each seat in proportion to the cards it holds), then write the "
            "weights. The same arguments give the same weights."
        ),
        epilog=_(
            "example: bela lab train-locations --rounds 2000 --seed 1 --out locations.json.gz"
        ),
        allow_abbrev=False,
    )
    locations.add_argument(
        "--rounds",
        type=_count(1, MAX_ROUNDS),
        required=True,
        metavar="N",
        help=_("self-play rounds to learn from, 1 to {max}").format(max=f"{MAX_ROUNDS:,}"),
    )
    locations.add_argument(
        "--seed", type=parse_seed, default=1, help=_("seed of the deals (default 1)")
    )
    locations.add_argument(
        "--policy",
        default="normal",
        metavar="BOT",
        help=_("the bot that plays the rounds in every seat (default normal)"),
    )
    locations.add_argument(
        "--epochs",
        type=_count(1, MAX_EPOCHS),
        default=3,
        metavar="N",
        help=_("passes over the data (default 3)"),
    )
    locations.add_argument(
        "--out", type=Path, required=True, metavar="WEIGHTS", help=_("where to write the weights")
    )
    return lab


def lab_options(args: argparse.Namespace) -> LabOptions:
    """The parsed ``bela lab`` arguments as options."""
    if args.lab_task == "bid-fit":
        return LabOptions(task="bid-fit", out=args.out, data=args.data, alpha=args.alpha)
    if args.lab_task == "train-locations":
        return LabOptions(
            task="train-locations",
            out=args.out,
            rounds=args.rounds,
            seed=args.seed,
            policy=args.policy,
            epochs=args.epochs,
        )
    return LabOptions(
        task="bid-data",
        out=args.out,
        situations=args.situations,
        seed=args.seed,
        jobs=args.jobs,
        samples=args.samples,
        policy=args.policy,
        cluster=args.cluster,
    )


def run_lab(options: LabOptions, out: TextIO, err: TextIO) -> int:
    """Run a lab task."""
    if options.task == "bid-fit":
        return _bid_fit(options, out)
    if options.task == "train-locations":
        return _train_locations(options, out)
    return _bid_data(options, out, err)


def _train_locations(options: LabOptions, out: TextIO) -> int:
    """Self-play data, the fit and its losses (the lab's own English lines, as bid-fit's)."""
    from bela.cli.common import check_bots
    from bela.lab.locations import examples, fit

    check_bots((options.policy,))
    start = time.monotonic()
    data = list(examples(options.seed, options.rounds, options.policy))
    cards = sum(len(ex.cards) for ex in data)

    def say(line: str) -> None:
        with writing_output():
            print(line, file=out, flush=True)

    say(
        f"{len(data)} views ({cards} unseen cards more than one seat may hold) from "
        f"{options.rounds} rounds of {options.policy} self-play, seed {options.seed}, "
        f"in {time.monotonic() - start:.0f} s; every fifth round held out"
    )

    def epoch(n: int, train: float, held: float) -> None:
        say(f"pass {n}: loss {train:.4f} training, {held:.4f} held out")

    model, report = fit(data, epochs=options.epochs, seed=options.seed, on_epoch=epoch)
    say(
        f"baseline (each seat by the cards it holds): {report.baseline_train:.4f} training, "
        f"{report.baseline_held:.4f} held out; {time.monotonic() - start:.0f} s in all"
    )
    try:
        model.save(options.out)
    except OSError as exc:
        raise CliError(
            _("cannot write {file}: {reason}").format(
                file=shown_path(options.out), reason=exc.strerror
            )
        ) from None
    say(f"weights written to {options.out}")
    return 0


def _bid_data(options: LabOptions, out: TextIO, err: TextIO) -> int:
    from bela.cli.common import check_bots, usable_cpus
    from bela.lab.bid_data import BidDataConfig, generate

    check_bots((options.policy,))
    if options.out.exists():
        raise CliError(
            _("{file} exists: give a new file for the data").format(file=shown_path(options.out))
        )
    jobs = options.jobs if options.jobs is not None else usable_cpus()
    config = BidDataConfig(samples=options.samples, policy=options.policy)
    bar = _Progress(err, options.situations)
    n = 0
    try:
        handle = open(options.out, "x", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise CliError(
            _("cannot write {file}: {reason}").format(
                file=shown_path(options.out), reason=exc.strerror
            )
        ) from None
    from bela.cli.cluster import cluster_errors

    with handle, cluster_errors():
        rows = generate(
            options.seed,
            options.situations,
            config,
            jobs=jobs,
            cluster=options.cluster,
            progress=bar,
        )
        for row in rows:
            handle.write(json.dumps(row, separators=(",", ":")) + "\n")
            handle.flush()
            n += 1
    bar.close()
    with writing_output():
        print(
            ngettext(
                "{n} situation written to {file}", "{n} situations written to {file}", n
            ).format(n=n, file=shown_path(options.out)),
            file=out,
        )
    return 0


def _bid_fit(options: LabOptions, out: TextIO) -> int:
    assert options.data is not None
    try:
        import numpy  # noqa: F401
        import sklearn  # noqa: F401
    except ModuleNotFoundError:
        raise CliError(
            _("bid-fit needs numpy and scikit-learn: pip install 'croatian-bela[lab]'"), 1
        ) from None
    from bela.lab.bid_fit import main_fit

    if not options.data.is_file():
        raise CliError(_("no data file {file}").format(file=shown_path(options.data)))
    try:
        lines = main_fit(options.data, options.out, options.alpha)
    except (ValueError, KeyError, TypeError) as exc:
        raise CliError(
            _("{file} is not bid data: {reason}").format(
                file=shown_path(options.data), reason=shown(str(exc))
            )
        ) from None
    with writing_output():
        for line in lines:
            print(line, file=out)
    return 0


class _Progress:
    """'done / asked, elapsed, left' on stderr: in place on a terminal, a line a half-minute
    in a log."""

    def __init__(self, err: TextIO, total: int) -> None:
        self.err = err
        self.total = total
        self.start = time.monotonic()
        self.shown = 0.0
        self.tty = err.isatty()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.shown < (0.5 if self.tty else 30.0) and done < total:
            return
        self.shown = now
        spent = now - self.start
        left = spent / done * (total - done) if done else 0.0
        line = _("bid-data: {done}/{total} situations, {spent} s, about {left} s left").format(
            done=done, total=total, spent=f"{spent:.0f}", left=f"{left:.0f}"
        )
        with contextlib.suppress(OSError):  # stderr gone: the data is still written
            if self.tty:
                print("\r" + line, end="", file=self.err, flush=True)
            else:
                print(line, file=self.err, flush=True)

    def close(self) -> None:
        if self.tty:
            with contextlib.suppress(OSError):
                print(file=self.err, flush=True)
