"""Archives of matches played at random, and the numbers counted straight from their records.

The history and statistics tests compare what the SQLite index says with what
these plain loops over the record files count, so a wrong query cannot hide
behind a wrong expectation built the same way.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

from bela.archive.records import MatchRecord, record_from_match, seated
from bela.archive.storage import archive_match, matches_dir, read_record
from bela.engine import Match, Pass, Rules


def random_match(
    seed: int, steps: int | None = None, target: int = 501, rules: Rules | None = None
) -> Match:
    """The match of ``seed`` after ``steps`` random legal actions (to its end when None)."""
    rng = random.Random(seed)
    match = Match.new(seed, target=target, rules=rules or Rules())
    done = 0
    while match.current is not None and (steps is None or done < steps):
        match = match.apply(rng.choice(match.current.legal_actions()))
        done += 1
    return match


def hard_in_seat_zero(seed: int) -> Match:
    """The first round of the match of ``seed`` with the hard bot playing seat 0 from its
    own view (as the app's bots do: ``bot_action``), the other seats at random. Seed 4's
    round has a card of the hard bot's that the double dummy says gave 8 points away."""
    from bela.ai import make_bot
    from bela.ai.driver import bot_action

    hard = make_bot("hard")
    rng = random.Random(seed)
    match = Match.new(seed, target=163)
    while match.current is not None and not match.rounds:
        seat = match.current.to_act
        action = bot_action(match, hard) if seat == 0 else rng.choice(match.current.legal_actions())
        match = match.apply(action)
    return match


def archive(match: Match, difficulty: str = "normal", me: int | None = None) -> Path:
    """Archive ``match``; with ``me``, as a network player's copy from that seat."""
    record = record_from_match(match, difficulty)
    if me is not None:
        record = seated(record, "network", ("Ana", "Ivo", "Mara", "Luka"), me=me)
    return archive_match(record)


def long_match(redeals: int, seed: int = 5) -> Match:
    """A finished match of more than ``redeals`` rounds: everyone passes that many times first.

    Under ``no_forced_trump`` four passes void the deal, and each void deal is a
    round of its own on the score sheet.
    """
    rng = random.Random(seed)
    match = Match.new(seed, target=501, rules=Rules(no_forced_trump=True, visi=True))
    while match.current is not None:
        legal = match.current.legal_actions()
        if match.next_index < redeals and Pass() in legal:
            match = match.apply(Pass())
        else:
            match = match.apply(rng.choice(legal))
    return match


def records() -> list[MatchRecord]:
    """Every record in the archive that loads (the damaged ones are the tests' own business)."""
    found = []
    for path in sorted(matches_dir().glob("*.json")):
        try:
            found.append(read_record(path))
        except (OSError, ValueError):
            continue
    return found


def direct_counts(recs: list[MatchRecord]) -> dict[str, Any]:
    """The statistics, counted by hand from the records themselves."""
    outcome = Counter[str]()
    by_level: dict[str, Counter[str]] = {}
    n = Counter[str]()
    for rec in recs:
        me = rec.me or 0  # a network copy counts from its player's seat
        ours = me % 2
        result = "unfinished" if rec.winner is None else "won" if rec.winner == ours else "lost"
        outcome[result] += 1
        level = rec.difficulty if rec.players is None else "network"  # filed as one
        by_level.setdefault(level, Counter())[result] += 1
        for entry in rec.rounds:
            r = entry.result
            if r is None:
                continue
            n["rounds"] += 1
            n["redeals"] += r.redeal
            if r.caller is not None:
                team = "mi" if r.caller % 2 == ours else "vi"
                n[f"{team}_called"] += 1
                n[f"{team}_made"] += not r.fell
                if r.caller == me:
                    n["you_called"] += 1
                    n["you_made"] += not r.fell
            for side, team in enumerate(("mi", "vi")):
                t = (ours + side) % 2  # the team of the record that is "mi" or "vi" here
                n[f"written_{team}"] += r.written[t]
                n[f"zvanja_rounds_{team}"] += r.zvanja[t] > 0
                n[f"zvanja_points_{team}"] += r.zvanja[t]
                n[f"bela_{team}"] += r.bela[t] > 0
                n[f"stiglja_{team}"] += r.stiglja == t
                n[f"belot_{team}"] += r.belot == t
    return {"outcome": outcome, "by_level": by_level, "n": n}
