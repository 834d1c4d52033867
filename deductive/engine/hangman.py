"""Hangman: word lists, strategies, whole-dictionary difficulty sweeps, and the assistant.

A word's difficulty is the number of wrong letters a strategy guesses before the word is
the only candidate left (the seed's measure). A sweep grows the strategy's decision tree
once over the whole list (see :mod:`deductive.kernels.hangman`) and reports, for every
word, the seed's tuple ``(wrong, guesses, word, letters)``.

Strategies (registry :data:`STRATEGIES`; ties always go to the earliest letter):

``min-miss``
    The seed's: the letter fewest candidates lack.
``max-hit``
    The letter most likely to be in the word under the prior (``min-miss`` when uniform).
``entropy``
    The letter whose split of the candidates by positions has the most entropy.
``best-lives``
    Maximise the probability of winning with L lives (a word is won with at most L - 1
    misses). Every letter is scored by a rollout: the weight won when it is followed by
    ``min-miss``, so it never wins less than ``min-miss``. Wherever a candidate set has at
    most ``exact_limit`` words (default 16) and the rollout would lose some of them, an
    exact memoised search over the partition tree with an upper bound takes over: there it
    is optimal.
``optimal``
    The most words (prior weight) won with L lives, by exact search over the whole list
    (:mod:`deductive.engine.hangman_exact`); once a word is lost it finishes with
    ``min-miss``, as with ``best-lives``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..errors import DeductiveError, UnknownNameError, WordListError

__all__ = ["HangmanWords", "load_hangman_words", "STRATEGIES", "PRIORS", "SweepResult",
           "Hangman", "LetterStats", "sweep_chunk", "sweep_tag"]

STRATEGIES = {
    "min-miss": "the letter fewest candidates lack (the seed's greedy)",
    "max-hit": "the letter most likely in the word under the prior",
    "entropy": "the letter whose position split has the most entropy",
    "best-lives": "maximise the chance to win with L lives (rollout, exact on small sets)",
    "optimal": "the most words won with L lives (exact search over the whole list)",
}
PRIORS = ("uniform", "frequency")
_CODES = {"min-miss": 0, "max-hit": 1, "entropy": 2, "best-lives": 3, "optimal": -1}
_LOWER = re.compile(r"[a-z]+")
MAX_LENGTH = 32


@dataclass(frozen=True)
class HangmanWords:
    """Distinct lowercase words of one length, in list order."""

    words: tuple
    name: str

    @property
    def length(self) -> int:
        return len(self.words[0]) if self.words else 0

    def __len__(self):
        return len(self.words)

    @property
    def codes(self) -> np.ndarray:
        flat = np.frombuffer("".join(self.words).encode("ascii"), dtype=np.uint8)
        return (flat.reshape(len(self.words), self.length) - ord("a")).astype(np.uint8)


def load_hangman_words(source, length="all"):
    """Word lists by length, as the seed filters them: lowercase a-z words only.

    Parameters
    ----------
    source : path, name or sequence of str
        A file with one word per line (``/usr/share/dict/web2``...), ``en`` or ``fr`` (the
        built-in secrets: of each length, the answer list of
        :func:`deductive.engine.words.builtin_words`, i.e. the 2,315 most frequent common
        dictionary words that are not inflections of a shorter word), or the words
        themselves. Lines that are not entirely lowercase a-z (capitalised proper nouns,
        apostrophes) are skipped, as the seed does; duplicates are dropped.
    length : int or "all"

    Returns
    -------
    dict
        Length -> :class:`HangmanWords`, ascending by length.
    """
    if length != "all":
        length = int(length)
        if not 1 <= length <= MAX_LENGTH:
            raise WordListError(f"length {length} is not supported; choose 1 to {MAX_LENGTH}")
    if isinstance(source, (str, os.PathLike)) and not os.path.exists(source) \
            and str(source) in ("en", "fr"):
        return _builtin_lists(str(source), length)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        try:
            # utf-8-sig: a byte-order mark is not part of the first word
            with open(path, encoding="utf-8-sig", errors="replace") as fh:
                raw = fh.read().splitlines()
        except FileNotFoundError:
            raise WordListError(f"{path}: no such file; give a word list (one word per line, "
                                "e.g. /usr/share/dict/web2) or en / fr") from None
        except IsADirectoryError:
            raise WordListError(f"{path}: is a directory; give a word-list file") from None
        except OSError as exc:
            raise WordListError(f"{path}: cannot be read ({exc.strerror})") from None
        name = path
    else:
        raw, name = list(source), "<list>"
    by_length: dict = {}
    seen = set()
    for line in raw:
        word = line.strip()
        if not _LOWER.fullmatch(word) or len(word) > MAX_LENGTH or word in seen:
            continue
        if length != "all" and len(word) != length:
            continue
        seen.add(word)
        by_length.setdefault(len(word), []).append(word)
    if not by_length:
        what = "" if length == "all" else f" of {length} letters"
        raise WordListError(f"{name}: no lowercase a-z words{what}; check the file and --length")
    return {n: HangmanWords(tuple(by_length[n]), f"{name}:{n}") for n in sorted(by_length)}


def _builtin_lists(lang, length):
    from .words import builtin_answers

    lengths = range(2, MAX_LENGTH + 1) if length == "all" else [length]
    out = {}
    for n in lengths:
        words = sorted(builtin_answers(lang, n))
        if words:
            out[n] = HangmanWords(tuple(words), f"{lang}:{n}")
    if not out:
        raise WordListError(f"the built-in list {lang} has no words of {length} letters; "
                            "choose another --length")
    return out


@dataclass
class SweepResult:
    """Per-word results of a sweep, in the seed's order: ascending (wrong, guesses, word).

    The arrays are aligned with that order; :attr:`results` spells them as the seed's
    tuples ``(wrong, guesses, word, letters)`` (built on first use).
    """

    wrong: np.ndarray       # misses of each word
    guesses: np.ndarray     # letters guessed for each word
    letters: np.ndarray     # uint8 [n, 26]: the letters, in order (0 = a)
    word_list: np.ndarray   # the words
    lives: int
    strategy: str
    seconds: float
    weights: np.ndarray     # prior weight of each word
    exact: object = None    # optimal: the ExactPlay (its tree and search statistics)

    @property
    def words(self) -> int:
        return len(self.wrong)

    def result(self, k: int) -> tuple:
        """The seed's tuple of the k-th word in order."""
        seq = (self.letters[k, :self.guesses[k]] + 97).tobytes().decode()
        return (int(self.wrong[k]), int(self.guesses[k]), str(self.word_list[k]), seq)

    @property
    def results(self) -> list:
        if getattr(self, "_results", None) is None:
            self._results = [self.result(k) for k in range(self.words)]
        return self._results

    @property
    def mean_misses(self) -> float:
        return float(self.wrong.mean()) if self.words else 0.0

    @property
    def wins(self) -> int:
        """Words solved with at most ``lives - 1`` misses."""
        return int((self.wrong < self.lives).sum())

    @property
    def win_rate(self) -> float:
        return self.wins / self.words if self.words else 0.0

    @property
    def weighted_win_rate(self) -> float:
        """Win probability under the prior."""
        w = self.weights
        return float(w[self.wrong < self.lives].sum() / w.sum()) if self.words else 0.0

    def as_dict(self, with_results: bool = True) -> dict:
        out = {"strategy": self.strategy, "lives": self.lives, "words": self.words,
               "mean_misses": round(self.mean_misses, 6), "win_rate": round(self.win_rate, 6),
               "weighted_win_rate": round(self.weighted_win_rate, 6), "wins": self.wins,
               "seconds": round(self.seconds, 4)}
        if with_results:
            out["results"] = [list(r) for r in self.results]
            out["weights"] = self.weights.tolist()
        return out

    @classmethod
    def from_dict(cls, doc: dict) -> "SweepResult":
        """The result :meth:`as_dict` (with results) describes, as a checkpoint holds it."""
        results = doc["results"]
        n = len(results)
        letters = np.zeros((n, 26), np.uint8)
        for k, (_, guesses, _, seq) in enumerate(results):
            letters[k, :guesses] = np.frombuffer(seq.encode(), np.uint8) - 97
        weights = doc.get("weights")
        return cls(np.array([r[0] for r in results], np.int64),
                   np.array([r[1] for r in results], np.int64), letters,
                   np.array([r[2] for r in results]), int(doc["lives"]), doc["strategy"],
                   float(doc["seconds"]),
                   np.ones(n) if weights is None else np.asarray(weights, np.float64))


@dataclass(frozen=True)
class LetterStats:
    """Statistics of one letter over a candidate set."""

    letter: str
    containing: int       # candidates that contain it
    hit_probability: float
    entropy: float        # bits, of the split by positions
    groups: int


class Hangman:
    """Hangman over one word list of one length.

    Parameters
    ----------
    words : HangmanWords or sequence of str
    prior : {"uniform", "frequency"}
        How the setter is assumed to choose words (``frequency``: wordfreq, ``lang``).

    Examples
    --------
    >>> game = Hangman("deed even eyes heel mere peep star".split())
    >>> game.sweep("min-miss").results[:3]
    [(0, 1, 'mere', 'e'), (0, 2, 'deed', 'ed'), (0, 2, 'even', 'en')]
    """

    def __init__(self, words, *, prior: str = "uniform", lang: str = "en"):
        from ..kernels.hangman import position_masks

        if not isinstance(words, HangmanWords):
            words = list(words)
            lengths = {len(w) for w in words}
            if len(lengths) != 1:
                raise WordListError("a Hangman game needs words of one length; "
                                    "split the list with load_hangman_words")
            lists = load_hangman_words(words, length=lengths.pop())
            words = next(iter(lists.values()))
        self.words = words
        if prior not in PRIORS:
            raise UnknownNameError(f"unknown prior {prior!r}; choose one of: {', '.join(PRIORS)}")
        self.prior = prior
        self.lang = lang
        self.masks, self.presence = position_masks(words.codes)
        self.word_array = np.array(words.words)
        if prior == "uniform":
            self.weights = np.ones(len(words))
        else:
            import wordfreq

            freq = np.array([wordfreq.word_frequency(w, lang) for w in words.words])
            floor = freq[freq > 0].min() if (freq > 0).any() else 1.0
            self.weights = np.maximum(freq, floor)
            self.weights *= len(freq) / self.weights.sum()

    # -- the sweep ----------------------------------------------------------------------
    def sweep(self, strategy: str = "min-miss", lives: int = 6, exact_limit: int = 16) -> SweepResult:
        """Play every word; return the seed's tuples, sorted ascending."""
        import time

        from ..kernels.hangman import sweep_tree

        code = _strategy_code(strategy)
        if lives < 1:
            raise DeductiveError(f"lives must be at least 1, not {lives}")
        n = len(self.words)
        start = time.perf_counter()
        if code < 0:
            play = self.exact().play(lives)
            order = np.lexsort((self.word_array, play.count, play.wrong))
            return SweepResult(play.wrong[order], play.count[order], play.letters[order],
                               self.word_array[order], lives, strategy,
                               time.perf_counter() - start, self.weights[order], play)
        wrong = np.zeros(n, np.int64)
        count = np.zeros(n, np.int64)
        letters = np.zeros((n, 26), np.uint8)
        deferred = np.zeros((max(n, 1), 4), np.int64)
        idx, n_deferred = sweep_tree(self.masks, self.presence, self.weights, code, lives,
                                     exact_limit, wrong, count, letters, deferred)
        if n_deferred:
            solver = _ExactSolver(self.masks, self.weights, lives)
            for a, b, guessed, misses in deferred[:n_deferred]:
                solver.play_out(tuple(int(w) for w in idx[a:b]), int(guessed), int(misses),
                                wrong, count, letters)
        order = np.lexsort((self.word_array, count, wrong))   # the seed's tuple order
        seconds = time.perf_counter() - start
        return SweepResult(wrong[order], count[order], letters[order], self.word_array[order],
                           lives, strategy, seconds, self.weights[order])

    def exact(self, memory: int | None = None):
        """The exact solver of this list (:class:`~deductive.engine.hangman_exact.ExactHangman`),
        made once and kept, so that sweeps with several lives share its memo."""
        from .hangman_exact import DEFAULT_MEMORY, ExactHangman

        if getattr(self, "_exact", None) is None or (memory and memory != self._exact.memory):
            self._exact = ExactHangman(self, memory=memory or DEFAULT_MEMORY)
        return self._exact

    # -- the assistant ------------------------------------------------------------------
    def candidates(self, pattern: str, wrong: str = "") -> list[int]:
        """Indices of the words that fit ``pattern`` (``_`` unknown) and avoid ``wrong``."""
        pattern = pattern.strip().lower().replace(".", "_").replace("-", "_")
        if len(pattern) != self.words.length:
            raise DeductiveError(f"pattern {pattern!r} has {len(pattern)} letters but the words "
                                 f"have {self.words.length}")
        bad = [ch for ch in pattern if ch != "_" and not "a" <= ch <= "z"]
        if bad:
            raise DeductiveError(f"pattern {pattern!r}: {bad[0]!r} is neither a letter nor _")
        wrong = wrong.lower()
        if any(not "a" <= ch <= "z" for ch in wrong):
            raise DeductiveError(f"--wrong {wrong!r}: give letters a-z only")
        both = set(wrong) & set(pattern)
        if both:
            raise DeductiveError(f"letter(s) {''.join(sorted(both))} are both in the pattern "
                                 "and among the wrong letters")
        ok = np.ones(len(self.words), dtype=bool)
        for c in set(pattern) - {"_"}:
            k = ord(c) - 97
            mask = sum(1 << i for i, ch in enumerate(pattern) if ch == c)
            ok &= self.masks[:, k] == mask
        for c in wrong:
            ok &= self.masks[:, ord(c) - 97] == 0
        return np.flatnonzero(ok).tolist()

    def letter_stats(self, candidates, guessed: str = "") -> list[LetterStats]:
        """Statistics of every unguessed letter over the candidates, best hit first."""
        from ..kernels.hangman import letter_counts, split_entropy

        idx = np.asarray(candidates, dtype=np.int64)
        counts, mass = letter_counts(self.presence, self.weights, idx, 0, len(idx))
        total = self.weights[idx].sum()
        stats = []
        for c in range(26):
            ch = chr(97 + c)
            if ch in guessed:
                continue
            groups = len(np.unique(self.masks[idx, c])) if len(idx) else 0
            stats.append(LetterStats(ch, int(counts[c]), float(mass[c] / total) if total else 0.0,
                                     float(split_entropy(self.masks, self.weights, idx, 0,
                                                         len(idx), c)), groups))
        return sorted(stats, key=lambda s: (-s.hit_probability, s.letter))

    def best_letter(self, candidates, guessed: str, strategy: str = "min-miss",
                    lives_left: int = 6) -> str:
        """The strategy's next letter for a candidate set."""
        from ..kernels import hangman as kh

        idx = np.asarray(candidates, dtype=np.int64).copy()
        guessed_bits = sum(1 << (ord(ch) - 97) for ch in set(guessed))
        code = _strategy_code(strategy)
        if code < 0:
            words = [self.words.words[k] for k in idx]
            sub = Hangman(words, prior=self.prior, lang=self.lang)
            return sub.exact().first_letter(lives_left)
        if code == kh.BEST_LIVES:
            if len(idx) <= 16:
                _, letter = _ExactSolver(self.masks, self.weights, lives_left).best(
                    tuple(int(w) for w in idx), lives_left)
                if letter >= 0:
                    return chr(97 + letter)
            letter, _ = kh.choose_rollout(self.masks, self.presence, self.weights, idx, 0,
                                          len(idx), guessed_bits, 0, lives_left)
        else:
            letter = kh.choose_greedy(self.masks, self.presence, self.weights, idx, 0,
                                      len(idx), guessed_bits, code)
        return chr(97 + letter)


def _strategy_code(name: str) -> int:
    try:
        return _CODES[name]
    except KeyError:
        raise UnknownNameError(
            f"unknown strategy {name!r}; choose one of: "
            + "; ".join(f"{k} ({v})" for k, v in STRATEGIES.items())
        ) from None


class _ExactSolver:
    """Exact maximum of the weight won on small candidate sets, memoised.

    ``best(S, lives)`` is the most weight of S a player can win when ``lives`` more misses
    lose: only letters that split S (or that every word of S has) are worth trying, so the
    state is the set and the lives left. Letters are tried in order of fewest misses and
    cut off when even winning every word they could cannot beat the best so far.
    """

    def __init__(self, masks, weights, lives):
        self.masks = masks
        self.weights = weights
        self.lives = lives
        self.best = lru_cache(maxsize=None)(self._best)

    def _groups(self, words, c):
        groups: dict = {}
        for w in words:
            groups.setdefault(int(self.masks[w, c]), []).append(w)
        return groups

    def _best(self, words, lives):
        """(weight won, letter) for a tuple of word indices and the lives left."""
        total = float(sum(self.weights[w] for w in words))
        if lives <= 0:
            return 0.0, -1
        if len(words) == 1:
            return total, -1
        options = []
        for c in range(26):
            groups = self._groups(words, c)
            miss = groups.get(0, [])
            if len(groups) == 1 and miss:
                continue        # nobody has it: a wasted life
            if len(groups) == 1:
                continue        # everybody has it at the same places: no information
            miss_weight = float(sum(self.weights[w] for w in miss))
            options.append((miss_weight, c, groups))
        options.sort(key=lambda item: (item[0], item[1]))
        best_value, best_letter = -1.0, -1
        for miss_weight, c, groups in options:
            bound = total - miss_weight if lives == 1 else total
            if bound <= best_value:
                continue
            value = 0.0
            for key, group in groups.items():
                value += self.best(tuple(group), lives - (1 if key == 0 else 0))[0]
            if value > best_value:
                best_value, best_letter = value, c
                if best_value >= total:
                    break
        return best_value, best_letter

    def play_out(self, words, guessed, misses, wrong, count, letters):
        """Follow the exact policy from a node; record each word's misses and letters.

        Once no word can be won any more, the seed's ``min-miss`` finishes the words (for
        their difficulty tuples).
        """
        stack = [(words, guessed, misses)]
        while stack:
            group, g, m = stack.pop()
            if len(group) == 1:
                continue
            letter = -1
            if m < self.lives:
                value, letter = self.best(group, self.lives - m)
                if value <= 0:
                    letter = -1
            if letter < 0:
                letter = self._min_miss(group, g)
            for key, sub in self._groups(group, letter).items():
                for w in sub:
                    letters[w, count[w]] = letter
                    count[w] += 1
                    wrong[w] += key == 0
                stack.append((tuple(sub), g | (1 << letter), m + (key == 0)))

    def _min_miss(self, words, guessed):
        best, best_count = -1, -1
        for c in range(26):
            if (guessed >> c) & 1:
                continue
            n = sum(1 for w in words if self.masks[w, c])
            if n > best_count:
                best, best_count = c, n
        return best


def sweep_tag(lists, strategy, lives_list, prior, lang, exact_limit) -> dict:
    """The checkpoint tag of a sweep: its settings and the SHA-256 of its word lists (one
    entry per length, holding every number of lives swept)."""
    import hashlib

    text = "\n".join(w for n in sorted(lists) for w in lists[n].words)
    return {"hangman": strategy, "lives": list(lives_list), "prior": prior, "lang": lang,
            "exact_limit": exact_limit, "words": hashlib.sha256(text.encode()).hexdigest()}


def sweep_chunk(words, strategy, lives_list, prior="uniform", lang="en", exact_limit=16,
                memory=None) -> dict:
    """Sweeps of one word list for every number of lives of ``lives_list`` (one game, so
    that ``optimal`` searches share their memo), as JSON-ready dicts keyed by the lives:
    the piece a checkpoint stores and a Dask task returns."""
    game = Hangman(words, prior=prior, lang=lang)
    if strategy == "optimal" and memory:
        game.exact(memory)
    return {str(lives): game.sweep(strategy, lives=lives, exact_limit=exact_limit).as_dict()
            for lives in lives_list}
