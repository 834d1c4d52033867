"""``benchmarks/strong_openers.py``: exact searches of the strong openers' buckets ahead
of the certificate's sweep, kept so that a killed pass resumes and, with
``--certificate``, so that the sweep's own searches of those openers take them."""

import json
import sys

from benchmarks import strong_openers
from deductive.checkpoint import Checkpoint
from deductive.engine.feedback.search import proof_state, prove_openers
from deductive.engine.feedback.search.buckets import BucketRows
from deductive.engine.feedback.search.certificates import buckets_tag
from deductive.engine.wordle.game import Wordle

from tests.feedback.test_depth_three_proofs import _KilledInBuckets
from tests.feedback.test_search_openers import _stable


def _run(monkeypatch, *args) -> None:
    monkeypatch.setattr(sys, "argv", ["strong_openers.py", "--guesses", "fr-seed",
                                      "--answers", "fr-seed", *args])
    strong_openers.main()


def test_a_pass_hands_its_bucket_searches_to_the_certificate(monkeypatch, tmp_path, capsys):
    """clair (851, the best of the 297) and train searched to the certificate's target (its
    first ceiling, 851, + 1): every bucket search the pass keeps is in the certificate,
    once (a second pass adds none), and the certificate's run takes them all, searching
    no bucket of its own, where one without them searches as many as the pass did; the
    rows are the same."""
    game = Wordle("fr-seed", "fr-seed")
    runs, certificate = tmp_path / "strong.jsonl", tmp_path / "proof.jsonl"
    args = ["--target", "852", "--exact-max", "300", "--openers", "clair", "train",
            "--checkpoint", str(runs), "--certificate", str(certificate)]
    _run(monkeypatch, *args)
    out = capsys.readouterr()
    assert "0 bucket searches added" in out.err and "clair  851  851 exact" in out.out
    mine = [e for e in map(json.loads, runs.read_text().splitlines())
            if isinstance(e.get("key"), list)]
    held = BucketRows(game, Checkpoint(str(certificate), buckets_tag(game, 1, None, None)))
    assert len(held) == len(mine) > 20
    for e in mine:
        word, position = e["key"]
        assert held.of(game.guess_index(word))[position] == tuple(e["result"])
    _run(monkeypatch, *args)
    assert "0 bucket searches added" in capsys.readouterr().err

    taken, fresh = _KilledInBuckets(game), _KilledInBuckets(game)
    proof = prove_openers(game, 1, depth_three=True, checkpoint=str(certificate), pool=taken)
    alone = prove_openers(game, 1, depth_three=True, checkpoint=str(tmp_path / "alone.jsonl"),
                          pool=fresh)
    assert (taken.searched, fresh.searched) == (0, len(mine))
    assert _stable(proof.rows) == _stable(alone.rows)
    assert proof.best() == ["clair", "train"] and proof.ceiling == 851
    assert proof_state(game, str(certificate)).report["kept_buckets"] == [0, 0, 0.0]
