"""Every figure of the Results page (docs/results.md), checked by running its command.

The page's result tables have the columns *result, command, prints, time, measured, run*.
Each row's command (one code span, a ``deductive ...`` command line) runs through the
command line in a fresh directory; every code span of *prints* must appear in what it
prints, runs of whitespace counting as one space. Rows marked ``fast`` (under a minute on
the reference machine) run by default, rows marked ``slow`` only with ``--runslow``. A
command that reads ``benchmarks/...`` runs beside the repository's ``benchmarks``
folder; one that reads a Debian word list under ``/usr/share/dict`` is skipped where the
list is absent.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from deductive.cli import cli

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "results.md"
COLUMNS = ("result", "command", "prints", "time", "measured", "run")
#: a date, and the commit that measured it when it was not measured again that day
MEASURED = re.compile(r"\d{4}-\d{2}-\d{2}( \([0-9a-f]{7,40}\))?")
CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Result:
    line: int
    command: str
    prints: tuple[str, ...]
    fast: bool

    def param(self):
        marks = [] if self.fast else [pytest.mark.slow]
        return pytest.param(self, id=f"results.md:{self.line}", marks=marks)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def parse(text: str) -> list[Result]:
    """The rows of every result table of ``text``; a malformed row raises ValueError."""
    results, in_table = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|"):
            in_table = False
            continue
        cells = _cells(line)
        if tuple(cells) == COLUMNS:
            in_table = True
            continue
        if not in_table or set(line) <= set("|-: "):
            continue
        where = f"docs/results.md:{number}"
        if len(cells) != len(COLUMNS):
            raise ValueError(f"{where}: {len(cells)} cells, not {len(COLUMNS)} (a '|' inside "
                             "a cell?)")
        row = dict(zip(COLUMNS, cells))
        command = CODE.fullmatch(row["command"])
        if not command or not command.group(1).startswith("deductive "):
            raise ValueError(f"{where}: the command must be one code span, `deductive ...`")
        prints = tuple(CODE.findall(row["prints"]))
        if not prints:
            raise ValueError(f"{where}: no `figure` in the prints column")
        if row["run"] not in ("fast", "slow"):
            raise ValueError(f"{where}: run is {row['run']!r}, not fast or slow")
        if not MEASURED.fullmatch(row["measured"]) or not row["time"]:
            raise ValueError(f"{where}: measured must be a date (and the commit), time given")
        results.append(Result(number, command.group(1), prints, row["run"] == "fast"))
    return results


RESULTS = parse(PAGE.read_text(encoding="utf-8"))


def _squeeze(text: str) -> str:
    return " ".join(text.split())


def test_the_page_holds_results_fast_and_slow():
    assert len(RESULTS) >= 40
    commands = [r.command for r in RESULTS]
    assert len(set(commands)) == len(commands), "a command listed twice"
    fast = [r for r in RESULTS if r.fast]
    assert len(fast) >= len(RESULTS) // 2


def test_a_malformed_row_is_refused():
    head = "| " + " | ".join(COLUMNS) + " |\n| --- | --- | --- | --- | --- | --- |\n"
    good = "| x | `deductive lists` | `wordle` | 1 s | 2026-12-03 | fast |"
    assert parse(head + good)[0].prints == ("wordle",)
    for bad in ("| x | `deductive lists` | `wordle` | 1 s | 2026-12-03 | quick |",
                "| x | `python x.py` | `wordle` | 1 s | 2026-12-03 | fast |",
                "| x | `deductive lists` | wordle | 1 s | 2026-12-03 | fast |",
                "| x | `deductive lists` | `wordle` | 1 s | yesterday | fast |",
                "| x | `deductive lists` | `a|b` | 1 s | 2026-12-03 | fast |"):
        with pytest.raises(ValueError):
            parse(head + bad)


@pytest.mark.parametrize("result", [r.param() for r in RESULTS])
def test_result(result: Result, tmp_path, monkeypatch):
    args = shlex.split(result.command)[1:]
    for arg in args:
        if arg.startswith("/usr/share/dict/") and not os.path.exists(arg):
            pytest.skip(f"{arg} is absent (a Debian word list)")
    if any(arg.startswith("benchmarks/") for arg in args):
        (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks")
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, f"{result.command}\n{out.output}\n{out.exception!r}"
    printed = _squeeze(out.output)
    missing = [figure for figure in result.prints if _squeeze(figure) not in printed]
    assert not missing, f"{result.command} printed\n{out.output}\nwithout {missing}"
