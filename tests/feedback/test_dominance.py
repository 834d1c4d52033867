"""The guesses a set's absent letters make redundant (kernels/dominance.py): the kernel
against its twin, and the claim the depth-three bound rests on, checked on the codes."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.feedback.search.bounds import letter_tables
from deductive.engine.mastermind import Mastermind
from deductive.engine.wordle.game import Wordle
from deductive.kernels.dominance import passed_over
from tests import reference
from tests.feedback.test_search import small_games


def _passed(game, grp):
    bits, answer_letters, table, _ = letter_tables(game)
    present = np.bitwise_or.reduce(answer_letters[grp]) if len(grp) else np.uint32(0)
    return {g for g in range(len(game.guesses))
            if passed_over(g, np.uint32(present), bits, table)}


@settings(max_examples=150, deadline=None)
@given(small_games(), st.data())
def test_passed_over_matches_its_twin(game_lists, data):
    guesses, answers = game_lists
    game = Wordle(guesses, answers)
    picked = data.draw(st.lists(st.sampled_from(answers), unique=True))
    grp = sorted(answers.index(w) for w in picked)
    assert _passed(game, grp) == reference.letter_passed_over(guesses, picked)


@settings(max_examples=150, deadline=None)
@given(small_games(), st.data())
def test_a_guess_passed_over_is_told_by_one_that_is_not(game_lists, data):
    """What the bound rests on, read off the codes: a guess passed over on a set is not
    one of its answers, and some guess not passed over has codes over the set that give
    its codes (so no tree over the set does better for playing it)."""
    guesses, answers = game_lists
    game = Wordle(guesses, answers)
    picked = data.draw(st.lists(st.sampled_from(answers), min_size=1, unique=True))
    grp = sorted(answers.index(w) for w in picked)
    passed = _passed(game, grp)
    codes = np.asarray(game.matrix)[:, grp]
    for g in passed:
        assert guesses[g] not in picked
        assert any(len({(a, b) for a, b in zip(codes[q], codes[g])}) == len(set(codes[q]))
                   for q in range(len(guesses)) if q not in passed)


def test_real_lists_pass_over_the_guesses_of_absent_letters():
    """On the original lists: with every letter of "tares" absent, "bloat" is passed over
    ("blown" tells more), and on a set holding every letter nothing is."""
    game = Wordle("wordle", "wordle")
    everything = list(range(len(game.answers)))
    assert _passed(game, everything) == set()
    words = [i for i, w in enumerate(game.answers) if not set(w) & set("tares")]
    passed = _passed(game, words)
    assert game.guess_index("bloat") in passed
    assert game.guess_index("blown") not in passed
    assert game.guess_index("tares") in passed


def test_other_feedback_passes_nothing_over():
    game = Mastermind(3, 4)
    assert _passed(game, [0, 5, 9]) == set()
