"""Proof files: what a saved search file records (its tag and the lists' provenance), and
a certificate of :func:`~.proofs.prove_openers` read (:func:`read_proof`) and checked as a
proof (:func:`verify_proof`)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import numpy as np

from ...._io import read_bytes
from ....errors import ArgumentError, DeductiveError
from ..tree import check_tree, tree_document
from .bounds import INFEASIBLE
from .buckets import search_under
from .checks import check_rows, check_tag
from .tree_search import TreeSearch

#: The proof a certificate's tag names: the plain depth-two bound, refined for the openers
#: still in play under the falling ceiling (:func:`prove_openers`). Files of the earlier
#: proofs ("depth-2": plain only; "depth-2-refined": refined for every opener the plain
#: bound left at the first ceiling or below) are still read and checked, never resumed.
PROOF = "depth-2-lazy"
PROOFS = ("depth-2", "depth-2-refined", PROOF)


def search_tag(game, beam, max_guesses) -> dict:
    """The checkpoint tag of an openers search (one entry per opener, keyed by the word),
    in one process or on Dask: the search's settings and the game's identity."""
    identity = game.identity()
    return {"beam": beam, "hard": game.hard, "max_guesses": max_guesses,
            "guesses": identity.get("guesses_sha256"), "answers": identity.get("answers_sha256")}


def proof_tag(game, keep, max_guesses, within=None) -> dict:
    """The checkpoint tag of :func:`prove_openers` (rows keyed by the word)."""
    tag = dict(search_tag(game, None, max_guesses), proof=PROOF, keep=keep)
    if within is not None:
        tag["within"] = within
    return tag


def _cutoff(exact, keep, within) -> int:
    """The least total that no longer needs ranking, given the exact totals found so far
    (sorted): past the ``keep``-th, and past the best + ``within``."""
    by_keep = exact[keep - 1] if len(exact) >= keep else INFEASIBLE
    if within is None:
        return by_keep
    return max(by_keep, exact[0] + within if exact else INFEASIBLE)


def ceiling_tag(game, keep, max_guesses, within, beam) -> dict:
    """The tag of the first ceiling's beams of :func:`~.proofs.prove_openers`, kept in its
    checkpoint beside the opener rows (rows keyed by the word): the proof's tag, its
    ``proof`` marked as the beams' and ``beam`` their width (:data:`~.proofs.CEILING_BEAM`;
    a certificate's reader passes these rows over)."""
    tag = proof_tag(game, keep, max_guesses, within)
    return dict(tag, proof=f"{tag['proof']}:ceiling", beam=beam)


def _row_valid(game, **fields):
    """``valid(key, row)`` of a kept row that names a guess (its word as the key and its
    ``index``) and holds ``fields`` of the given types."""
    n = len(game.guesses)

    def valid(key, row):
        g = row["index"]
        return (isinstance(g, int) and 0 <= g < n and key == game.word(g)
                and all(isinstance(row[name], kind) for name, kind in fields.items()))
    return valid


def _bound_row_valid(game):
    """``valid(key, row)`` of a kept plain bound: ``bound`` of the guess the key and its
    index name."""
    return _row_valid(game, bound=int)


def bounds_tag(game, keep, max_guesses, within, target, kind="bounds") -> dict:
    """The tag of the bounds :func:`~.proofs.prove_openers` keeps (those that rule nothing out
    under ``target``, the first ceiling + 1), plain (``kind`` ``"bounds"``) or depth-three
    (``"deep"``): the proof's tag, its ``proof`` marked as theirs."""
    tag = proof_tag(game, keep, max_guesses, within)
    return dict(tag, proof=f"{tag['proof']}:{kind}", target=target)


def buckets_tag(game, keep, max_guesses, within) -> dict:
    """The tag of the bucket searches :func:`~.proofs.prove_openers` keeps
    (:class:`~.buckets.BucketRows`; rows keyed ``[word, position]``, which a certificate's
    reader passes over): the proof's tag, its ``proof`` marked as theirs."""
    tag = proof_tag(game, keep, max_guesses, within)
    return dict(tag, proof=f"{tag['proof']}:buckets")


def _beam_row_valid(game):
    """``valid(key, row)`` of a first ceiling's beam row: ``total`` and ``ok`` of the
    guess the key and its index name."""
    return _row_valid(game, total=int, ok=bool)


def known_tag(game, keep, max_guesses, within) -> dict:
    """The tag of the trees known to exist that a run of :func:`~.proofs.prove_openers`
    was given (``known``), noted in its checkpoint: the proof's tag, its ``proof`` marked
    as theirs."""
    tag = proof_tag(game, keep, max_guesses, within)
    return dict(tag, proof=f"{tag['proof']}:known")


def _kept_bounds(store, valid) -> dict:
    """The bounds ``store`` (a checkpoint of :func:`bounds_tag`) keeps, and those its file
    keeps under the same tag with another target (a run under another first ceiling),
    the highest of each opener: a kept bound was below its target, so it is the opener's
    whole bound and holds under any."""
    from ....checkpoint import Checkpoint, read_entries

    kept = store.load(valid)
    if not store.path or not os.path.lexists(store.path):
        return kept
    targets = {entry["tag"].get("target") for _, entry in read_entries(store.path)
               if "key" in entry and isinstance(entry.get("tag"), dict)
               and dict(entry["tag"], target=None) == dict(store.tag, target=None)}
    for target in sorted(t for t in targets if type(t) is int and t != store.tag["target"]):
        other = Checkpoint(store.path, dict(store.tag, target=target), about=store.about)
        try:
            rows = other.load(valid)
        except ArgumentError:           # rows of another version family: not taken
            continue
        for word, row in rows.items():
            if word not in kept or row["bound"] > kept[word]["bound"]:
                kept[word] = row
    return kept


def lists_about(game) -> dict:
    """The provenance a saved file of ``game`` records: its lists' names and SHA-256 and
    its rules (for a game without named lists, their sizes)."""
    identity = game.identity()
    about = {"hard": game.hard}
    for side in ("guesses", "answers"):
        about[side] = {"name": identity.get(side), "size": len(getattr(game, side)),
                       "sha256": identity.get(f"{side}_sha256")}
    return about


def proof_row_valid(game):
    """``valid(key, row)`` for :meth:`Checkpoint.load`: a row of :func:`prove_openers`
    that names a guess of ``game`` (its own word and index) and holds numbers where the
    proof reads them."""
    names = _row_valid(game, lower=int)

    def valid(key, row):
        if not (names(key, row) and row["word"] == key):
            return False
        if row["by"] not in ("bound", "deep", "search"):
            return False
        if row["by"] == "deep" and game.hard:       # the depth-three bound: normal mode
            return False
        if row["exact"] is True:        # worst None: not minimised (a depth-three proof,
            return isinstance(row["total"], int) and (    # normal mode only)
                isinstance(row["worst"], int) or (row["worst"] is None and not game.hard))
        return row["exact"] is False
    return valid


def ranked(rows) -> list[dict]:
    """A proof's exact rows of ``rows`` in the order of its ranking: least total, then least
    worst case, then guess order; when any of them gives no worst case (``worst`` None:
    the rows of a proof with the depth-three step, which ranks by total alone), least
    total, then guess order, for all of them. So a row whose worst case is dropped (by an
    edit, or a file resumed with the other setting) can only make the whole ranking the
    weaker one, by totals, which still holds."""
    exact = [r for r in rows if r["exact"]]
    if any(r["worst"] is None for r in exact):
        return sorted(exact, key=lambda r: (r["total"], r["index"]))
    return sorted(exact, key=lambda r: (r["total"], r["worst"], r["index"]))


def _entries(path):
    """``(line number, entry)`` of each JSON object line of the certificate ``path`` (plain
    or gzip), read by :func:`~deductive._io.read_bytes`: a regular file, at most the input
    limit (``$DEDUCTIVE_MAX_INPUT``) expanded. Lines that are not JSON objects (one cut by
    an interruption) are skipped, as a checkpoint's reader does."""
    data = read_bytes(path, what="certificate", error=ArgumentError, gunzip=True,
                      hint="give the --checkpoint file of search --prove-best")
    for number, line in enumerate(data.split(b"\n"), start=1):
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(entry, dict):
            yield number, entry


def read_proof(game, path, started: bool = False) -> tuple[dict, list[dict], list[str]]:
    """The tag, rows and problems of a :func:`prove_openers` file for ``game`` (read only;
    plain or gzip, bounded as :func:`~deductive._io.read_bytes` says).

    Refused (:class:`ArgumentError`): a file of other lists, one of a format this version
    does not read (formats 1, without digests, and 2 are read: a certificate is checked by
    recomputation, whichever version wrote it), one holding several proofs of this game
    and mode, one with no row of them. The rows are the last row of each word whose digest
    holds; the problems name every row that is not a row of this game's proof (a word not
    in the list, a wrong index, a digest that does not hold, two rows of one word that
    differ). With ``started``, a file of a proof with no opener row yet (its beams or
    bounds only) gives the tag ``{}`` and no rows."""
    import warnings

    from ....checkpoint import FORMAT, inputs_digest, row_digest, version_family
    from ....errors import DeductiveWarning

    identity = game.identity()
    ours = (identity.get("guesses_sha256"), identity.get("answers_sha256"))
    version = version_family(_package_version())
    tags: dict = {}
    problems: list = []
    found: dict = {}                    # word -> (line, row)
    damaged: dict = {}                  # word -> its first row whose digest fails
    legacy = 0                          # rows of format 1 (written without a digest)
    other_mode = False
    valid = proof_row_valid(game)
    for number, entry in _entries(path):
        tag = entry.get("tag")
        if not isinstance(tag, dict) or tag.get("proof") not in PROOFS or "key" not in entry:
            continue
        if (tag.get("guesses"), tag.get("answers")) != ours:
            side = 0 if tag.get("guesses") != ours[0] else 1
            name = ("guesses", "answers")[side]
            raise ArgumentError(
                f"{path}: a certificate of other lists (line {number}: {name} SHA-256 "
                f"{str(tag.get(name))[:12]}..., these {name} {str(ours[side])[:12]}...); "
                "give the --guesses and --answers it was made with")
        if tag.get("hard") != game.hard:
            other_mode = True
            continue
        made, form = entry.get("deductive"), entry.get("format", 1)
        if form not in (1, FORMAT) or (form == FORMAT) != (made is not None):
            raise ArgumentError(
                f"{path}: line {number} is of certificate format {form} (written by "
                f"deductive {made}); this deductive ({version}.x) reads formats 1 and "
                f"{FORMAT}: upgrade deductive")
        canonical = json.dumps(tag, sort_keys=True)
        tags.setdefault(canonical, True)
        key, row = entry["key"], entry["result"]
        name = f"row {str(key)[:40]!r} (line {number})"
        if form == 1:                   # no digest: checked by recomputation as the rest
            legacy += 1
        elif entry.get("digest") != row_digest(inputs_digest(tag, made), key, row):
            damaged.setdefault(str(key), name)
            continue
        try:
            ok = isinstance(row, dict) and valid(key, row)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            ok = False
        if not ok:
            problems.append(f"{name}: not an opener row of {identity.get('guesses')} "
                            f"({'not a guess' if str(key) not in game._words else 'malformed'})")
            continue
        if key in found and found[key][1] != row:
            problems.append(f"{name}: a second row of {key} that differs from line "
                            f"{found[key][0]}")
        found[key] = (number, row)
    if len(tags) > 1:
        raise ArgumentError(f"{path}: holds {len(tags)} proofs of these lists (other "
                            "--openers, --within or --max-guesses); give a file of one")
    if not tags and started and not other_mode:
        return {}, [], problems
    if not tags:
        hint = ("it holds rows of the other mode; give the same --hard as the proof"
                if other_mode else
                "it holds no opener rows; give the --checkpoint file of search --prove-best")
        raise ArgumentError(f"{path}: no opener rows of these lists: {hint}")
    tag = json.loads(next(iter(tags)))
    # a row whose digest fails is no gap when a valid row of its word follows (a resumed
    # run computes it again)
    problems += [f"{name}: its digest does not hold (edited or damaged)"
                 for word, name in damaged.items() if word not in found]
    if legacy:
        warnings.warn(f"{path}: {legacy} row(s) of certificate format 1 carry no digest; "
                      "each is checked by recomputation as the others are",
                      DeductiveWarning, stacklevel=2)
    return tag, [row for _, row in found.values()], problems


#: The memo cap of the searches :func:`verify_proof` shares (that of the CLI's proofs
#: without a memory budget: :data:`deductive.engine.wordle.search.MEMO`).
VERIFY_MEMO_BYTES = 4_000_000_000


def _package_version() -> str:
    from ....checkpoint import package_version

    return package_version()


@dataclass(frozen=True)
class ProofCheck:
    """A certificate checked (:func:`verify_proof`'s report): ``verify-ranking`` shows it."""

    report: dict

    @property
    def ok(self) -> bool:
        return bool(self.report["ok"])

    def to_json(self) -> dict:
        """:func:`verify_proof`'s report: the form ``--json`` prints."""
        return self.report


def verify_proof(game, path, *, sample: int = 3, seed: int = 0, progress=None,
                 memo_bytes: int | None = VERIFY_MEMO_BYTES, pools=None, checkpoint=None,
                 steps=None) -> dict:
    """Check a :func:`prove_openers` file as a proof, for ``game``'s lists and mode.

    1. Coverage: one row for every opener of the guesses, none for anything else, each
       row's digest holding (:func:`read_proof`).
    2. Every row's bound recomputed (the plain depth-two bound of :func:`opener_bounds`,
       in one call): at most an exact row's total; for a row that is not exact, its claim
       must exceed the proof's threshold (the best total, or the ``keep``-th, or the best
       + ``within``), or be that no tree opens with it within ``max_guesses``, and hold:
       a row ruled out by the bound (``by="bound"``) has a plain or refined bound of at
       least its claim (the refined bounds in one call per claim), one ruled out by the
       depth-three bound (``by="deep"``) a depth-three bound
       (:func:`~.bounds.deep_opener_bound`) of at least its claim; one ruled out by a
       search has no tree within the threshold: its plain bound passes the threshold, or
       else it is checked again under the threshold as the proof searched it
       (:func:`~.buckets.search_under`: its refined bound, in normal mode exact searches
       of its buckets, then the search), and no tree is found.
       The depth-three bounds and the searches run in a pool, ``pools(max_guesses)``
       (default: :class:`~.proofs.LocalSearches`, one :class:`TreeSearch` whose memo,
       capped at ``memo_bytes``, holds exact values and proven bounds only; on Dask
       :func:`deductive.distributed.wordle_verify_proof`), and with ``checkpoint`` each
       verdict is kept there as it ends (:func:`~.checks.check_tag`): a check killed
       part way resumes with them (:func:`~.checks.check_rows`). ``steps(done, total)``
       follows them.
    3. The best row (least total; ties: :func:`ranked`) and ``sample`` more exact rows
       drawn with ``seed`` are searched again from scratch (a fresh memo): their total and
       worst case (where the row gives one: a depth-three proof's rows give the total
       alone) must be the claimed ones, and their trees pass :func:`~.tree.check_tree`
       (:func:`_search_again`).

    Returns ``{"rows", "openers", "best", "threshold", "sample", "seed", "checked",
    "taken", "problems", "ok"}`` (``taken``: how many verdicts came from ``checkpoint``,
    not recomputed by this run); ``checked`` holds one entry per row re-derived (``word, kind,
    claimed, found, ok``; rows in the file's order, then the exact ones), ``problems`` one
    line per gap or disagreement, naming the row. ``progress(k)``: k exact rows re-derived.
    """
    tag, rows, problems = read_proof(game, path)
    max_guesses = tag.get("max_guesses")
    keep, within = int(tag.get("keep", 1)), tag.get("within")
    have = {r["word"] for r in rows}
    missing = [game.word(g) for g in range(len(game.guesses)) if game.word(g) not in have]
    if missing:
        problems.append(f"{len(missing)} of the {len(game.guesses)} openers of "
                        f"{game.identity().get('guesses')} have no row: "
                        f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}")
    exact = ranked(rows)
    threshold = _cutoff([r["total"] for r in exact], keep, within)
    if not exact:
        problems.append("no exact row: the file ranks no opener")
    if pools is None:
        def pools(max_guesses):
            from .proofs import LocalSearches

            return LocalSearches(game, max_guesses, memo_bytes, buckets=not game.hard)
    store = None
    taken: list[str] = []               # the rows whose verdicts the checkpoint held
    if checkpoint is not None:
        from ....checkpoint import Checkpoint

        if os.path.exists(checkpoint) and os.path.samefile(checkpoint, path):
            raise ArgumentError(f"{checkpoint}: is the certificate itself; give the check's "
                                "verdicts a file of their own")
        store = Checkpoint(checkpoint, check_tag(game, max_guesses), about=lists_about(game))
    made: list = []                     # the pool, if a row needed one: closed after

    def pool():
        made.append(pools(max_guesses))
        return made[-1]
    try:
        verdicts = check_rows(game, rows, threshold if exact else None, pool, store, steps,
                              taken)
    finally:
        for searches in made:
            if hasattr(searches, "close"):
                searches.close()
    checked = []
    for row in rows:
        verdict = verdicts.get(row["word"])
        if verdict is None:
            continue
        found, ok, problem = verdict
        if problem:
            problems.append(problem)
        if found is not None:
            checked.append({"word": row["word"], "kind": row["by"], "claimed": row["lower"],
                            "found": found, "ok": ok})
    picked = exact[:1]
    if len(exact) > 1 and sample > 0:
        rng = np.random.default_rng(seed)
        more = rng.choice(len(exact) - 1, size=min(sample, len(exact) - 1), replace=False)
        picked += [exact[1 + k] for k in sorted(more.tolist())]
    for k, row in enumerate(picked):
        claimed, found, ok = _check_again(game, row, max_guesses, memo_bytes)
        if not ok:
            problems.append(f"row {row['word']}: claims {claimed}; searched again: {found}")
        checked.append({"word": row["word"], "kind": "best" if k == 0 else "exact",
                        "claimed": claimed, "found": found, "ok": ok})
        if progress is not None:
            progress(k + 1)
    return {"rows": len(rows), "openers": len(game.guesses),
            "best": [r["word"] for r in exact if r["total"] == exact[0]["total"]],
            "threshold": None if threshold >= INFEASIBLE else threshold,
            "sample": len(picked) - 1 if picked else 0, "seed": seed, "checked": checked,
            "taken": len(taken), "problems": problems, "ok": not problems}


def _check_again(game, row, max_guesses, memo_bytes) -> tuple[dict, dict, bool]:
    """``(claimed, found, ok)`` of an exact row searched again (:func:`_search_again`): its
    total, and its worst case where it gives one, against those of the tree found, which
    must pass :func:`~.tree.check_tree`, open with the row's word and fit within
    ``max_guesses``."""
    claimed = {"total": row["total"], "worst": row["worst"]}
    if row["worst"] is None:            # the total alone was claimed
        del claimed["worst"]
    try:
        total, tree = _search_again(game, row, max_guesses, memo_bytes)
        if tree is None:
            return claimed, {"at_least": total}, False
        report = check_tree(game, tree_document(game, tree))
    except DeductiveError as exc:
        return claimed, {"tree": str(exc)}, False
    found = {"total": int(report.depths.sum()), "worst": int(report.depths.max())}
    fits = (tree["guess"] == row["word"] and total == found["total"]
            and (max_guesses is None or found["worst"] <= max_guesses))
    if not fits:
        found["opens"] = tree["guess"]
    elif "worst" not in claimed:
        del found["worst"]
    return claimed, found, fits and found == claimed


def _search_again(game, row, max_guesses, memo_bytes) -> tuple[int, dict | None]:
    """Step 3 of :func:`verify_proof` for one exact row: its opener searched again from
    scratch (a fresh memo), ``(total, tree)``. A row with a worst case is searched as
    :meth:`~.tree_search.TreeSearch.search_opener` searches (the least worst case among
    the trees of least total); one without (a proof with the depth-three step) as that
    proof searched it (:func:`~.buckets.search_under` under its total + 1: exact searches
    of its buckets), the total alone: a total found below the claim, or none up to it
    (then ``(a lower bound above the claim, None)``), is a disagreement."""
    search = TreeSearch(game, max_guesses=max_guesses, memo_bytes=memo_bytes)
    if row["worst"] is not None:
        result = search.search_opener(row["word"], keep_tree=True)
        assert result.tree is not None          # kept: keep_tree=True
        return int(result.total), result.tree
    g = row["index"]
    total, _, ok, _, _ = search_under(search, g, row["total"] + 1, not game.hard)
    if not ok:                          # no tree of the claimed total or less
        return int(total), None
    cands = np.arange(len(game.answers), dtype=np.int64)
    allowed = np.ones(len(game.guesses), dtype=bool) if game.hard else None
    return int(total), search.tree(cands, allowed, max_guesses, g)
