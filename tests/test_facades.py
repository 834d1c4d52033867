"""Each game used end to end through its facade (:mod:`deductive.wordle`,
:mod:`deductive.mastermind`, :mod:`deductive.bulls`, :mod:`deductive.hangman`,
:mod:`deductive.minesweeper`): made, asked for its best move, benchmarked, searched
exactly, its searched tree checked, and a short session played. Values are checked against
the slow twins of ``tests/reference/``, the engine called directly, or known optima.
"""

import json
import math
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from deductive import bulls, hangman, mastermind, minesweeper, wordle
from deductive.engine.minesweeper.bench import run_bench
from deductive.engine.minesweeper.players import make_player

from tests import reference

FACADES = (wordle, mastermind, bulls, hangman, minesweeper)
VERBS = ("game", "best_move", "bench", "session")


def test_import_deductive_stays_cheap():
    code = ("import sys, deductive; print(sorted(m for m in ('numba', 'h5py') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("facade", FACADES, ids=lambda m: m.__name__)
def test_every_facade_has_the_common_verbs(facade):
    for verb in VERBS + ("search", "check_tree") * (facade is not minesweeper):
        assert verb in facade.__all__ and callable(getattr(facade, verb)), verb
    for name in facade.__all__:
        assert hasattr(facade, name), name


def _json(result):
    """``result.to_json()``, which must survive a round trip through JSON text."""
    data = result.to_json()
    assert json.loads(json.dumps(data)) == data
    return data


def _entropy(codes) -> float:
    counts = Counter(codes).values()
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts)


# -- Wordle ------------------------------------------------------------------------------
def test_wordle_defaults_to_the_original_lists():
    g = wordle.game()
    assert (len(g.guesses), len(g.answers)) == (12972, 2315)


@pytest.mark.slow
def test_wordle_salet_on_the_original_lists():
    """The exact best tree opening with salet over the original lists: 7,920 guesses."""
    g = wordle.game()
    result = wordle.search(g, "salet")
    assert (result.total, result.exact) == (7920, True)
    assert int(wordle.check_tree(g, result.tree).depths.sum()) == 7920


def test_wordle_end_to_end():
    answers = list(wordle.builtin_words("wordle", role="answers"))[:40:2]
    extra = [w for w in list(wordle.builtin_words("wordle"))[:60] if w not in answers][:10]
    guesses = answers + extra
    g = wordle.game(guesses, answers)

    # best move: the opener of most entropy (ties to a candidate, then the lower index)
    advice = wordle.best_move(g, top=3)
    want = [_entropy(reference.feedback_code(w, a) for a in answers) for w in guesses]
    assert advice.left == len(answers) and advice.answer is None
    assert advice.best[0].entropy == pytest.approx(max(want), abs=1e-9)
    assert _json(advice)["best"][0]["word"] == advice.best[0].word
    opener = advice.best[0].word

    # bench: every answer once, its tree checked
    result = wordle.bench(g, "entropy", opener=opener, keep_tree=True)
    assert _json(result)["total"] == result.total and len(result.guesses) == len(answers)
    assert int(wordle.check_tree(g, result.tree).depths.sum()) == result.total

    # exact search from the opener: the brute-force optimum
    searched = wordle.search(g, opener)
    groups: dict = {}
    for a in answers:
        groups.setdefault(reference.feedback_code(opener, a), []).append(a)
    win = 3 ** 5 - 1
    optimum = len(answers) + sum(reference.wordle_optimal(guesses, grp)[0]
                                 for code, grp in groups.items() if code != win)
    assert (searched.exact, searched.total) == (True, optimum)
    assert searched.total <= result.total
    report = wordle.check_tree(g, searched.tree)
    assert (int(report.depths.sum()), int(report.depths.max())) == (searched.total,
                                                                     searched.worst)

    # a session: the assistant's best guess each turn, the true colours entered
    secret = answers[-1]
    session = wordle.session(g, top=1)
    for _ in range(searched.worst + 2):
        advice = session.advice()
        assert secret in advice.candidates
        guess = advice.answer or advice.best[0].word
        entry = session.enter(f"{guess} {wordle.format_pattern(wordle.feedback(guess, secret), 5)}")
        assert entry.applied and _json(entry)["guess"] == guess
        if entry.solved:
            break
    assert entry.solved and session.history[-1][0] == secret
    moves = wordle.play(g, secret, "entropy", opener=opener)
    assert moves[0][0] == opener and moves[-1] == (secret, win)


# -- Mastermind and Bulls and Cows --------------------------------------------------------
def test_mastermind_end_to_end():
    g = mastermind.game(4, 6)
    knuth = mastermind.bench(g, "knuth", keep_tree=True)   # Knuth (1977): 5,801 guesses
    assert (knuth.total, knuth.worst, len(knuth.guesses)) == (5801, 5, 1296)
    assert _json(knuth)["total"] == 5801
    assert int(mastermind.check_tree(g, knuth.tree).depths.sum()) == 5801
    left = sum(reference.mastermind_pegs("1122", code) == (1, 0) for code in g.answers)
    advice = mastermind.best_move(g, [("1122", "1B0W")], top=2)
    assert advice.left == left == 256 and len(advice.best) == 2

    small = mastermind.game(3, 3)
    matrix, win = np.asarray(small.matrix), small.win_code
    best = mastermind.search(small)
    assert (best.total, best.worst) == reference.optimal_total(matrix, win)
    report = mastermind.check_tree(small, best.tree)
    assert (int(report.depths.sum()), int(report.depths.max())) == (best.total, best.worst)
    worst = mastermind.search(small, objective="worst")
    assert worst.worst == reference.minimax_depth(matrix, win)
    assert int(mastermind.check_tree(small, worst.tree).depths.max()) == worst.worst

    secret = "3121"
    session = mastermind.session(g, top=1)
    for _ in range(8):
        advice = session.advice()
        assert secret in advice.candidates
        guess = advice.answer or advice.best[0].word
        black, white = reference.mastermind_pegs(guess, secret)
        entry = session.enter(f"{guess} {black}B{white}W")
        assert entry.applied
        if entry.solved:
            break
    assert entry.solved and session.history[-1] == (secret, "4B0W")


def test_bulls_end_to_end():
    g = bulls.game(2)
    assert len(g.answers) == 90 and bulls.best_move(g, [("01", "1B0C")]).left == \
        sum(reference.mastermind_pegs("01", c) == (1, 0) for c in g.answers)
    matrix, win = np.asarray(g.matrix), g.win_code
    result = bulls.bench(g, "entropy", keep_tree=True)
    assert int(bulls.check_tree(g, result.tree).depths.sum()) == result.total
    best = bulls.search(g)
    assert (best.total, best.worst) == reference.optimal_total(matrix, win)
    assert best.total <= result.total
    assert int(bulls.check_tree(g, best.tree).depths.sum()) == best.total
    session = bulls.session(g)
    entry = session.enter("01 0B2C")
    assert entry.applied and session.advice().answer == "10"
    assert session.enter("10 2B0C").solved


# -- Hangman ------------------------------------------------------------------------------
WORDS = ("bake cake lake make rake take wake bike hike like mike pike bone cone lone tone "
         "zone gone").split()


def test_hangman_end_to_end():
    g = hangman.game(WORDS)

    report = hangman.best_move(g, "_a_e", "")
    want = min((c for c in "bcdfghijklmnopqrstuvwxyz"),
               key=lambda c: sum(c not in w for w in report.candidates))
    assert report.candidates == [w for w in WORDS if w[1] == "a" and w[3] == "e"]
    assert report.best == want and _json(report)["best"] == want

    sweep = hangman.bench(g, "min-miss", lives=3)
    assert sorted(sweep.results) == sorted(reference.hangman_min_miss(list(WORDS)))
    assert _json(sweep)["wins"] == sweep.wins

    optimal = hangman.search(g, lives=3)
    assert optimal.value == optimal.wins == reference.hangman_best_weight(
        WORDS, {w: 1 for w in WORDS}, 3)
    assert optimal.wins >= sweep.wins and _json(optimal)["wins"] == optimal.wins
    check = hangman.check_tree(g, optimal.tree())
    assert check.check.ok and check.same_list and check.check.wins == optimal.wins
    assert _json(check)["wins"] == optimal.wins

    adversary = hangman.evil(g)
    assert adversary.misses == reference.hangman_evil_misses(WORDS)
    tree = adversary.tree()
    assert hangman.check_tree(g, tree, lives=adversary.misses + 1).check.wins == len(WORDS)

    wrong = dict((w, m) for m, _, w, _ in sweep.results)
    for word in ("like", "gone"):
        session = hangman.session(g, word=word, strategy="min-miss", lives=3)
        lines = list(session.run(lambda: "", auto=True))
        assert lines[-1].startswith("won" if wrong[word] < 3 else "lost")
        assert len(session.wrong) == min(wrong[word], 3)


# -- Minesweeper --------------------------------------------------------------------------
def test_minesweeper_end_to_end():
    text = "x1x.\nx21.\nxxx1\nxxxx"
    p = minesweeper.position(text, mines=3)
    analysis = minesweeper.probabilities(p)
    exact = reference.mines_brute_force(p.rows, p.cols, p.mines, p.cells)
    for cell, prob in exact.items():
        assert analysis.probabilities[cell] == pytest.approx(float(prob), abs=1e-12)
    assert _json(analysis)["mines"] == 3

    safe, mines = reference.mines_rule_deductions(p.rows, p.cols, p.cells)
    move = minesweeper.best_move(p, "least-risk")
    assert move.kind == "rules" and set(move.reveal) == safe and set(move.flag) == mines

    g = minesweeper.game("beginner", seed=7)
    assert (g.rows, g.cols, g.mines) == (9, 9, 10) and g.to_json()["seed"] == 7
    result = minesweeper.bench(g, "least-risk", games=4)
    direct = run_bench("9x9/10", make_player("least-risk"), 4, seed=7)
    assert [r.won for r in result.records] == [r.won for r in direct.records]
    assert result.to_json()["wins"] == direct.to_json()["wins"]

    session = minesweeper.session(g, "least-risk", number=2)
    steps = list(session.steps())
    assert steps[-1].over and session.won == direct.records[2].won
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    assert _json(steps[-1])["over"] is True
    assert minesweeper.Minesweeper(9, 9, 10, seed=7) == g
