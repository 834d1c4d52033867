"""Statistics every wing reports the same way: the Wilson score interval of a win rate."""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson_interval"]

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` out of ``games`` (95% by default).

    Its ends are exact where the rate is: 0 when nothing was won, 1 when everything was;
    ``(0, 1)`` for no games.
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (0.0 if wins == 0 else max(0.0, centre - half),
            1.0 if wins == games else min(1.0, centre + half))
