"""Search over the cards: the double-dummy solver, guessed deals and analysis.

The layer between the rules and the players. ``bela.engine`` knows the rules;
this package knows how to look ahead in them: ``solver`` (exact play of an open
deal), ``solver_position`` (a round as the solver sees it), ``sampling`` (deals
that agree with what a seat has seen), ``memory`` (what a seat knows of the other
hands) and ``analysis`` (the best card of a recorded position, for hints).
It imports the engine only; the bots (``bela.ai``) and the lab build on it.
"""
