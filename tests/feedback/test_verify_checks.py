"""verify-ranking's costly checks (depth-three bounds and searches) through a pool, each
verdict kept as it ends so that a killed check resumes; and what step 3 requires of a row
searched again."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from deductive.checkpoint import inputs_digest, row_digest
from deductive.cli import cli
from deductive.engine.feedback.search import (
    LocalSearches,
    TreeSearch,
    check_tag,
    checks,
    prove_openers,
    verify_proof,
)
from deductive.engine.wordle.game import Wordle
from deductive.errors import ArgumentError
from tests.feedback.test_depth_three_proofs import one_guess_bounds, use_bounds
from tests.feedback.test_search_openers import _part


class _Killed(Exception):
    """A check killed (as by Ctrl-C or a lost machine) between two of its tasks."""


class _CountedSearches(LocalSearches):
    """One process's pool counting the tasks sent to it, killed once ``after`` of them
    have given their result (None: never)."""

    def __init__(self, game, max_guesses, after=None):
        super().__init__(game, max_guesses, buckets=not game.hard)
        self.after, self.sent, self.given = after, 0, 0

    def submit(self, *args, **kwargs):
        self.sent += 1
        super().submit(*args, **kwargs)

    def next(self):
        if self.after is not None and self.given >= self.after:
            raise _Killed
        self.given += 1
        return super().next()


@pytest.fixture
def deep_proof(monkeypatch, tmp_path_factory):
    """The French proof with the depth-two bounds weakened (proof and check alike), so that
    the depth-three bound rules out most openers: a file whose check is mostly
    depth-three bounds computed again."""
    use_bounds(monkeypatch, one_guess_bounds)
    monkeypatch.setattr(checks, "opener_bounds", one_guess_bounds)
    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path_factory.mktemp("proof") / "proof.jsonl"
    proof = prove_openers(game, 1, depth_three=True, checkpoint=str(path))
    assert proof.counts()["deep"] >= 250
    return game, path


def test_a_killed_check_resumes_from_its_verdicts(deep_proof, tmp_path):
    """Killed after 40 of its tasks, a check with --checkpoint resumes with the 40 tasks'
    verdicts kept and sends only the others; the report is the uncut check's; run again,
    it sends nothing (and makes no pool)."""
    game, path = deep_proof
    pools: list = []

    def counted(after=None):
        def make(max_guesses):
            pools.append(_CountedSearches(game, max_guesses, after))
            return pools[-1]
        return make

    whole = verify_proof(game, str(path), sample=1, pools=counted())
    assert whole["ok"], whole["problems"]
    tasks = pools[0].sent
    assert sum(c["kind"] == "deep" for c in whole["checked"]) >= 250 and tasks > 40
    verdicts = tmp_path / "verdicts.jsonl"
    with pytest.raises(_Killed):
        verify_proof(game, str(path), sample=1, pools=counted(40), checkpoint=str(verdicts))
    kept = [json.loads(x) for x in verdicts.read_text().splitlines()]
    assert kept[0]["tag"] == check_tag(game, None)
    steps: list = []
    again = verify_proof(game, str(path), sample=1, pools=counted(),
                         checkpoint=str(verdicts),
                         progress=lambda k, n, step: steps.append((k, n, step)))
    deep = sum(c["kind"] == "deep" for c in whole["checked"])
    assert whole["taken"] == 0 and 40 <= again["taken"] < deep
    assert again == dict(whole, taken=again["taken"])
    assert pools[-1].sent == tasks - 40
    bounds = [step for step in steps if step[2] == "verify: bounds and searches"]
    assert bounds[-1] == (deep, deep, "verify: bounds and searches")
    assert steps[-1] == (2, 2, "verify: exact rows")
    made = len(pools)
    assert verify_proof(game, str(path), sample=1, pools=counted(),
                        checkpoint=str(verdicts)) == dict(whole, taken=deep)
    assert len(pools) == made           # every verdict kept: no pool at all


def test_the_checkpoint_is_not_the_certificate(deep_proof, tmp_path):
    """The verdicts go to a file of their own: the certificate itself (or a link to it) is
    refused before anything is computed, so a file cannot vouch for its own rows."""
    game, path = deep_proof
    link = tmp_path / "link.jsonl"
    link.symlink_to(path)
    before = path.read_bytes()
    for given in (path, link):
        with pytest.raises(ArgumentError, match="is the certificate itself"):
            verify_proof(game, str(path), checkpoint=str(given),
                         pools=lambda max_guesses: pytest.fail("a pool was made"))
        out = CliRunner().invoke(cli, ["wordle", "verify-ranking", "--guesses", "fr-seed",
                                       "--checkpoint", str(given), str(path)])
        assert out.exit_code == 2 and "is the certificate itself" in out.output
        assert "Traceback" not in out.output
    assert path.read_bytes() == before


def test_a_search_verdict_holds_under_its_own_limit_only(tmp_path):
    """A kept search verdict (no tree below L) is taken for a check under L only: a file
    whose threshold differs (its third exact row's total forged one lower, so its
    searched rows are checked under a lower limit; a higher one would leave their claims
    at or below the threshold, refused at once) has them searched again, as many as a
    check without the verdicts searches."""
    game = Wordle("fr-seed", "fr-seed", hard=True)      # three rows out by a search that
    path = tmp_path / "proof.jsonl"                     # the bounds do not settle
    proof = prove_openers(game, 3, max_guesses=4, checkpoint=str(path))
    verdicts = tmp_path / "verdicts.jsonl"
    assert verify_proof(game, str(path), sample=0, checkpoint=str(verdicts))["ok"]
    third = proof.ranking()[2]
    for row in proof.rows:              # (and those that tie with it)
        if row["exact"] and row["total"] == third["total"]:
            _forged(path, row["word"], total=third["total"] - 1, lower=third["total"] - 1)
    pools: list = []

    def counted(max_guesses):
        pools.append(_CountedSearches(game, max_guesses))
        return pools[-1]

    fresh = verify_proof(game, str(path), sample=0, pools=counted)
    resumed = verify_proof(game, str(path), sample=0, pools=counted, checkpoint=str(verdicts))
    assert fresh["threshold"] == third["total"] - 1 and pools[0].sent > 0
    assert pools[1].sent == pools[0].sent and resumed["taken"] == 0


def test_a_verdict_kept_for_another_claim_is_computed_again(deep_proof, tmp_path):
    """A kept verdict answers the same claim only: rows claiming one more than the file
    says are checked again (and fail), not taken from the verdicts of the true claim."""
    game, path = deep_proof
    verdicts = tmp_path / "verdicts.jsonl"
    assert verify_proof(game, str(path), sample=0, checkpoint=str(verdicts))["ok"]
    entries = [json.loads(x) for x in path.read_text().splitlines()]
    row = next(e for e in entries if _part(e) == "proof"
               and e.get("result", {}).get("by") == "deep")
    row["result"]["lower"] += 1000
    row["digest"] = row_digest(inputs_digest(row["tag"]), row["key"], row["result"])
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    report = verify_proof(game, str(path), sample=0, checkpoint=str(verdicts))
    assert not report["ok"] and any(p.startswith(f"row {row['key']}: claims a depth-three "
                                                 "bound") for p in report["problems"])


def test_the_command_line_check_keeps_its_verdicts(deep_proof, tmp_path):
    game, path = deep_proof
    verdicts = tmp_path / "v.jsonl"
    args = ["wordle", "verify-ranking", "--guesses", "fr-seed", "--sample", "0",
            "--checkpoint", str(verdicts), str(path)]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert "proof holds" in first.output and verdicts.stat().st_size > 0
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 0 and "proof holds" in again.output
    assert "taken from the check's checkpoint, not recomputed" in again.output
    assert "taken from" not in first.output


def _forged(path, word, **fields):
    """``path``'s rows with ``word``'s row changed to ``fields``, its digest made to hold."""
    entries = [json.loads(x) for x in path.read_text().splitlines()]
    for e in entries:
        if _part(e) == "proof" and e.get("key") == word:
            e["result"].update(fields)
            e["digest"] = row_digest(inputs_digest(e["tag"]), e["key"], e["result"])
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return path


@pytest.mark.parametrize("hard", [False, True])
def test_a_row_without_its_worst_case(tmp_path, hard):
    """A row whose worst case is dropped (an edit, or a file resumed with the depth-three
    step) makes the whole ranking the totals': least total, then guess order, which
    still holds (clair before train, both 851 within 4); in hard mode, where no proof
    drops it, such a row is malformed."""
    game = Wordle("fr-seed", "fr-seed", hard=hard)
    path = tmp_path / "proof.jsonl"
    proof = prove_openers(game, 3, checkpoint=str(path), max_guesses=6 if hard else None)
    word = proof.ranking()[0]["word"]
    report = verify_proof(game, str(_forged(path, word, worst=None)), sample=5)
    if hard:
        assert any(p.startswith(f"row '{word}'") and "not an opener row" in p
                   for p in report["problems"])
        return
    assert report["ok"], report["problems"]
    assert report["best"] == ["clair", "train"]
    assert [c["claimed"] for c in report["checked"] if c["kind"] == "best"] == [
        {"total": 851}]


def test_a_tree_that_does_not_match_its_row_is_reported(monkeypatch):
    """Step 3 holds an exact row to a tree that opens with its word, totals what the
    search found and fits within the proof's guesses: a tree of another opener, or one
    deeper than ``max_guesses``, is a disagreement, not a pass."""
    game = Wordle("fr-seed", "fr-seed")
    clair = TreeSearch(game).search_opener("clair", keep_tree=True)
    train = TreeSearch(game).search_opener("train", keep_tree=True)
    assert clair.total == train.total == 851 and clair.worst == 4
    row = {"word": "clair", "index": game.guess_index("clair"), "total": 851, "worst": None}

    def found(tree, max_guesses):
        monkeypatch.setattr(checks, "_search_again", lambda *args: (851, tree))
        return checks._check_again(game, row, max_guesses, None)

    assert found(clair.tree, None) == ({"total": 851}, {"total": 851}, True)
    claimed, seen, ok = found(train.tree, None)
    assert not ok and seen["opens"] == "train"
    claimed, seen, ok = found(clair.tree, 3)
    assert not ok and seen["worst"] == 4
