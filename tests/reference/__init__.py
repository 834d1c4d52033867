"""Slow, obviously correct twins of the kernels, for tests (and the numpy benchmark reference).

One module per game or kernel family; this package re-exports every name, so that
``from tests.reference import X`` and ``import tests.reference as ref`` reach them all
(private helpers that tests call, such as ``_mines_constraints``, included).
"""

from .feedback import (  # noqa: F401
    feedback_digits, feedback_code, pattern_matrix, pattern_matrix_numpy, hard_mode_ok,
    consistent,
)
from .partition import (  # noqa: F401
    bucket_sizes, groups_by_code, partition_summary, weighted_entropy,
)
from .search import (  # noqa: F401
    wordle_optimal, search_split_bounds, opener_depth2_bound, best_split, _imperfect,
    unisolated_groups, separator_first, two_step_first, depth_two_set_bound,
    depth_three_set_bound, letter_passed_over,
)
from .variants import (  # noqa: F401
    absurdle_keep, absurdle_fewest, multi_play,
)
from .mastermind import (  # noqa: F401
    mastermind_pegs, mastermind_matrix, canonical_sequence, _guess_groups, minimax_depth,
    optimal_total,
)
from .hangman import (  # noqa: F401
    ALPHABET, hangman_mask, hangman_partition, hangman_min_miss, hangman_split_entropy,
    hangman_greedy, hangman_best_wins, hangman_best_weight, hangman_evil_misses,
    hangman_play_tree,
)
from .mines_counting import (  # noqa: F401
    _mines_constraints, mines_brute_force, _weigh, mines_exact_dp, mines_by_components,
    mines_arrangements, mines_enumerate_solutions, mines_frontier, mines_component_counts,
    _mines_neighbours, mines_share,
)
from .mines_play import (  # noqa: F401
    mines_rule_deductions, mines_best_win, mines_endgame_choice, mines_closed_regions,
    mines_closed_patterns, sign_test_p,
)
from .mines_boards import (  # noqa: F401
    _mines_open, _mines_cells, mines_rules_closure, mines_frontier_cells, mines_no_guess,
    mines_subset_deductions,
)
