"""The optimal expected case of Mastermind at every size the search settles: each total
proven by the symmetric exact search over every first guess, its tree checked.

Published values these reproduce: 5,625 for 4 pegs and 6 colours (Koyama and Lai, 1993),
11,228 for 4 and 7 (G. Ville, arXiv:1305.1010, 2013: 4.676 on average), 20,471 for 4 and
8 (4.99780 on average, in the README of github.com/arfst23/Mastermind). The others are this
search's, the smallest also checked against brute force over every tree.
"""

import numpy as np
import pytest

from deductive.engine.feedback import check_tree, tree_document
from deductive.engine.mastermind import Mastermind
from deductive.engine.mastermind.search import game_lower_bound, optimal

from tests import reference

#: (pegs, colours): (least total, worst case of the least worst tree of that total, its
#: opener as the search picks it). Sizes searched in under a second or so run by default;
#: the others (seconds to minutes) are marked slow.
TABLE = {
    (2, 2): (8, 3, "11"), (2, 3): (21, 3, "12"), (2, 4): (45, 4, "12"),
    (2, 5): (81, 4, "12"), (2, 6): (132, 5, "12"), (2, 7): (198, 5, "12"),
    (2, 8): (284, 6, "12"), (2, 9): (388, 6, "12"), (2, 10): (517, 7, "12"),
    (3, 2): (18, 3, "112"), (3, 3): (73, 4, "112"), (3, 4): (206, 4, "112"),
    (3, 5): (451, 5, "123"), (3, 6): (854, 5, "123"), (3, 7): (1474, 6, "123"),
    (3, 8): (2359, 6, "123"), (3, 9): (3596, 6, "123"), (3, 10): (5242, 7, "123"),
    (4, 2): (44, 4, "1112"), (4, 3): (246, 4, "1123"), (4, 4): (905, 4, "1123"),
    (4, 5): (2463, 5, "1123"), (4, 6): (5625, 6, "1123"), (4, 7): (11228, 6, "1123"),
    (4, 8): (20471, 7, "1234"),
    (5, 2): (97, 4, "11122"), (5, 3): (816, 4, "11123"), (5, 4): (3954, 5, "11223"),
    (5, 5): (13496, 6, "11223"),
    (6, 2): (224, 5, "111122"), (6, 3): (2649, 5, "111223"), (6, 4): (17281, 6, "111223"),
    (7, 2): (496, 5, "1111222"), (7, 3): (8715, 5, "1111223"),
    (8, 2): (1104, 6, "11111222"),
}

#: Searched by default: the sizes of at most 256 codes.
FAST = [size for size in TABLE if size[1] ** size[0] <= 256]


CASES = [pytest.param(*size, marks=() if size in FAST else (pytest.mark.slow,),
                      id=f"{size[0]}x{size[1]}") for size in TABLE]


@pytest.mark.parametrize("pegs, colours", CASES)
def test_optimal_expected_total(pegs, colours):
    total, worst, opener = TABLE[pegs, colours]
    game = Mastermind(pegs, colours)
    best, rows = optimal(game, keep_tree=True)
    assert (best.total, best.worst, best.opener) == (total, worst, opener)
    assert best.exact
    # every other opener class is proven no better
    assert all(r.total >= total for r in rows)
    depths = check_tree(game, tree_document(game, best.tree)).depths
    assert (int(depths.sum()), int(depths.max())) == (total, worst)


@pytest.mark.parametrize("pegs, colours", [(2, 2), (3, 2), (4, 2), (2, 5), (5, 2)])
def test_smallest_totals_match_brute_force(pegs, colours):
    """Brute force over every tree (every guess at every node) gives the same optimum."""
    game = Mastermind(pegs, colours)
    want = reference.optimal_total(np.asarray(game.matrix), game.win_code)
    assert want == TABLE[pegs, colours][:2]


@pytest.mark.parametrize("pegs, colours", [(2, 4), (3, 3), (3, 5), (4, 4), (5, 3)])
def test_lower_bound_holds(pegs, colours):
    """The bound never passes the proven optimum, and no opener's bound passes the total
    of the best tree opening with it."""
    game = Mastermind(pegs, colours)
    bound, per = game_lower_bound(game)
    assert game_lower_bound(game, depth_two=False)[0] <= bound <= TABLE[pegs, colours][0]
    _, rows = optimal(game)
    for r in rows:
        if r.exact:
            assert per[r.opener] <= r.total
