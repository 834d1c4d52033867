"""The result of a Hangman sweep: every word's misses, guesses and letters."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from ..._deprecated import OldAsDict

__all__ = ["SweepResult"]


@dataclass
class SweepResult(OldAsDict):
    """Per-word results of a sweep, in the original programs' order: ascending
    (wrong, guesses, word).

    The arrays are aligned with that order; :attr:`results` spells them as the original
    programs' tuples ``(wrong, guesses, word, letters)`` (built on first use).
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

    @classmethod
    def ordered(cls, wrong: np.ndarray, count: np.ndarray, letters: np.ndarray,
                word_array: np.ndarray, weights: np.ndarray, lives: int, strategy: str,
                seconds: float, exact: object = None) -> "SweepResult":
        """The result of per-word arrays in list order, sorted into the tuple order."""
        order = np.lexsort((word_array, count, wrong))
        return cls(wrong[order], count[order], letters[order], word_array[order], lives,
                   strategy, seconds, weights[order], exact)

    @property
    def words(self) -> int:
        return len(self.wrong)

    def result(self, k: int) -> tuple:
        """The tuple ``(wrong, guesses, word, letters)`` of the k-th word in order."""
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

    def to_json(self, with_results: bool = True) -> dict:
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
        """The result :meth:`to_json` (with results) describes, as a checkpoint holds it."""
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
