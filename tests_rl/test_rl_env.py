"""bela.lab.env: Bela as a PettingZoo AEC environment (issue #26).

Needs the rl extra (pettingzoo, gymnasium, numpy): ``make rl-check`` installs it and runs these;
``make test`` does not, as ``make lab-check`` is kept apart for the lab extra.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from bela.engine import Call, Card, Claim, Pass, Phase, Play, Round, Rules, Suit
from bela.lab.env import (
    ACTIONS,
    OBSERVATION_SIZE,
    BelaEnv,
    action_index,
    action_of,
    observation_layout,
    observe_view,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(dosta=True, no_forced_trump=True), Rules(visi=True, bela_on_second=True)],
    ids=["standard", "dosta, no forced trump", "visi, bela on the second"],
)
def test_pettingzoo_s_own_api_test_passes(rules: Rules) -> None:
    api_test(BelaEnv(rules=rules), num_cycles=400)


def play(env: BelaEnv, seed: int, policy: str = "first") -> list[tuple[str, Any, float]]:
    """One episode with a fixed policy; what each agent saw and got, in order."""
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        seen.append((agent, obs, reward))
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[0] if policy == "first" else legal[-1]))
    return seen


def test_the_mask_is_exactly_the_legal_actions_of_the_seat_to_act() -> None:
    env = BelaEnv(rules=Rules(dosta=True))
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert env.round.to_act == seat
        legal = {action_index(a) for a in env.round.legal_actions()}
        assert set(np.flatnonzero(obs["action_mask"])) == legal
        again = observe_view(env.view(agent))  # what an agent in the arena is handed
        assert np.array_equal(again["observation"], obs["observation"])
        assert np.array_equal(again["action_mask"], obs["action_mask"])
        for number in legal:
            assert action_index(action_of(number, env.view(agent))) == number
        for other in env.possible_agents:
            if other != agent:  # the others may not act: their masks are empty
                assert not env.observe(other)["action_mask"].any()
        env.step(min(legal))


def test_an_observation_is_one_seat_s_view_only() -> None:
    """Two deals that differ only in the other seats' cards look the same to seat 0."""
    rnd = Round.from_seed(11, dealer=3)
    hands = [rnd.hand_mask(s) for s in range(4)]
    talons = [sum(1 << c for c in rnd.talon(s)) for s in range(4)]
    # seats 1 and 2 swap their hands and talons: seat 0 cannot tell
    swapped = Round(
        3, [hands[0], hands[2], hands[1], hands[3]], [talons[0], talons[2], talons[1], talons[3]]
    )
    env_a, env_b = BelaEnv(), BelaEnv()
    env_a.round, env_b.round = rnd, swapped
    env_a._start()
    env_b._start()
    assert env_a.agent_selection == env_b.agent_selection == "seat_0"
    a, b = env_a.observe("seat_0"), env_b.observe("seat_0")
    assert np.array_equal(a["observation"], b["observation"])
    assert np.array_equal(a["action_mask"], b["action_mask"])
    # and the observer's own cards are in it; another seat's view differs
    hand_at = dict((name, at) for name, at, _ in observation_layout())["hand"]
    assert set(np.flatnonzero(a["observation"][hand_at : hand_at + 32])) == set(rnd.hand(0))
    assert not np.array_equal(
        env_a.observe("seat_1")["observation"], env_b.observe("seat_1")["observation"]
    )


def test_rewards_are_the_written_points_of_each_seat_s_team() -> None:
    for zero_sum in (False, True):
        env = BelaEnv(zero_sum=zero_sum)
        for seed in range(6):
            rewards: dict[str, float] = {}
            for agent, _, reward in play(env, seed):
                rewards[agent] = rewards.get(agent, 0.0) + reward
            result = env.round.result
            assert result is not None
            p0, p1 = result.points
            want = (p0 - p1, p1 - p0) if zero_sum else (p0, p1)
            assert rewards == {f"seat_{s}": float(want[s % 2]) for s in range(4)}


def test_the_same_seed_deals_and_plays_the_same_episode() -> None:
    def digest(seen: list[tuple[str, Any, float]]) -> list[tuple[str, bytes, float]]:
        return [(a, o["observation"].tobytes() + o["action_mask"].tobytes(), r) for a, o, r in seen]

    first = digest(play(BelaEnv(), 42))
    assert digest(play(BelaEnv(), 42)) == first
    assert digest(play(BelaEnv(), 43)) != first
    # later deals without a seed follow from the first seed, the dealer turning
    env_a, env_b = BelaEnv(), BelaEnv()
    play(env_a, 5)
    play(env_b, 5)
    env_a.reset()
    env_b.reset()
    assert env_a.round.deal_hands == env_b.round.deal_hands
    assert env_a.round.dealer == 1


def test_house_rules_reach_the_round() -> None:
    env = BelaEnv(rules=Rules(dosta=True), claim_scores=(480, 0), claim_target=501)
    claims = 0
    for seed in range(30):
        env.reset(seed=seed)
        assert env.round.rules == Rules(dosta=True)
        for _agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            claims += int(mask[37])
            env.step(37 if mask[37] else int(np.flatnonzero(mask)[0]))
    assert claims > 0  # team 0 near the target can say "dosta"
    env = BelaEnv(rules=Rules(no_forced_trump=True))
    env.reset(seed=1)
    for _agent in env.agent_iter():  # everyone passes: a void round, nobody writes
        obs, reward, terminated, _, _ = env.last()
        if terminated:
            assert reward == 0.0
            env.step(None)
            continue
        env.step(32)
    assert env.round.result is not None and env.round.result.redeal


def test_actions_number_every_bela_action() -> None:
    assert [action_index(a) for a in (Pass(), Call(Suit.HEARTS), Call(Suit.CLUBS), Claim())] == [
        32,
        33,
        36,
        37,
    ]
    assert {action_index(Play(Card(c))) for c in range(32)} == set(range(32))
    assert ACTIONS == 38
    assert sum(n for _, _, n in observation_layout()) == OBSERVATION_SIZE


def test_bela_is_announced_with_the_card_when_the_rules_allow() -> None:
    env = BelaEnv()
    for seed in range(40):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        if env.round.phase is Phase.FINISHED and any(
            isinstance(a, Play) and a.bela for a in env.round.actions
        ):
            return
    raise AssertionError("no round of 40 announced bela")


def test_the_example_runs_a_random_and_a_normal_agent() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "rl_agents.py"), "--deals", "8"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["random (seats 0, 2)", "normal (seats 1, 3)"]
    assert all(line.endswith("written points in 8 deals") for line in lines)


@pytest.mark.parametrize(
    "action",
    [32.9, 33.99, 32.0, "32", b"32", float("nan"), [32], True, np.float64(32.0)],
)
def test_an_ill_typed_action_is_illegal_and_changes_nothing(action: Any) -> None:
    """``int()`` once played 32.9 as dalje and 33.99 as "call H" (issue #34)."""
    from decimal import Decimal

    from bela.engine import IllegalActionError

    for bad in (action, Decimal(32)):
        env = BelaEnv()
        env.reset(seed=3)
        before = list(env.round.actions)
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert list(env.round.actions) == before


def test_a_play_object_or_a_number_out_of_range_is_illegal() -> None:
    from bela.engine import IllegalActionError

    env = BelaEnv()
    env.reset(seed=3)
    for bad in (Play(Card(0)), -1, 38, 10**400, np.int64(99)):
        with pytest.raises(IllegalActionError):
            env.step(bad)  # type: ignore[arg-type]
    env.step(np.int64(32))  # a numpy integer is a whole number: dalje
    assert env.round.actions[-1] == Pass()


def test_after_the_episode_step_and_last_say_so_instead_of_a_key_error() -> None:
    from bela.engine import IllegalActionError

    env = BelaEnv()
    env.reset(seed=5)
    play(env, 5)
    assert not env.agents
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)
    with pytest.raises(IllegalActionError, match="reset"):
        env.last()
    env.reset(seed=6)  # and the next deal plays as ever
    assert env.agents and env.last()[2] is False
