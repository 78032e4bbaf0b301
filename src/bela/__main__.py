"""``python -m bela``: the same command line as the ``bela`` script."""

from __future__ import annotations

import sys

from bela.cli import main

if __name__ == "__main__":
    sys.exit(main())
