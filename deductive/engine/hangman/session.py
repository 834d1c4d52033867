"""Hangman positions and games as engine objects that return data: the assistant
(:func:`solve`), a game against a secret word or an adversary (:class:`HangmanSession`),
the adversary's value (:func:`evil`) and the check of a strategy tree (:func:`tree_check`).
The command line only reads input and prints what these return."""

from __future__ import annotations

import os
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...errors import DeductiveError
from ..params import Param
from ..._deprecated import OldAsDict
from ..words import fold_word
from .exact import ExactHangman, ExactPlay
from .game import LANG, PRIOR, Hangman
from .strategies import LIVES, MEMORY, STRATEGIES, STRATEGY
from .trees import TreeCheck, check_tree, load_tree, tree_document, words_sha256
from .words import WordSource, load_hangman_words

__all__ = ["HangmanSession", "solve", "advise", "SolveReport", "evil", "evil_report",
           "EvilReport", "optimal_report", "OptimalReport", "tree_check", "check_strategy",
           "TreeReport"]

#: How a strategy plays (:func:`solve`, :class:`HangmanSession`).
PLAY = (STRATEGY, LIVES, PRIOR, LANG)
#: :func:`solve`'s parameters, and how many candidates to show.
SOLVE = (Param("wrong", "", "Letters already guessed that are not in the word.",
               show_default=False), PLAY)
#: :class:`HangmanSession`'s parameters (and the word list's ``length``).
SESSION = (
    Param("length", 6, type=int, low=2, high=32), PLAY,
    Param("word", None, "The secret word (default: drawn with `seed`)."),
    Param("seed", None, "Seed of the draw (default: random).", int, low=0),
    Param("auto", False, "Let the strategy play and show each step.", bool),
    Param("evil", False, "Play against an adversary who picks no word and answers each guess to "
          "leave you the most misses it can force (exact minimax).", bool))
#: :func:`evil`'s parameters, where to write its tree and how many words to show.
EVIL = (Param("length", None, "Word length.", int, 1, 32, required=True),
        Param("tree", None, "Write the guesser's minimax strategy as a JSON tree.", kind="output"),
        Param("top", 10, "How many of the words the adversary can hold to the end to print.",
              int, low=0), MEMORY)
#: :func:`tree_check`'s ``lives``.
CHECK_LIVES = LIVES.but(default=None, help="Count wins with these lives (default: the tree's).")


@dataclass(frozen=True)
class SolveReport(OldAsDict):
    """The assistant's answer for one position."""

    pattern: str
    wrong: str
    candidates: list        # the words that fit, in list order
    best: str | None        # the strategy's letter (None: one word is left)
    strategy: str
    lives_left: int
    letters: list           # LetterStats of the letters some candidate has, best hit first

    def to_json(self, show: int = 12) -> dict:
        """The JSON form (``--json``): the first ``show`` candidates and every letter's
        statistics."""
        return {"pattern": self.pattern, "wrong": self.wrong,
                "candidates": len(self.candidates), "words": self.candidates[:show],
                "best": self.best, "strategy": self.strategy,
                "letters": [s.to_json() for s in self.letters]}


def solve(source: WordSource, pattern: str, wrong: str = "", *, strategy: str = "min-miss",
          lives: int = 6, prior: str = "uniform", lang: str = "en") -> SolveReport:
    """The best next letter for ``pattern`` (``_`` unknown) and the ``wrong`` letters, over
    the words of ``source`` (see :func:`load_hangman_words`) of the pattern's length."""
    STRATEGIES[strategy]                # a bad name fails before the list is read
    lists = load_hangman_words(source, len(fold_word(pattern)))
    game = Hangman(next(iter(lists.values())), prior=prior, lang=lang)
    return advise(game, pattern, wrong, strategy=strategy, lives=lives, source=source)


def advise(game: Hangman, pattern: str, wrong: str = "", *, strategy: str = "min-miss",
           lives: int = 6, source: object = None) -> SolveReport:
    """The best next letter for ``pattern`` (``_`` unknown) and the ``wrong`` letters over
    the words of ``game`` (``source``: how errors name the list, default its name)."""
    STRATEGIES[strategy]
    pattern, wrong = fold_word(pattern), fold_word(wrong)    # as word lists are folded
    if any(not "a" <= ch <= "z" for ch in wrong):
        raise DeductiveError(f"`wrong` {wrong!r}: give letters a-z only")
    cands = game.candidates(pattern, wrong)
    if not cands:
        raise DeductiveError(f"no word of {source or game.words.name} fits {pattern} without "
                             f"{wrong or 'any wrong letter'}; check the pattern and the letters")
    guessed = wrong + "".join(ch for ch in pattern if ch.isalpha())
    lives_left = lives - len(set(wrong))
    if lives_left < 1:
        raise DeductiveError(f"{len(set(wrong))} wrong letters with {lives} lives: the game "
                             "is already lost")
    stats = [s for s in game.letter_stats(cands, guessed) if s.containing]
    best = None if len(cands) == 1 else game.best_letter(cands, guessed, strategy, lives_left)
    return SolveReport(pattern, wrong, [game.words.words[k] for k in cands], best, strategy,
                       lives_left, stats)


class HangmanSession:
    """One game of Hangman: a secret word (given, or drawn with ``seed``), or with
    ``evil`` an adversary who picks no word and answers each guess to leave the guesser
    the most misses it can force (exact minimax; ties to the larger group, then a miss,
    then the leftmost positions).

    Every method returns what happened; nothing is printed.

    Examples
    --------
    >>> session = HangmanSession(Hangman("baker maker taker bloke".split()), word="maker")
    >>> session.answer("e"), session.status()
    ((None, False), '_ _ _ e _   wrong: -   lives: 6   candidates: 3')
    """

    def __init__(self, game: Hangman, *, strategy: str = "min-miss", lives: int = 6,
                 word: str | None = None, seed: int | None = None, evil: bool = False):
        STRATEGIES[strategy]
        self.game, self.strategy, self.lives, self.evil = game, strategy, lives, evil
        words = game.words.words
        self.exact = None
        if evil:
            if word is not None:
                raise DeductiveError("`evil`: the adversary picks no word in advance; "
                                     "drop `word`")
            self.exact = ExactHangman(game, uniform=True)
            word = words[0]
        elif word is None:
            word = words[np.random.default_rng(seed).integers(len(words))]
        elif word not in set(words):
            source = game.words.name.rsplit(":", 1)[0]     # the list's, not the length's
            raise DeductiveError(f"`word` {word!r} is not in the list {source} of "
                                 f"{game.words.length}-letter words")
        self.word = word
        self.shown = ["_"] * game.words.length
        self.wrong = ""
        self._update()

    def _update(self):
        self.pattern = "".join(self.shown)
        self.candidates = self.game.candidates(self.pattern, self.wrong)
        self.guessed = self.wrong + "".join(set(self.pattern) - {"_"})

    def intro(self) -> str:
        return (f"{len(self.game.words)} words of {self.game.words.length} letters; "
                f"{self.lives} lives")

    def status(self) -> str:
        return (f"{' '.join(self.shown)}   wrong: {self.wrong or '-'}   lives: "
                f"{self.lives - len(self.wrong)}   candidates: {len(self.candidates)}")

    def outcome(self) -> str | None:
        """How the game ended (won, lost), or None while it goes on."""
        if "_" not in self.shown or len(self.candidates) == 1:
            return f"won: {self.word} with {len(self.wrong)} miss(es)"
        if len(self.wrong) < self.lives:
            return None
        if not self.evil:
            return f"lost: the word was {self.word}"
        left = ", ".join(self.game.words.words[k] for k in self.candidates[:5])
        return (f"lost: the adversary could still answer {left}"
                + (" ..." if len(self.candidates) > 5 else ""))

    def hint(self) -> str:
        """The strategy's next letter."""
        return self.game.best_letter(self.candidates, self.guessed, self.strategy,
                                     self.lives - len(self.wrong))

    def answer(self, line: str) -> tuple:
        """Play one typed line (a letter, ``hint``, ``quit``; empty: end of input):
        ``(message or None, finished)``."""
        if not line or line.strip().lower() in ("quit", "q"):
            return f"stopped: the word was {self.word}", True
        letter = line.strip().lower()
        if letter == "hint":
            return f"hint ({self.strategy}): {self.hint()}", False
        if len(letter) != 1 or not "a" <= letter <= "z":
            return "type one letter a-z, 'hint' or 'quit'", False
        if letter in self.guessed:
            return f"{letter} was already guessed", False
        self.guess(letter)
        return None, False

    def run(self, read: Callable[[], str], auto: bool = False) -> Iterator[str]:
        """The whole game as the lines to show: the letters come from ``read()`` (a typed
        line, as :meth:`answer` takes it), or from the strategy with ``auto``."""
        yield self.intro()
        while True:
            yield self.status()
            message, done = self.outcome(), True
            if message is None:
                message, done = (self.auto(), False) if auto else self.answer(read())
            if message is not None:
                yield message
            if done:
                return

    def auto(self) -> str:
        """Let the strategy guess; what it guessed."""
        letter = self.hint()
        self.guess(letter)
        return f"{self.strategy} guesses {letter}"

    def guess(self, letter: str) -> bool:
        """Guess ``letter``; whether the word has it."""
        if self.evil:
            self.word = self._evil_answer(letter)
        hit = letter in self.word
        if hit:
            self.shown = [ch if ch == letter else s for ch, s in zip(self.word, self.shown)]
        else:
            self.wrong += letter
        self._update()
        return hit

    def _evil_answer(self, letter):
        """A word of the group of candidates (by the positions of ``letter``) that leaves
        the guesser the most misses it can force."""
        groups: dict = {}
        for k in self.candidates:
            w = self.game.words.words[k]
            groups.setdefault(tuple(i for i, ch in enumerate(w) if ch == letter), []).append(k)
        best, best_key = None, None
        for positions, group in groups.items():
            pattern = "".join(letter if i in positions else ch
                              for i, ch in enumerate(self.pattern))
            wrong = self.wrong if positions else self.wrong + letter
            value = self.exact.evil_state(group, pattern, wrong) + (not positions)
            key = (value, len(group), not positions, [-i for i in positions])
            if best_key is None or key > best_key:
                best, best_key = group, key
        return self.game.words.words[best[0]]


class _StrategyReport(OldAsDict, ABC):
    """What the reports of a strategy played over a whole list share: its tree and JSON.
    A subclass names its ``strategy`` (the tree's label) and holds these fields."""

    strategy: ClassVar[str]
    name: str
    play: ExactPlay
    word_list: tuple

    def tree(self) -> dict:
        """The strategy as a JSON tree (:func:`tree_document`)."""
        return tree_document(self.play, self.word_list, strategy=self.strategy, source=self.name)

    @abstractmethod
    def to_json(self) -> dict:
        """The JSON form (``--json``): the report's own fields."""


@dataclass(frozen=True)
class EvilReport(_StrategyReport):
    """The adversary's value of one list: the misses a guesser cannot avoid; its
    :meth:`tree` is the guesser's minimax strategy."""

    strategy: ClassVar[str] = "evil"

    name: str
    words: int
    length: int
    misses: int
    held: list              # the words the adversary can keep to the end, sorted
    seconds: float
    search: dict
    play: ExactPlay         # the guesser's minimax strategy
    word_list: tuple

    def to_json(self) -> dict:
        return {"words": self.words, "length": self.length, "misses": self.misses,
                "lives_to_win": self.misses + 1, "held": self.held,
                "seconds": round(self.seconds, 3), "search": self.search}


def evil(source: WordSource, length: int, *, memory: int | None = None) -> EvilReport:
    """Evil Hangman on the words of ``source`` of ``length`` letters, by minimax search
    (``memory``: the memo's budget in bytes)."""
    return evil_report(Hangman(load_hangman_words(source, length)[length]), memory=memory)


def evil_report(game: Hangman, *, memory: int | None = None) -> EvilReport:
    """Evil Hangman on the words of ``game``, by minimax search (``memory``: the memo's
    budget in bytes)."""
    words = game.words
    start = time.perf_counter()
    exact = game.exact(memory)
    value = exact.evil_misses()
    play = exact.evil_play()
    seconds = time.perf_counter() - start
    held = sorted(words.words[k] for k in range(len(words)) if play.wrong[k] == value)
    return EvilReport(words.name, len(words), words.length, value, held, seconds, exact.stats,
                      play, words.words)


@dataclass(frozen=True)
class OptimalReport(_StrategyReport):
    """The optimal strategy of one list with ``lives`` lives: the most words (prior weight)
    any strategy wins, found by exact search (:meth:`ExactHangman.play`), and its tree."""

    strategy: ClassVar[str] = "optimal"

    name: str
    words: int
    length: int
    lives: int
    wins: int               # words won
    value: int              # weight won (words, under a uniform prior)
    seconds: float
    play: ExactPlay
    word_list: tuple

    def to_json(self) -> dict:
        return {"words": self.words, "length": self.length, "lives": self.lives,
                "wins": self.wins, "value": self.value,
                "win_rate": round(self.wins / self.words, 6) if self.words else 0.0,
                "seconds": round(self.seconds, 3), "search": self.play.stats}


def optimal_report(game: Hangman, lives: int = 6, *,
                   memory: int | None = None) -> OptimalReport:
    """The optimal strategy of ``game`` with ``lives`` lives, by exact search (``memory``:
    the memo's budget in bytes)."""
    start = time.perf_counter()
    play = game.exact(memory).play(lives)
    words = game.words
    return OptimalReport(words.name, len(words), words.length, play.lives,
                         int((play.wrong < play.lives).sum()), play.value,
                         time.perf_counter() - start, play, words.words)


@dataclass(frozen=True)
class TreeReport(OldAsDict):
    """A strategy tree replayed against a list (:func:`tree_check`)."""

    path: str
    length: int
    check: TreeCheck
    same_list: bool         # the tree was made for this very list

    def to_json(self) -> dict:
        c = self.check
        return {"ok": c.ok, "words": c.words, "wins": c.wins, "lives": c.lives,
                "claimed_wins": c.claimed_wins, "max_misses": c.max_misses,
                "same_list": self.same_list, "errors": c.errors}


def tree_check(path: str | os.PathLike[str], source: WordSource,
               lives: int | None = None) -> TreeReport:
    """Replay every word of ``source`` (of the tree's length) against the tree in ``path``."""
    tree = load_tree(path)
    length = tree.get("length") if isinstance(tree, dict) else None
    if not isinstance(length, int):
        raise DeductiveError(f"{path}: not a deductive Hangman tree (no length); write one "
                             "with `deductive hangman sweep --strategy optimal --tree FILE`")
    words = load_hangman_words(source, length)[length]
    return check_strategy(Hangman(words), tree, lives, path=str(path))


def check_strategy(game: Hangman, tree: dict, lives: int | None = None, *,
                   path: str = "the tree") -> TreeReport:
    """Replay every word of ``game`` against the strategy tree ``tree`` (a dict, as
    :func:`tree_document` makes it); ``path`` names it in the report."""
    length = tree.get("length") if isinstance(tree, dict) else None
    if length != game.words.length:
        raise DeductiveError(f"{path} is not a tree of {game.words.length}-letter words "
                             f"(length {length}); give a tree made for this list")
    words = game.words.words
    return TreeReport(path, game.words.length, check_tree(tree, words, lives),
                      tree.get("words_sha256") == words_sha256(words))
