"""Issue #33, point 1: no seated player can compute the other hands from their own.

A network match was dealt from a 32-bit seed: searching all 2**32 seeds for one's own six
cards took 41 minutes on two cores, and the one seed left then dealt every hand of every
round. A seed nobody may know is now 128 bits from ``secrets``, every bit of it reaches
the deal (and each round's deal, through a 128-bit round seed), and the seeds of today's
records (below 2**64) deal exactly what they dealt before.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from netplay import real_host

from bela.engine import Match, Round, round_seed
from bela.engine.deal import MAX_SEED, SEED_BITS, deal_from_seed, new_seed
from bela.net.client import Client
from bela.net.protocol import State

_WIDE = st.integers(min_value=2**120, max_value=MAX_SEED)
"""Seeds as ``new_seed`` draws them (all but 2**-8 of them are this wide)."""


@settings(max_examples=6, deadline=None)
@given(_WIDE)
def test_every_bit_of_a_seed_changes_the_deal(seed: int) -> None:
    """Flip any one of the 128 bits: another deal (and another first round of the match)."""
    dealt = deal_from_seed(seed, 0)
    first_round = deal_from_seed(round_seed(seed, 0), 0)
    for bit in range(SEED_BITS):
        other = seed ^ (1 << bit)
        assert deal_from_seed(other, 0) != dealt, bit
        assert deal_from_seed(round_seed(other, 0), 0) != first_round, bit


@settings(max_examples=20, deadline=None)
@given(_WIDE, st.integers(min_value=0, max_value=40))
def test_a_wide_match_deals_every_round_from_128_bits(seed: int, index: int) -> None:
    """A 128-bit match's round seeds are 128-bit too (never cut to 64 bits on the way)."""
    rounds = {round_seed(seed, k) for k in range(index, index + 4)}
    assert len(rounds) == 4
    assert max(r.bit_length() for r in rounds) > 100


def test_the_seeds_of_todays_records_deal_what_they_dealt() -> None:
    """Seeds below 2**64 keep their deals (every record and seeded test relies on them)."""
    assert round_seed(1, 0) == 6791897765849424158
    assert " ".join(map(str, Round.from_seed(2026, 3).hand(0))) == "8H 9H QH 10D QD QC"
    assert Match.new(2**64 - 1).seed == 2**64 - 1


def test_a_new_seed_is_128_bits_from_secrets() -> None:
    seeds = [new_seed() for _ in range(32)]
    assert len(set(seeds)) == 32
    assert all(0 <= s <= MAX_SEED for s in seeds)
    assert max(s.bit_length() for s in seeds) > 120  # 32 draws below 2**120: 2**-256


async def test_the_real_host_deals_a_network_match_from_a_128_bit_seed(tmp_path: Path) -> None:
    """``bela host`` (a real process) starts a match for a seated client: its save holds a
    seed of more than 64 bits, and that seed's first round dealt the hand the client got."""
    async with real_host(tmp_path, "--bots", "random") as (port, code):
        ana = await Client.connect("127.0.0.1", port, code, "Ana")
        await ana.send({"type": "start"})
        while not isinstance(state := await asyncio.wait_for(ana.receive(), 20), State):
            pass
        saves = list((tmp_path / "tables").glob("*.json"))
        assert len(saves) == 1
        seed = json.loads(saves[0].read_text())["record"]["seed"]
        assert seed.bit_length() > 64, seed
        match = Match.new(seed)
        assert match.current is not None
        assert sorted(state.view.hand) == sorted(str(c) for c in match.current.hand(state.seat))
        await ana.close()
