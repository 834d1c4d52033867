"""A certificate's progress (``proof_state``, ``verify-ranking --state``) against what the
proof computes: on a depth-three proof cut among its rows (the depth-two bounds weakened
as in ``test_depth_three_proofs``, so that the depth-three bound decides most openers),
the openers decided and how, the first ceiling a beam finds again, and the least bound
among the openers left recomputed from the bounds themselves."""

import json

from click.testing import CliRunner

from deductive.cli import cli
from deductive.engine.feedback.search import deep_opener_bound, proof_state, proofs
from deductive.engine.wordle.game import Wordle

from tests.feedback.test_depth_three_proofs import one_guess_bounds, use_bounds
from tests.feedback.test_search_openers import _part


def test_state_of_a_cut_depth_three_proof(monkeypatch, tmp_path):
    use_bounds(monkeypatch)
    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path / "proof.jsonl"
    whole = proofs.prove_openers(game, 3, checkpoint=str(path), depth_three=True)
    lines = path.read_text().splitlines()
    parts = [_part(json.loads(x)) for x in lines]
    deep = max(k for k, p in enumerate(parts) if p == "deep")
    rows = [k for k, p in enumerate(parts) if p == "proof" and k > deep]   # the searches'
    assert len(rows) >= 2
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:rows[len(rows) // 2]]) + "\n")
    kept = {e["key"]: e["result"] for e in map(json.loads, cut.read_text().splitlines())
            if _part(e) == "proof" and "key" in e}

    state = proof_state(game, str(cut)).report
    assert state["decided"] == len(kept) and state["left"] == 297 - len(kept)
    for by in ("bound", "deep", "search"):
        assert state["by"][by] == sum(r["by"] == by for r in kept.values())
    assert state["by"]["deep"] > 0 and state["problems"] == []
    # the first ceiling: the third least beam (keep 3), at or above the proof's last; the
    # least beam found again by a beam search from its word
    word, least = state["least_beam"]
    assert state["beams"] >= 3 + proofs.CEILING_EXTRA
    assert state["ceiling"] >= whole.ceiling and state["ceiling"] >= least
    assert proofs.beam_search(game, None).search_opener(word).total == least
    total = state["ceiling"]
    # the least bound among the openers left: each one's plain bound, or its depth-three
    # bound where that fell short of the first ceiling + 1 (the proof keeps only those)
    left = [g for g in range(297) if game.word(g) not in kept]
    lows = []
    for g in left:
        low = int(one_guess_bounds(game, [g])[0])
        if low <= total:
            deep = deep_opener_bound(game, g, total + 1)
            lows.append((max(low, deep) if deep <= total else low, g))
    assert state["bounded_left"] == len(lows)
    assert state["least_left"] == [game.word(min(lows)[1]), min(lows)[0]]
    spent = sum(r["seconds"] for r in kept.values()) / 3600
    assert state["rate"] == round(len(kept) / spent, 1)
    assert state["projected"] == round(state["left"] / state["rate"], 1)
    exact = [r["total"] for r in kept.values() if r["exact"]]
    assert (state["best"] or [None, None])[1] == (min(exact) if exact else None)

    out = CliRunner().invoke(cli, ["wordle", "verify-ranking", "--guesses", "fr-seed",
                                   "--state", str(cut)])
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"{len(kept)} of 297 openers decided: ")
    assert f"{297 - len(kept)} openers left; the least bound among them: " in out.output
    assert f"at the rows' rate, {state['rate']:,.1f} openers a core-hour, they need " \
        in out.output
    whole_out = CliRunner().invoke(cli, ["wordle", "verify-ranking", "--guesses", "fr-seed",
                                         "--state", "--json", str(path)])
    report = json.loads(whole_out.output)
    assert report["decided"] == 297 and report["left"] == 0 and report["least_left"] is None
    assert report["best"][1] == min(r["total"] for r in whole.rows if r["exact"])


def test_state_of_a_file_with_its_beams_only(tmp_path):
    """A proof killed before its first opener row (on 12,972 answers its plain bounds take
    an hour) has a state: nothing decided, its first ceiling from the beams it kept."""
    game = Wordle("fr-seed", "fr-seed")
    path = tmp_path / "proof.jsonl"
    proofs.prove_openers(game, 3, checkpoint=str(path))
    lines = path.read_text().splitlines()
    beams = [x for x in lines if _part(json.loads(x)) == "ceiling"]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(beams) + "\n")
    state = proof_state(game, str(cut)).report
    assert state["decided"] == 0 and state["left"] == 297 and state["least_left"] is None
    assert state["beams"] == len(beams) - 1 >= 3 + proofs.CEILING_EXTRA    # one header
    assert state["ceiling"] == 858 and state["least_beam"] == ["clair", 851]
    out = CliRunner().invoke(cli, ["wordle", "verify-ranking", "--guesses", "fr-seed",
                                   "--state", str(cut)])
    assert out.exit_code == 0 and out.output.startswith("0 of 297 openers decided"), out.output
