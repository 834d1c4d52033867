"""Proof files: what a saved search file records (its tag and the lists' provenance), and
a certificate of :func:`~.proofs.prove_openers` read (:func:`read_proof`) and ranked
(:func:`ranked`); :func:`~.checks.verify_proof` checks one as a proof."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from ...._io import read_bytes
from ....errors import ArgumentError
from .bounds import INFEASIBLE

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
