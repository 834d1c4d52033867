"""Dask sweeps: each equal to its single-process run (rows, files, the workers' state)."""

import json
import os
import uuid
from pathlib import Path

import numpy as np

import pytest

distributed = pytest.importorskip("distributed")

from deductive import wordle  # noqa: E402
from deductive.errors import DeductiveError  # noqa: E402
from deductive.distributed import (  # noqa: E402
    hangman_sweep_all,
    mines_bench,
    wordle_openers,
    wordle_prove_openers,
    wordle_search_openers,
    wordle_second,
    wordle_verify_proof,
)
from deductive.engine.wordle.game import Wordle  # noqa: E402
from deductive.engine.hangman import Hangman, load_hangman_words  # noqa: E402
from deductive.engine.minesweeper.bench import run_bench  # noqa: E402
from deductive.engine.minesweeper.players import make_player  # noqa: E402
from deductive.engine.feedback.precompute import second_guesses  # noqa: E402

from tests.distributed.dask_support import checkpoint_rows, records  # noqa: E402


def test_mines_bench_equals_single_process(client):
    local = run_bench("beginner8", make_player("least-risk"), 60, first_click="zero",
                      first_move="centre")
    remote = mines_bench(client, "beginner8", "least-risk", 60, first_click="zero",
                         first_move="centre")
    assert records(remote) == records(local)
    assert remote.to_json()["wins"] == local.to_json()["wins"]


@pytest.mark.parametrize("metric", ["entropy", "minimax", "expected", "buckets"])
def test_wordle_openers_equal(client, metric):
    words = wordle.load_words("fr-seed")
    matrix = wordle.pattern_matrix(words, words)
    local = wordle.rank_guesses(matrix, words, metric=metric)
    remote = wordle_openers(client, matrix, words, metric=metric)
    assert remote == local


def test_wordle_second_equal(client):
    game = Wordle("fr-seed", "fr-seed")
    local = second_guesses(game, game.solver("entropy"), "laine")
    remote = wordle_second(client, game, "entropy", {"pool": "all"}, "laine")
    assert remote == local


def test_hangman_all_lengths_equal(client, tmp_path):
    path = tmp_path / "w.txt"
    rng = np.random.default_rng(0)
    words = {"".join(rng.choice(list("abcdefgh"), n)) for n in (3, 4, 5, 6) for _ in range(80)}
    path.write_text("\n".join(sorted(words)))
    lists = load_hangman_words(path)
    remote = hangman_sweep_all(client, lists, "best-lives", lives=4)
    local = [(n, Hangman(lists[n]).sweep("best-lives", lives=4)) for n in sorted(lists)]
    assert [n for n, _ in remote] == [n for n, _ in local]
    assert [r.results for _, r in remote] == [r.results for _, r in local]


def test_wordle_search_openers_equal(client):
    from deductive.engine.feedback.search import TreeSearch

    game = Wordle("fr-seed", "fr-seed")
    words = ["laine", "paire", "clair"]
    local = [TreeSearch(game, beam=2).search_opener(w).to_json() for w in words]
    remote = wordle_search_openers(client, game, words, beam=2)
    assert [_searched(r) for r in remote] == [_searched(r) for r in local]


def test_wordle_search_openers_equal_in_hard_mode(client):
    """Hard mode, exact, within 4 guesses: the rows of one process."""
    game = hard_subset()
    openers = [w for w in game.guesses[:60] if _within(game, w) is not None][:30]
    rows = wordle_search_openers(client, game, openers, max_guesses=4)
    assert [_searched(r) for r in rows] == [_within(game, w) for w in openers]


def test_a_workers_searches_share_one_search():
    """Every opener of a list, one after the other in one process as a worker runs them:
    the totals of fresh searches. Searches that shared a memo but not its hard-mode masks
    gave chino 440 here instead of 437."""
    from deductive.engine.feedback.search import forget_search, search_opener_chunk

    game = hard_subset()
    try:
        for word in game.guesses:
            try:
                row = _searched(search_opener_chunk(word, game, "run", None, 4))
            except DeductiveError:          # no tree within 4 guesses
                row = None
            assert row == _within(game, word), word
    finally:
        forget_search("run")


def _within(game, word):
    """A fresh search's row of ``word`` within 4 guesses (None: no tree)."""
    from deductive.engine.feedback.search import TreeSearch

    try:
        return _searched(TreeSearch(game, max_guesses=4).search_opener(word).to_json())
    except DeductiveError:
        return None


def hard_subset():
    """Hard mode on 150 seeded words of the built-in English answers."""
    import deductive

    path = Path(deductive.__file__).parent / "data" / "en-answers.txt"
    words = [w.strip() for w in path.read_text().splitlines() if len(w.strip()) == 5]
    sub = sorted(np.random.default_rng(4).choice(words, size=150, replace=False).tolist())
    return Wordle(sub, sub, hard=True)


@pytest.mark.parametrize("hard, deep", [(False, False), (True, False), (False, True)])
def test_wordle_prove_openers_equal(client, tmp_path, monkeypatch, hard, deep):
    """The certificate with its searches (and depth-three bounds) on two workers: the rows
    of one process (but their seconds), the same file, and the workers' searches dropped
    at the end. With the depth-three step, the searches' buckets come back from the
    workers as they end (kept here from any CPU time): the file keeps them as one process
    does, the same value for a bucket both searched exactly (the workers' searches, run
    ahead under higher ceilings, may search others); and one process's file, its searched
    rows cut, resumes on the workers to the same rows, taking its buckets (measured: not
    one searched again; a search run ahead may search a few)."""
    from deductive.engine.feedback.search import buckets, prove_openers

    def searches_kept():                # runs on a worker (pickled by value)
        from deductive.engine.feedback.search import _RUN_SEARCHES
        return len(_RUN_SEARCHES)

    monkeypatch.setattr(buckets, "KEEP_SECONDS", 0.0)
    game = Wordle("fr-seed", "fr-seed", hard=hard)
    local = prove_openers(game, 5, within=20, checkpoint=str(tmp_path / "one.jsonl"),
                          depth_three=deep)
    remote = wordle_prove_openers(client, game, 5, within=20, memo_bytes=10 ** 8,
                                  checkpoint=str(tmp_path / "two.jsonl"), depth_three=deep)
    stable = [[{k: v for k, v in r.items() if k != "seconds"} for r in proof.rows]
              for proof in (local, remote)]
    assert stable[0] == stable[1] and remote.best() == local.best() != []
    assert sum(r["by"] == "search" for r in remote.rows) > 3
    entries = [checkpoint_rows(tmp_path / f) for f in ("one.jsonl", "two.jsonl")]
    files = [[{**{k: v for k, v in e.items() if k not in ("seconds", "digest")},
               "result": {**e["result"], "seconds": 0}} for e in rows
              if not e["tag"]["proof"].endswith(":buckets")] for rows in entries]
    assert files[0] == files[1]
    searched = [{tuple(e["key"]): e["result"] for e in rows
                 if e["tag"]["proof"].endswith(":buckets")} for rows in entries]
    assert (len(searched[0]) > 20) == (len(searched[1]) > 20) == deep
    both = [key for key, row in searched[0].items()
            if row["ok"] and searched[1].get(key, {}).get("ok")]
    assert len(both) > 10 or not deep
    assert all(searched[0][key]["value"] == searched[1][key]["value"] for key in both)
    if deep:                            # one process's file, its searched rows cut: the
        lines = (tmp_path / "one.jsonl").read_text().splitlines()  # workers take its buckets
        cut = tmp_path / "cut.jsonl"
        cut.write_text("".join(line + "\n" for line in lines
                               if '"by": "search"' not in line))
        again = wordle_prove_openers(client, game, 5, within=20, checkpoint=str(cut),
                                     depth_three=True)
        assert [{k: v for k, v in r.items() if k != "seconds"} for r in again.rows] == \
            stable[0]
        held = sum(e["tag"]["proof"].endswith(":buckets") for e in checkpoint_rows(cut))
        assert held - len(searched[0]) <= len(searched[0]) // 10, (held, len(searched[0]))
    assert client.run(searches_kept) == {w: 0 for w in client.run(os.getpid)}


def test_wordle_verify_proof_equal(client, tmp_path, monkeypatch):
    """verify-ranking with its searches on two workers: the verdicts, problems and report
    of one process (a searched row's ``found``, a bound past its limit, aside), the
    same verdicts kept, and a check resumed from them sends nothing to the cluster."""
    from deductive.engine.feedback.search import prove_openers, verify_proof

    game = Wordle("fr-seed", "fr-seed", hard=True)    # three rows out by a search that
    path = tmp_path / "proof.jsonl"                     # the bounds do not settle
    prove_openers(game, 3, max_guesses=4, checkpoint=str(path))
    kept = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    local = verify_proof(game, str(path), sample=2, checkpoint=str(kept[0]))
    remote = wordle_verify_proof(client, game, str(path), sample=2, checkpoint=str(kept[1]))

    def stable(report):
        return {**report, "checked": [{**c, "found": None} if c["kind"] == "search" else c
                                      for c in report["checked"]]}
    assert stable(local) == stable(remote) and local["ok"]
    assert sum(c["kind"] == "search" for c in local["checked"]) >= 3
    verdicts = [{tuple(e["key"]) if isinstance(e["key"], list) else e["key"]:
                 (e["result"]["kind"], e["result"]["limit"], e["result"]["fits"])
                 for e in checkpoint_rows(f)} for f in kept]
    assert verdicts[0] == verdicts[1] and len(verdicts[0]) == 3
    from deductive.distributed import sweeps

    made = []
    monkeypatch.setattr(sweeps, "_DaskSearches", lambda *args, **kw: made.append(args))
    again = wordle_verify_proof(client, game, str(path), sample=2, checkpoint=str(kept[1]))
    assert stable(again) == dict(stable(remote), taken=3) and made == []


def test_wordle_verify_proof_of_depth_three_rows_equal(client, tmp_path):
    """In normal mode the workers recompute depth-three rows (each kin group one task): a
    French proof whose rows out by the plain bound are relabelled as out by their whole
    depth-three bound (where it is higher, digests made to hold) gives one process's
    report, and a row claiming one more than that bound fails on both."""
    from deductive.checkpoint import inputs_digest, row_digest
    from deductive.engine.feedback.search import (deep_opener_bound, opener_bounds,
                                                  prove_openers, verify_proof)

    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path / "proof.jsonl"
    prove_openers(game, 3, checkpoint=str(path), depth_three=True)
    entries = [json.loads(x) for x in path.read_text().splitlines()]
    rows = [e for e in entries if "key" in e and e["tag"].get("proof") == "depth-2-lazy"
            and e["result"]["by"] == "bound"][:12]
    plain = opener_bounds(game, [e["result"]["index"] for e in rows], refine=False).tolist()
    relabelled = []
    for e, low in zip(rows, plain):
        deep = int(deep_opener_bound(game, e["result"]["index"]))
        if deep > low:
            e["result"].update(by="deep", lower=deep)
            e["digest"] = row_digest(inputs_digest(e["tag"]), e["key"], e["result"])
            relabelled.append(e)
    assert len(relabelled) >= 3
    relabelled[-1]["result"]["lower"] += 1
    e = relabelled[-1]
    e["digest"] = row_digest(inputs_digest(e["tag"]), e["key"], e["result"])
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    local = verify_proof(game, str(path), sample=1)
    remote = wordle_verify_proof(client, game, str(path), sample=1)
    assert local == remote
    assert sum(c["kind"] == "deep" for c in local["checked"]) == len(relabelled)
    assert [p.split(":")[0] for p in local["problems"]] == [f"row {e['key']}"]


@pytest.mark.parametrize("hard", [False, True])
def test_wordle_least_worst_equal(client, tmp_path, monkeypatch, hard):
    """The least worst case over every opener with its sweep (from the first depth, in
    pieces of 40) and its certificate on two workers: the result and the checkpoint
    entries of one process, and the workers' searches dropped at the end."""
    from deductive.distributed import wordle_least_worst
    from deductive.engine.feedback import worst

    def searches_kept():                # runs on a worker (pickled by value)
        from deductive.engine.feedback.search import _RUN_SEARCHES
        return len(_RUN_SEARCHES)

    monkeypatch.setattr(worst, "SWEEP_FROM", 1)
    monkeypatch.setattr(worst, "SWEEP_PIECE", 40)
    game = Wordle("fr-seed", "fr-seed", hard=hard)
    local = worst.least_worst(game, checkpoint=str(tmp_path / "one.jsonl"))
    remote = wordle_least_worst(client, game, memo_bytes=10 ** 8,
                                checkpoint=str(tmp_path / "two.jsonl"))
    assert (remote.opener, remote.total, remote.worst) == \
        (local.opener, local.total, local.worst) == ("clair", 851, 4)
    def stable(e):
        e = {k: v for k, v in e.items() if k not in ("seconds", "digest")}
        return {**e, "result": {**e["result"], "seconds": 0}} \
            if isinstance(e["result"], dict) else e

    files = [sorted(json.dumps(stable(e), sort_keys=True) for e in checkpoint_rows(tmp_path / f))
             for f in ("one.jsonl", "two.jsonl")]
    assert files[0] == files[1]
    assert sum("least_worst" in e for e in files[0]) == 9        # 8 pieces within 3, 1 in 4
    assert client.run(searches_kept) == {w: 0 for w in client.run(os.getpid)}


def test_a_cut_proof_cancels_its_searches(client):
    """A certificate cut short (an error while its searches wait for a free worker) cancels
    the searches still out: with the cancel removed, they stay pending."""
    from deductive.distributed.sweeps import _DaskSearches
    from deductive.engine.feedback.search import prove_openers

    class Cut(Exception):
        pass

    def hold(name):                     # occupies a worker's one thread until set
        distributed.Event(name).wait(120)

    name = f"hold-{uuid.uuid4().hex}"
    gate = distributed.Event(name, client=client)
    holds = [client.submit(hold, name, workers=[w], pure=False)
             for w in client.scheduler_info()["workers"]]
    try:
        game = Wordle("fr-seed", "fr-seed", hard=True)
        pool = _DaskSearches(client, game, None, 10 ** 8)
        sent, submit = [], pool.submit

        def submit_and_keep(*args, **kwargs):      # the first ceiling's beams, here
            submit(*args, **kwargs)
            sent.append(list(pool.futures.values())[-1][0])     # (future, place)

        def cut():
            raise Cut

        pool.submit, pool.next = submit_and_keep, cut
        with pytest.raises(Cut):
            try:
                prove_openers(game, 3, pool=pool)
            finally:
                pool.close()
        assert len(sent) == 2 and not pool.futures
        assert [f.status for f in sent] == ["cancelled", "cancelled"]
    finally:
        gate.set()
        distributed.wait(holds, timeout=60)


def _searched(row):
    """A searched opener's row without its timing (seconds, nodes)."""
    return {k: v for k, v in row.items() if k not in ("seconds", "nodes")}


def test_search_checkpoint_is_by_opener(client, tmp_path):
    """A checkpoint of the single-process search resumes on Dask, for another list of
    openers: the stored openers are not searched again, the others are."""
    from deductive.checkpoint import Checkpoint
    from deductive.engine.feedback.search import search_tag
    from deductive.engine.feedback.search import TreeSearch

    game = Wordle("fr-seed", "fr-seed")
    searcher = TreeSearch(game, beam=2)
    path = tmp_path / "search.jsonl"
    Checkpoint(str(path), search_tag(game, 2, None)).append(
        "laine", searcher.search_opener("laine").to_json())
    rows = wordle_search_openers(client, game, ["paire", "laine"], beam=2,
                                 checkpoint=str(path))
    assert [r["word"] for r in rows] == ["paire", "laine"]
    assert _searched(rows[0]) == _searched(searcher.search_opener("paire").to_json())
    assert [e["key"] for e in checkpoint_rows(path)] == ["laine", "paire"]
