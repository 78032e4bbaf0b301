"""Where a server of many workers sends a player on: a worker's address, and the check of
the host a ``Redirect`` names.

A worker is reached at the host its machine advertises (``bela server --advertise HOST``)
and its port. A redirect carries the host only when the worker is on another machine than
the one the player is at (a worker of the same machine is reached at the address the player
used for this one, as before there were several machines): so an older client, which knows
only a port, keeps working wherever it is not sent across machines, and an older server's
redirects (a port only) keep working with a newer client.

The host in a redirect is network data from whoever answered: ``valid_host`` takes only a
host name (letters, digits and hyphens in dot-separated labels, 253 characters at most, not
all digits at its end) or an IP address literal (without a zone: a zone means nothing on
another machine). Anything else (control characters, spaces, a URL, a port glued on) is
refused before the client connects anywhere; the certificate check then refuses a host that
shows another certificate, as for any worker.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Final

__all__ = ["HOST_LIMIT", "Address", "redirect_frame", "valid_host"]

HOST_LIMIT: Final = 253
"""A DNS name's longest written form (RFC 1035), and so a redirect's host's."""

Address = tuple[str | None, int]
"""A worker's (advertised host, port); the host is None where its machine advertises none
(players reach it at the address they used for the front door)."""

_LABEL: Final = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\Z", re.ASCII)


def valid_host(text: str) -> bool:
    """``text`` is a host name or an IP address literal a client may connect to."""
    if not text or len(text) > HOST_LIMIT or not text.isascii():
        return False
    if ":" in text:  # only an IPv6 address has colons (never "host:port")
        if "%" in text:
            return False
        try:
            ipaddress.IPv6Address(text)
        except ValueError:
            return False
        return True
    name = text.removesuffix(".")
    labels = name.split(".")
    if not all(_LABEL.match(label) for label in labels):
        return False
    if labels[-1].isdigit():  # an IPv4 address, written in full, or a name mistaken for one
        try:
            ipaddress.IPv4Address(name)
        except ValueError:
            return False
    return True


def redirect_frame(to: Address, here: str | None) -> dict[str, object]:
    """The ``redirect`` frame sending a player to the worker at ``to`` from a machine that
    advertises ``here``: with the host only when it is another machine's."""
    host, port = to
    frame: dict[str, object] = {"type": "redirect", "port": port}
    if host is not None and host != here:
        frame["host"] = host
    return frame
