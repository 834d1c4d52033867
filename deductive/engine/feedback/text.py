"""Text forms of the core's results: what ``deductive wordle ...`` prints without ``--json``.

One function per typed result (a :class:`~.scoring.Ranking`, a
:class:`~.bench.BenchResult`, a :class:`~.tree.TreeReport`, a
:class:`~.search.SearchResult`, searched :class:`~.search.OpenerRows`, an
:class:`~.search.OpenerProof`, a :class:`~.search.ProofCheck` or
:class:`~.search.ProofState`, the
:class:`~.precompute.SecondGuesses`), registered with
:func:`~deductive.engine.render.render`, whose ``view`` carries what the text mentions
beside the result (where a tree was written; for the least worst case, over what); and the
assistant's advice and a game's verdict. The JSON forms are the results' own ``to_json``
methods. Columns are as wide as the game's words.
"""

from __future__ import annotations

from ..render import render
from .bench import BenchResult
from .precompute import SecondGuesses
from .scoring import Ranking
from .search import OpenerProof, OpenerRows, ProofCheck, ProofState, SearchResult
from .tree import TreeReport

__all__ = ["advice", "verdict"]


@render.register
def _ranking(ranking: Ranking) -> str:
    """A header naming the lists, then one row per ranked guess: entropy, buckets, largest
    bucket and expected candidates left."""
    w = max(4, len(ranking.scores[0].word) if ranking.scores else 0)
    lines = [f"{ranking.n_guesses} guesses ({ranking.guesses}) over {ranking.n_answers} "
             f"answers ({ranking.answers}), best {ranking.metric} first",
             f"{'rank':>5}  {'word':<{w}}  {'entropy':>8}  {'buckets':>7}  {'largest':>7}  "
             f"{'expected':>9}"]
    lines += [f"{rank:>5}  {s.word:<{w}}  {s.entropy:>8.4f}  {s.buckets:>7}  {s.largest:>7}  "
              f"{s.expected:>9.3f}" for rank, s in enumerate(ranking.scores, start=1)]
    return "\n".join(lines)


@render.register
def _bench(result: BenchResult, tree: str | None = None) -> str:
    """The set-up, a histogram of the guess counts, the totals (and where the tree went)."""
    pool = f", pool {result.solver['pool']}" if "pool" in result.solver else ""
    lines = [f"solver {result.solver['solver']}{pool}, opener {result.opener or '(its own)'}, "
             f"{'hard' if result.hard else 'normal'} mode, {len(result.answers)} answers"]
    dist = result.distribution
    scale = max(dist.values()) or 1
    lines += [f"{key:>6} {count:>6}  {'#' * round(40 * count / scale)}"
              for key, count in dist.items()]
    weighted = (f", weighted average {result.weighted_average:.4f}"
                if result.prior != "uniform" else "")
    lines.append(f"total {result.total}, average {result.average:.4f}{weighted}, worst "
                 f"{result.worst}, fails {result.fails}, {result.seconds:.2f} s")
    return "\n".join(lines + ([f"tree: {tree}"] if tree else []))


@render.register
def _tree(report: TreeReport) -> str:
    """A checked tree: its totals, then its distribution."""
    r = report.to_json()
    return (f"valid {'hard' if r['hard'] else 'normal'}-mode tree: {r['answers']} answers, "
            f"total {r['total']}, average {r['average']:.4f}, worst {r['worst']}, fails "
            f"{r['fails']}, {r['nodes']} nodes\n"
            "distribution: " + ", ".join(f"{k}: {v}" for k, v in r["distribution"].items()))


@render.register
def _second(result: SecondGuesses) -> str:
    """One row per feedback of the opener (:func:`~.precompute.second_guesses`)."""
    rows, w = result.rows, len(result.opener) + 2
    lines = [f"{len(rows)} feedbacks of {result.opener}; next guess by {result.solver}",
             f"{'pattern':<{w}} {'left':>5}  {'guess':<{w}} {'entropy':>8} {'largest':>7}"]
    lines += [f"{r['pattern']:<{w}} {r['candidates']:>5}  {r['guess'] or '(solved)':<{w}} "
              f"{r['entropy']:>8.4f} {r['largest']:>7}" for r in rows]
    return "\n".join(lines)


@render.register
def _search(result: SearchResult, tree: str | None = None, least: bool | None = None) -> str:
    """One searched opener; with ``least`` (True: over every opener; False: from the
    opener) the least worst case first (:func:`~.worst.least_worst`); where the tree went."""
    r, hard = result, result.hard
    kind = "exact" if r.exact else f"beam {r.beam}" + (
        f"; the least total is at least {r.lower}" if r.lower is not None else "")
    line = (f"{r.opener}: total {r.total}, average {r.average:.4f}, worst {r.worst} "
            f"({kind}{', hard mode' if hard else ''}), {r.seconds:.1f} s, {r.nodes} "
            "nodes searched")
    if least is not None:
        where = "over every opener" if least else f"from {r.opener}"
        fewer = f"guesses (no tree within {r.worst - 1})" if r.worst > 1 else \
            "guess (the opener is the only answer)"
        line = (f"least worst case {where}{' (hard mode)' if hard else ''}: {r.worst} "
                f"{fewer}\nthe fewest total guesses within {r.worst}: {line}")
    if r.polish is not None:
        p = r.polish
        line += (f"\npolished: {p['subtrees']} subtrees of {p['min_size']}-{p['max_size']} "
                 f"answers searched exactly, {p['improved']} better ({p['before']} -> "
                 f"{p['after']}), {p['seconds']:.1f} s" + (
                     "; every subtree under the opener is optimal, so the total is exact (the "
                     "worst case is not minimised among such trees)" if p["exact"] else ""))
    return line + (f"\ntree: {tree}" if tree else "")


@render.register
def _opener_rows(rows: OpenerRows) -> str:
    """Searched openers, best first (:func:`~.search.rank_openers`)."""
    width = max((len(r["word"]) for r in rows.rows), default=0)
    return "\n".join(f"{r['word']:<{width + 2}} total {r['total']:>6}  average "
                     f"{r['average']:.4f}  worst {r['worst']}  "
                     f"{'exact' if r['exact'] else 'beam'}" for r in rows.rows)


def _worst(row) -> str:
    """A ranked row's worst case and the space after it; none when it was not minimised."""
    return "" if row["worst"] is None else f"worst {row['worst']}  "


@render.register
def _proof(result: OpenerProof) -> str:
    """The proven ranking, and how it was proven."""
    ranked = result.ranking()
    width = max((len(r["word"]) for r in ranked), default=0)
    lines = [f"{r['word']:<{width + 2}} total {r['total']:>6}  average "
             f"{r['total'] / result.answers:.4f}  {_worst(r)}exact" for r in ranked]
    if any(r["worst"] is None for r in ranked):
        lines.append("(totals only: a proof with the depth-three step does not minimise the "
                     "worst case; ties by guess order)")
    counts = result.counts()
    deep = f", {counts['deep']} by the depth-three bound" if counts["deep"] else ""
    how = (f"proven: {counts['openers']} openers, {counts['bound']} ruled out by the bound "
           f"alone{deep}, {counts['search']} searched; ")
    if not result.best():
        return how + "no opener solves every answer within the guesses allowed"
    lines.append(how + f"every other opener needs more than {result.ceiling}; best: "
                 f"{', '.join(result.best())}")
    return "\n".join(lines)


@render.register
def _proof_check(check: ProofCheck) -> str:
    """A checked proof (:func:`~.search.verify_proof`): the rows searched again, what was
    checked, each gap or disagreement (naming its row), then a verdict."""
    report = check.report
    exact = [c for c in report["checked"] if c["kind"] in ("best", "exact")]
    bounds = [c for c in report["checked"] if c["kind"] not in ("best", "exact")]
    lines = [f"{c['word']:<8} {c['kind']:<6} claimed {c['claimed']}, found {c['found']}: "
             f"{'ok' if c['ok'] else 'WRONG'}" for c in exact]
    lines.append(f"{report['rows']} rows for {report['openers']} openers; "
                 f"{len(bounds)} bounds recomputed against the threshold "
                 f"{report['threshold']}; the best and {report['sample']} exact rows drawn "
                 f"with seed {report['seed']} searched again" + (
                     f"; {report['taken']} of the bounds taken from the check's checkpoint, "
                     "not recomputed by this run" if report.get("taken") else ""))
    lines += [f"WRONG: {p}" for p in report["problems"]]
    lines.append("proof holds: best " + ", ".join(report["best"]) if report["ok"] else
                 f"proof fails: {len(report['problems'])} problem(s)")
    return "\n".join(lines)


@render.register
def _proof_state(state: ProofState) -> str:
    """A certificate's progress (:func:`~.search.proof_state`): the openers decided and
    how, the ceiling and the best, the openers left and the least bound among them."""
    r = state.report
    by, seconds = r["by"], r["seconds"]
    hours = sum(seconds.values()) / 3600
    lines = [f"{r['decided']:,} of {r['openers']:,} openers decided: {by['bound']:,} by the "
             f"depth-two bound ({seconds['bound']:,.0f} s), {by['deep']:,} by the depth-three "
             f"bound ({seconds['deep']:,.0f} s), {by['search']:,} searched "
             f"({seconds['search']:,.0f} s; {by['exact']:,} exact); {hours:,.1f} core-hours "
             "in the rows" + (f", {r['kept_seconds'] / 3600:,.1f} in bounds kept for the "
                              "openers left" if r["kept_seconds"] else "")]
    ceiling = ("no first ceiling in the file (its beams are not all there)"
               if r["ceiling"] is None else
               f"the first ceiling {r['ceiling']:,} (from {r['beams']} beams, the least "
               f"{r['least_beam'][0]} {r['least_beam'][1]:,}"
               + "".join(f"; a known tree, {w} {t:,}" for w, t in sorted(r["known"].items()))
               + ")")
    best = (f"the best exact row: {r['best'][0]} {r['best'][1]:,}" if r["best"]
            else "no exact row yet")
    lines.append(f"{ceiling}; {best}")
    if r["left"]:
        least = (f"the least bound among them: {r['least_left'][0]} {r['least_left'][1]:,} "
                 f"({r['bounded_left']:,} of them with a bound kept)" if r["least_left"]
                 else "no bound kept for any of them yet")
        searches, openers, cpu = r["kept_buckets"]
        buckets = (f"; {searches:,} bucket searches kept for {openers:,} of them"
                   + (f" ({cpu / 3600:,.1f} core-hours noted)" if cpu >= 360 else
                      f" ({cpu:,.0f} s noted)" if cpu else "") if searches else "")
        lines.append(f"{r['left']:,} openers left; {least}{buckets}")
        if r.get("rate"):
            lines.append(f"at the rows' rate, {r['rate']:,.1f} openers a core-hour, they need "
                         f"about {r['projected']:,.0f} core-hours more (a guide: the likeliest "
                         "out are decided first)")
    else:
        lines.append("every opener has a row: verify-ranking checks the file")
    lines += [f"problem: {p}" for p in r["problems"]]
    return "\n".join(lines)


def advice(advice, show: int, beam: int) -> str:
    """The assistant's advice: the candidates left (``show`` of them), then the answer or
    the best next guesses (``*`` marks a candidate) and the lookahead's pick."""
    head = ", ".join(advice.shown) + (" ..." if advice.left > len(advice.shown) else "")
    lines = [f"{advice.left} candidate(s) left" + (f": {head}" if show and advice.left else "")]
    if advice.answer is not None:
        return "\n".join(lines + [f"the answer is {advice.answer}"])
    lines.append("best next: " + ", ".join(
        f"{s.word}{'*' if s.word in advice.candidates else ''} ({s.entropy:.3f} bits, "
        f"largest {s.largest})" for s in advice.best))
    if advice.lookahead is not None:
        lines.append(f"lookahead (beam {beam}) plays: {advice.lookahead}")
    return "\n".join(lines)


def verdict(game, guesses: int) -> str:
    """``solved in N`` (and whether N is past the guesses the rules allow)."""
    limit = game.max_guesses
    past = limit is not None and guesses > limit
    return (f"solved, but past the {limit} allowed guesses, in {guesses}" if past
            else f"solved in {guesses}")
