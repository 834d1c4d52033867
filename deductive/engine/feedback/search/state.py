"""A certificate's progress: what a :func:`~.proofs.prove_openers` file says so far (the
openers decided and how, the first ceiling, the least bound among the openers left),
read without recomputing anything: ``verify-ranking --state``."""

from __future__ import annotations

from dataclasses import dataclass

from ....errors import ArgumentError
from .bounds import INFEASIBLE
from .certificates import (PROOF, _cutoff, _entries, ceiling_tag, known_tag, proof_tag,
                           read_proof)
from .proofs import CEILING_BEAM, CEILING_EXTRA


def _base(kind: dict) -> dict:
    """The proof's own tag from the tag of one of its parts (its beams, kept bounds or
    known trees): the part's name, beam width and target taken off."""
    base = {k: v for k, v in kind.items() if k != "target"}
    return dict(base, proof=str(base.get("proof")).split(":")[0], beam=None)


@dataclass(frozen=True)
class ProofState:
    """How far a certificate is (:func:`proof_state`'s report): ``verify-ranking --state``
    shows it."""

    report: dict

    def to_json(self) -> dict:
        """:func:`proof_state`'s report: the form ``--json`` prints."""
        return self.report


def proof_state(game, path) -> ProofState:
    """What a :func:`prove_openers` file (for ``game``'s lists and mode, read as
    :func:`read_proof` reads it) says so far, nothing recomputed: a sweep's progress, not a
    check (:func:`~.checks.verify_proof` is that).

    The report: ``openers``; ``decided`` (rows) and ``by`` (rows ruled out by the depth-two
    bound, by the depth-three bound, searched; ``exact``: the searched rows with a total);
    ``seconds`` (the rows' own, summed by how they were decided) and ``kept_seconds``
    (those of the depth-three bounds kept for openers not yet decided); ``ceiling`` (the
    first ceiling: from the beams' totals and every known tree the file notes, as
    :func:`~.proofs.prove_openers` takes them; None until ``keep`` + :data:`CEILING_EXTRA`
    beams found a tree), ``beams``
    (how many the file keeps), ``least_beam`` (``[word, total]``) and ``known`` (``{word:
    total}`` of the trees a run was given); ``best`` (``[word, total]`` of the least exact
    row, or None); ``left`` (openers without a row)
    and ``least_left`` (``[word, bound]``: the least kept bound among them, depth-three
    where kept, else plain; None when none is kept) with ``bounded_left`` (how many of
    them have a kept bound) and ``kept_buckets`` (``[searches, openers, seconds]``: the
    bucket searches kept for openers left, which a resumed run takes); ``rate`` (openers
    decided a core-hour of the rows' own seconds; None without them) and ``projected``
    (the core-hours the openers left would take at that rate: a guide only, since the
    proof decides the likeliest out first); ``problems`` (as
    :func:`~.certificates.read_proof` gives them)."""
    tag, rows, problems = read_proof(game, path, started=True)
    entries = [(e["tag"], e["key"], e["result"]) for _, e in _entries(path)
               if isinstance(e.get("tag"), dict) and isinstance(e.get("result"), dict)
               and isinstance(e.get("key"), (str, list))]
    if not tag:                         # no opener row yet: the proof its other rows name
        ours = proof_tag(game, 1, None)
        tag = next((_base(kind) for kind, _, _ in entries
                    if str(kind.get("proof")).startswith(f"{PROOF}:")
                    and all(kind.get(k) == ours[k] for k in ("guesses", "answers", "hard"))),
                   {})
        if not tag:
            raise ArgumentError(f"{path}: no row of a proof of these lists in this mode; "
                                "give the --checkpoint file of search --prove-best")
    keep, within = int(tag.get("keep", 1)), tag.get("within")
    proof = tag["proof"]
    beamed = ceiling_tag(game, keep, tag.get("max_guesses"), within, CEILING_BEAM)
    noted = known_tag(game, keep, tag.get("max_guesses"), within)
    beams: dict = {}
    bounds: dict = {}
    known: dict = {}
    searched: dict = {}                 # [word, position] -> CPU seconds
    kept_seconds = 0.0
    for kind, key, row in entries:
        if isinstance(key, list):
            if kind.get("proof") == f"{proof}:buckets" and _base(kind) == tag and \
                    len(key) == 2 and isinstance(row.get("seconds"), (int, float)):
                searched[tuple(map(str, key))] = float(row["seconds"])
            continue
        if kind == beamed:
            if row.get("ok") is True and isinstance(row.get("total"), int):
                beams[key] = row["total"]
        elif kind == noted:
            if isinstance(row.get("total"), int):
                known[key] = min(known.get(key, row["total"]), row["total"])
        elif _base(kind) != tag:
            continue
        elif kind.get("proof") in (f"{proof}:bounds", f"{proof}:deep"):
            if isinstance(row.get("bound"), int):
                bounds[key] = max(bounds.get(key, row["bound"]), row["bound"])
            if kind.get("proof") == f"{proof}:deep":
                kept_seconds += float(row.get("seconds") or 0.0)
    by = {"bound": 0, "deep": 0, "search": 0, "exact": 0}
    seconds = {"bound": 0.0, "deep": 0.0, "search": 0.0}
    for row in rows:
        by[row["by"]] += 1
        by["exact"] += bool(row["exact"])
        seconds[row["by"]] += float(row.get("seconds") or 0.0)
    totals = sorted(beams.values())
    ceiling = (min(_cutoff(totals, keep, within), _cutoff(sorted(known.values()), keep, within))
               if len(totals) >= keep + CEILING_EXTRA else None)
    exact = sorted((r["total"], r["index"], r["word"]) for r in rows if r["exact"])
    have = {r["word"] for r in rows}
    left = [game.word(g) for g in range(len(game.guesses)) if game.word(g) not in have]
    kept = sorted((bounds[w], game.guess_index(w), w) for w in left if w in bounds)
    least_beam = min(((t, w) for w, t in beams.items()), default=None)
    buckets_left = [(w, s) for (w, _), s in searched.items() if w not in have]
    spent = sum(seconds.values()) / 3600
    rate = round(len(rows) / spent, 1) if rows and spent > 0 else None
    return ProofState({
        "openers": len(game.guesses), "decided": len(rows), "by": by,
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
        "kept_seconds": round(kept_seconds, 1),
        "ceiling": None if ceiling is None or ceiling >= INFEASIBLE else ceiling,
        "beams": len(beams),
        "least_beam": None if least_beam is None else [least_beam[1], least_beam[0]],
        "known": known,
        "best": [exact[0][2], exact[0][0]] if exact else None,
        "left": len(left), "least_left": [kept[0][2], kept[0][0]] if kept else None,
        "bounded_left": len(kept),
        "kept_buckets": [len(buckets_left), len({w for w, _ in buckets_left}),
                         round(sum(s for _, s in buckets_left), 1)],
        "rate": rate, "projected": round(len(left) / rate, 1) if rate else None,
        "problems": problems})
