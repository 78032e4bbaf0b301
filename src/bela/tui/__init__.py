"""The Textual app: a whole match of Bela against three bots, in the terminal.

``run_app`` is what ``bela play`` calls; ``BelaApp`` is the app itself (tests
build it directly, with the bots' delays set to zero).
"""

from bela.tui.app import BelaApp, run_app

__all__ = ["BelaApp", "run_app"]
