"""Bad input anywhere on the command line: one ``error:`` line on stderr, exit status 2, no
traceback, and nothing long computed before it (output paths and plot formats are checked
when the command line is read)."""

import http.server
import socket
import threading
import time

import pytest
from click.testing import CliRunner

from deductive.cli import cli
from deductive.engine.wordle import patterns
from tests.provenance import payload


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def assert_one_error(result, needle=""):
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output and needle in result.stderr, result.stderr


@pytest.fixture
def no_computation(monkeypatch):
    """Every way to a pattern matrix or a game fails the test: the error must come first."""
    from deductive.engine.minesweeper import bench as mines_bench

    def computed(*args, **kwargs):
        raise AssertionError("a computation ran before the error")

    monkeypatch.setattr(patterns, "pattern_matrix", computed)
    monkeypatch.setattr(patterns, "cached_pattern_matrix", computed)
    monkeypatch.setattr(mines_bench, "run_bench", computed)


@pytest.mark.parametrize("command", [
    ["wordle", "bench", "--solver", "random"],
    ["wordle", "second", "--opener", "raise", "--solver", "random"],
    ["wordle", "play", "--answer", "crane", "--solver", "random"],
    ["hangman", "play", "--auto"],
    ["mines", "bench", "--games", "2"],
    ["mines", "play"],
])
def test_negative_seed(command, no_computation):
    assert_one_error(run(*command, "--seed", "-1"), "'--seed': -1 is not in the range 0<=x<=")


@pytest.mark.parametrize("command", [
    ["wordle", "bench", "--prior", "frequency"],
    ["hangman", "solve", "_a__e_", "--prior", "frequency"],
])
def test_unknown_language(command, no_computation):
    assert_one_error(run(*command, "--lang", "xx"), "'xx': wordfreq has no frequencies")


@pytest.mark.parametrize("command", ["probs", "deduce"])
def test_position_that_is_a_folder_or_binary(command, tmp_path):
    assert_one_error(run("mines", command, tmp_path, "--mines", 3), "is a folder")
    binary = tmp_path / "image.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    assert_one_error(run("mines", command, binary, "--mines", 3), "not UTF-8 text")


def test_uppercase_hangman_input_is_folded():
    lower = run("hangman", "solve", "_a__e_", "--wrong", "st", "--json")
    upper = run("hangman", "solve", "_A__E_", "--wrong", "ST", "--json")
    assert lower.exit_code == 0 and upper.exit_code == 0, upper.output
    assert payload(lower.stdout.replace("_a__e_", "")) == \
        payload(upper.stdout.replace("_a__e_", "").replace("_A__E_", "").replace('"ST"', '"st"'))


@pytest.mark.parametrize("address,needle", [
    ("bogus", "not a host and port"),
    ("127.0.0.1:99999", "not a host and port"),
    ("http://127.0.0.1:8787", "that is a web address"),
    ("tls://127.0.0.1:8786", "tls:// needs TLS certificates"),
    ("udp://127.0.0.1:8786", "unknown protocol udp://"),
])
@pytest.mark.parametrize("command", [["wordle", "openers", "--guesses", "fr-seed"],
                                     ["mines", "bench", "--games", "2"]])
def test_malformed_scheduler(command, address, needle):
    start = time.perf_counter()
    assert_one_error(run(*command, "--scheduler", address), needle)
    assert time.perf_counter() - start < 10


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("command", [["wordle", "openers", "--guesses", "fr-seed"],
                                     ["wordle", "second", "--opener", "raise"],
                                     ["mines", "bench", "--games", "2"]])
def test_refused_scheduler_fails_at_once(command, no_computation):
    start = time.perf_counter()
    result = run(*command, "--scheduler", f"tcp://127.0.0.1:{_free_port()}")
    assert_one_error(result, "nothing listens there (connection refused)")
    assert time.perf_counter() - start < 10          # Client alone: the 20 s of its timeout


@pytest.fixture
def http_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_server_that_does_not_speak_dask_fails_within_the_timeout(http_server,
                                                                   no_computation):
    start = time.perf_counter()
    # --timeout after --scheduler: read first all the same
    result = run("wordle", "openers", "--guesses", "fr-seed", "--scheduler", http_server,
                 "--timeout", "1.5")
    assert_one_error(result, "does not speak Dask's protocol (no handshake within 1.5 s)")
    assert time.perf_counter() - start < 10          # Client alone: no answer in 200 s


def test_the_default_timeout_is_at_most_10_seconds():
    from deductive.distributed import CONNECT_TIMEOUT

    result = run("mines", "bench", "--help")
    assert "--timeout" in result.stdout and CONNECT_TIMEOUT <= 10


@pytest.mark.parametrize("command", [
    ["wordle", "bench", "--answers-subset", "3"],
    ["wordle", "openers"],
    ["mines", "play"],
])
def test_plot_to_an_unknown_format_or_unwritable_place(command, tmp_path, no_computation):
    assert_one_error(run(*command, "--plot", tmp_path / "out.xyz"), "unknown plot format 'xyz'")
    assert_one_error(run(*command, "--plot", tmp_path / "missing" / "out.png"),
                     "does not exist")
    assert_one_error(run(*command, "--plot", tmp_path), "is a folder")
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert_one_error(run(*command, "--plot", blocker / "out.png"), "cannot write")


def test_mines_probs_plot_checked_before_reading(tmp_path):
    position = tmp_path / "p.txt"
    position.write_text("xxx\nx1x\nxxx\n")
    assert_one_error(run("mines", "probs", position, "--mines", 1, "--plot", tmp_path / "a.doc"),
                     "unknown plot format 'doc'")


@pytest.mark.parametrize("command", [
    ["wordle", "bench", "--answers-subset", "3", "--tree"],
    ["wordle", "search", "--opener", "raise", "--beam", "1", "--tree"],
])
def test_tree_to_an_unwritable_place(command, tmp_path, no_computation):
    assert_one_error(run(*command, tmp_path / "missing" / "t.json"), "does not exist")
    assert_one_error(run(*command, tmp_path), "is a folder")


def test_checkpoint_to_an_unwritable_place(tmp_path, no_computation):
    assert_one_error(run("wordle", "search", "--openers", 2, "--checkpoint",
                         tmp_path / "no" / "run.jsonl"), "does not exist")
    assert_one_error(run("mines", "bench", "--games", 2, "--workers", 1, "--checkpoint",
                         tmp_path), "is a folder")


def test_matrix_above_the_memory_budget_is_refused_before_building(monkeypatch):
    from deductive.cache import PatternStore

    def computed(*args, **kwargs):
        raise AssertionError("built or read before the check")

    monkeypatch.setattr(patterns, "pattern_matrix", computed)
    monkeypatch.setattr(PatternStore, "load", computed)
    result = run("wordle", "openers", "--max-memory", "1M")
    assert_one_error(result, "pattern matrix needs 30.0 MB, more than the --max-memory budget "
                             "(1.0 MB)")
    assert "raise --max-memory" in result.stderr
    assert_one_error(run("wordle", "bench", "--max-memory", "lots"), "'lots' is not a size")


def test_ctrl_c_is_one_line_and_exit_130():
    """SIGINT while a command waits for input (assist, after its first answer): one line
    "error: aborted" on stderr, no blank line before it (click writes one to end a
    terminal's "^C" echo; stderr is a pipe here, with no echo to end), exit status 130."""
    import os
    import signal
    import subprocess
    import sys

    from tests.signals import sigint_default

    proc = subprocess.Popen([sys.executable, "-m", "deductive", "--threads", "1", "mastermind",
                             "assist"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            preexec_fn=sigint_default)
    watchdog = threading.Timer(120, proc.kill)     # a stuck child ends the reads below
    watchdog.start()
    try:
        proc.stdin.write("1123 1B0W\n")
        proc.stdin.flush()
        assert proc.stdout.readline().startswith("1296 code(s) left")
        assert proc.stdout.readline().startswith("best next:")   # now reading the next line
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        watchdog.cancel()
        proc.kill()
    assert proc.returncode == 130 and err == "error: aborted\n", (proc.returncode, err)


def test_ctrl_c_in_a_terminal_ends_its_echo_first(monkeypatch, capsys):
    """On a terminal the "^C" the terminal echoed is ended by a newline, then the line."""
    import sys

    from deductive.cli import main

    def interrupted(prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr("deductive.cli.feedback.read_line", interrupted)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with pytest.raises(SystemExit) as stop:
        main(["mastermind", "assist"])
    assert stop.value.code == 130 and capsys.readouterr().err == "\nerror: aborted\n"


def test_without_wordfreq_only_the_frequency_prior_needs_it(monkeypatch):
    """A default install has no wordfreq (the freq extra): Hangman's default --lang en must
    not stop a command with a uniform prior; the frequency prior names the extra."""
    import sys

    monkeypatch.setitem(sys.modules, "wordfreq", None)      # import wordfreq fails
    result = run("hangman", "solve", "_a__e_", "--wrong", "st")
    assert result.exit_code == 0 and "best letter" in result.output, result.output
    assert_one_error(run("hangman", "solve", "_a__e_", "--prior", "frequency"),
                     "pip install 'deductive[freq]'")
