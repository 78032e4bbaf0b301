"""What the engine and the solver answer on seeded rounds and positions, one line per item.

The differential test (``test_differential.py``, ``make differential``) runs this once with
the compiled build and once with ``BELA_PURE=1`` and compares the output line by line: both
builds must give identical answers. Each line is a digest of everything one seeded item
produced, so that 10,000 rounds compare as 10,000 short lines; ``--only N --full`` prints the
whole of item N, to see where two builds part.

A round (seed ``i``, dealer ``i % 4``, the house rules ``RULES[i % len(RULES)]``) is played
three ways from the same deal: by ``legal_actions`` and ``push`` with a seeded random choice
(every legal set, every card mask, every seat's view at each step and the result are
recorded), by ``apply`` (immutable: it must reach the same result) and by ``play_out_random``
(the fast path); its rules, rounds, a view and the actions go through pickle and back.
A solver position (seed ``i``: a deal bid and played at random until 1 to 5
tricks are left, some in the middle of a trick) records ``Solver.solve`` (every legal card's
value and margin, both teams' points, the nodes searched) and ``Solver.value``, and a handful of
deals guessed for the seat to act (``sample_deals``, seeded). A bot round (seed ``i``) is
played by the ``normal`` bot in every seat, or by ``hard`` for every tenth seed (the heuristic
player is compiled too: it is the hard bot's rollouts), each decision with the arena's
per-decision RNG; every action and the result are recorded.

Run: ``python tests/differential_trace.py --rounds N --positions M --bots B``
(``--only KIND --seed I`` prints one item whole).
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import random
import sys
from collections.abc import Iterator

import bela
from bela.ai.base import decision_rng
from bela.ai.hard import HARD, make_hard
from bela.ai.registry import make_bot
from bela.engine import Phase, Round, Rules, cards_in, score_round_detail
from bela.foundation.native import build
from bela.search.sampling import sample_deals
from bela.search.solver import Position, Solver

# House rules rotate by seed, so every variant's code runs in both builds.
RULES: tuple[Rules, ...] = (
    Rules(),
    Rules(no_forced_trump=True),
    Rules(visi=True, stiglja_bonus=100),
    Rules(bela_on_second=True),
    Rules(no_zvanja=True),
    Rules(no_bela=True, tens_over_kings=True),
    Rules(bela_always_counts=True),
    Rules(dosta=True),
)


def round_items(seed: int) -> Iterator[str]:
    """Everything one seeded round answers, in order."""
    rules = RULES[seed % len(RULES)]
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, seed % 4, rules)
    if rules.dosta:  # a claim needs a match score; pretend one near the target
        rnd = rnd.with_claim_context((seed % 400, (seed * 7) % 400), 501)
    start = rnd.copy()
    actions = []
    while not rnd.is_finished:
        legal = rnd.legal_actions()
        yield f"legal {rnd.to_act} {legal!r}"
        if rnd.phase is Phase.PLAYING:
            yield f"mask {rnd.legal_mask():#x} claim {rnd.can_claim()}"
        seat = rnd.to_act
        assert seat is not None
        yield f"view {rnd.view(seat)!r}"
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        rnd.push(action)
    result = rnd.result
    yield f"result {result!r}"
    applied = start
    for action in actions:
        applied = applied.apply(action)
    yield f"apply {applied.result == result} {applied.actions == rnd.actions}"
    # what the lab sends to its workers comes back equal (pickling differs between builds)
    view = rnd.view(seed % 4)
    back = pickle.loads(pickle.dumps((rules, start, rnd, view, tuple(actions))))
    yield (
        f"pickled {back[0] == rules} {back[1].view(0) == start.view(0)} "
        f"{back[2].view(0) == rnd.view(0)} {back[3] == view} {back[4] == tuple(actions)}"
    )
    fast = Round.from_seed(seed, seed % 4, rules).play_out_random(random.Random(seed))
    yield f"fast {fast!r}"
    if result is not None and result.caller is not None and result.claim is None:
        detail = score_round_detail(
            caller=result.caller,
            card_points=result.card_points,
            zvanja=result.zvanja,
            bela=result.bela,
            tricks=result.tricks,
            visi=rules.visi,
            stiglja_bonus=rules.stiglja_bonus,
            bela_always_counts=rules.bela_always_counts,
        )
        yield f"score {detail!r}"


def position_items(seed: int) -> Iterator[str]:
    """The solver's answers on one seeded position, and deals guessed for its mover."""
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, seed % 4)
    while rnd.phase is Phase.BIDDING:
        rnd.push(rng.choice(rnd.legal_actions()))
    tricks_left = 1 + seed % 5
    for _ in range((8 - tricks_left) * 4 + seed % 3):
        rnd.push_card(rng.choice(cards_in(rnd.legal_mask())))
    pos = Position.from_round(rnd)
    solved = Solver(pos.trump).solve(pos)
    yield f"solve {pos!r} {solved!r} nodes {solved.nodes}"
    yield f"value {Solver(pos.trump, stiglja=seed % 2 == 0).value(pos)}"
    seat = rnd.to_act
    assert seat is not None
    for hands in sample_deals(rnd.view(seat), random.Random(seed), 4):
        yield f"deal {[f'{h:#x}' for h in hands]}"


def bot_items(seed: int) -> Iterator[str]:
    """Every decision of one seeded round played by ``normal`` (``hard`` every tenth seed).

    ``hard`` with its compiled build's budgets (``HARD``) in both builds: ``make_bot("hard")``
    searches fewer deals on the pure build by design (``PURE_SHARE``), a different player.
    """
    bot = make_hard(HARD) if seed % 10 == 0 else make_bot("normal")
    rnd = Round.from_seed(seed, seed % 4, RULES[seed % len(RULES)])
    step = 0
    while rnd.to_act is not None:
        seat = rnd.to_act
        action = bot.act(rnd.view(seat), decision_rng(seed, 0, step))
        yield f"{seat} {action!r}"
        rnd.push(action, seat)
        step += 1
    yield f"result {rnd.result!r}"


def digest(items: Iterator[str]) -> str:
    h = hashlib.sha256()
    for item in items:
        h.update(item.encode())
        h.update(b"\n")
    return h.hexdigest()[:20]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=0)
    parser.add_argument("--positions", type=int, default=0)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--bots", type=int, default=0, help="rounds played by the bots")
    parser.add_argument("--only", choices=tuple(ITEMS), help="one item, in full")
    parser.add_argument("--seed", type=int, default=0, help="the item --only prints")
    args = parser.parse_args()
    out = sys.stdout
    if args.only:
        for item in ITEMS[args.only](args.seed):
            out.write(item + "\n")
        return
    # the first line says which build answered (the test checks it is the one it asked for)
    out.write(f"build {build()} {bela.engine.round.__file__.rsplit('.', 1)[-1]}\n")
    for seed in range(args.first, args.first + args.rounds):
        out.write(f"round {seed} {digest(round_items(seed))}\n")
    for seed in range(args.first, args.first + args.positions):
        out.write(f"position {seed} {digest(position_items(seed))}\n")
    for seed in range(args.first, args.first + args.bots):
        out.write(f"bot {seed} {digest(bot_items(seed))}\n")


ITEMS = {"round": round_items, "position": position_items, "bot": bot_items}


if __name__ == "__main__":
    main()
