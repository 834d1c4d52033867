"""The command line imports a command only when it runs: ``deductive --help``,
``--version`` and every group's ``--help`` import neither numpy nor numba, and what
they print is what the commands themselves would (each lazy command's short help, kept in
``deductive/cli/__init__.py``, is its own)."""

import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from deductive.cli import (bulls_group, cache_group, cli, hangman_group, mastermind_group,
                           mines_group, wordle_group)
from deductive.cli._group import Group

GROUPS = {"deductive": cli, "deductive wordle": wordle_group, "deductive cache": cache_group,
          "deductive hangman": hangman_group, "deductive mines": mines_group,
          "deductive mastermind": mastermind_group, "deductive bulls": bulls_group}
HEAVY = ("numpy", "numba", "h5py", "distributed")
#: The width of a help text in a terminal of 80 columns (click leaves 2 free).
WIDTH = 78


def _fresh(*args, code=""):
    """Run ``deductive args`` in a new interpreter; report what it imported."""
    script = ("import sys\nfrom deductive.cli import main\ntry:\n    main(sys.argv[1:])\n"
              "except SystemExit as exc:\n    status = exc.code\n"
              f"{code}"
              "sys.stderr.write('imported: ' + ' '.join(sorted({m.split('.')[0] for m in "
              "sys.modules})) + '\\n')\nsys.exit(status)\n")
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                          text=True, env=env, timeout=120)


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["wordle", "--help"],
                                  ["cache", "--help"], ["hangman", "--help"],
                                  ["mines", "--help"], ["mastermind", "--help"],
                                  ["bulls", "--help"], ["mastermind"], ["bulls"], ["wordl"]],
                         ids=" ".join)
def test_help_and_version_import_no_engine(args):
    out = _fresh(*args)
    imported = out.stderr.splitlines()[-1].split()[1:]
    assert not set(HEAVY) & set(imported), imported
    if args == ["wordl"]:                  # a typo is told what it may have meant
        assert out.returncode == 2 and "Did you mean 'wordle'?" in out.stderr
    elif args in (["mastermind"], ["bulls"]):      # no command: the group's help
        assert out.returncode == 2 and "Commands:\n  assist " in out.stderr, out.stderr
    else:
        assert out.returncode == 0 and out.stdout, out.stderr


@pytest.mark.parametrize("path", list(GROUPS), ids=str)
def test_lazy_help_is_the_commands_own(path):
    """The help a fresh process prints, with nothing imported, is the one click prints
    from the commands themselves (all imported here)."""
    args = path.split()[1:] + ["--help"]
    lazy = _fresh(*args).stdout
    group = GROUPS[path]
    group.commands                     # imports every command
    ctx = click.Context(group, info_name=path.split()[-1], terminal_width=WIDTH)
    formatter = ctx.make_formatter()
    click.Group.format_commands(group, ctx, formatter)    # click's, from the commands
    assert formatter.getvalue() and formatter.getvalue() in lazy
    loaded = CliRunner().invoke(cli, args, terminal_width=WIDTH, prog_name="deductive")
    assert loaded.exit_code == 0 and loaded.output == lazy


@pytest.mark.parametrize("path", list(GROUPS), ids=str)
def test_every_short_help_kept_for_a_lazy_command_is_its_own(path):
    group = GROUPS[path]
    ctx = click.Context(group)
    for name, (where, short) in group.lazy.items():
        command = group.get_command(ctx, name)
        assert command is not None, f"{where} defines no command {name!r}"
        for limit in range(10, 120):
            assert click.Command(name, help=short).get_short_help_str(limit) == \
                command.get_short_help_str(limit), (path, name, limit)


@pytest.mark.parametrize("path", list(GROUPS), ids=str)
def test_every_command_is_listed(path):
    """A command added to a group's module without its line in the table would be
    unknown until something else imported the module."""
    group = GROUPS[path]
    eager = {name for name, command in group.commands.items() if name not in group.lazy}
    # the groups defined in deductive/cli/__init__.py itself are eager (and light)
    assert eager <= ({"wordle", "mastermind", "bulls", "cache", "hangman", "mines"}
                     if group is cli else set())


def test_a_lazy_group_loads_only_what_it_is_asked_for():
    """Its own commands first, the lazy one on demand, the listing sorted."""
    group = Group("g", lazy={"ping": ("click:echo", "Never read."),
                             "pong": ("tests.cli.test_cli_lazy:_PONG", "Answer.")})

    @group.command()
    def first():
        """The first."""

    ctx = click.Context(group)
    assert group.list_commands(ctx) == ["first", "ping", "pong"]
    assert set(group._commands) == {"first"}
    assert group.get_command(ctx, "pong") is _PONG and set(group._commands) == {"first", "pong"}
    assert group.get_command(ctx, "nothing") is None
    assert group.short_help_of("ping") == "Never read."


_PONG = click.Command("pong", help="Answer.")
