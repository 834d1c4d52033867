"""A first ceiling from a known tree (``prove_openers(known=...)``, ``search --prove-best
--ceiling-tree FILE``): the bounds aim at its total when it is below the beams', the
proof stays the same ranking and verifies, and a file begun under the beams' ceiling
resumes under the lower one without computing again any bound it kept. On fr-seed the
beams find the best total, 851 (clair, train), so they are made 40 worse here, as in
``test_depth_three_proofs``, and the depth-two bounds weakened."""

import json

import pytest
from click.testing import CliRunner

from deductive.cli import cli
from deductive.engine.feedback.search import (proof_state, proofs, prove_openers,
                                              verify_proof)
from deductive.engine.wordle.game import Wordle

from tests.cli.test_cli_errors import assert_one_error, no_computation  # noqa: F401
from tests.feedback.test_depth_three_proofs import _Bounded, one_guess_bounds, use_bounds
from tests.feedback.test_search_openers import _part, _stable


@pytest.fixture
def game():
    return Wordle("fr-seed", "fr-seed")


@pytest.fixture
def loose(monkeypatch):
    """The beams' totals 40 above what they find; the depth-two bounds weakened."""
    beams = proofs._beam_totals
    monkeypatch.setattr(proofs, "_beam_totals",
                        lambda *args, **kw: [t + 40 for t in beams(*args, **kw)])
    use_bounds(monkeypatch)


def _ranking(proof):
    return [(r["word"], r["total"]) for r in proof.ranking()]


@pytest.mark.usefixtures("loose")
def test_a_known_tree_lowers_the_first_ceiling(game, monkeypatch, tmp_path):
    """The depth-three bound rules openers out at the known total + 1 (852), where under
    the beams' ceiling (891) it rules them out at 892 or, once the ceiling has fallen, at
    their own bound; the ranking is the same and verifies."""
    beams = prove_openers(game, 1, depth_three=True)
    path = tmp_path / "p.jsonl"
    known = prove_openers(game, 1, depth_three=True, known={"clair": 851},
                          checkpoint=str(path))
    assert _ranking(known) == _ranking(beams) and known.best() == ["clair", "train"]
    assert {r["lower"] for r in known.rows if r["by"] == "deep"} == {852}
    assert max(r["lower"] for r in beams.rows if r["by"] == "deep") == 892
    state = proof_state(game, str(path)).report         # the file notes the known tree
    assert state["known"] == {"clair": 851} and state["ceiling"] == 851
    monkeypatch.undo()
    assert verify_proof(game, str(path), sample=0)["ok"]
    # known totals above the beams', or fewer than `keep` of them, change nothing
    for known in ({"clair": 900}, {"clair": 851, "train": 851}):
        assert _stable(prove_openers(game, 3, known=known).rows) == \
            _stable(prove_openers(game, 3).rows)


@pytest.mark.usefixtures("loose")
def test_a_file_resumes_under_a_lower_ceiling(game, monkeypatch, tmp_path):
    """A run cut in its depth-three step under the beams' ceiling, resumed with a known
    tree: no plain or depth-three bound it kept is computed again (a kept one above the
    new ceiling now rules its opener out), and the proof holds."""
    path = tmp_path / "p.jsonl"
    prove_openers(game, 1, depth_three=True, checkpoint=str(path), pool=_Bounded(game))
    lines = path.read_text().splitlines()
    parts = [_part(json.loads(x)) for x in lines]
    kept = [k for k, p in enumerate(parts) if p == "deep"]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:kept[len(kept) // 2]]) + "\n")
    before = [json.loads(x) for x in cut.read_text().splitlines()]
    seen = {e["key"] for e in before if "key" in e and _part(e) in ("deep", "proof")}
    plain = []                                  # the openers plain-bounded again

    def spy(g, openers, *args, refine=True, **kw):
        if not refine:
            plain.extend(openers)
        return one_guess_bounds(g, openers, *args, refine=refine, **kw)
    use_bounds(monkeypatch, spy)
    pool = _Bounded(game)
    again = prove_openers(game, 1, depth_three=True, checkpoint=str(cut), pool=pool,
                          known={"clair": 851})
    assert not set(map(game.word, pool.bounded)) & seen
    assert plain == []
    assert again.best() == ["clair", "train"] and again.ceiling == 851
    rows = [json.loads(x) for x in cut.read_text().splitlines()]
    assert all(e["result"]["lower"] >= 852 for e in rows
               if _part(e) == "proof" and "key" in e and not e["result"]["exact"])
    monkeypatch.undo()
    assert verify_proof(game, str(cut), sample=0)["ok"]


def test_cli_ceiling_tree(tmp_path):
    """A tree written by ``search --tree`` is checked, then its total is the ceiling."""
    runner = CliRunner()
    tree = str(tmp_path / "clair.json")
    out = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--opener", "clair",
                              "--tree", tree])
    assert out.exit_code == 0, out.output
    out = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--openers", "all",
                              "--prove-best", "--ceiling-tree", tree, "--json"])
    assert out.exit_code == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["best"] == ["clair", "train"] and doc["ceiling"] == 851
    other = str(tmp_path / "other.json")
    assert runner.invoke(cli, ["wordle", "search", "--guesses", "en", "--opener", "crane",
                               "--beam", "1", "--tree", other]).exit_code == 0
    assert_one_error(runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed",
                                         "--openers", "all", "--prove-best",
                                         "--ceiling-tree", other]), other)
    worst = json.loads(runner.invoke(cli, ["wordle", "tree-check", tree, "--guesses",
                                           "fr-seed", "--json"]).stdout)["worst"]
    assert_one_error(runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed",
                                         "--openers", "all", "--prove-best", "--max-guesses",
                                         str(worst - 1), "--ceiling-tree", tree]),
                     f"the tree needs {worst} guesses, more than --max-guesses {worst - 1}")


@pytest.mark.usefixtures("no_computation")
def test_cli_ceiling_tree_errors(tmp_path):
    runner = CliRunner()
    tree = tmp_path / "t.json"
    tree.write_text("{}")
    base = ["wordle", "search", "--guesses", "fr-seed", "--openers", "all"]
    assert_one_error(runner.invoke(cli, base + ["--ceiling-tree", str(tree)]),
                     "--ceiling-tree goes with --prove-best and --openers all")
    assert_one_error(runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed",
                                         "--openers", "5", "--prove-best", "--ceiling-tree",
                                         str(tree)]), "not the N-th's")
    assert_one_error(runner.invoke(cli, base + ["--prove-best", "--ceiling-tree",
                                                str(tmp_path / "none")]), "none")


@pytest.mark.usefixtures("loose")
def test_a_file_resumes_under_a_higher_ceiling(game, monkeypatch, tmp_path):
    """Begun with a known tree, resumed without it (the beams' ceiling, 40 higher): the
    rows ruled out at the known total + 1 stay (the best exact total is at most it), no
    opener gets two rows, and the proof verifies."""
    path = tmp_path / "p.jsonl"
    prove_openers(game, 1, depth_three=True, checkpoint=str(path), known={"clair": 851})
    lines = path.read_text().splitlines()
    rows = [k for k, x in enumerate(lines) if _part(json.loads(x)) == "proof"]
    for cut_at in (rows[len(rows) // 5], rows[len(rows) // 2], rows[-2]):
        cut = tmp_path / f"cut{cut_at}.jsonl"
        cut.write_text("\n".join(lines[:cut_at]) + "\n")
        again = prove_openers(game, 1, depth_three=True, checkpoint=str(cut))
        assert sorted(r["word"] for r in again.rows) == sorted(game.word(g)
                                                               for g in range(297))
        assert again.best() == ["clair", "train"] and again.ceiling == 851
        assert verify_proof(game, str(cut), sample=0)["ok"]     # its own bounds, unpatched
