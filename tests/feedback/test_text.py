"""What the command line prints, computed by the engine: the text forms of results
(:mod:`deductive.engine.feedback.text`, :mod:`deductive.engine.mastermind.text`, the
results' text forms, :func:`render`), the dialogues as lines, and the checks the commands
rely on."""

import pytest

from deductive.cache import PatternStore
from deductive.engine.feedback import TreeSearch, check_tree, rank_guesses, text, tree_document
from deductive.engine.feedback.precompute import SecondGuesses, second_guesses
from deductive.engine.feedback.scoring import Ranking
from deductive.engine.hangman import sweep_lives
from deductive.engine.mastermind import Mastermind
from deductive.engine.mastermind import PegRanking
from deductive.engine.mastermind.session import assist as peg_assist
from deductive.engine.mastermind.search import best_tree, check_tree_file, tree_stats
from deductive.engine.wordle import Wordle
from deductive.engine.wordle.absurdle import Absurdle, absurdle_search
from deductive.engine.wordle.multi import MultiBoard
from deductive.engine.wordle.session import HELP, AssistSession
from deductive.errors import DeductiveError
from deductive.plot import check_plot_path
from deductive.engine.render import render


@pytest.fixture
def game():
    return Wordle(["aa", "ab", "ba", "bb"])


def lines_read(*lines):
    """A ``read(prompt="")`` that returns ``lines`` in turn, then '' (the end of input)."""
    it = iter(lines)
    return lambda prompt="": next(it, "")


def test_openers_table(game):
    out = render(Ranking.of(rank_guesses(game.patterns, top=2), game, "entropy")).splitlines()
    assert out == ["4 guesses (guesses) over 4 answers (guesses), best entropy first",
                   " rank  word   entropy  buckets  largest   expected",
                   "    1  aa      2.0000        4        1      1.000",
                   "    2  ab      2.0000        4        1      1.000"]


def test_bench_report_and_tree_report(game):
    result = game.bench("entropy", keep_tree=True)
    out = render(result, tree="t.json").splitlines()
    assert out[0] == "solver entropy, pool all, opener (its own), normal mode, 4 answers"
    assert out[1:3] == ["     1      1  #############",
                        "     2      3  ########################################"]
    assert out[-2].startswith("total 7, average 1.7500, worst 2, fails 0, ")
    assert out[-1] == "tree: t.json"
    report = check_tree(game, tree_document(game, result.tree))
    assert render(report) == ("valid normal-mode tree: 4 answers, total 7, average "
                              "1.7500, worst 2, fails 0, 4 nodes\n"
                              "distribution: 1: 1, 2: 3")


def test_weighted_average_only_under_a_prior():
    game = Wordle("fr-seed", "fr-seed", prior="frequency")
    assert "weighted average" in render(game.bench("entropy", answers=5))
    assert "weighted average" not in render(Wordle("fr-seed").bench("entropy", answers=5))


def test_second_search_and_verdict(game):
    rows = second_guesses(game, game.solver("entropy"), "ab")
    out = render(SecondGuesses("ab", "entropy", False, rows)).splitlines()
    assert out[0] == "4 feedbacks of ab; next guess by entropy"
    assert out[-1].split() == ["GG", "1", "(solved)", "0.0000", "0"]
    found = TreeSearch(game).search_opener("ab")
    assert render(found, tree="t.json").startswith(
        "ab: total 7, average 1.7500, worst 2 (exact), ")
    assert render(found, tree="t.json").endswith("nodes searched\ntree: t.json")
    hard = Wordle(["aa", "ab", "ba", "bb"], hard=True)
    assert ", hard mode)" in render(TreeSearch(hard).search_opener("ab"))
    assert text.verdict(game, 6) == "solved in 6"
    assert text.verdict(game, 7) == "solved, but past the 6 allowed guesses, in 7"
    assert text.verdict(Mastermind(2, 2), 9) == "solved in 9"


def test_wordle_tiles(game):
    assert game.tiles(game.parse("YG")) == ["yellow", "green"]
    assert Mastermind(2, 2).tiles(0) is None


def test_assist_dialogue_yields_lines_and_moves(game):
    lines = list(AssistSession(game, top=2).run(
        lines_read("ab .Y\n", "undo\n", "help\n", "ab .G\n", "bb GG\n")))
    assert HELP in lines[0] and lines[1].startswith("4 candidate(s) left: aa, ab, ba, bb")
    assert lines[2].startswith("not applied: no answer fits ab .Y")
    assert lines[3:5] == ["nothing to undo", HELP]
    assert lines[5] == ("ab", game.parse(".G"))
    assert lines[-2] == ("bb", game.win_code) and lines[-1] == "solved in 2"


def test_multi_and_absurdle_texts(game):
    result = MultiBoard(game, 2).run(5, 0)
    first, second = render(result).splitlines()
    assert first.startswith("2 boards, 5 games: win rate 1.0000 (95% 0.5655-1.0000, within 7)")
    assert second == "distribution: 2: 1, 3: 4"
    adversary = Absurdle(game)
    assert render(absurdle_search(adversary)).startswith(
        "2 guesses force a win: aa bb (no win within 1: proven; ")
    assert list(adversary.run(lines_read("zz\n", "\n", "aa\n", "bb\n", "ab\n"))) == [
        "4 words possible; type a guess per line ('quit' stops)",
        "not applied: 'zz' is not in the word list guesses (4 words)",
        "1: aa ..  1 word(s) left", "2: bb GG  1 word(s) left", "won in 2"]


def test_mastermind_texts_and_assistant():
    game = Mastermind(2, 3)
    assert render(PegRanking.of(rank_guesses(game.patterns, top=1), game, "entropy")) == (
        "12  entropy 2.0588  buckets 5  largest 4  expected 2.556")
    stats = tree_stats(game, best_tree(game, "worst").tree, objective="worst")
    assert render(stats).startswith("objective worst: total ")
    assert render(stats).splitlines()[1].startswith("distribution: 1: 1, ")
    assert stats.to_json()["objective"] == "worst" and stats.to_json()["answers"] == 9
    lines = list(peg_assist(game, lines_read("11 0B0W\n", "22 nonsense\n", "22 0B0W\n")))
    assert lines[0] == "9 code(s) left: 11 12 13 21 22 23 31 32 33"
    assert lines[2] == "4 code(s) left: 22 23 32 33"
    assert lines[4].startswith("not applied: feedback 'nonsense\\n' is not black and white")
    assert lines[-2:] == ["1 code(s) left: 33", "the answer is 33"]


def test_checks_name_their_parameters(game, tmp_path):
    with pytest.raises(DeductiveError, match="`objective` worst takes neither `opener`"):
        best_tree(Mastermind(2, 3), "worst", opener="11")
    doc = tree_document(Mastermind(2, 3), best_tree(Mastermind(2, 3), "worst").tree)
    with pytest.raises(DeductiveError, match="t.json is not a tree of this game"):
        check_tree_file(Mastermind(2, 2), doc, "t.json")
    assert check_tree_file(Mastermind(2, 3), doc, "t.json").to_json()["answers"] == 9
    with pytest.raises(DeductiveError, match="`answer` 'zz' is not in the answer list guesses"):
        game.answer_index("zz")
    with pytest.raises(DeductiveError, match="`lives` 'x': give a number from 1 to 26, or all"):
        sweep_lives("min-miss", "x")
    with pytest.raises(DeductiveError, match="`length` 'x': give a number or all"):
        sweep_lives("min-miss", "6", "x")
    assert sweep_lives("optimal", "all") == list(range(1, 11))
    with pytest.raises(DeductiveError, match="unknown plot format 'xyz'"):
        check_plot_path(tmp_path / "out.xyz")


def test_a_matrix_given_as_a_function_is_computed_once_when_first_used(game):
    calls = []

    def matrix(guesses, answers):
        calls.append(len(guesses))
        return game.matrix

    lazy = Wordle(["aa", "ab", "ba", "bb"], matrix=matrix)
    lazy.solvers["entropy"], lazy.guess_index("ab"), lazy.answer_index("ba")
    assert calls == []
    assert (lazy.matrix == game.matrix).all() and lazy.bench("entropy").total == 7
    assert calls == [4]


def test_cache_summary(tmp_path):
    store = PatternStore(tmp_path / "none")
    summary = store.summary()
    assert summary.entries == [] and summary.temporary_files == []
    assert summary.to_json() == {"directory": str(tmp_path / "none"), "entries": [],
                                 "temporary_files": []}
    assert render(summary).splitlines() == [
        f"cache directory: {tmp_path / 'none'}", "no cached matrices"]
