"""Polishing a tree: exact subtrees grafted into a beam's tree (feedback.polish)."""

import copy
import gzip
import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.cli import cli
from deductive.engine.feedback.polish import fit_tree, polish_result, polish_tree
from deductive.engine.feedback.search import TreeSearch
from deductive.engine.feedback.tree import TreeError, check_tree, load_tree, tree_document
from deductive.engine.wordle.game import Wordle
from deductive.errors import ArgumentError, DeductiveError

FRENCH = list(Wordle("fr-seed", "fr-seed").guesses)


def _sample(seed: int, n: int) -> list[str]:
    return sorted(np.random.default_rng(seed).choice(FRENCH, n, replace=False).tolist())


def _chant():
    """120 French words, each both a guess and an answer: the beam-1 tree from chant
    totals 334 and the exact one 333 (one subtree is not optimal)."""
    words = _sample(21, 120)
    return Wordle(words, words)


@pytest.mark.parametrize("hard", [False, True])
def test_polish_finds_the_better_subtree(hard):
    words = _sample(21, 120)
    game = Wordle(words, words, hard=hard)
    beam = TreeSearch(game, beam=1).search_opener("chant", keep_tree=True)
    given_tree = copy.deepcopy(beam.tree)
    done = []
    p = polish_tree(game, beam.tree, 120, progress=lambda k, n: done.append((k, n)))
    assert (beam.total, p.before, p.total, p.improved) == (334, 334, 333, 1)
    assert beam.tree == given_tree                       # the tree given is not changed
    assert p.exact and p.total == TreeSearch(game).search_opener("chant").total
    report = check_tree(game, tree_document(game, p.tree), hard=hard)
    assert int(report.depths.sum()) == p.total and int(report.depths.max()) == p.worst
    assert done == [(k, p.subtrees) for k in range(1, p.subtrees + 1)]


EN = list(Wordle("en", "en").answers)


@pytest.mark.parametrize("seed, opener, beam, best", [(4, "adult", 425, 424),
                                                      (30, "cacti", 434, 434)])
def test_polish_keeps_hard_mode_and_the_guesses_left(seed, opener, beam, best):
    """Hard mode within 4 guesses on 150 English answers: from adult the beam's 425 is
    424 at best; from cacti 434 is the best within 4 (433 needs a fifth guess). A subtree
    given the wrong guesses left or the wrong allowed guesses would show here."""
    rng = np.random.default_rng(seed)
    answers = sorted(rng.choice(EN, 150, replace=False).tolist())
    extra = np.random.default_rng(seed + 1000).choice(EN, 100, replace=False).tolist()
    game = Wordle(sorted(set(answers) | set(extra)), answers, hard=True)
    found = TreeSearch(game, beam=1, max_guesses=4).search_opener(opener, keep_tree=True)
    p = polish_tree(game, found.tree, 150, max_guesses=4)
    assert (found.total, p.total, p.exact) == (beam, best, True) and p.worst <= 4
    assert polish_tree(game, found.tree, 150, max_guesses=4, memo_bytes=600).total == best


def test_polish_mends_small_subtrees_without_a_search():
    """A two-answer bucket of the opener solved by a guess that is neither answer (4
    guesses where 3 do) is replaced by the obvious subtree, and the result is exact."""
    game = _chant()
    exact = TreeSearch(game).search_opener("chant", keep_tree=True)
    tree = copy.deepcopy(exact.tree)
    cands = np.arange(len(game.answers))
    code, pair = next((c, grp) for c, grp in game.split(game.guess_index("chant"), cands)
                      if len(grp) == 2)
    outsider = next(g for g in range(len(game.guesses))
                    if g not in game.answer_to_guess[pair] and len(game.split(g, pair)) == 2)
    tree["then"][game.format(code)] = {"guess": game.word(outsider), "then": {
        game.format(c): {"guess": game.answers[int(grp[0])], "then": {}}
        for c, grp in game.split(outsider, pair)}}
    p = polish_tree(game, tree, 3, min_size=3)
    assert (p.before, p.total, p.improved) == (exact.total + 1, exact.total, 1)
    assert polish_tree(game, tree, 200).exact


def test_polish_changes_nothing_where_nothing_is_gained():
    game = _chant()
    exact = TreeSearch(game).search_opener("chant", keep_tree=True)
    p = polish_tree(game, exact.tree, 120)
    assert p.tree == exact.tree and p.improved == 0 and p.total == exact.total == 333


def test_a_partial_polish_is_not_exact():
    game = _chant()
    beam = TreeSearch(game, beam=1).search_opener("chant", keep_tree=True)
    biggest = max(len(grp) for code, grp in game.split(game.guess_index("chant"),
                                                         np.arange(len(game.answers)))
                  if code != game.win_code)
    p = polish_tree(game, beam.tree, biggest - 1)
    assert not p.exact and p.total <= p.before
    whole = polish_tree(game, beam.tree, biggest)
    assert whole.exact and whole.total == 333


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(8, 40), st.booleans(),
       st.sampled_from([None, 3, 4]), st.integers(3, 12))
def test_polish_matches_the_exact_search(seed, n, hard, max_guesses, max_size):
    """Polished to every size, a beam's tree totals the exact search's least total from
    its opener; polished to less, it lies between the two; it is always a valid tree
    within ``max_guesses``, and the result is exact only when fully polished."""
    answers = _sample(seed, n)
    guesses = sorted(set(answers) | set(_sample(seed + 1, 10)))
    game = Wordle(guesses, answers, hard=hard)
    opener = guesses[seed % len(guesses)]
    try:
        beam = TreeSearch(game, beam=1, max_guesses=max_guesses).search_opener(
            opener, keep_tree=True)
    except DeductiveError:                # no tree within max_guesses in the beam
        return
    best = TreeSearch(game, max_guesses=max_guesses).search_opener(opener).total
    full = polish_tree(game, beam.tree, n, max_guesses=max_guesses)
    part = polish_tree(game, beam.tree, max_size, max_guesses=max_guesses)
    assert full.total == best and full.exact
    assert best <= part.total <= beam.total
    for p in (full, part):
        depths = check_tree(game, tree_document(game, p.tree), hard=hard).depths
        assert int(depths.sum()) == p.total
        assert max_guesses is None or int(depths.max()) <= max_guesses
    if not part.exact:
        assert any(len(grp) > max_size for code, grp in game.split(
            game.guess_index(opener), np.arange(n)) if code != game.win_code)


def _depths(game, tree):
    return check_tree(game, tree_document(game, tree), hard=game.hard).depths


def _worst(game, node, cands):
    """Guesses the subtree ``node`` needs at most over ``cands`` (a recursive twin)."""
    return 1 + max((_worst(game, node["then"][game.format(int(code))], grp)
                    for code, grp in game.split(game.guess_index(node["guess"]), cands)
                    if code != game.win_code), default=0)


def _kept_where_it_fitted(game, given, fitted, max_guesses):
    """Each child of the opener whose subtree fitted in the tree given is unchanged."""
    cands = np.arange(len(game.answers))
    for code, grp in game.split(game.guess_index(given["guess"]), cands):
        label = game.format(int(code))
        if code != game.win_code and _worst(game, given["then"][label], grp) < max_guesses:
            assert fitted["then"][label] == given["then"][label]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(10, 40), st.booleans(), st.sampled_from([2, 3, 4]))
def test_fit_tree_matches_the_exact_search(seed, n, hard, max_guesses):
    """Fitting a beam's tree (searched with no limit) within ``max_guesses`` fails exactly
    when the exact search from its opener finds no tree within them; otherwise the fitted
    tree is valid, keeps the opener, fits, costs no less than the least total within the
    limit, keeps each subtree that fitted already, and polished in full gives that least
    total."""
    answers = _sample(seed, n)
    guesses = sorted(set(answers) | set(_sample(seed + 1, 10)))
    game = Wordle(guesses, answers, hard=hard)
    opener = guesses[seed % len(guesses)]
    beam = TreeSearch(game, beam=1).search_opener(opener, keep_tree=True)
    try:
        best = TreeSearch(game, max_guesses=max_guesses).search_opener(opener).total
    except DeductiveError:               # no tree from the opener within max_guesses
        with pytest.raises(ArgumentError, match="no tree from"):
            fit_tree(game, beam.tree, max_guesses)
        return
    fitted = fit_tree(game, beam.tree, max_guesses)
    depths = _depths(game, fitted)
    assert fitted["guess"] == opener and int(depths.max()) <= max_guesses
    assert best <= int(depths.sum())
    if int(_depths(game, beam.tree).max()) <= max_guesses:
        assert fitted == beam.tree
    _kept_where_it_fitted(game, beam.tree, fitted, max_guesses)
    assert polish_tree(game, beam.tree, n, max_guesses=max_guesses).total == best
    try:                                 # a beam may miss a tree, never give a wrong one
        by_beam = fit_tree(game, beam.tree, max_guesses, beam=2)
    except ArgumentError as e:
        assert "the beam of 2 finds no tree" in str(e)
    else:
        assert by_beam["guess"] == opener
        assert best <= int(_depths(game, by_beam).sum())
        assert int(_depths(game, by_beam).max()) <= max_guesses
        _kept_where_it_fitted(game, beam.tree, by_beam, max_guesses)


def test_fit_tree_changes_only_the_subtrees_that_must_change():
    """On the 297 French words, bande's beam-1 tree totals 902 but needs 5 guesses for some
    answers; within 4, two of its 56 subtrees change, and polishing gives 908, the least
    total within 4 from bande."""
    game = Wordle("fr-seed", "fr-seed")
    beam = TreeSearch(game, beam=1).search_opener("bande", keep_tree=True)
    assert (beam.total, beam.worst) == (902, 5)
    fitted = fit_tree(game, beam.tree, 4)
    assert int(_depths(game, fitted).max()) == 4
    changed = [label for label in beam.tree["then"]
               if fitted["then"][label] != beam.tree["then"][label]]
    assert (len(changed), len(beam.tree["then"])) == (2, 56)
    _kept_where_it_fitted(game, beam.tree, fitted, 4)
    p = polish_tree(game, beam.tree, 300, max_guesses=4)
    assert (p.before, p.total, p.worst, p.exact) == (902, 908, 4, True)
    by_beam = fit_tree(game, beam.tree, 4, beam=5)       # fitted by a beam's search
    assert int(_depths(game, by_beam).max()) == 4 and by_beam["guess"] == "bande"
    _kept_where_it_fitted(game, beam.tree, by_beam, 4)
    assert polish_tree(game, beam.tree, 300, max_guesses=4, beam=5).total == 908
    assert TreeSearch(game, max_guesses=4).search_opener("bande").total == 908


def test_polish_result_updates_the_search_result():
    game = _chant()
    beam = TreeSearch(game, beam=1).search_opener("chant", keep_tree=True)
    r = polish_result(game, beam, 200)
    assert (r.total, r.exact, r.lower, r.beam) == (333, True, 333, 1)
    within = TreeSearch(game, beam=1, max_guesses=4).search_opener("chant", keep_tree=True)
    assert polish_result(game, within, 200).worst <= 4     # the result's own limit
    assert r.polish["before"] == 334 and r.polish["after"] == 333
    assert r.to_json()["polish"]["improved"] == 1
    with pytest.raises(ArgumentError, match="keep_tree"):
        polish_result(game, TreeSearch(game, beam=1).search_opener("chant"), 10)


def test_polish_refuses_bad_settings_and_bad_trees():
    game = _chant()
    beam = TreeSearch(game, beam=1).search_opener("chant", keep_tree=True)
    with pytest.raises(ArgumentError, match="at least 3"):
        polish_tree(game, beam.tree, 10, min_size=2)
    with pytest.raises(ArgumentError, match="below `min_size`"):
        polish_tree(game, beam.tree, 4, min_size=5)
    with pytest.raises(ArgumentError, match="no tree from 'chant' .* within 2 guesses"):
        polish_tree(game, beam.tree, 10, max_guesses=2)
    with pytest.raises(ArgumentError, match="the beam of 3 finds no tree from 'chant' "
                                            ".* widen `beam`"):
        fit_tree(game, beam.tree, 2, beam=3)
    with pytest.raises(ArgumentError, match="at least 1"):
        fit_tree(game, beam.tree, 0)
    broken = copy.deepcopy(beam.tree)
    broken["then"].popitem()
    with pytest.raises(TreeError, match="misses answer"):
        polish_tree(game, broken, 10)


def test_load_tree_reads_gzip_and_names_a_bad_file(tmp_path):
    game = _chant()
    doc = tree_document(game, TreeSearch(game, beam=1).search_opener("chant",
                                                                     keep_tree=True).tree)
    packed = tmp_path / "t.json.gz"
    packed.write_bytes(gzip.compress(json.dumps(doc).encode()))
    assert load_tree(packed) == doc
    (tmp_path / "cut.gz").write_bytes(gzip.compress(b"{")[:-4])
    data = bytearray(packed.read_bytes())
    data[20:60] = bytes(b ^ 0xFF for b in data[20:60])
    (tmp_path / "damaged.gz").write_bytes(bytes(data))
    for name in ("cut.gz", "damaged.gz"):
        with pytest.raises(TreeError, match="damaged or cut gzip"):
            load_tree(tmp_path / name)
    out = CliRunner().invoke(cli, ["wordle", "tree-check", str(tmp_path / "damaged.gz"),
                                   "--guesses", "fr-seed"])
    assert out.exit_code == 2 and "damaged or cut gzip" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    with pytest.raises(TreeError, match="a directory|is a folder"):
        load_tree(tmp_path)


def test_cli_search_polish(tmp_path):
    runner = CliRunner()
    tree = tmp_path / "t.json"
    out = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--opener", "laine",
                              "--beam", "1", "--polish", "40", "--tree", str(tree), "--json"])
    assert out.exit_code == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["polish"]["max_size"] == 40 and doc["polish"]["after"] == doc["total"]
    check = runner.invoke(cli, ["wordle", "tree-check", str(tree), "--guesses", "fr-seed",
                                "--json"])
    assert json.loads(check.stdout)["total"] == doc["total"]
    text = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--opener",
                               "laine", "--beam", "1", "--polish", "500"])
    assert "polished:" in text.stdout and "so the total is exact" in text.stdout
    for args, message in ((["--polish", "5"], "--polish goes with --opener WORD and --beam"),
                          (["--beam", "2", "--polish", "2"], "'--polish'"),
                          (["--objective", "worst", "--polish", "5"], "and --polish")):
        bad = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--opener",
                                  "laine", *args])
        assert bad.exit_code == 2 and message in bad.stderr, bad.stderr
