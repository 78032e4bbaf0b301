"""bela: Croatian Bela in the terminal."""

from bela.foundation.native import choose as _choose_build

__version__ = "0.1.0"
# The name on the package index (pipx install croatian-bela); the command is bela ("bela" on the
# index is another project, an annotation library)
DISTRIBUTION = "croatian-bela"

# Before anything imports the engine: the compiled build if it is whole and current, else the
# pure one (bela.foundation.native says why).
_choose_build()
