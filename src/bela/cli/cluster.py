"""``--cluster``'s failures as one line: no Ray installed, or a cluster that does not answer.

The arena and the ladder raise ``bela.lab.runner.ClusterError`` before they
play anything; here it becomes a ``CliError`` with exit code 1 (not the
input's fault: the surroundings), like any other missing part.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bela.cli.common import EXIT_ENVIRONMENT, CliError

__all__ = ["cluster_errors"]


@contextmanager
def cluster_errors() -> Iterator[None]:
    """Turn a ``ClusterError`` raised inside into the command's one-line error."""
    from bela.lab.runner import ClusterError

    try:
        yield
    except ClusterError as exc:
        raise CliError(str(exc), EXIT_ENVIRONMENT) from None
