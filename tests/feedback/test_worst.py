"""The least worst case: its compiled last levels against their twins, the search against
brute force on small lists (both modes, over every opener and from one), and the CLI."""

import json
import os
import tempfile
from unittest import mock

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.cli import cli
from deductive.engine.feedback.worst import WorstCaseSearch, least_worst
from deductive.engine.wordle.game import Wordle
from deductive.kernels.worst import column_separator, new_memo, separator, two_step

from tests import reference
from tests.cli.test_cli_errors import assert_one_error
from tests.feedback.test_search import small_games
from tests.feedback.test_search_openers import _opener_optimum

from tests.provenance import payload


@st.composite
def code_matrices(draw):
    n_codes = draw(st.integers(2, 6))
    guesses, answers = draw(st.integers(1, 8)), draw(st.integers(1, 9))
    flat = draw(st.lists(st.integers(0, n_codes - 1), min_size=guesses * answers,
                         max_size=guesses * answers))
    dtype = draw(st.sampled_from([np.uint8, np.uint16]))
    matrix = np.array(flat, dtype=dtype).reshape(guesses, answers)
    cands = np.array(sorted(draw(st.sets(st.integers(0, answers - 1), min_size=1))), np.int64)
    rows = np.array(draw(st.permutations(range(guesses))), np.int64)
    inner = np.array(draw(st.lists(st.integers(0, guesses - 1), max_size=guesses)), np.int64)
    return matrix, n_codes, cands, rows, inner, draw(st.integers(0, n_codes - 1))


@settings(max_examples=300, deadline=None)
@given(code_matrices(), st.sampled_from([0, 1, 3, 10 ** 6]), st.booleans())
def test_kernels_equal_their_twins(case, cap, empty_rows):
    """Every guess list (none included), every code alphabet, with the memo kept across
    calls or capped to nothing, and asked twice: the same answer as the twins."""
    matrix, n_codes, cands, rows, inner, win = case
    if empty_rows:
        rows = rows[:0]
    assert separator(matrix, cands, rows, n_codes) == \
        reference.separator_first(matrix, cands.tolist(), rows.tolist())
    allowed = np.zeros(matrix.shape[0], np.bool_)
    allowed[inner] = True
    scratch = np.empty(matrix.shape[0], np.int64), np.empty(matrix.shape[0], np.bool_)
    assert column_separator(np.ascontiguousarray(matrix.T), cands, allowed, *scratch) == \
        (reference.separator_first(matrix, cands.tolist(), inner.tolist()) >= 0)
    keys = np.random.default_rng(1).integers(-(1 << 62), 1 << 62, matrix.shape[1],
                                             dtype=np.int64)
    table, sets = new_memo()
    want = reference.two_step_first(matrix, cands.tolist(), rows.tolist(), inner.tolist(), win)
    for _ in range(2):
        assert two_step(matrix, np.ascontiguousarray(matrix.T), cands, rows, inner, n_codes,
                        win, keys, table, sets, cap) == want
    assert len(sets) <= cap


def test_clashing_keys_are_never_trusted():
    """Every answer with the same key: every set clashes in the memo, is searched again,
    and is not stored over the first."""
    matrix = np.array([[0, 0, 0, 1, 1, 1, 2, 2], [0, 1, 2, 0, 0, 1, 0, 0]], np.uint8)
    keys = np.zeros(8, np.int64)
    table, sets = new_memo()
    inner, rows = np.array([1], np.int64), np.array([0], np.int64)
    # guess 1 separates {0, 1, 2} (and {6} needs none): guess 0 fits
    columns = np.ascontiguousarray(matrix.T)
    assert two_step(matrix, columns, np.array([0, 1, 2, 6], np.int64), rows, inner, 3, 5, keys,
                    table, sets, 100) == 0
    # {3, 4, 5} clashes with {0, 1, 2} and has no separating guess: no fit
    assert two_step(matrix, columns, np.array([3, 4, 5, 7], np.int64), rows, inner, 3, 5, keys,
                    table, sets, 100) == -1
    assert [s.tolist() for s in sets] == [[0, 1, 2]] and len(table) == 1


def _least_total_within(guesses, answers, hard, depth, opener=None):
    """Brute force: the least total of a tree within ``depth`` (from ``opener``)."""
    if opener is None:
        return reference.wordle_optimal(guesses, answers, depth, hard=hard)[0]
    return _opener_optimum(guesses, answers, opener, depth, hard)[0]


@settings(max_examples=60, deadline=None)
@given(small_games(), st.booleans(), st.data())
def test_least_worst_against_brute_force(game_lists, hard, data):
    guesses, answers = game_lists
    game = Wordle(guesses, answers, hard=hard)
    opener = data.draw(st.sampled_from([None] + guesses))
    r = least_worst(game, opener, keep_tree=True)
    depth = 1
    while _least_total_within(guesses, answers, hard, depth, opener) == float("inf"):
        depth += 1
    assert r.worst == depth
    assert r.total == _least_total_within(guesses, answers, hard, depth, opener)
    if opener is not None:
        assert r.opener == opener
    if not hard:
        matrix = reference.pattern_matrix(guesses, answers)
        assert opener is not None or r.worst == reference.minimax_depth(
            matrix, 3 ** len(answers[0]) - 1)
    found = WorstCaseSearch(game).search(opener, keep_tree=True)
    assert found.worst == r.worst and found.tree["guess"] == found.opener


@settings(max_examples=40, deadline=None)
@given(small_games(), st.booleans(), st.integers(1, 4), st.data())
def test_guess_fits_against_brute_force(game_lists, hard, depth, data):
    """``guess_fits`` on a subset: whether some tree from the guess solves it within
    ``depth`` guesses, as the brute force over its answers finds."""
    guesses, answers = game_lists
    subset = sorted(data.draw(st.sets(st.sampled_from(answers), min_size=1)))
    opener = data.draw(st.sampled_from(guesses))
    game = Wordle(guesses, answers, hard=hard)
    cands = np.array(sorted(game.answers.index(w) for w in subset), dtype=np.int64)
    allowed = np.ones(len(game.guesses), dtype=bool) if hard else None
    fits = WorstCaseSearch(game).guess_fits(game.guess_index(opener), cands, allowed, depth)
    assert fits == (_least_total_within(guesses, subset, hard, depth, opener) != float("inf"))


@settings(max_examples=80, deadline=None)
@given(small_games(), st.booleans(), st.integers(1, 3), st.booleans())
def test_the_sweep_finds_the_least_depth(game_lists, hard, piece, elsewhere):
    """Swept piece by piece from the first depth, here or by a ``sweep`` that runs the
    pieces in a search of its own: :meth:`WorstCaseSearch.least`'s depth; a rerun on its
    checkpoint gives it again without searching."""
    from deductive.engine.feedback import worst

    game = Wordle(*game_lists, hard=hard)
    want = WorstCaseSearch(game).least()[0]
    other = WorstCaseSearch(game)

    def sweep(depth, pieces):
        order = other._order(*other._root(), depth)
        return [worst.first_fit(other, order[lo:hi], depth) for lo, hi in pieces]

    with mock.patch.multiple(worst, SWEEP_FROM=1, SWEEP_PIECE=piece), \
            tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sweep.jsonl")
        assert worst.least_depth(game, checkpoint=path, sweep=sweep if elsewhere else None) \
            == want
        if not elsewhere:               # (a sweep elsewhere stores its own pieces)
            with mock.patch.object(worst, "first_fit", side_effect=AssertionError("searched")):
                assert worst.least_depth(game, checkpoint=path) == want


def test_a_cut_sweep_resumes(tmp_path):
    """A sweep cut after its first pieces: a rerun on its checkpoint searches only the
    pieces not stored, and finds the same depth and the same entries."""
    from deductive.engine.feedback import worst

    game = Wordle("fr-seed", "fr-seed")
    path = str(tmp_path / "sweep.jsonl")
    with mock.patch.multiple(worst, SWEEP_FROM=1, SWEEP_PIECE=50):
        whole = worst.least_depth(game, checkpoint=str(tmp_path / "whole.jsonl"))
        calls = []
        real = worst.first_fit

        def cut_after_two(*args):
            if len(calls) == 2:
                raise KeyboardInterrupt
            calls.append(1)
            return real(*args)

        with mock.patch.object(worst, "first_fit", side_effect=cut_after_two), \
                pytest.raises(KeyboardInterrupt):
            worst.least_depth(game, checkpoint=path)
        assert len(_entries(path)) == 2
        searched = []
        with mock.patch.object(worst, "first_fit",
                               side_effect=lambda *a: searched.append(1) or real(*a)):
            assert worst.least_depth(game, checkpoint=path) == whole == 4
    assert len(searched) == len(_entries(path)) - 2
    assert _rows(path) == _rows(tmp_path / "whole.jsonl")


def _rows(path):
    """A checkpoint's rows without the time each took."""
    return [{k: v for k, v in e.items() if k != "seconds"} for e in _entries(path)]


def test_a_workers_pieces_are_the_sweeps_own():
    """Each piece run as a worker runs it (the run's search kept across pieces and
    depths): the first fit a fresh search finds in that piece of the order."""
    from deductive.engine.feedback import worst
    from deductive.engine.feedback.search import forget_search

    game = Wordle("fr-seed", "fr-seed")
    fresh = WorstCaseSearch(game)
    fits = []
    try:
        for depth in (3, 4):
            order = fresh._order(*fresh._root(), depth)
            for lo in range(0, len(order), 30):
                piece = [lo, min(lo + 30, len(order))]
                fits.append(worst.sweep_piece(piece, game, "pieces", depth, None))
                assert fits[-1] == worst.first_fit(WorstCaseSearch(game), order[lo:piece[1]],
                                                   depth)
    finally:
        forget_search("pieces")                 # no run's search left for other tests
    assert set(fits[:10]) == {-1} and 0 in fits[10:]       # none within 3; some within 4


def test_sweep_tags_name_what_the_pieces_depend_on():
    from deductive.engine.feedback import worst

    game = Wordle("fr-seed", "fr-seed")
    order = WorstCaseSearch(game).root_order(4)
    tags = [worst.sweep_tag(game, 4, order), worst.sweep_tag(game, 5, order),
            worst.sweep_tag(Wordle("fr-seed", "fr-seed", hard=True), 4, order),
            worst.sweep_tag(game, 4, order[::-1])]
    with mock.patch.object(worst, "SWEEP_PIECE", 7):
        tags.append(worst.sweep_tag(game, 4, order))
    assert len({json.dumps(t, sort_keys=True) for t in tags}) == len(tags)


def _entries(path):
    """The rows of a checkpoint (its headers left out)."""
    with open(path, encoding="utf-8") as fh:
        return [entry for entry in map(json.loads, fh) if "key" in entry]


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


def test_cli_least_worst_and_its_tree(runner, tmp_path, monkeypatch):
    tree = tmp_path / "worst.json"
    base = ["wordle", "search", "--guesses", "fr-seed", "--objective", "worst"]
    out = runner.invoke(cli, base + ["--openers", "all", "--tree", str(tree), "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert (doc["objective"], doc["word"], doc["worst"], doc["exact"]) == ("worst", "clair",
                                                                           4, True)
    check = runner.invoke(cli, ["wordle", "tree-check", "--guesses", "fr-seed", str(tree),
                                "--json"])
    assert check.exit_code == 0, check.output
    report = json.loads(check.stdout)
    assert report["valid"] and report["worst"] == 4 and report["total"] == doc["total"]
    import importlib

    from deductive.engine.wordle.search import memo_bytes

    cli_wordle = importlib.import_module("deductive.cli.wordle")   # the module, not the group

    caps = []

    def spy(game, opener, keep_tree, progress, memo, checkpoint):
        caps.append(memo)
        return least_worst(game, opener, keep_tree, progress, memo, checkpoint)

    monkeypatch.setattr(cli_wordle, "least_worst", spy)
    capped = runner.invoke(cli, base + ["--openers", "all", "--max-memory", "401M", "--json"])
    assert {k: v for k, v in payload(capped.stdout).items() if k != "seconds"} == \
        {k: v for k, v in payload(out.stdout).items() if k != "seconds"}
    assert caps == [memo_bytes(Wordle("fr-seed", "fr-seed").matrix.nbytes, 401_000_000)]
    monkeypatch.undo()
    path = str(tmp_path / "w.jsonl")
    for _ in range(2):                  # the second run reads what the first stored
        kept = runner.invoke(cli, base + ["--openers", "all", "--checkpoint", path, "--json"])
        assert {k: v for k, v in payload(kept.stdout).items() if k != "seconds"} == \
            {k: v for k, v in payload(out.stdout).items() if k != "seconds"}
    entries = _entries(path)
    assert {e["tag"]["least_worst"] for e in entries if "least_worst" in e["tag"]} == {4}
    proof = [e for e in entries if ":" not in e["tag"].get("proof", ":")]
    assert len(proof) == len(Wordle("fr-seed", "fr-seed").guesses)     # and beams, bounds
    verified = runner.invoke(cli, ["wordle", "verify-ranking", "--guesses", "fr-seed", path,
                                   "--sample", "1"])
    assert verified.exit_code == 0, verified.output
    text = runner.invoke(cli, base + ["--opener", "laine"]).stdout.splitlines()
    assert text[0] == "least worst case from laine: 4 guesses (no tree within 3)"
    for extra, message in [
            (["--openers", "5"], "--objective worst goes with --opener WORD or --openers all"),
            (["--opener", "laine", "--beam", "3"], "drop --prove-best, --within, --beam"),
            (["--opener", "laine", "--max-guesses", "5"], "finds its own --max-guesses"),
            (["--opener", "laine", "--workers", "2"], "runs in this process: drop --workers"),
            (["--opener", "laine", "--checkpoint", "c.jsonl"], "--checkpoint goes with --openers"),
            (["--opener", "zzzzz"], "zzzzz"),
            (["--opener", "laine", "--max-memory", "10M"], "leaves no room for the search's")]:
        assert_one_error(runner.invoke(cli, base + extra), message)


def test_capped_memos_give_the_same_answers():
    """A memo emptied at every entry and a set store of nothing, or a memo that keeps its
    largest sets and a store that starts again when full: the same least depths."""
    game = Wordle("fr-seed", "fr-seed")
    want = [WorstCaseSearch(game).least(opener) for opener in (None, "laine")]
    search = WorstCaseSearch(game, memo_bytes=0)
    assert [search.least(opener) for opener in (None, "laine")] == want
    assert not search.memo and len(search._memo_sets()[2]) == 0
    search = WorstCaseSearch(game, memo_bytes=20_000)
    assert [search.least(opener) for opener in (None, "laine")] == want
    assert search.evictions and 0 < search._memo_used <= 10_000
    assert search.sets_kept == 40 and len(search._memo_sets()[2]) <= 40
    assert search.set_restarts > 0          # full, the store started again


def test_memo_caps_are_checked_first():
    from deductive.errors import ArgumentError

    game = Wordle("fr-seed", "fr-seed")
    with pytest.raises(ArgumentError, match="at least 0"):
        WorstCaseSearch(game, memo_bytes=-5)
    with pytest.raises(ArgumentError, match="`memo_bytes` must be at least"):
        least_worst(game, memo_bytes=0)


def test_least_worst_under_a_memory_cap():
    """`least_worst` with a small memo cap gives the same trees' worst case and total."""
    game = Wordle("fr-seed", "fr-seed")
    for opener in (None, "laine"):
        free, capped = least_worst(game, opener), least_worst(game, opener, memo_bytes=20_000)
        assert (capped.opener, capped.worst, capped.total) == (free.opener, free.worst, free.total)


@pytest.mark.parametrize("hard", [False, True])
def test_one_answer(hard):
    """The opener that is the only answer solves it in one guess; another word in two."""
    game = Wordle(["abc", "abd", "bcd"], ["abd"], hard=hard)
    assert WorstCaseSearch(game).least("abd") == (1, game.guess_index("abd"))
    assert WorstCaseSearch(game).least("abc")[0] == 2
    assert WorstCaseSearch(game).least() == (1, game.guess_index("abd"))
    for opener, worst in (("abd", 1), ("abc", 2), (None, 1)):
        assert least_worst(game, opener).worst == worst
