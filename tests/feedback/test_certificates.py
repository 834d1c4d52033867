"""A certificate is a proof, and a checkpoint cannot lie (issue 40, items 1 and 2).

The cases the audit of 87f629c found (``wordle verify-ranking`` said "all hold", exit 0,
for each): a file with 3 of the 297 openers of fr-seed, a bound row that does not rule its
opener out, a row for a word not in the list; and a resumed ``--prove-best`` that printed
a wrong "proven" best from one edited checkpoint row. Each case asserts the exit code, the
line that names the row, and that the file the user had is left as it was.
"""

import gzip
import json
import os

import pytest
from click.testing import CliRunner

from deductive import checkpoint as ck
from deductive.checkpoint import Checkpoint, inputs_digest, row_digest
from deductive.cli import cli
from deductive.engine.feedback.search import prove_openers, verify_proof
from deductive.engine.wordle.game import Wordle
from deductive.errors import ArgumentError

from tests.cli.test_cli_errors import assert_one_error

BASE = ["wordle", "verify-ranking", "--guesses", "fr-seed"]


@pytest.fixture(scope="module")
def game():
    return Wordle("fr-seed", "fr-seed")


@pytest.fixture(scope="module")
def proof_file(game, tmp_path_factory):
    """The certificate of the best opener of fr-seed (clair and train, 851)."""
    path = tmp_path_factory.mktemp("proof") / "p.jsonl"
    proof = prove_openers(game, 1, checkpoint=str(path))
    assert proof.best() == ["clair", "train"]
    return path


def _entries(path):
    """The proof's lines (its header and opener rows), without the first ceiling's beams
    and the plain bounds the file also keeps (headers and rows of their own, which a check
    passes over)."""
    entries = [json.loads(x) for x in path.read_text().splitlines()]
    return [e for e in entries if ":" not in str(e["tag"].get("proof", ""))]


def _write(path, entries, forge=True):
    """Write ``entries``; with ``forge``, each row's digest made to hold (as someone who
    knows the format can): the proof must not rest on the digests."""
    for e in entries:
        if forge and "key" in e:
            e["digest"] = row_digest(inputs_digest(e["tag"], e["deductive"]), e["key"],
                                     e["result"])
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return path


def _row(entries, word):
    return next(e for e in entries if e.get("key") == word)


def _verify(path, *extra):
    before = path.read_bytes()
    out = CliRunner().invoke(cli, BASE + [str(path), *extra])
    assert "Traceback" not in out.output
    assert path.read_bytes() == before              # a check never changes the file
    return out


def _wrong(out, *needles):
    assert out.exit_code == 1, (out.exit_code, out.output)
    lines = out.stdout.splitlines()
    assert lines[-1].startswith("proof fails")
    for needle in needles:
        assert any(line.startswith("WRONG: ") and needle in line for line in lines), out.stdout


def test_a_whole_certificate_holds(proof_file):
    out = _verify(proof_file, "--json", "--sample", "1", "--seed", "7")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["ok"] and doc["rows"] == doc["openers"] == 297 and doc["problems"] == []
    assert doc["best"] == ["clair", "train"] and doc["threshold"] == 851
    assert doc["seed"] == 7 and doc["sample"] == 1
    kinds = [c["kind"] for c in doc["checked"]]
    assert kinds.count("bound") == 295 and kinds.count("best") == 1    # every bound
    text = _verify(proof_file).stdout.splitlines()
    assert "drawn with seed 0" in text[-2] and "295 bounds recomputed" in text[-2]
    assert text[-1] == "proof holds: best clair, train"


def test_three_of_297_openers_is_a_gap(proof_file, tmp_path):
    entries = _entries(proof_file)
    three = _write(tmp_path / "three.jsonl", entries[:4], forge=False)   # header + 3 rows
    _wrong(_verify(three), "294 of the 297 openers of fr-seed have no row")


def test_a_bound_row_that_does_not_rule_its_opener_out(proof_file, tmp_path):
    entries = _entries(proof_file)
    _row(entries, "abord")["result"]["lower"] = 800
    _wrong(_verify(_write(tmp_path / "weak.jsonl", entries)),
           "row abord: claims at least 800, which does not rule it out")


def test_a_bound_row_that_claims_more_than_its_bound(proof_file, tmp_path):
    entries = _entries(proof_file)
    _row(entries, "abord")["result"]["lower"] = 10_000
    _wrong(_verify(_write(tmp_path / "high.jsonl", entries)),
           "row abord: claims a bound of at least 10000; recomputed it is 907")


def test_an_edited_row_fails_its_digest(proof_file, tmp_path):
    entries = _entries(proof_file)
    _row(entries, "abord")["result"]["lower"] = 900
    _wrong(_verify(_write(tmp_path / "edited.jsonl", entries, forge=False)),
           "row 'abord' (line 2): its digest does not hold")


def test_a_row_for_a_word_not_in_the_list(proof_file, tmp_path):
    entries = _entries(proof_file)
    extra = json.loads(json.dumps(_row(entries, "abord")))
    extra["key"] = extra["result"]["word"] = "zzzzz"
    _wrong(_verify(_write(tmp_path / "foreign.jsonl", entries + [extra])),
           "row 'zzzzz' (line 299): not an opener row of fr-seed (not a guess)")


def test_a_wrong_exact_row_and_a_wrong_search_row(proof_file, tmp_path):
    entries = _entries(proof_file)
    _row(entries, "clair")["result"]["total"] = 850
    _wrong(_verify(_write(tmp_path / "best.jsonl", entries)), "row clair: claims {'total': 850")
    entries = _entries(proof_file)
    train = _row(entries, "train")["result"]
    train.update(exact=False, total=None, worst=None, lower=852)
    _wrong(_verify(_write(tmp_path / "search.jsonl", entries)),
           "row train: claims at least 852, but a tree of total 851 exists")


def test_a_certificate_of_other_lists_or_versions_is_refused(proof_file, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(Wordle("fr-seed", "fr-seed").guesses.words[:50]) + "\n")
    out = CliRunner().invoke(cli, ["wordle", "verify-ranking", "--guesses", str(words),
                                   str(proof_file)])
    assert_one_error(out, "a certificate of other lists")
    # a certificate is checked by recomputation, whichever version wrote it: an older
    # version's file, or one of the format before digests (one warning), is checked
    entries = _entries(proof_file)
    for e in entries:
        e["deductive"] = "0.0.9"
    out = _verify(_write(tmp_path / "old.jsonl", entries))
    assert out.exit_code == 0 and out.stderr == "", out.output
    for e in entries:                               # the format before digests
        for key in ("deductive", "format", "digest", "seconds"):
            e.pop(key, None)
    out = _verify(_write(tmp_path / "v1.jsonl", entries, forge=False))
    assert out.exit_code == 0 and out.stdout.splitlines()[-1].startswith("proof holds")
    assert out.stderr.count("\n") == 1 and "297 row(s) of certificate format 1" in out.stderr
    _row(entries, "abord")["result"]["lower"] = 800  # and a wrong row of it is still found
    _wrong(_verify(_write(tmp_path / "v1bad.jsonl", entries, forge=False)),
           "row abord: claims at least 800")
    _row(entries, "abord")["format"] = 3
    assert_one_error(_verify(_write(tmp_path / "v3.jsonl", entries, forge=False)),
                     "certificate format 3")


def test_certificate_reading_is_bounded(proof_file, tmp_path, monkeypatch):
    """read_proof reads through deductive._io's bounded reader: a regular file only, at
    most the input limit ($DEDUCTIVE_MAX_INPUT), expanded size included."""
    assert_one_error(CliRunner().invoke(cli, BASE + ["/dev/zero"]), "not a regular file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_one_error(CliRunner().invoke(cli, BASE + [str(fifo)]), "not a regular file")
    monkeypatch.setenv("DEDUCTIVE_MAX_INPUT", "1000")
    long = tmp_path / "long.jsonl"
    long.write_text("x" * 5000 + "\n")
    assert_one_error(_verify(long), "the certificate is 5,001 bytes, over the input limit "
                                    "of 1,000 bytes")
    monkeypatch.setenv("DEDUCTIVE_MAX_INPUT", "1M")
    bomb = tmp_path / "bomb.jsonl.gz"               # 2 MB of newlines in 2 kB
    bomb.write_bytes(gzip.compress(b"\n" * (2 << 20)))
    assert_one_error(_verify(bomb), "the certificate expands to more than the input limit "
                                    "of 1.0 MB")
    monkeypatch.delenv("DEDUCTIVE_MAX_INPUT")
    packed = tmp_path / "p.jsonl.gz"
    packed.write_bytes(gzip.compress(proof_file.read_bytes()))
    assert _verify(packed).exit_code == 0
    packed.write_bytes(packed.read_bytes()[:-20])
    assert_one_error(_verify(packed), "a damaged or cut gzip file")


def _row_by_row(game, path):
    """(checked, problems) of step 2 of verify_proof as 0.2.0 ran it, the slow twin of its
    batched check: each bound refined alone under its claim, each searched row searched
    again from scratch under the threshold."""
    from deductive.engine.feedback.search import TreeSearch, opener_bounds, read_proof
    from deductive.engine.feedback.search.bounds import INFEASIBLE
    from deductive.engine.feedback.search.certificates import _cutoff

    tag, rows, _ = read_proof(game, path)
    exact = sorted((r for r in rows if r["exact"]),
                   key=lambda r: (r["total"], r["worst"], r["index"]))
    threshold = _cutoff([r["total"] for r in exact], int(tag.get("keep", 1)),
                        tag.get("within"))
    checked, problems = [], []
    for row in rows:
        word, claim = row["word"], row["lower"]
        low = int(opener_bounds(game, [row["index"]], refine=False)[0])
        if row["exact"]:
            if low > row["total"]:
                problems.append(f"row {word}: total {row['total']} is below its bound {low}")
            continue
        if exact and claim <= threshold:
            why = (f"the threshold is {threshold}" if threshold < INFEASIBLE else
                   "no threshold: the file has fewer exact rows than it ranks")
            problems.append(f"row {word}: claims at least {claim}, which does not rule it "
                            f"out ({why})")
            checked.append({"word": word, "kind": row["by"], "claimed": claim,
                            "found": low, "ok": False})
            continue
        if row["by"] == "bound":
            found = low if low >= claim else int(opener_bounds(game, [row["index"]], claim)[0])
            ok = found >= claim
            if not ok:
                problems.append(f"row {word}: claims a bound of at least {claim}; "
                                f"recomputed it is {found}")
        else:
            total, _, _, fits = TreeSearch(game, max_guesses=tag.get("max_guesses")) \
                .opener_total(row["index"], threshold + 1 if exact else claim)
            found, ok = int(total), not fits
            if fits:
                problems.append(f"row {word}: claims at least {claim}, but a tree of total "
                                f"{found} exists")
        checked.append({"word": word, "kind": row["by"], "claimed": claim, "found": found,
                        "ok": ok})
    return checked, problems, (threshold if exact else None)


def _same_as_row_by_row(game, path):
    """verify_proof's batched check gives the verdict, the rows checked and the problems
    of the row-by-row one; a searched row's ``found`` (a lower bound) may differ, both
    past the threshold when the row holds. Returns the report."""
    report = verify_proof(game, path, sample=0)
    checked, problems, threshold = _row_by_row(game, path)
    fast = [c for c in report["checked"] if c["kind"] in ("bound", "search")]
    assert [(c["word"], c["kind"], c["claimed"], c["ok"]) for c in fast] == \
        [(c["word"], c["kind"], c["claimed"], c["ok"]) for c in checked]
    for mine, slow in zip(fast, checked):
        if mine["kind"] == "bound" or not mine["ok"]:
            assert mine["found"] == slow["found"], (mine, slow)
        else:
            assert min(mine["found"], slow["found"]) > threshold
    step2 = [p for p in report["problems"] if p.startswith("row ") and
             "searched again" not in p and "digest" not in p]
    assert step2 == problems
    return report


@pytest.fixture(scope="module")
def hard_proof_file(tmp_path_factory):
    """Hard mode within 4 guesses, the 3 best: three openers (train, laine, marin) ruled
    out by a search that their bounds do not settle."""
    game = Wordle("fr-seed", "fr-seed", hard=True)
    path = tmp_path_factory.mktemp("proof") / "hard.jsonl"
    proof = prove_openers(game, 3, max_guesses=4, checkpoint=str(path))
    assert sum(r["by"] == "search" and not r["exact"] for r in proof.rows) == 3
    return game, path


def _alterations(entries, threshold):
    """(name, entries) of certificates altered as a forger could (digests made to hold)."""
    bound = [e for e in entries if e.get("key") and e["result"]["by"] == "bound"]
    searched = [e for e in entries if e.get("key") and e["result"]["by"] == "search"
                and not e["result"]["exact"]]
    exact = [e for e in entries if e.get("key") and e["result"]["exact"]]
    out = [("as written", entries)]
    out.append(("a row removed", [e for e in entries if e is not bound[-1]]))
    for name, pick, change in (
            ("a bound claimed too high", bound[0], {"lower": 10 ** 6}),
            ("a bound claim at the threshold", bound[1], {"lower": threshold}),
            ("a bound row sent to the search", bound[2], {"by": "search"}),
            ("an exact total below its bound", exact[-1], {"total": 3}),
            ("a searched row's claim at the threshold", (searched or bound)[0],
             {"lower": threshold, "by": "search"})):
        altered = json.loads(json.dumps(entries))
        _row(altered, pick["key"])["result"].update(change)
        out.append((name, altered))
    if exact:                           # the best made a searched row: a tree exists
        altered = json.loads(json.dumps(entries))
        _row(altered, exact[0]["key"])["result"].update(exact=False, total=None, worst=None,
                                                         lower=threshold + 1, by="search")
        out.append(("the best made a searched row", altered))
    return out


@pytest.mark.parametrize("which", ["normal", "hard", "hard depth-2"])
def test_the_batched_check_is_the_row_by_row_one(which, game, proof_file, hard_proof_file,
                                                 tmp_path):
    """On fr-seed (normal mode, the best; hard mode within 4, the 3 best; the same as a
    proof of the plain bound alone, whose searched rows get the refined bound first) as
    written and altered seven ways: the same verdict, rows checked and problems as the
    slow twin; a row removed or altered never holds (but a bound row relabelled as
    searched, still true, does)."""
    the_game, path = (game, proof_file) if which == "normal" else hard_proof_file
    threshold = verify_proof(the_game, path, sample=0)["threshold"]
    written = _entries(path)
    if which == "hard depth-2":
        for e in written:
            e["tag"]["proof"] = "depth-2"
    for name, entries in _alterations(written, threshold):
        altered = _write(tmp_path / f"{name.replace(' ', '-')}.jsonl", entries)
        report = _same_as_row_by_row(the_game, altered)
        holds = name in ("as written", "a bound row sent to the search")   # still true
        assert report["ok"] == holds, (name, report["problems"])


@pytest.mark.parametrize("proof", ["depth-2-lazy", "depth-2"])
def test_only_rows_the_bound_leaves_are_searched(proof, hard_proof_file, tmp_path,
                                                 monkeypatch):
    """A row ruled out by a search whose plain bound already passes the threshold is not
    searched again, nor one whose refined bound does (as the proof's own searches go,
    whether it refined or not); the others are, in one shared search."""
    from deductive.engine.feedback.search import checks, opener_bounds, proofs

    the_game, path = hard_proof_file
    entries = _entries(path)
    threshold = verify_proof(the_game, path, sample=0)["threshold"]
    rows = [e for e in entries if e.get("key") and e["result"]["by"] == "bound"]
    indices = [e["result"]["index"] for e in rows]
    plain = opener_bounds(the_game, indices, refine=False).tolist()
    refined = opener_bounds(the_game, indices, threshold + 1).tolist()
    far = next(e for e, low in zip(rows, plain) if low > threshold + 50)
    near = next(e for e, low, high in zip(rows, plain, refined)
                if low <= threshold < high and e["result"]["lower"] <= high)
    for e in (far, near):
        e["result"]["by"] = "search"
    for e in entries:
        e["tag"]["proof"] = proof
    searches, searched = [], []

    class Spy(checks.TreeSearch):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            searches.append(self)

        def opener_total(self, first, *args, **kwargs):
            searched.append(self.game.word(first))
            return super().opener_total(first, *args, **kwargs)

    monkeypatch.setattr(checks, "TreeSearch", Spy)         # the best's search
    monkeypatch.setattr(proofs, "TreeSearch", Spy)         # the pool's, for the rows
    report = verify_proof(the_game, _write(tmp_path / "far.jsonl", entries), sample=0)
    assert report["ok"], report["problems"]
    assert far["key"] not in searched
    row_searches = [w for w in searched if w != report["best"][0]]
    assert near["key"] not in searched
    assert sorted(row_searches) == ["laine", "marin", "train"]
    assert len(searches) == 2          # the rows' shared search, the best's fresh one


def test_a_resumed_proof_recomputes_an_edited_row(game, proof_file, tmp_path):
    """The audit's case: clair's row edited to a total of 800 made the resume print a
    wrong "proven" best. The row fails its digest, is computed again (one warning), and
    the file ends with a row that holds."""
    entries = _entries(proof_file)
    _row(entries, "clair")["result"].update(total=800, lower=800)
    path = _write(tmp_path / "resume.jsonl", entries, forge=False)
    out = CliRunner().invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--openers",
                                   "all", "--prove-best", "--checkpoint", str(path)])
    assert out.exit_code == 0, out.output
    assert out.stderr == (f"warning: {path}: 1 row(s) fail their check (edited or damaged); "
                          "computing them again\n")
    assert out.stdout.splitlines()[-1].endswith("needs more than 851; best: clair, train")
    assert "800" not in out.stdout
    assert verify_proof(game, str(path), sample=0)["ok"]   # the recomputed row supersedes
    # a forged row (digest made to hold) for a word the list does not have is not taken
    entries = _entries(proof_file)
    foreign = json.loads(json.dumps(_row(entries, "abord")))
    foreign["key"] = foreign["result"]["word"] = "zzzzz"
    del _row(entries, "clair")["key"]               # clair's row lost
    path = _write(tmp_path / "forged.jsonl", entries + [foreign])
    with pytest.warns(UserWarning, match="1 row"):
        proof = prove_openers(game, 1, checkpoint=str(path))
    assert proof.best() == ["clair", "train"] and len(proof.rows) == 297


def test_a_gzip_checkpoint_resumes_and_stays_gzip(game, proof_file, tmp_path):
    """A checkpoint kept packed (as a long sweep's is in a repository), cut short, resumes:
    the rows it gains are gzip members of their own, so the file stays one gzip stream
    that the next run and verify-ranking read whole."""
    lines = proof_file.read_text().splitlines(keepends=True)
    path = tmp_path / "part.jsonl.gz"
    path.write_bytes(gzip.compress("".join(lines[:len(lines) // 2]).encode()))
    proof = prove_openers(game, 1, checkpoint=str(path))
    assert proof.best() == ["clair", "train"] and len(proof.rows) == 297
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    text = gzip.decompress(path.read_bytes()).decode()  # every member, no stray bytes
    assert text.endswith("\n") and len(text.splitlines()) > len(lines) // 2
    again = prove_openers(game, 1, checkpoint=str(path))     # all read back
    def plain(rows):
        return sorted((r["word"], r["lower"], r["total"]) for r in rows)

    assert plain(again.rows) == plain(proof.rows)
    assert gzip.decompress(path.read_bytes()).decode() == text          # nothing added
    assert verify_proof(game, str(path), sample=0)["ok"]


def test_a_checkpoint_of_other_lists_or_versions_is_refused(proof_file, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(Wordle("fr-seed", "fr-seed").guesses.words[:50]) + "\n")
    before = proof_file.read_bytes()
    out = CliRunner().invoke(cli, ["wordle", "search", "--guesses", str(words), "--openers",
                                   "all", "--prove-best", "--checkpoint", str(proof_file)])
    assert_one_error(out, "a checkpoint of other lists (SHA-256 answers 7c4461fcebea")
    assert proof_file.read_bytes() == before
    entries = _entries(proof_file)
    for e in entries:
        e["deductive"] = "0.0.9"
    old = _write(tmp_path / "old.jsonl", entries)
    before = old.read_bytes()
    out = CliRunner().invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--openers",
                                   "all", "--prove-best", "--checkpoint", str(old)])
    assert_one_error(out, "was written by deductive 0.0.9 (checkpoint format 2), not by "
                          "deductive 0.")
    assert old.read_bytes() == before


def test_checkpoint_rows_carry_provenance(proof_file):
    header, first = _entries(proof_file)[:2]
    assert header["checkpoint"] == ck.FORMAT and header["deductive"] == ck.package_version()
    assert header["about"]["guesses"] == {
        "name": "fr-seed", "size": 297, "sha256": header["tag"]["guesses"]}
    assert header["tag"]["keep"] == 1 and header["started"].endswith("Z")
    assert first["format"] == ck.FORMAT and first["seconds"] >= 0
    assert first["digest"] == row_digest(header["inputs"], first["key"], first["result"])


def test_checkpoint_reader_refuses_what_is_no_checkpoint(tmp_path):
    with pytest.raises(ArgumentError, match="not a regular file"):
        Checkpoint("/dev/zero", {"t": 1}).load()
    store = Checkpoint(str(tmp_path / "c.jsonl"), {"t": 1})
    store.append("a", [1, 2])
    store.append("b", {"x": 1.5})
    assert Checkpoint(store.path, {"t": 1}).load() == {"a": [1, 2], "b": {"x": 1.5}}
    assert Checkpoint(store.path, {"t": 2}).load() == {}         # another sweep's rows
    with pytest.warns(UserWarning, match="1 row"):
        assert Checkpoint(store.path, {"t": 1}).load(lambda k, r: k == "a") == {"a": [1, 2]}


def _hangman_lists(tmp_path):
    from deductive.engine.hangman import load_hangman_words

    words = tmp_path / "words.txt"
    words.write_text("\n".join(["cat", "cot", "cut", "dog", "dig", "bat", "bit", "hat", "hit",
                                "lake", "like", "lime", "line", "lane", "cake", "coke"]) + "\n")
    return load_hangman_words(str(words), "all")


def test_an_edited_hangman_sweep_row_is_swept_again(tmp_path):
    from deductive.engine.hangman.sweep import sweep_lists

    lists = _hangman_lists(tmp_path)
    path = tmp_path / "sweep.jsonl"
    first = sweep_lists(lists, "min-miss", [2, 6], checkpoint=str(path))
    entries = _entries(path)
    row = next(e for e in entries if "key" in e)
    for lives, part in row["result"].items():
        part["results"] = [[r[0], 0, *r[2:]] for r in part["results"]]   # no misses at all
    _write(path, entries, forge=False)
    with pytest.warns(UserWarning, match="1 row"):
        again = sweep_lists(lists, "min-miss", [2, 6], checkpoint=str(path))
    def plain(sweeps):
        return [[{k: v for k, v in r.to_json().items() if k != "seconds"} for r in rs]
                for _, rs in sweeps]

    assert plain(again) == plain(first)
    header = entries[0]
    assert header["about"]["lists"][row["key"]]["size"] == len(lists[int(row["key"])].words)


def test_a_hangman_tree_records_provenance_and_its_reader_is_bounded(tmp_path):
    from deductive.engine.hangman import load_tree
    from deductive.engine.hangman.sweep import optimal_tree
    from deductive.errors import DeductiveError

    lists = _hangman_lists(tmp_path)
    path = tmp_path / "tree.json"
    optimal_tree(lists[3], 2, str(path))
    doc = load_tree(str(path))
    assert doc["deductive"] == ck.package_version() and "words.txt" in doc["source"]
    assert doc["parameters"] == {"strategy": "optimal", "lives": 2, "prior": "uniform",
                                 "lang": "en"}
    assert doc["seconds"] >= 0 and len(doc["words_sha256"]) == 64
    for bad, needle in [("/dev/zero", "not a regular file"),
                        (tmp_path / "deep.json", "nested deeper")]:
        if bad != "/dev/zero":
            bad.write_text("[" * 200_000 + "]" * 200_000)
        with pytest.raises(DeductiveError, match=needle):
            load_tree(str(bad))
    doc["version"] = 2
    path.write_text(json.dumps(doc))
    with pytest.raises(DeductiveError, match="format version 2"):
        load_tree(str(path))
