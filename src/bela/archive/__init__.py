"""The archive: what bela keeps of the past and how it reads it back.

Match records (``records``, ``record_basics``), the autosave and the matches folder
(``storage``), the history index (``history``), the statistics drawn from it (``stats``),
the plain-text replay of a record (``replay_text``), and the puzzles: the pack
(``puzzle_pack``), the player's attempts and ratings (``puzzle_store``, ``glicko``). It
sits beside ``bela.lab`` above the engine, bots and search, and below ``bela.net`` and the
command line and app (the import-linter contract in pyproject.toml). Nothing is imported
here: each module is loaded when it is used, so the first screen does not pay for pydantic.
"""
