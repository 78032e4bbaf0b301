"""The ``bela`` command (a demo round until the app and the full command line land)."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

from bela.engine import Round


def main(argv: Sequence[str] | None = None) -> int:
    """Play one seeded round with random legal moves and print it as text."""
    args = list(sys.argv[1:] if argv is None else argv)
    seed = int(args[0]) if args else random.SystemRandom().getrandbits(32)
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, dealer=3)
    print(f"seed {seed}")
    while not rnd.is_finished:
        action = rng.choice(rnd.legal_actions())
        print(f"seat {rnd.to_act}: {action}")
        rnd = rnd.apply(action)
    print(rnd.result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
