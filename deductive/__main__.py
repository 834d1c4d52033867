"""``python -m deductive`` works like the ``deductive`` command."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="deductive")
