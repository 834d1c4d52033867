"""Dask chunks: their ranges, checkpoints that resume, and a lost worker or lost data."""

import json
import os
import signal
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

distributed = pytest.importorskip("distributed")

from deductive.errors import DeductiveError  # noqa: E402
from deductive.distributed import (  # noqa: E402
    chunk_ranges,
    dask_client,
    guided_ranges,
    mines_bench,
)
from deductive.engine.wordle.game import Wordle  # noqa: E402
from deductive.engine.minesweeper.bench import run_bench  # noqa: E402
from deductive.engine.minesweeper.players import make_player  # noqa: E402

from tests.distributed.dask_support import checkpoint_rows, records  # noqa: E402


def test_chunk_ranges():
    assert chunk_ranges(10, 3) == [(0, 3), (3, 7), (7, 10)]
    assert chunk_ranges(2, 8) == [(0, 1), (1, 2)]
    assert chunk_ranges(0, 4) == []


def test_guided_ranges():
    assert guided_ranges(0, 0, 2, 10) == []
    assert guided_ranges(0, 100, 2, 10, smallest=4) == [
        (0, 10), (10, 20), (20, 30), (30, 40), (40, 50), (50, 60), (60, 70), (70, 78),
        (78, 84), (84, 88), (88, 92), (92, 96), (96, 100)]
    pieces = guided_ranges(0, 20000, 2, 312)
    assert len(pieces) == 77 and pieces[0] == (0, 312) and pieces[-1][1] - pieces[-1][0] <= 8


@given(lo=st.integers(0, 50), n=st.integers(0, 3000), workers=st.integers(1, 64),
       largest=st.integers(1, 500), smallest=st.integers(1, 40))
def test_guided_ranges_cover_in_order(lo, n, workers, largest, smallest):
    pieces = guided_ranges(lo, lo + n, workers, largest, smallest)
    starts = [lo] + [b for _, b in pieces]
    assert [a for a, _ in pieces] == starts[:-1] and starts[-1] == lo + n   # contiguous
    sizes = [b - a for a, b in pieces]
    assert all(0 < size <= max(1, largest) for size in sizes)
    assert sizes == sorted(sizes, reverse=True)                # they only shrink


def test_checkpoint_resume(client, tmp_path):
    checkpoint = tmp_path / "ck.jsonl"
    first = mines_bench(client, "beginner8", "csp-random", 100, checkpoint=str(checkpoint))
    lines = checkpoint.read_text().splitlines()
    ranges = sorted(tuple(json.loads(e["key"])) for e in checkpoint_rows(checkpoint))
    assert [a for a, _ in ranges] == [0] + [b for _, b in ranges[:-1]] and ranges[-1][1] == 100
    # an interrupted run: keep the header, two chunks and half a line
    checkpoint.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    resumed = mines_bench(client, "beginner8", "csp-random", 100, checkpoint=str(checkpoint))
    assert records(resumed) == records(first)
    kept = [tuple(json.loads(json.loads(line)["key"])) for line in lines[1:3]]
    again = [tuple(json.loads(e["key"])) for e in checkpoint_rows(checkpoint)[2:]]
    played = sorted(g for a, b in again for g in range(a, b))
    assert played == sorted(set(range(100)) - {g for a, b in kept for g in range(a, b)})


def test_checkpoint_resumes_with_other_chunks(client, tmp_path):
    """Chunks follow the number of workers: a checkpoint written by a run on one worker
    resumes on two, with the games it holds kept and only the others played."""
    checkpoint = tmp_path / "ck.jsonl"
    local = run_bench("beginner8", make_player("least-risk"), 300)
    with dask_client(workers=1) as one:
        mines_bench(one, "beginner8", "least-risk", 300, checkpoint=str(checkpoint))
    entries = checkpoint_rows(checkpoint)
    ranges = [tuple(json.loads(e["key"])) for e in entries]
    keep = [e for e, (a, b) in zip(entries, ranges) if a % 2 == 0]     # some of them
    checkpoint.write_text("".join(json.dumps(e) + "\n" for e in keep))
    resumed = mines_bench(client, "beginner8", "least-risk", 300, checkpoint=str(checkpoint))
    assert records(resumed) == records(local)
    new = [tuple(json.loads(e["key"])) for e in checkpoint_rows(checkpoint)[len(keep):]]
    assert new and set(new).isdisjoint(ranges)                  # other chunks than before
    kept = {g for e in keep for g in range(*json.loads(e["key"]))}
    assert sorted(g for a, b in new for g in range(a, b)) == sorted(set(range(300)) - kept)


def test_lost_worker_is_retried():
    # the sweeps' own local cluster (workers forked from the fork server); the nanny
    # replaces the killed worker
    with dask_client(workers=2) as client:
        killed = []
        pids = client.run(os.getpid)          # worker address -> process id

        def kill_one(_):
            if not killed:                    # after the first chunk, a worker dies
                victim = sorted(pids)[0]
                killed.append(victim)
                os.kill(pids[victim], signal.SIGKILL)

        remote = mines_bench(client, "beginner", "least-risk", 200, progress=kill_one)
    assert killed
    local = run_bench("beginner", make_player("least-risk"), 200)
    assert records(remote) == records(local)


def test_a_proof_survives_its_cluster_losing_the_game():
    """Every worker restarted mid-run, as the scheduler does when a suspended machine
    wakes (the workers missed their heartbeats): the game scattered to them is lost and
    the searches waiting on it are cancelled. They are sent again with the game, and the
    rows are those of one process."""
    from deductive.distributed.sweeps import _DaskSearches
    from deductive.engine.feedback.search import prove_openers

    game = Wordle("fr-seed", "fr-seed", hard=True)
    local = prove_openers(game, 3, within=10)
    with dask_client(workers=2) as client:
        pool = _DaskSearches(client, game, None, 10 ** 8)
        sends, submit = [], pool.submit

        def submit_then_restart(place, g, limit, beam=False, deep=False, kept=None, sent=1):
            submit(place, g, limit, beam, deep, kept, sent)
            if beam:                    # the first ceiling's: resent by the same path
                return
            sends.append(sent)
            if len(sends) == 2:
                client.restart_workers(list(client.scheduler_info()["workers"]))

        pool.submit = submit_then_restart
        try:
            remote = prove_openers(game, 3, within=10, pool=pool)
        finally:
            pool.close()
    assert max(sends) == 2              # a search was sent again
    stable = [[{k: v for k, v in r.items() if k != "seconds"} for r in proof.rows]
              for proof in (local, remote)]
    assert stable[0] == stable[1]


def test_a_sweep_that_loses_its_data_says_so_in_one_line(client):
    """A task cancelled under :func:`run_chunks` (its scattered input lost) is one clear
    error naming the way on, not a TypeError from deep in the loop."""
    import threading

    from deductive.distributed.cluster import LOST, run_chunks

    data = client.scatter(list(range(10)), broadcast=True, hash=False)

    def slow_sum(chunk, xs):
        time.sleep(5)
        return sum(xs[chunk[0]:chunk[1]])

    timer = threading.Timer(1.0, lambda: client.cancel([data], force=True))
    timer.start()
    try:
        with pytest.raises(DeductiveError) as err:
            run_chunks(client, slow_sum, [(0, 5), (5, 10)], data)
    finally:
        timer.cancel()
    assert str(err.value) == LOST


def test_an_edited_bench_row_is_played_again(client, tmp_path):
    """The audit's case: one checkpoint row edited to all wins made a resumed bench report
    more wins than it played. The row fails its digest and its games are played again."""
    checkpoint = tmp_path / "ck.jsonl"
    first = mines_bench(client, "beginner8", "csp-random", 100, checkpoint=str(checkpoint))
    entries = [json.loads(line) for line in checkpoint.read_text().splitlines()]
    lost = next(e for e in entries if "key" in e and not all(r[0] for r in e["result"]))
    for row in lost["result"]:
        row[0] = True                   # every game of the chunk "won"
    checkpoint.write_text("".join(json.dumps(e) + "\n" for e in entries))
    with pytest.warns(UserWarning, match="1 row"):
        resumed = mines_bench(client, "beginner8", "csp-random", 100,
                              checkpoint=str(checkpoint))
    assert records(resumed) == records(first)
    assert sum(r.won for r in resumed.records) < 100
