"""bela: Croatian Bela in the terminal."""

from bela.foundation.native import choose as _choose_build

__version__ = "0.1.0"

# Before anything imports the engine: the compiled build if it is whole and current, else the
# pure one (bela.foundation.native says why).
_choose_build()
