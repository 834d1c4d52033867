"""Children that take Ctrl-C again.

A test run started in the background (a CI job, ``pytest &`` in a script) ignores SIGINT,
and every child inherits that, so Python would never raise KeyboardInterrupt in it. Tests
that send SIGINT start their child with ``preexec_fn=sigint_default``.
"""

import signal


def sigint_default() -> None:
    """SIGINT as a terminal's process has it (Python then raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
