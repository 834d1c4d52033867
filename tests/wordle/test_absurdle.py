"""Absurdle: the adversary kernel against its twin, the exact search against brute force."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.wordle import Wordle
from deductive.engine.wordle.absurdle import Absurdle, absurdle_search
from deductive.errors import DeductiveError

from tests import reference


@st.composite
def small_lists(draw):
    length = draw(st.integers(2, 4))
    word = st.text("abcd", min_size=length, max_size=length)
    answers = draw(st.lists(word, min_size=1, max_size=9, unique=True))
    extra = draw(st.lists(word, max_size=4, unique=True))
    return sorted(set(answers) | set(extra)), sorted(answers)


@settings(max_examples=150, deadline=None)
@given(small_lists(), st.data())
def test_adversary_matches_reference(lists, data):
    guesses, answers = lists
    game = Absurdle(Wordle(guesses, answers))
    cands = np.array(sorted(data.draw(st.sets(st.integers(0, len(answers) - 1), min_size=1))))
    code, size = game.choices(cands)
    for g, word in enumerate(guesses):
        want_code, kept = reference.absurdle_keep(word, [answers[k] for k in cands])
        assert (code[g], size[g]) == (want_code, len(kept))
        got_code, got = game.respond(cands, g)
        assert got_code == want_code and [answers[k] for k in got] == kept


@settings(max_examples=80, deadline=None)
@given(small_lists())
def test_search_matches_brute_force(lists):
    guesses, answers = lists
    game = Absurdle(Wordle(guesses, answers))
    want = reference.absurdle_fewest(guesses, answers)
    if want is None:
        with pytest.raises(DeductiveError, match="no sequence"):
            absurdle_search(game, max_guesses=6)
        return
    r = absurdle_search(game, max_guesses=6)
    assert r.guesses == want and r.lower_bounds == list(range(1, want))
    played = game.play(r.sequence)
    assert len(played) == want and played[-1][1] == "G" * len(answers[0])


def test_tie_rule_prefers_least_revealing_feedback():
    game = Absurdle(Wordle(["aa", "ab", "ba", "bb"]))
    assert game.play(["aa", "bb"]) == [("aa", "..", 1), ("bb", "GG", 1)]
    assert game.play(["ab"])[0][:2] == ("ab", "YY")       # {ba}: no green beats one


@pytest.mark.slow
def test_original_lists_need_four(wordle_lists):
    guesses, answers = wordle_lists
    game = Absurdle(Wordle(guesses, answers))
    r = absurdle_search(game)
    assert r.guesses == 4 and r.lower_bounds == [1, 2, 3]
    assert game.play(r.sequence)[-1][1] == "GGGGG"
