"""The Hangman wing's registry and sessions: what the commands print comes from here."""

import pytest

from deductive.engine.hangman import (STRATEGIES, Hangman, HangmanSession, evil, make_strategy,
                                      solve, tree_check, write_tree)
from deductive.engine.render import render
from deductive.errors import ArgumentError, DeductiveError, UnknownNameError

WORDS = "deed even eyes heel mere peep star baker maker taker bloke".split()
ILL = "bill dill fill gill hill kill mill pill deed even".split()


@pytest.fixture
def words_file(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS + ILL) + "\n")
    return str(path)


def test_registry_names_descriptions_and_options():
    assert list(STRATEGIES) == ["min-miss", "max-hit", "entropy", "best-lives", "optimal"]
    assert STRATEGIES["best-lives"].names == ("exact_limit",)
    assert "original programs' greedy" in STRATEGIES["min-miss"].description
    with pytest.raises(UnknownNameError, match="unknown strategy 'psychic'; choose one of: "
                                               "min-miss"):
        STRATEGIES["psychic"]
    with pytest.raises(ArgumentError, match="accepts: exact_limit"):
        STRATEGIES.create("best-lives", memory=1)
    # a sweep passes every setting; each strategy takes those it accepts
    assert make_strategy("min-miss", exact_limit=3, memory=2 ** 20).name == "min-miss"
    assert make_strategy("best-lives", exact_limit=3, memory=None).exact_limit == 3


def test_session_plays_a_word_to_the_end():
    game = Hangman([w for w in WORDS if len(w) == 4])
    session = HangmanSession(game, word="deed")
    assert session.answer("e") == (None, False)
    assert session.status() == "_ e e _   wrong: -   lives: 6   candidates: 3"
    assert session.answer("hint") == ("hint (min-miss): d", False)
    assert session.answer("zz") == ("type one letter a-z, 'hint' or 'quit'", False)
    assert session.answer("e") == ("e was already guessed", False)
    assert session.guess("s") is False and session.wrong == "s"
    assert session.outcome() is None
    assert session.answer("d") == (None, False)
    assert session.outcome() == "won: deed with 1 miss(es)"
    assert session.answer("") == ("stopped: the word was deed", True)


def test_session_auto_transcript_and_errors():
    game = Hangman([w for w in WORDS if len(w) == 4])
    lines = list(HangmanSession(game, word="peep").run(read=None, auto=True))
    assert lines[0] == "7 words of 4 letters; 6 lives"
    assert lines[-1] == "won: peep with 2 miss(es)" and "min-miss guesses e" in lines
    with pytest.raises(DeductiveError, match="not in the list"):
        HangmanSession(game, word="zzzz")
    with pytest.raises(DeductiveError, match="picks no word"):
        HangmanSession(game, word="deed", evil=True)
    drawn = {HangmanSession(game, seed=s).word for s in range(3)}
    assert drawn == {HangmanSession(game, seed=s).word for s in range(3)}   # seeded draws


def test_evil_session_answers_with_the_worst_group():
    game = Hangman([w for w in ILL if w.endswith("ill")])
    session = HangmanSession(game, lives=2, evil=True)
    for letter in "ilb":
        session.guess(letter)
    # the adversary keeps the seven _ill words that remain: b is a miss
    assert session.wrong == "b" and session.pattern == "_ill"
    session.guess("d")
    assert session.outcome().startswith("lost: the adversary could still answer")


def test_solve_evil_and_tree_check_return_data(words_file, tmp_path):
    report = solve(words_file, "_ake_", strategy="best-lives")
    assert report.candidates == ["baker", "maker", "taker"] and report.best in "bmt"
    assert report.to_json(show=1)["words"] == ["baker"]
    assert render(report).splitlines()[0] == "3 candidate(s): baker, maker, taker"
    assert render(report, show=2).splitlines()[0] == "3 candidate(s): baker, maker ..."
    with pytest.warns(DeprecationWarning, match=r"as_dict\(\) is deprecated; use to_json"):
        assert report.as_dict(show=1) == report.to_json(show=1)
    with pytest.raises(DeductiveError, match="already lost"):
        solve(words_file, "_ake_", "sdfghj")
    result = evil(words_file, 4)
    assert result.misses == 7 and result.to_json()["lives_to_win"] == 8
    write_tree(tmp_path / "evil.json", result.tree())
    check = tree_check(str(tmp_path / "evil.json"), words_file)
    assert check.check.ok and check.same_list and render(check).splitlines()[-1] == "ok"
    (tmp_path / "x.json").write_text("{}")
    with pytest.raises(DeductiveError, match="not a deductive Hangman tree"):
        tree_check(str(tmp_path / "x.json"), words_file)
