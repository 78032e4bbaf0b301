"""Play with friends: a table on the network (issue #16).

``protocol`` (the messages), ``views`` (what one seat is sent), ``table`` (one
table: seats, match, bots), ``saves`` (tables on disk), ``server`` (the host),
``client`` (a seat's connection) and ``ssh`` (the app over SSH). See
``docs/network.md``.
"""

from typing import Final

DEFAULT_PORT: Final = 4711
"""The port ``bela host`` listens on and ``bela join`` assumes when none is given."""
