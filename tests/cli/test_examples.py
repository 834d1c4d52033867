"""Every example runs as written: the command lines (```` ```sh ````) and Python blocks of
README.md, of every page of the manual (docs/) and of ARCHITECTURE.md, and the examples of
every command's ``--help``. Blocks fenced as ```` ```bash ```` (installing, running pytest or
the benchmark suites) and ```` ```text ```` (what a command prints) are not run.

Each block (a fenced block of a page, the Examples of one ``--help``) runs in a fresh
directory, its commands in order (a command may read what an earlier one wrote). Files
an example names are made there first: the original Wordle lists as ``guesses.txt`` and
``answers.txt`` (from ../shared, else the built-in lists with the openers the examples use
added), ``position.txt`` from a real game with the example's ``--mines``. Only two things
are put in place of what this machine cannot have: the placeholder scheduler host becomes
a local scheduler on a loopback port, and ``/tmp/base`` a temporary directory. A block
with a long command (thousands of games, an exact search, a Dask cluster, the benchmark
suites) is marked slow.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from deductive.cli import cli

from tests.conftest import shared_data_dir

ROOT = Path(__file__).resolve().parents[2]
WEB2 = "/usr/share/dict/web2"

#: What makes a command long (minutes, or a Dask cluster): its block is marked slow.
SLOW = ("--games 1000", "--openers 10", "--tree salet.json", "--tree slate.json",
        "--max-guesses 6", "--workers", "--scheduler", "benchmarks/", "git worktree",
        "seed-protocol", "search_opener(", "evil6.json", "proof.jsonl")


@dataclass
class Block:
    where: str
    commands: list[str]
    python: bool = False

    @property
    def slow(self) -> bool:
        return any(mark in command for command in self.commands for mark in SLOW)

    def param(self):
        marks = [pytest.mark.slow] if self.slow else []
        return pytest.param(self, id=self.where, marks=marks)


def _join_continuations(lines):
    commands, current = [], ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        current += line
        if current.strip():
            commands.append(current.strip())
        current = ""
    return commands


def page_blocks(page: Path) -> list[Block]:
    """The ``sh`` and ``python`` blocks of one Markdown page, in order."""
    text = page.read_text(encoding="utf-8")
    name = page.relative_to(ROOT).as_posix()
    blocks = []
    for match in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
        line = text[: match.start()].count("\n") + 1
        lang, body = match.group(1), match.group(2)
        if lang == "python":
            blocks.append(Block(f"{name}:{line}", [body], python=True))
        elif lang == "sh":
            blocks.append(Block(f"{name}:{line}", _join_continuations(body.splitlines())))
    return blocks


def readme_blocks() -> list[Block]:
    return page_blocks(ROOT / "README.md")


def docs_blocks() -> list[Block]:
    """The blocks of the manual's pages and of ARCHITECTURE.md (which the Design page
    includes)."""
    pages = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "ARCHITECTURE.md"]
    return [block for page in pages for block in page_blocks(page)]


def _commands(group, path=()):
    yield path, group
    for name, sub in getattr(group, "commands", {}).items():
        yield from _commands(sub, path + (name,))


def help_blocks() -> list[Block]:
    blocks = []
    for path, command in _commands(cli):
        text = command.help or ""
        examples = text[text.find("Example"):].splitlines()[1:] if "Example" in text else []
        lines = [line.replace("\\\\", "\\") for line in examples if line.strip()]
        blocks.append(Block("help:" + (" ".join(path) or "deductive"),
                            _join_continuations(lines)))
    return blocks


def test_every_command_has_help_examples():
    for block in help_blocks():
        assert block.commands, f"{block.where} has no example"
        assert all(c.startswith(("deductive ", "printf ")) for c in block.commands), block


def test_ci_runs_the_quick_start_as_written():
    quick = readme_blocks()[0]
    assert quick.commands == ["pip install . && deductive wordle openers --top 10",
                              "pip install -e '.[test]' && pytest -n auto"]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    positions = [ci.index(command) for command in quick.commands]
    assert positions == sorted(positions)            # both, in order
    assert ci.index("(cd / && deductive --version)") > positions[-1]


# -- the files examples name ------------------------------------------------------------------
def _word_lists(directory: Path):
    shared = shared_data_dir()
    if shared is not None:
        for name in ("guesses.txt", "answers.txt"):
            shutil.copy(shared / "wordle" / name, directory / name)
        return
    from deductive.engine.words import builtin_answers, builtin_guesses

    extra = {"salet", "reast", "soare", "roate"}     # the examples' openers
    (directory / "guesses.txt").write_text(
        "\n".join(sorted(set(builtin_guesses("en", 5)) | extra)) + "\n")
    (directory / "answers.txt").write_text("\n".join(sorted(builtin_answers("en", 5))) + "\n")


def _position(directory: Path, mines: int):
    """A position met in a real game with that many mines (the preset of that count)."""
    from deductive.engine.minesweeper import Board

    preset = {10: "beginner", 40: "intermediate", 99: "expert"}[mines]
    board = Board.preset(preset, seed=1, first_click="zero")
    board.click(0)
    # Board.draw numbers the columns on len(str(cols)) lines, then each row: "N  cells"
    lines = board.draw().splitlines()[len(str(board.cols)):]
    (directory / "position.txt").write_text("\n".join(line.split()[1] for line in lines) + "\n")


def _prepare(block: Block, directory: Path):
    text = "\n".join(block.commands)
    if WEB2 in text and not os.path.exists(WEB2):
        pytest.skip(f"{WEB2} is absent (Debian package miscfiles)")
    if "guesses.txt" in text or "answers.txt" in text:
        _word_lists(directory)
    if "position.txt" in text:
        mines = re.search(r"position\.txt --mines (\d+)", text)
        _position(directory, int(mines.group(1)))


# -- running ----------------------------------------------------------------------------------
def _env(directory: Path) -> dict:
    shim = directory / ".bin"
    shim.mkdir(exist_ok=True)
    (shim / "deductive").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m deductive "$@"\n')
    (shim / "deductive").chmod(0o755)
    (shim / "python").symlink_to(sys.executable)
    path = os.pathsep.join([str(shim), os.path.dirname(sys.executable), os.environ["PATH"]])
    # not pytest-xdist's worker variables: a pytest command of an example (the benchmarks)
    # would take itself for a worker, and pytest-benchmark then turns its timing off
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    return dict(env, PATH=path, PYTHONPATH=str(ROOT))


def _in_process(command: str, directory: Path, monkeypatch) -> bool:
    """Run ``deductive ...`` or ``printf '...' | deductive ...`` through CliRunner (no
    interpreter start); False for anything else, which goes to a shell."""
    stdin = None
    piped = re.fullmatch(r"printf ('[^']*') \| (deductive .*)", command)
    if piped:
        stdin = shlex.split(piped.group(1))[0].encode().decode("unicode_escape")
        command = piped.group(2)
    if not command.startswith("deductive ") or any(ch in command for ch in "|;&$()<>"):
        return False
    args = shlex.split(command, comments=True)[1:]
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(cli, args, input=stdin if stdin is not None else "")
    assert result.exit_code == 0, f"{command}\n{result.output}\n{result.exception!r}"
    assert "Traceback" not in result.output
    return True


@pytest.fixture
def scheduler_host():
    """A local Dask scheduler with two workers, for the examples' scheduler-host."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def _run_block(block: Block, tmp_path: Path, monkeypatch, request):
    directory = tmp_path / "work"
    directory.mkdir()
    _prepare(block, directory)
    env = _env(directory)
    if block.python:
        script = directory / "example.py"
        script.write_text(block.commands[0])
        out = subprocess.run([sys.executable, str(script)], cwd=directory, env=env,
                             capture_output=True, text=True, timeout=3600)
        assert out.returncode == 0, out.stderr[-3000:]
        return
    if any(command.startswith("git ") or "benchmarks/" in command
           for command in block.commands):
        # a developer's recipe, for a checkout: one script (it may set shell variables),
        # in a clone
        clone = tmp_path / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        script = "set -euo pipefail\n" + "\n".join(block.commands)
        script = script.replace("/tmp/base", str(tmp_path / "base"))
        out = subprocess.run(["bash", "-c", script], cwd=clone, env=env, capture_output=True,
                             text=True, timeout=3600, stdin=subprocess.DEVNULL)
        # --benchmark-compare-fail exits 1 when it flags a median (its documented verdict,
        # on a shared machine sometimes noise): that is the command working
        verdict = "--benchmark-compare-fail" in script and "Performance has regressed" in (
            out.stdout + out.stderr)
        assert out.returncode == 0 or verdict, \
            f"{script}\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}"
        return
    for command in block.commands:
        if "scheduler-host:8786" in command:
            address = request.getfixturevalue("scheduler_host")
            command = command.replace("tcp://scheduler-host:8786", address)
        if _in_process(command, directory, monkeypatch):
            continue
        out = subprocess.run(["bash", "-c", command], cwd=directory, env=env,
                             capture_output=True, text=True, timeout=3600,
                             stdin=subprocess.DEVNULL)
        assert out.returncode == 0, f"{command}\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}"
        assert "Traceback" not in out.stderr, out.stderr[-3000:]


@pytest.mark.parametrize("block", [b.param() for b in readme_blocks()[1:]])
def test_readme_example(block, tmp_path, monkeypatch, request):
    _run_block(block, tmp_path, monkeypatch, request)


@pytest.mark.parametrize("block", [b.param() for b in docs_blocks()])
def test_docs_example(block, tmp_path, monkeypatch, request):
    _run_block(block, tmp_path, monkeypatch, request)


@pytest.mark.parametrize("block", [b.param() for b in help_blocks()])
def test_help_example(block, tmp_path, monkeypatch, request):
    _run_block(block, tmp_path, monkeypatch, request)


def test_slow_marks_leave_most_examples_in_the_default_run():
    blocks = readme_blocks()[1:] + docs_blocks() + help_blocks()
    fast = [b for b in blocks if not b.slow]
    assert len(fast) >= 2 * len(blocks) // 3, [b.where for b in blocks if b.slow]
