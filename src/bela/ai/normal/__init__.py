"""The parts of the ``normal`` player (``HeuristicBot``), which ``hard`` also uses.

``heuristic`` is the player; ``bidding`` decides a call from the six cards,
``leads`` and ``judgement`` choose and weigh a card in play, and ``endgame``
plays the last tricks exactly when few cards are left.
"""
