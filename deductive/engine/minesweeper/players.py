"""Minesweeper players, found by name through a registry (:data:`PLAYERS`).

Every player extends :class:`~.base.Player`: it plays the original programs' local rules
first and returns a :class:`~.base.Move` each turn. The players, in the order ``--help``
lists them:

``rules-random``
    The original programs' rules, then a random covered cell (:mod:`.simple`).
``csp-random``
    Rules, then every cell the exact analysis (global mine count included) forces, then
    a random covered cell (:mod:`.simple`).
``least-risk``
    As ``csp-random``, but the guess is the covered cell with the lowest mine probability;
    ties go to the lowest cell index (row-major) (:mod:`.simple`).
``best``
    As ``least-risk``, refined by an exact endgame search, a two-step survival look-ahead
    and three rules read from the board's shape (:mod:`.best`, :mod:`.guess_rules`).
``strongest``
    ``best`` with refinements taken from D. Hill's solver, each an option that can be
    switched off (:class:`~.strongest.Strongest`): a relative cut-off for the candidates,
    next-click safety mixing the two safest cells, a penalty for outcomes that leave a
    50/50, dominance swaps, long-term safety and pseudo 50/50s (:mod:`.longterm`),
    isolated regions played exactly (:mod:`.endgame`) and small spaces deferred. With all
    of them off it plays exactly as ``best``.
"""

from __future__ import annotations

from typing import Any

from ...errors import DeductiveError
from ..registry import Registry
from .base import Move, Player, rule_deductions
from .best import BEST_OPTIONS, Best
from .simple import CSPRandom, LeastRisk, RulesRandom
from .strongest import STRONGEST_OPTIONS, Strongest

__all__ = ["Move", "Player", "PLAYERS", "make_player", "rule_deductions"]

#: The players by name, in the order ``--help`` lists them.
PLAYERS = Registry("player")
PLAYERS.add("rules-random", RulesRandom, "the original programs' rules, then a random cell")
PLAYERS.add("csp-random", CSPRandom, "rules and exactly forced cells, then a random cell")
PLAYERS.add("least-risk", LeastRisk, "rules, forced cells, then the lowest mine probability")
PLAYERS.add("best", Best, "least risk refined by two-step survival", options=BEST_OPTIONS)
PLAYERS.add("strongest", Strongest, "best with Hill's guessing refinements, each switchable",
            options=STRONGEST_OPTIONS)


def make_player(spec: str, **options: Any) -> Player:
    """A player by name (see :data:`PLAYERS`), with options given as keywords or in the
    name: ``"strongest:endgame=400,cutoff=0.9"`` (values: integers, decimals, true or
    false). An unknown name or option lists the valid ones. A player made with options in
    its name reports that name (``player.name``), so results say which variant played."""
    name, _, given = str(spec).partition(":")
    parsed = {}
    for item in filter(None, (part.strip() for part in given.split(","))):
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            raise DeductiveError(f"player {spec!r}: option {item!r} is not OPTION=VALUE; "
                                 "write e.g. best:endgame=400")
        parsed[key.strip()] = _option_value(text.strip())
    player: Player = PLAYERS.create(name.strip(), **parsed, **options)
    if parsed:
        player.name = "".join(str(spec).split())
    return player


def _option_value(text: str):
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    raise DeductiveError(f"player option value {text!r} is not a number, true or false")


#: The ``player`` of the benchmarks: a name, options after a colon.
PLAYER = PLAYERS.param("player", "best", "; options after a colon (e.g. strongest:endgame=400)",
                       metavar="NAME[:OPT=V,...]")
