"""The command groups: the error policy every command shares, and groups whose commands
are imported only when one runs.

This module imports neither numpy nor numba (nor any of the engine): ``deductive --help``,
``--version`` and a group's ``--help`` answer without them. A lazy group knows each of its
commands by where it is defined and by its short help; ``tests/cli/test_cli_lazy.py`` checks
every short help against the command's own.
"""

from __future__ import annotations

import importlib
import re
import sys
import time
import warnings
from collections.abc import MutableMapping

import click

from .. import _io
from ..errors import DeductiveError

#: Key of ``click.Context.meta`` (shared by a command's contexts): when the command line
#: started being read.
_START = "deductive.start"


def fail(message: str, code: int = 2):
    """Print one line on stderr and exit: the policy for every user mistake."""
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _flags(text: str) -> str:
    """Engine texts name parameters in backquotes (`max_guesses`): here they are flags."""
    return re.sub(r"`(\w+)`", lambda m: "--" + m[1].replace("_", "-"), text)


class Group(click.Group):
    """A click group that turns user errors into one line on stderr and exit status 2.

    Engine errors name parameters in backquotes (`max_guesses`); on the command line they
    are flags (--max-guesses). Sub-groups use the class too (``group_class = type``).

    ``lazy`` maps a command's name to where it is defined and its short help: ``(module,
    short help)``, ``module`` being ``"package.module:attribute"`` (the command) or a bare
    module name (importing it adds the command to this group). A lazy command is imported
    when it runs or its help is asked for; the group's help lists it by its short help.
    Reading :attr:`commands` imports them all (for tools that walk the tree: mkdocs-click).
    """

    group_class = type

    def __init__(self, *args, lazy: dict[str, tuple[str, str]] | None = None, **kwargs):
        self.lazy = dict(lazy or {})
        super().__init__(*args, **kwargs)

    @property
    def commands(self) -> MutableMapping[str, click.Command]:
        for name in list(self.lazy):
            self._load(name)
        return self._commands

    @commands.setter
    def commands(self, value: MutableMapping[str, click.Command]) -> None:
        self._commands = dict(value)

    def _load(self, name: str) -> None:
        if name in self._commands or name not in self.lazy:
            return
        module, _, attribute = self.lazy[name][0].partition(":")
        found = importlib.import_module(module)
        if attribute:
            self.add_command(getattr(found, attribute), name)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        # not click's: it writes through the property, which would import every command
        # (no group here chains commands, the one thing click's checks there)
        name = name or cmd.name
        if name is None:
            raise TypeError("Command has no name.")
        self._commands[name] = cmd

    def get_command(self, ctx, cmd_name):
        self._load(cmd_name)
        return self._commands.get(cmd_name)

    def list_commands(self, ctx):
        return sorted({*self._commands, *self.lazy})

    def resolve_command(self, ctx, args):
        # click names the possibilities from the property: every command imported for a typo
        name = args[0]
        if self.get_command(ctx, name) is None and not ctx.resilient_parsing \
                and not name.startswith("-"):
            raise click.NoSuchCommand(name, possibilities=self.list_commands(ctx), ctx=ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx, formatter):
        """The commands and their short help, as click lists them, without importing the
        lazy ones."""
        names = [n for n in self.list_commands(ctx)
                 if n not in self._commands or not self._commands[n].hidden]
        if names:
            limit = formatter.width - 6 - max(map(len, names))
            with formatter.section("Commands"):
                formatter.write_dl([(n, self.short_help_of(n, limit)) for n in names])

    def short_help_of(self, name: str, limit: int = 45) -> str:
        """A command's short help as its group's help lists it (its own, once imported)."""
        if name in self._commands:
            return self._commands[name].get_short_help_str(limit)
        return click.Command(name, help=self.lazy[name][1]).get_short_help_str(limit)

    def invoke(self, ctx):
        ctx.meta.setdefault(_START, time.perf_counter())
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, EOFError):
            # click would print a blank line first (to end a terminal's "^C" echo): that
            # line is written here only where there is such an echo
            if sys.stderr.isatty():
                click.echo(err=True)
            raise click.Abort() from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        with warnings.catch_warnings():
            warnings.showwarning = lambda message, *_: click.echo(f"warning: {message}", err=True)
            try:
                code = super().main(args, prog_name, complete_var, False, **extra)
            except DeductiveError as exc:
                fail(_flags(str(exc)))
            except click.UsageError as exc:
                where = exc.ctx.command_path if exc.ctx else "deductive"
                fail(f"{exc.format_message()} (see '{where} --help')", exc.exit_code)
            except click.ClickException as exc:
                fail(exc.format_message(), exc.exit_code)
            except click.Abort:
                fail("aborted", 130)
            except BrokenPipeError:
                _io.drop_stdout()
                sys.stderr.close()  # a closed pipe (| head) is not an error
                sys.exit(0)
            except OSError as exc:  # a full or failing device (> /dev/full): one line
                if exc.errno not in _io.FULL:
                    raise
                fail(_io.unwritable(exc))
            if message := _io.flush_stdout():
                fail(message)
        sys.exit(code if isinstance(code, int) else 0)
