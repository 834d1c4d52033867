"""The opener certificate with its depth-three step (``prove_openers(depth_three=True)``).

On lists this small the depth-two bounds leave the depth-three step nothing to rule out,
so most tests weaken them to the one-guess bound (``3n - [g in S] - buckets(g)``, still
admissible): the depth-three bound then decides most openers, as it must on 12,972
answers, where the depth-two bounds rule out none.
"""

import json
import os
import tempfile

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.checkpoint import inputs_digest, row_digest
from deductive.cli import cli
from deductive.engine.feedback.search import (
    LocalSearches,
    bound_under,
    bucket_bound,
    buckets,
    checks,
    deep_opener_bound,
    forget_search,
    proof_search_chunk,
    proof_state,
    proofs,
    prove_openers,
    verify_proof,
)
from deductive.engine.feedback.search.bounds import guess_lower_bound, kin_groups
from deductive.engine.wordle.game import Wordle
from deductive.errors import ArgumentError

from tests.cli.test_cli_errors import assert_one_error, no_computation  # noqa: F401
from tests.feedback.test_search import small_games
from tests.feedback.test_search_openers import (
    _opener_optimum,
    _part,
    _rows,
    _ShuffledSearches,
    _stable,
    assert_proof_holds,
)


def one_guess_bounds(game, openers, target=None, refine=True):
    """An admissible bound weaker than depth two: the opener's own split alone."""
    n = game.matrix.shape[1]
    lows = []
    for g in np.asarray(openers, np.int64).tolist():
        row = game.matrix[g]
        lows.append(int(guess_lower_bound(n, len(np.unique(row)),
                                          bool((row == game.win_code).any()))))
    return np.array(lows, np.int64)


def use_bounds(patch, bounds=one_guess_bounds, check: bool = False) -> None:
    """The proof's depth-two bounds replaced by ``bounds`` (with ``patch``, a
    MonkeyPatch): those of the proof and of its searches (``search_under``, in
    ``buckets``), and with ``check`` those of the certificate's check too."""
    patch.setattr(proofs, "opener_bounds", bounds)
    patch.setattr(buckets, "opener_bounds", bounds)
    if check:
        patch.setattr(checks, "opener_bounds", bounds)


@pytest.fixture
def weak(monkeypatch):
    """The proof's depth-two bounds weakened to :func:`one_guess_bounds`."""
    use_bounds(monkeypatch)


@settings(max_examples=40, deadline=None)
@given(small_games(), st.sampled_from([None, 2, 3]), st.integers(1, 4),
       st.sampled_from([None, 0, 2]), st.booleans(), st.sampled_from([0, 4]))
def test_depth_three_proof_against_brute_force(game_lists, max_guesses, keep, within, weaken,
                                               loose):
    """The ranking and every row's bound hold, and the file verifies (each row holding by
    the bound it names), with the depth-two bounds as shipped or weakened so that the
    depth-three bound does the ruling out, and with a first ceiling ``loose`` above the
    beams' (so that it falls during the searches, past openers the depth-three bound
    rules out then)."""
    guesses, answers = game_lists
    game = Wordle(guesses, answers)
    truth = {w: _opener_optimum(guesses, answers, w, max_guesses) for w in guesses}
    beams = proofs._beam_totals
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as folder:
        if weaken:
            use_bounds(patch, check=True)
        patch.setattr(proofs, "_beam_totals",
                      lambda *args, **kw: [t + loose for t in beams(*args, **kw)])
        path = os.path.join(folder, "proof.jsonl")
        proof = prove_openers(game, keep, within=within, max_guesses=max_guesses,
                              depth_three=True, checkpoint=path)
        if proof.best():                # every exact row searched again
            report = verify_proof(game, path, sample=len(guesses))
            assert report["ok"], report["problems"]
    assert_proof_holds(proof, truth, keep, within, totals_only=True)


def test_depth_three_rules_out_what_depth_two_leaves(weak):
    """On the 297 French words the weakened bounds rule out almost none; the depth-three
    bound rules out nearly all the rest, each under the first ceiling + 1 and each bound
    admissible, and the ranking is the one the shipped bounds prove."""
    game = Wordle("fr-seed", "fr-seed")
    deep = prove_openers(game, 3, depth_three=True)
    counts = deep.counts()
    assert counts["deep"] >= 250 and counts["search"] <= 10
    rows = [r for r in deep.rows if r["by"] == "deep"]
    first = proofs._cutoff(proofs._beam_totals(game, 3 + proofs.CEILING_EXTRA,
                                               proofs.LocalSearches(game)), 3, None)
    assert {r["lower"] for r in rows} == {first + 1}
    for row in rows[:: len(rows) // 8]:
        assert deep_opener_bound(game, row["index"]) >= row["lower"]
    with pytest.MonkeyPatch.context() as patch:
        use_bounds(patch, checks.opener_bounds)
        plain = prove_openers(game, 3)
    assert [dict(r, worst=None) for r in _stable(deep.ranking())] == sorted(
        (dict(r, worst=None) for r in _stable(plain.ranking())),
        key=lambda r: (r["total"], r["index"]))
    assert deep.ceiling == plain.ceiling and deep.best() == ["clair", "train"]


def test_a_falling_ceiling_rules_out_by_the_kept_depth_three_bounds(weak, monkeypatch,
                                                                      tmp_path):
    """With a first ceiling 40 above the beams', the depth-three step leaves openers that
    the ceiling, once it has fallen, rules out by their kept depth-three bounds: rows
    ``by="deep"`` with that bound as ``lower`` (measured: 114 of 297), which verify."""
    monkeypatch.setattr(checks, "opener_bounds", one_guess_bounds)
    beams = proofs._beam_totals
    monkeypatch.setattr(proofs, "_beam_totals",
                        lambda *args, **kw: [t + 40 for t in beams(*args, **kw)])
    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path / "proof.jsonl"
    proof = prove_openers(game, 1, depth_three=True, checkpoint=str(path))
    later = [r for r in proof.rows if r["by"] == "deep" and r["lower"] != 851 + 40 + 1]
    assert proof.ceiling == 851 and len(later) >= 50
    assert all(851 < r["lower"] < 851 + 40 + 1 for r in later)
    assert verify_proof(game, str(path), sample=0)["ok"]


class _Bounded(_ShuffledSearches):
    """A pool recording the openers whose depth-three bound it computes, its tasks
    finishing in a seeded random order (one slot: in the order sent)."""

    def __init__(self, game, slots=1, seed=0):
        super().__init__(game, slots, seed)
        self.bounded: list = []

    def submit(self, place, g, limit, beam=False, deep=False, kept=None):
        if deep:
            self.bounded.extend(g)
        super().submit(place, g, limit, beam, deep, kept)


def test_a_kin_group_is_one_task_bounded_in_turn():
    """The depth-three step sends each kin group as one task, so that one worker bounds
    its openers one after the other and carries their shared bucket: in this process and
    on a worker (``proof_search_chunk``), the task gives each opener's ``bound_under`` in
    the group's order, as each alone does (its seconds aside)."""
    game = Wordle("fr-seed", "fr-seed")
    groups = [m for m in kin_groups(game, range(len(game.guesses))) if len(m) > 1]
    assert len(groups) >= 3
    limit = 900
    for members in groups[:3]:
        alone = [bound_under(game, g, limit) for g in members]
        local = LocalSearches(game).run(members, limit, deep=True)
        remote = proof_search_chunk(members, game, "kin-test", None, None, limit, deep=True)
        forget_search("kin-test")
        for result in (local, remote):
            assert [r[:3] + r[4:] for r in result] == [r[:3] + r[4:] for r in alone]


@settings(max_examples=4, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2 ** 32 - 1))
def test_depth_three_proof_is_the_same_with_a_pool(slots, seed):
    """Depth-three bounds finishing in any order give the rows of the serial run, and each
    opener is bounded once."""
    game = Wordle("fr-seed", "fr-seed")
    with pytest.MonkeyPatch.context() as patch:
        use_bounds(patch)
        one = _Bounded(game)
        serial = prove_openers(game, 1, depth_three=True, pool=one)
        pool = _Bounded(game, slots, seed)
        pooled = prove_openers(game, 1, depth_three=True, pool=pool)
    assert _stable(pooled.rows) == _stable(serial.rows) and pooled.ceiling == serial.ceiling
    assert sorted(pool.bounded) == sorted(one.bounded) == sorted(set(one.bounded))
    assert len(one.bounded) >= 280


def test_searches_bounded_by_their_buckets_give_the_same_rows(weak, monkeypatch, tmp_path):
    """Step 3 of a depth-three proof bounds each search by exact searches of its
    opener's buckets first (``bucket_bound``): the rows are those of plain searches (the
    totals alone: the worst case is not minimised), and the file verifies with the same
    bound first. The depth-three step is switched off here (a bound of 0), so the openers
    it would rule out are left to the searches."""
    monkeypatch.setattr(proofs, "deep_opener_bound", lambda game, g, target, kept=None: 0)
    game = Wordle("fr-seed", "fr-seed")
    calls: list = []

    def counted(search, g, target, exact_max=None, kept=None, keep=None):
        found = bucket_bound(search, g, target, exact_max, kept, keep)
        calls.append(found.bound >= target)
        return found

    monkeypatch.setattr(buckets, "bucket_bound", counted)    # search_under's, both ways
    path = tmp_path / "proof.jsonl"
    bucketed = prove_openers(game, 1, depth_three=True, checkpoint=str(path))
    ruled = sum(calls)
    plain = prove_openers(game, 1, depth_three=True,
                          pool=proofs.LocalSearches(game, buckets=False))
    assert _stable(bucketed.rows) == [dict(r, worst=None) for r in _stable(plain.rows)]
    assert bucketed.best() == ["clair", "train"] and ruled >= 100    # measured: 279
    monkeypatch.setattr(checks, "opener_bounds", one_guess_bounds)
    calls.clear()
    assert verify_proof(game, str(path), sample=0)["ok"]
    assert sum(calls) == ruled          # each row out by its buckets is out so again


class _Killed(Exception):
    """A run killed (as by Ctrl-C or a lost machine) in an opener's buckets."""


class _KilledInBuckets(LocalSearches):
    """One process's pool counting the bucket searches it keeps (``searched``), its run
    killed once ``after`` of them are kept (None: never)."""

    def __init__(self, game, after=None):
        super().__init__(game, buckets=True)
        self.after, self.searched = after, 0

    def keep_buckets(self, keep):
        def counted(*row):
            keep(*row)
            self.searched += 1
            if self.searched == self.after:
                raise _Killed
        super().keep_buckets(counted)


def test_a_proof_killed_in_an_openers_buckets_resumes_from_them(weak, monkeypatch, tmp_path):
    """Step 3 keeps each bucket search in the checkpoint as it ends (here every one, not
    only those of a second or more): a run killed after any of them resumes to the rows
    of an uncut run and searches only the buckets it did not keep. The file, its bucket
    rows beside the proof's, verifies. (The depth-three step is switched off, so that
    the searches bound their buckets.)"""
    monkeypatch.setattr(proofs, "deep_opener_bound", lambda game, g, target, kept=None: 0)
    monkeypatch.setattr(buckets, "KEEP_SECONDS", 0.0)
    words = Wordle("fr-seed", "fr-seed").guesses[:200]
    game = Wordle(words, words)
    pool = _KilledInBuckets(game)
    whole = prove_openers(game, 1, depth_three=True, checkpoint=str(tmp_path / "whole.jsonl"),
                          pool=pool)
    every = pool.searched
    assert every >= 20                  # measured: 24
    for after in (1, every // 2):
        path = tmp_path / f"cut{after}.jsonl"
        with pytest.raises(_Killed):
            prove_openers(game, 1, depth_three=True, checkpoint=str(path),
                          pool=_KilledInBuckets(game, after))
        kept = [e for e in map(json.loads, path.read_text().splitlines())
                if _part(e) == "buckets" and "key" in e]
        assert len(kept) == after
        decided = {e["key"] for e in map(json.loads, path.read_text().splitlines())
                   if _part(e) == "proof" and "key" in e}
        killed = [e for e in kept if e["key"][0] not in decided]    # the opener cut short
        state = proof_state(game, str(path)).report["kept_buckets"]
        assert state[:2] == [len(killed), 1] and len(killed) >= 1
        pool = _KilledInBuckets(game)
        again = prove_openers(game, 1, depth_three=True, checkpoint=str(path), pool=pool)
        assert _stable(again.rows) == _stable(whole.rows)
        assert pool.searched == every - after
    monkeypatch.setattr(checks, "opener_bounds", one_guess_bounds)
    assert verify_proof(game, str(path), sample=0)["ok"]


def test_depth_three_proof_resumes_without_bounding_again(weak, tmp_path):
    """A run cut in its depth-three bounds or in its rows resumes to the same rows and
    computes no depth-three bound it kept (as a row, or as a bound that ruled nothing
    out)."""
    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path / "proof.jsonl"
    first = _Bounded(game)
    whole = prove_openers(game, 3, checkpoint=str(path), depth_three=True, pool=first)
    lines = path.read_text().splitlines()
    parts = [_part(json.loads(x)) for x in lines]
    kept = [k for k, p in enumerate(parts) if p == "deep"]         # its header first
    rows = [k for k, p in enumerate(parts) if p == "proof"]
    assert len(kept) >= 4
    for cut in (kept[1], kept[-1] + 1, rows[len(rows) // 2], len(lines) - 2):
        part = tmp_path / f"cut{cut}.jsonl"
        part.write_text("\n".join(lines[:cut]) + "\n" + lines[cut][:20])
        pool = _Bounded(game)
        again = prove_openers(game, 3, checkpoint=str(part), depth_three=True, pool=pool)
        assert _stable(again.rows) == _stable(whole.rows) and again.ceiling == whole.ceiling
        assert _stable(_rows(part)) == _stable(whole.rows)
        before = [json.loads(x) for x in lines[:cut]]
        done = {e["key"] for e in before if "key" in e and _part(e) in ("deep", "proof")}
        assert sorted(pool.bounded) == [g for g in sorted(first.bounded)
                                        if game.word(g) not in done]


def test_a_depth_three_row_is_verified_by_its_bound(weak, monkeypatch, tmp_path):
    """verify-ranking recomputes a depth-three row's bound: a row claiming its opener's
    whole bound holds, one claiming one more, or more, does not (its digest made to hold:
    the check does not rest on it)."""
    monkeypatch.setattr(checks, "opener_bounds", one_guess_bounds)
    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path / "proof.jsonl"
    prove_openers(game, 1, checkpoint=str(path), depth_three=True)
    report = verify_proof(game, str(path), sample=1)
    kinds = [c["kind"] for c in report["checked"]]
    assert report["ok"] and kinds.count("deep") >= 250
    entries = [json.loads(x) for x in path.read_text().splitlines()]
    rows = [e for e in entries if _part(e) == "proof" and e.get("result", {}).get("by")
            == "deep"]

    def claim(entry, lower):
        entry["result"]["lower"] = lower
        entry["digest"] = row_digest(inputs_digest(entry["tag"]), entry["key"],
                                     entry["result"])
        path.write_text("".join(json.dumps(e) + "\n" for e in entries))
        return verify_proof(game, str(path), sample=0)

    whole = [int(deep_opener_bound(game, e["result"]["index"])) for e in rows[:3]]
    assert claim(rows[0], whole[0])["ok"]
    bad = claim(rows[0], whole[0] + 1)
    assert not bad["ok"] and bad["problems"] == [
        f"row {rows[0]['key']}: claims a depth-three bound of at least {whole[0] + 1}; "
        f"recomputed it is {whole[0]}"]
    claim(rows[1], whole[1] + 400)
    bad = claim(rows[2], whole[2] + 2)
    assert sum("claims a depth-three bound of at least" in p for p in bad["problems"]) == 3


def test_a_depth_three_exact_row_is_its_total_alone(tmp_path):
    """A depth-three proof's exact rows give the total alone (``worst`` None: the least
    worst case among the trees of that total is not searched), rank by total then guess
    order, and verify-ranking searches each again under its claim + 1 and checks its
    tree: a row claiming one less or one more than its total does not hold (its digest
    made to hold)."""
    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path / "proof.jsonl"
    proof = prove_openers(game, 3, checkpoint=str(path), depth_three=True)
    exact = [r for r in proof.rows if r["exact"]]
    assert exact and all(r["worst"] is None for r in exact)
    assert [r["word"] for r in proof.ranking()][:2] == ["clair", "train"]
    report = verify_proof(game, str(path), sample=2)
    assert report["ok"], report["problems"]
    assert [c["claimed"] for c in report["checked"] if c["kind"] == "best"] == [
        {"total": 851}]
    entries = [json.loads(x) for x in path.read_text().splitlines()]
    clair = next(e for e in entries if _part(e) == "proof" and e.get("key") == "clair")

    def claim(total):                   # every exact row searched again (sample 10)
        clair["result"].update(total=total, lower=total)
        clair["digest"] = row_digest(inputs_digest(clair["tag"]), clair["key"],
                                     clair["result"])
        path.write_text("".join(json.dumps(e) + "\n" for e in entries))
        return verify_proof(game, str(path), sample=10)

    assert "row clair: claims {'total': 850}; searched again: {'at_least': 851}" in claim(
        850)["problems"]
    assert "row clair: claims {'total': 852}; searched again: {'total': 851}" in claim(
        852)["problems"]


def test_depth_three_is_for_normal_mode():
    with pytest.raises(ArgumentError, match="`depth_three` is for normal mode"):
        prove_openers(Wordle("fr-seed", "fr-seed", hard=True), depth_three=True)


def test_cli_depth_three(tmp_path):
    """``--depth-three`` proves the same ranking."""
    out = CliRunner().invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--openers",
                                   "all", "--prove-best", "--depth-three", "--json",
                                   "--checkpoint", str(tmp_path / "p.jsonl")])
    assert out.exit_code == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["best"] == ["clair", "train"] and doc["ceiling"] == 851 and doc["openers"] == 297


@pytest.mark.usefixtures("no_computation")
def test_cli_depth_three_errors():
    """Without ``--prove-best``, or in hard mode: one line on stderr, before any
    computation."""
    runner = CliRunner()
    base = ["wordle", "search", "--guesses", "fr-seed", "--openers", "all"]
    assert_one_error(runner.invoke(cli, base + ["--depth-three"]),
                     "--depth-three goes with --prove-best")
    assert_one_error(runner.invoke(cli, base + ["--prove-best", "--depth-three", "--hard"]),
                     "--depth-three is for normal mode")
