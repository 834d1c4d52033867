"""Reaching a Dask scheduler: its address checked, a probe that it answers as Dask does
within a timeout, and calls to it bounded in time (a scheduler may stop answering)."""

from __future__ import annotations

from ..errors import DeductiveError


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise DeductiveError("Dask is not installed: pip install 'deductive[dask]'") from None
    return distributed


#: Seconds a scheduler at an address has to answer (``--timeout``).
CONNECT_TIMEOUT = 10.0


def scheduler_address(address: str) -> tuple[str, str, int]:
    """Check a scheduler address; return it as ``tcp://HOST:PORT``, with host and port.

    Dask's schedulers listen on ``tcp://HOST:PORT`` (``HOST:PORT`` means the same). Other
    protocols get one line that says why: ``tls://`` needs certificates the command line
    does not configure, ``http://`` is the dashboard's web address, not the scheduler's.
    """
    from urllib.parse import urlsplit

    example = "give tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
    text = str(address).strip()
    scheme, _, rest = text.rpartition("://")
    scheme = scheme.lower() or "tcp"
    if scheme in ("http", "https", "ws", "wss"):
        raise DeductiveError(f"--scheduler {text}: that is a web address (the dashboard's?); "
                             f"the scheduler itself listens on tcp://HOST:8786 by default; "
                             f"{example}")
    if scheme == "tls":
        raise DeductiveError(f"--scheduler {text}: tls:// needs TLS certificates (a Dask "
                             "Security object), which the command line does not set up; "
                             "reach the scheduler over tcp://, or use deductive.distributed "
                             "from Python with your own distributed.Client")
    if scheme != "tcp":
        raise DeductiveError(f"--scheduler {text}: unknown protocol {scheme}://; {example}")
    try:
        parts = urlsplit(f"tcp://{rest}")
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or not port or parts.path or parts.query:
        raise DeductiveError(f"--scheduler {text}: not a host and port; {example}")
    shown = f"[{host}]" if ":" in host else host
    return f"tcp://{shown}:{port}", host, port


def probe_scheduler(address: str, host: str, port: int, timeout: float) -> None:
    """Fail within ``timeout`` seconds unless a Dask server answers at ``host:port``.

    ``distributed.Client`` retries a refused connection until its timeout, and waits
    without bound for a server that accepts the connection but never speaks Dask's
    protocol (an HTTP server did not answer for 200 s). A Dask server sends its handshake
    (a msgpack map that names its compression, Python and pickle protocol) as soon as it
    accepts: this reads it on a plain socket, in a thread that name resolution cannot
    hold up either, and then closes (the scheduler logs a connection closed before its
    handshake).
    """
    import queue
    import socket
    import threading

    answers: queue.Queue = queue.Queue()
    connected = threading.Event()

    def probe():
        try:
            with socket.create_connection((host, port), timeout=timeout) as sock:
                connected.set()
                sock.settimeout(2 * timeout)    # the caller's deadline comes first
                data = b""
                while not _handshake(data) and len(data) < HANDSHAKE_MAX:
                    chunk = sock.recv(HANDSHAKE_MAX)
                    if not chunk:
                        break
                    data += chunk
            answers.put(("ok", data) if _handshake(data) else ("other", data))
        except Exception as exc:        # noqa: BLE001 (any failure is an answer to report)
            answers.put(("error", exc))

    threading.Thread(target=probe, name="deductive-probe-scheduler", daemon=True).start()
    try:
        kind, detail = answers.get(timeout=timeout)
    except queue.Empty:
        kind, detail = ("silent", None) if connected.is_set() else ("error", TimeoutError())
    if kind == "ok":
        return
    start = "start one with 'dask scheduler', or check the address"
    if kind == "error" and isinstance(detail, ConnectionRefusedError):
        why = "nothing listens there (connection refused)"
    elif kind == "error" and isinstance(detail, socket.gaierror):
        why = f"the host name does not resolve ({detail.strerror})"
    elif kind == "error" and isinstance(detail, TimeoutError):
        why = f"no answer within {timeout:g} s"
    elif kind == "error":
        why = f"cannot connect ({getattr(detail, 'strerror', None) or detail})"
    else:
        why = (f"the server there does not speak Dask's protocol (no handshake within "
               f"{timeout:g} s)" if kind == "silent" else
               "the server there does not speak Dask's protocol")
        start = "check the address and port (the scheduler's, tcp://HOST:8786 by default)"
    raise DeductiveError(f"cannot reach a Dask scheduler at {address}: {why}; {start}; "
                         "--timeout gives a slow scheduler more time")


#: Most bytes the probe reads of a server's first answer (a Dask handshake is about 100).
HANDSHAKE_MAX = 4096


def _handshake(data: bytes) -> bool:
    """Whether ``data`` begins with a whole Dask handshake as its TCP comm frames it: an
    8-byte length, then that many bytes (at most :data:`HANDSHAKE_MAX`) naming the
    pickle protocol. Bytes that merely look like one still pass here; the client's own
    connection then fails, and :func:`dask_client` turns that into one line."""
    if len(data) < 8:
        return False
    size = int.from_bytes(data[:8], "little")
    return 16 <= size <= HANDSHAKE_MAX and len(data) >= 8 + size and \
        b"pickle-protocol" in data[8:8 + size]


def bounded(call, seconds: float, what: str):
    """``call()``, or one :class:`DeductiveError` if it has not returned within
    ``seconds`` (a scheduler that stopped answering); the call is left in a daemon
    thread. Its own exception is raised here."""
    import queue
    import threading

    out: queue.Queue = queue.Queue()

    def run():
        try:
            out.put((True, call()))
        except BaseException as exc:    # noqa: BLE001 (handed to the caller)
            out.put((False, exc))

    threading.Thread(target=run, name="deductive-bounded", daemon=True).start()
    try:
        ok, value = out.get(timeout=seconds)
    except queue.Empty:
        raise DeductiveError(f"{what} did not answer within {seconds:g} s; check that it "
                             "runs (not stopped or suspended), or raise --timeout") from None
    if not ok:
        raise value
    return value
