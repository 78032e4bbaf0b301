"""Two agents through bela's PettingZoo environment: a random one and bela's ``normal`` bot.

The random agent (seats 0 and 2) picks any action its mask allows, as an outside agent
would see it: a vector and a mask. ``normal`` (seats 1 and 3) acts on the seat's
``SeatView`` (``env.view(agent)``), the input all bela's bots take, and its action goes back
in as the environment's number (``action_index``). Nothing is trained; it prints each team's
written points over the deals.

Needs the rl extra: ``pip install -e '.[rl]'`` (or ``make rl-check``), then
``python examples/rl_agents.py [--deals N] [--seed S]``.
"""

from __future__ import annotations

import argparse

import numpy as np

from bela.ai import decision_rng, make_bot
from bela.lab.env import BelaEnv, action_index


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = BelaEnv()
    normal = make_bot("normal")
    rng = np.random.default_rng(args.seed)
    totals = {"random (seats 0, 2)": 0.0, "normal (seats 1, 3)": 0.0}
    for deal in range(args.deals):
        env.reset(seed=args.seed if deal == 0 else None)
        step = 0
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            seat = int(agent[-1])
            if seat == 0:  # one agent of each team collects its team's reward
                totals["random (seats 0, 2)"] += reward
            elif seat == 1:
                totals["normal (seats 1, 3)"] += reward
            if terminated or truncated:
                env.step(None)
                continue
            if seat % 2 == 0:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            else:
                view = env.view(agent)
                action = action_index(normal.act(view, decision_rng(args.seed, deal, step)))
            env.step(action)
            step += 1
    for name, points in totals.items():
        print(f"{name}: {points:.0f} written points in {args.deals} deals")


if __name__ == "__main__":
    main()
