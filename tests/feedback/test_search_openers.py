"""Opener bounds and the opener certificate against brute force on small lists."""

import gzip
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deductive
from deductive.engine.feedback.search import LocalSearches, opener_bounds, prove_openers
from deductive.engine.feedback.search import bounds as bounds_module
from deductive.engine.feedback.search import proofs
from deductive.engine.feedback.search.proofs import _proof_row
from deductive.engine.wordle.game import Wordle

from tests import reference
from tests.cli.test_cli_errors import assert_one_error
from tests.feedback.test_search import small_games


def _opener_optimum(guesses, answers, opener, max_guesses, hard=False):
    """(total, worst) of the best tree opening with ``opener``, by brute force."""
    length = len(answers[0])
    win = 3 ** length - 1
    groups: dict = {}
    for answer in answers:
        groups.setdefault(reference.feedback_code(opener, answer), []).append(answer)
    total, worst = len(answers), 1
    for code, grp in groups.items():
        if code != win:
            digits = [(code // 3 ** i) % 3 for i in range(length)]
            sub = reference.wordle_optimal(guesses, grp, None if max_guesses is None
                                           else max_guesses - 1, hard=hard,
                                           history=((opener, digits),))
            total, worst = total + sub[0], max(worst, 1 + sub[1])
    return total, worst


@pytest.fixture(params=[None, 0], ids=["columns", "caps"])
def columns_max(request, monkeypatch):
    """As shipped, or every bucket scored from the guess rows in the order of their caps
    (the path of buckets over OPENER_COLUMNS_MAX answers, beyond these small lists)."""
    if request.param is not None:
        monkeypatch.setattr(bounds_module, "OPENER_COLUMNS_MAX", request.param)
    return request.param


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(small_games(), st.sampled_from([None, 2, 3]), st.booleans())
def test_opener_bounds_are_admissible(columns_max, game_lists, max_guesses, hard):
    """Refined or plain, never above the opener's optimum; refined, never below plain."""
    guesses, answers = game_lists
    game = Wordle(guesses, answers, hard=hard)
    bounds = opener_bounds(game, np.arange(len(guesses)))
    plain = opener_bounds(game, np.arange(len(guesses)), refine=False)
    assert (bounds >= plain).all()
    for word, bound in zip(guesses, bounds.tolist()):
        total, _ = _opener_optimum(guesses, answers, word, max_guesses, hard)
        assert bound <= total


@settings(max_examples=40, deadline=None)
@given(small_games(), st.booleans(), st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_a_bound_cut_short_at_a_target_tells_where_the_full_one_is(game_lists, hard, refine,
                                                                  seed):
    """An opener's bound stops growing once it reaches ``target``: what is returned then
    reaches a limit L <= target exactly when the full bound does (the lazy refinement of
    prove_openers decides rows by that), and below the target it is the full bound."""
    guesses, answers = game_lists
    game = Wordle(guesses, answers, hard=hard)
    full = opener_bounds(game, np.arange(len(guesses)), refine=refine)
    rng = np.random.default_rng(seed)
    for g, bound in enumerate(full.tolist()):
        limit = bound + int(rng.integers(-6, 7))
        target = limit + int(rng.integers(0, 7))
        cut = int(opener_bounds(game, [g], target, refine=refine)[0])
        assert (cut >= limit) == (bound >= limit) and cut <= bound
        assert cut == bound or (cut >= target and bound >= target)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(small_games())
def test_hard_mode_opener_bounds_use_the_guesses_hard_mode_allows(columns_max, game_lists):
    """In hard mode each bucket is bounded over the guesses allowed after its feedback:
    the twin spelled out, and never below the normal-mode bound."""
    guesses, answers = game_lists
    hard, normal = Wordle(guesses, answers, hard=True), Wordle(guesses, answers)
    bounds = opener_bounds(hard, np.arange(len(guesses)))
    matrix, length = hard.matrix, len(answers[0])
    rows = np.arange(len(guesses))
    for g, word in enumerate(guesses):
        rows_of = {}
        for code in set(matrix[g].tolist()):
            digits = [(code // 3 ** i) % 3 for i in range(length)]
            rows_of[code] = [h for h, w in enumerate(guesses)
                             if reference.hard_mode_ok(w, [(word, digits)])]
        assert bounds[g] == reference.opener_depth2_bound(matrix, g, rows, hard.guess_to_answer,
                                                          hard.win_code, rows_of,
                                                          hard.answer_to_guess)
    assert (bounds >= opener_bounds(normal, np.arange(len(guesses)))).all()
    deductive.set_threads(1)                    # one thread, or one opener per thread
    try:                                        # (the default above): the same bounds
        assert opener_bounds(hard, np.arange(len(guesses))).tolist() == bounds.tolist()
    finally:
        deductive.set_threads(None)


@settings(max_examples=40, deadline=None)
@given(small_games(), st.sampled_from([None, 2, 3]), st.integers(1, 4),
       st.sampled_from([None, 0, 1, 3]), st.booleans())
def test_certificate_against_brute_force(game_lists, max_guesses, keep, within, hard):
    guesses, answers = game_lists
    game = Wordle(guesses, answers, hard=hard)
    truth = {w: _opener_optimum(guesses, answers, w, max_guesses, hard) for w in guesses}
    proof = prove_openers(game, keep, within=within, max_guesses=max_guesses)
    assert_proof_holds(proof, truth, keep, within)


def assert_proof_holds(proof, truth, keep, within, totals_only=False):
    """``proof``'s rows against ``truth`` (opener -> (total, worst), by brute force): every
    opener once, exact rows exact, every other bound admissible and above the ceiling, the
    ranking (its words, in the order of the truth's: total, worst case, guess order) and
    the best openers those of the truth. With ``totals_only`` (a proof with the
    depth-three step) every exact row gives no worst case, and the ranking goes by total,
    then guess order."""
    assert sorted(r["word"] for r in proof.rows) == sorted(truth)
    index = {r["word"]: r["index"] for r in proof.rows}
    for row in proof.rows:
        total, worst = truth[row["word"]]
        assert row["lower"] <= total
        if row["exact"]:
            assert (row["total"], row["worst"], row["lower"]) == (
                total, None if totals_only else worst, total)
        else:
            assert row["lower"] > proof.ceiling
    feasible = sorted((t, w) for t, w in truth.values() if t < math.inf)
    order = sorted((w for w, (t, _) in truth.items() if t < math.inf),
                   key=lambda w: (truth[w][0], 0 if totals_only else truth[w][1], index[w]))
    ranked = [(r["total"], r["worst"]) for r in proof.ranking()]
    assert [r["word"] for r in proof.ranking()] == order[:len(ranked)]
    near = [f for f in feasible if within is not None and f[0] <= feasible[0][0] + within]
    assert len(ranked) == max(min(keep, len(feasible)), len(near))
    least = feasible[0][0] if feasible else None
    assert sorted(proof.best()) == sorted(w for w, (t, _) in truth.items() if t == least)


def _stable(rows):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


class _RecordedSearches(LocalSearches):
    """One process's pool, recording the limit each search was sent with."""

    def __init__(self, game, max_guesses=None):
        super().__init__(game, max_guesses)
        self.limits, self.sent = {}, {}
        self.beams = self.deeps = 0

    def submit(self, place, g, limit, beam=False, deep=False, kept=None):
        self.beams += beam
        self.deeps += deep
        if not (beam or deep):
            self.limits[place] = limit
            self.sent[place] = g
        super().submit(place, g, limit, beam, deep, kept)


class _ShuffledSearches(_RecordedSearches):
    """A pool of ``slots`` searches that finish in a seeded random order (as on several
    workers), each under the limit it was sent with."""

    def __init__(self, game, slots, seed, max_guesses=None):
        super().__init__(game, max_guesses)
        self.slots, self.rng = slots, np.random.default_rng(seed)
        self.results = {}

    def next(self):
        place, g, limit, beam, deep, kept = self._waiting.pop(
            int(self.rng.integers(len(self._waiting))))
        result = self.run(g, limit, beam, deep, kept)
        if not (beam or deep):
            self.results[place] = result
        return place, result


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2 ** 32 - 1), st.sampled_from([(1, None), (3, None),
                                                                          (1, 20), (5, 4)]))
def test_certificate_is_the_same_with_a_pool_of_searches(slots, seed, ask):
    """Searches that run ahead of the rows decided, under higher ceilings and finishing in
    any order, give the rows of the serial run (a loose first ceiling, from one beam
    opener, makes them run ahead more)."""
    keep, within = ask
    for hard in (False, True):
        _pooled_and_serial(Wordle("fr-seed", "fr-seed", hard=hard), keep, within, slots, seed)


@settings(max_examples=4, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2 ** 32 - 1))
def test_certificate_under_a_guess_limit_is_the_same_with_a_pool(slots, seed):
    """Under ``max_guesses`` a beam's value may depend on the sets its search met before:
    each beam of the first ceiling gets a search of its own, so the ceiling, and then the
    rows, are those of the serial run whatever the order the beams finish in."""
    game = Wordle("fr-seed", "fr-seed", hard=True)
    _pooled_and_serial(game, 5, None, slots, seed, max_guesses=4, beam=10, extra=10)


def test_searches_run_ahead_under_higher_ceilings():
    """The case the pool is for: searches sent under a higher ceiling than their row's
    (measured: 5 of 20 in normal mode, 9 of 14 in hard mode), and still the same rows;
    among them openers whose refined bound, below the limit they were sent with, reaches
    their row's: ruled out by it, with the row's limit as their ``lower``."""
    between = 0
    for hard in (False, True):
        game = Wordle("fr-seed", "fr-seed", hard=hard)
        serial, pooled, proof, pool = _pooled_and_serial(game, 1, 20, 6, 0)
        assert sum(pooled[k] > limit for k, limit in serial.items() if k in pooled) >= 3
        rows = {r["index"]: r for r in proof.rows}
        for place, (_, _, _, _, refined) in pool.results.items():
            row = rows[pool.sent[place]]
            if place in serial and serial[place] <= refined < pooled[place]:
                assert (row["by"], row["exact"], row["lower"]) == ("bound", False,
                                                                   serial[place])
                between += 1
    assert between >= 1


def _pooled_and_serial(game, keep, within, slots, seed, max_guesses=None, beam=1, extra=0):
    """The limits sent by one process and by a shuffled pool, after checking their rows;
    then the pooled proof and pool."""
    from deductive.engine.feedback.search import proofs

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(proofs, "CEILING_BEAM", beam)
        patch.setattr(proofs, "CEILING_EXTRA", extra)
        one = _RecordedSearches(game, max_guesses)
        serial = prove_openers(game, keep, within=within, max_guesses=max_guesses, pool=one)
        pool = _ShuffledSearches(game, slots, seed, max_guesses)
        pooled = prove_openers(game, keep, within=within, max_guesses=max_guesses, pool=pool)
    assert _stable(pooled.rows) == _stable(serial.rows) and pooled.ceiling == serial.ceiling
    assert set(one.limits) <= set(pool.limits)         # all sent, at a limit as high
    assert all(pool.limits[k] >= limit for k, limit in one.limits.items())
    return one.limits, pool.limits, pooled, pool


def test_proof_rows_from_searches_under_higher_limits():
    """A search's outcome under a limit at least the row's gives the row of a search under
    the row's own limit."""
    game = Wordle("fr-seed", "fr-seed")
    word = game.word(7)

    def row(low, limit, result):
        r = _proof_row(game, 7, low, limit, result)
        assert r["word"] == word and r["index"] == 7
        return r["lower"], r["total"], r["worst"], r["exact"], r["by"]

    assert row(862, 860, None) == (862, None, None, False, "bound")          # not sent
    assert row(862, 860, (870, 4, True, 1.0, 864)) == (862, None, None, False, "bound")
    assert row(850, 860, (855, 4, True, 1.0, 852)) == (855, 855, 4, True, "search")
    assert row(850, 860, (865, 5, True, 1.0, 852)) == (860, None, None, False, "search")
    assert row(850, 860, (880, 0, False, 1.0, 852)) == (860, None, None, False, "search")
    assert row(850, 860, (860, 4, True, 1.0, 852)) == (860, None, None, False, "search")
    # out by the refined bound, whether or not it was searched under a higher limit
    # (its refined bound, cut short at that limit, proves no more than the row's)
    assert row(850, 860, (861, 0, False, 1.0, 861)) == (860, None, None, False, "bound")
    assert row(850, 860, (864, 4, True, 1.0, 860)) == (860, None, None, False, "bound")


def _part(entry) -> str:
    """What a line of a proof file holds: ``"proof"`` (its header and opener rows),
    ``"ceiling"`` (the first ceiling's beams) or ``"bounds"`` (the plain bounds kept)."""
    proof = entry["tag"]["proof"]
    return proof.split(":")[1] if ":" in proof else "proof"


def test_certificate_resumes_to_the_same_rows(tmp_path):
    """A run cut anywhere (in its beams, its bounds or its rows) resumes to the same rows,
    and runs again none of the beams and bounds it kept."""
    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path / "proof.jsonl"
    whole = prove_openers(game, 3, checkpoint=str(path))
    lines = path.read_text().splitlines()
    parts = [_part(json.loads(x)) for x in lines]
    beams, bounds = parts.count("ceiling") - 1, parts.count("bounds") - 1   # less headers
    assert beams >= 3 + proofs.CEILING_EXTRA and bounds >= 3
    assert parts.count("proof") == len(game.guesses) + 1
    among_bounds = [k for k, p in enumerate(parts) if p == "bounds"][3]
    for cut in (0, 5, among_bounds, len(lines) - 2):
        part = tmp_path / f"cut{cut}.jsonl"
        part.write_text("\n".join(lines[:cut]) + ("\n" if cut else "") + lines[cut][:20])
        pool = _RecordedSearches(game)
        again = prove_openers(game, 3, checkpoint=str(part), pool=pool)
        assert _stable(again.rows) == _stable(whole.rows) and again.ceiling == whole.ceiling
        assert _stable(_rows(part)) == _stable(whole.rows)
        assert pool.beams == beams - max(0, min(cut - 1, beams))     # those kept: not again
        rows = [json.loads(x) for x in part.read_text().splitlines()
                if x.startswith("{") and x.endswith("}")]
        assert sum(_part(e) == "bounds" and "key" in e for e in rows) == bounds  # each once
    assert whole.best() == ["clair", "train"] and whole.ceiling == 858


def test_cli_prove_best_and_exact_openers(tmp_path):
    from click.testing import CliRunner

    from deductive.cli import cli

    runner = CliRunner()
    ck = tmp_path / "proof.jsonl"
    args = ["wordle", "search", "--guesses", "fr-seed", "--openers", "all", "--prove-best",
            "--checkpoint", str(ck), "--json"]
    out = runner.invoke(cli, args)
    assert out.exit_code == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["best"] == ["clair", "train"] and doc["ceiling"] == 851
    assert doc["openers"] == 297 == len(_rows(ck))
    assert doc["bound"] + doc["search"] == 297
    again = json.loads(runner.invoke(cli, args).stdout)      # all from the checkpoint
    assert _stable(again["ranking"]) == _stable(doc["ranking"])
    top = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--openers", "4",
                              "--prove-best"])
    assert top.exit_code == 0, top.stderr
    lines = top.stdout.splitlines()
    assert [x.split()[0] for x in lines[:4]] == ["clair", "train", "lance", "crane"]
    assert lines[-1].startswith("proven: 297 openers")


def test_cli_openers_errors():
    from click.testing import CliRunner

    from deductive.cli import cli

    runner = CliRunner()
    base = ["wordle", "search", "--guesses", "fr-seed"]
    for extra, message in [
            (["--openers", "ten"], "--openers ten: give a number of openers"),
            (["--openers", "0"], "--openers 0: give a number of openers"),
            (["--opener", "laine", "--prove-best"], "--prove-best goes with --openers"),
            (["--openers", "all", "--prove-best", "--beam", "3"], "without --beam"),
            (["--opener", "laine", "--checkpoint", "x.jsonl"], "--checkpoint goes with"),
            (["--openers", "all", "--prove-best", "--max-memory", "10M"],
             "leaves no room for the search's memo")]:
        assert_one_error(runner.invoke(cli, base + extra), message)
    # a budget too small for a memo is an error only where the memo is the way of working
    # (--prove-best, --objective worst); a single search runs with a small memo
    for extra in (["--openers", "3"], ["--openers", "3", "--beam", "3"], ["--opener", "laine"]):
        out = runner.invoke(cli, base + extra + ["--max-memory", "100M"])
        assert out.exit_code == 0, out.output


def test_verify_proof_checks_rows_and_catches_a_wrong_one(tmp_path):
    from deductive.checkpoint import inputs_digest, row_digest
    from deductive.engine.feedback.search import verify_proof
    from deductive.errors import ArgumentError

    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path / "proof.jsonl"
    prove_openers(game, 3, checkpoint=str(path))
    report = verify_proof(game, str(path), sample=2)
    assert report["ok"] and report["rows"] == len(game.guesses)
    packed = tmp_path / "proof.jsonl.gz"           # as the certificates are shipped
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert verify_proof(game, str(packed), sample=2)["checked"] == report["checked"]
    packed.write_bytes(packed.read_bytes()[:-20])
    with pytest.raises(ArgumentError, match="a damaged or cut gzip file"):
        verify_proof(game, str(packed))
    kinds = [c["kind"] for c in report["checked"]]
    assert kinds.count("best") == 1 and kinds.count("exact") == 2
    assert kinds.count("bound") + kinds.count("search") == \
        sum(not r["exact"] for r in _rows(path))                # every bound recomputed
    assert next(c for c in report["checked"] if c["kind"] == "best")["word"] == "clair"
    # a claimed total one below the truth, and bounds above their recomputed value (the
    # digests made to hold: the check does not rest on them)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    for entry in lines:
        result = entry.get("result") if "word" in entry.get("result", {}) else None
        if result and result["word"] == "clair":
            result["total"] -= 1
        if result and result["by"] == "bound":
            result["lower"] += 10_000
        if result:
            entry["digest"] = row_digest(inputs_digest(entry["tag"]), entry["key"], result)
    path.write_text("".join(json.dumps(e) + "\n" for e in lines))
    bad = verify_proof(game, str(path), sample=0)
    assert not bad["ok"] and not any(c["ok"] for c in bad["checked"])
    assert sum("claims a bound of at least" in p for p in bad["problems"]) == \
        sum(c["kind"] == "bound" for c in bad["checked"])
    with pytest.raises(ArgumentError, match="rows of the other mode"):
        verify_proof(Wordle("fr-seed", "fr-seed", hard=True), str(path))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("not json\n")
    with pytest.raises(ArgumentError, match="no opener rows"):
        verify_proof(game, str(empty))


def _rows(path):
    """The opener rows of a proof file (not its first ceiling's beams; lines cut short
    left out)."""
    entries = [json.loads(x) for x in path.read_text().splitlines()
               if x.startswith("{") and x.endswith("}")]
    return [e["result"] for e in entries if "key" in e and _part(e) == "proof"]


def test_cli_within_and_verify_ranking(tmp_path):
    from click.testing import CliRunner

    from deductive.cli import cli

    runner = CliRunner()
    ck = tmp_path / "p.jsonl"
    out = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--openers", "1",
                              "--prove-best", "--within", "8", "--checkpoint", str(ck),
                              "--json"])
    assert out.exit_code == 0, out.stderr
    doc = json.loads(out.stdout)
    assert [r["word"] for r in doc["ranking"]] == ["clair", "train", "lance", "crane", "laine"]
    assert doc["ceiling"] == 859
    ok = runner.invoke(cli, ["wordle", "verify-ranking", "--guesses", "fr-seed", str(ck),
                             "--json"])
    assert ok.exit_code == 0, ok.stderr
    report = json.loads(ok.stdout)
    assert report["ok"] and len(report["checked"]) == 4 + sum(
        not r["exact"] for r in _rows(ck))
    lines = [json.loads(x) for x in ck.read_text().splitlines()]
    k = next(k for k, e in enumerate(lines)         # the first opener row (after the beams)
             if "key" in e and _part(e) == "proof")
    lines[k]["result"]["lower"] += 1000             # its digest no longer holds
    lines[k]["result"]["by"], lines[k]["result"]["exact"] = "bound", False
    ck.write_text("".join(json.dumps(e) + "\n" for e in lines))
    bad = runner.invoke(cli, ["wordle", "verify-ranking", "--guesses", "fr-seed", str(ck)])
    assert bad.exit_code == 1 and \
        f"WRONG: row {lines[k]['key']!r} (line {k + 1}): its digest" in bad.stdout
    wrong = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--openers", "1",
                                "--within", "8"])
    assert wrong.exit_code == 2 and "--within goes with --prove-best" in wrong.stderr


@settings(max_examples=40, deadline=None)
@given(small_games(), st.sampled_from([None, 3]), st.integers(1, 3), st.booleans(), st.data())
def test_a_beam_tree_comes_with_a_floor(game_lists, max_guesses, beam, hard, data):
    """A beam search's result: its total a real tree's, its lower bound at most the
    opener's least total (brute force); an exact search's lower bound is its total."""
    from deductive.engine.feedback.search import TreeSearch
    from deductive.errors import DeductiveError

    guesses, answers = game_lists
    game = Wordle(guesses, answers, hard=hard)
    opener = data.draw(st.sampled_from(guesses))
    best, _ = _opener_optimum(guesses, answers, opener, max_guesses, hard)
    try:
        r = TreeSearch(game, beam=beam, max_guesses=max_guesses).search_opener(opener)
    except DeductiveError:              # no tree within max_guesses in the beam
        return
    assert r.lower <= best <= r.total and r.to_json()["lower"] == r.lower
    exact = TreeSearch(game, max_guesses=max_guesses).search_opener(opener)
    assert exact.lower == exact.total == best


def test_no_opener_within_the_guesses_says_so():
    from deductive.engine.render import render

    game = Wordle("fr-seed", "fr-seed")
    proof = prove_openers(game, 1, max_guesses=3)
    assert proof.best() == [] and proof.ranking() == []
    assert render(proof).endswith("no opener solves every answer within the guesses allowed")
    assert proof.answers == len(game.answers)


def test_first_ceiling_goes_down_the_list_past_beams_without_a_tree(monkeypatch):
    """Hard mode within 4 guesses on fr-seed, the beam's fallback off: beams of 4 of the
    15 best openers by entropy find a tree. The first ceiling still takes 5 +
    CEILING_EXTRA totals, from openers further down, so the bounds have a finite target;
    the proof is the same."""
    from deductive.engine.feedback.search import INFEASIBLE, proofs, tree_search

    monkeypatch.setattr(tree_search, "BEAM_FALLBACK", 0)
    game = Wordle("fr-seed", "fr-seed", hard=True)
    targets = []

    def spy(game, openers, target, refine=True):
        if not refine:                  # the pass over every opener (the refined bound
            targets.append(target)      # comes later, under the ceiling of the moment)
        return opener_bounds(game, openers, target, refine)

    monkeypatch.setattr(proofs, "opener_bounds", spy)
    proof = prove_openers(game, 5, max_guesses=4)
    assert targets and max(targets) < INFEASIBLE
    monkeypatch.setattr(proofs, "CEILING_TRIES", 1)        # the 15 best only
    targets.clear()
    loose = prove_openers(game, 5, max_guesses=4)
    assert min(targets) >= INFEASIBLE
    assert [(r["word"], r["total"]) for r in loose.ranking()] == \
        [(r["word"], r["total"]) for r in proof.ranking()]
    assert loose.best() == proof.best() and len(proof.ranking()) == 5
