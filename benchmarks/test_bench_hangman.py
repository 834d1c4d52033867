"""Hangman benchmarks: the original programs' min-miss sweep (kernel vs their plain Python),
all lengths of a 300,000-word list, and best-lives against min-miss on web2's six-letter words.

(``..._seed_python`` keeps its name: the saved baselines compare by it.)"""

import os

import pytest

from deductive.engine.hangman import Hangman, load_hangman_words
from tests import reference

WEB2 = "/usr/share/dict/web2"


@pytest.fixture(scope="module")
def web2_six():
    if not os.path.exists(WEB2):
        pytest.skip("/usr/share/dict/web2 is absent (Debian package miscfiles)")
    game = Hangman(load_hangman_words(WEB2, 6)[6])
    game.sweep("min-miss")   # warm the kernels
    return game


def test_min_miss_sweep_web2_six(benchmark, web2_six):
    result = benchmark.pedantic(web2_six.sweep, ("min-miss",), rounds=15, warmup_rounds=2)
    assert result.words == 15066


def test_min_miss_sweep_web2_six_seed_python(benchmark, web2_six):
    words = list(web2_six.words.words)
    result = benchmark.pedantic(lambda: sorted(reference.hangman_min_miss(words)), rounds=3)
    assert len(result) == 15066


@pytest.mark.parametrize("strategy", ["best-lives", "entropy"])
def test_other_strategies_web2_six(benchmark, web2_six, strategy):
    result = benchmark.pedantic(web2_six.sweep, (strategy,), rounds=1, warmup_rounds=1)
    assert result.words == 15066


@pytest.fixture(scope="module")
def big_list(tmp_path_factory):
    """300,000 distinct lowercase words: web2's, then wordfreq English words."""
    if not os.path.exists(WEB2):
        pytest.skip("/usr/share/dict/web2 is absent (Debian package miscfiles)")
    import wordfreq

    seen, words = set(), []
    with open(WEB2) as fh:
        for line in fh:
            w = line.strip()
            if w.isascii() and w.isalpha() and w.islower() and w not in seen:
                seen.add(w)
                words.append(w)
    for w in wordfreq.iter_wordlist("en", wordlist="large"):
        if len(words) >= 300_000:
            break
        if w.isascii() and w.isalpha() and w.islower() and len(w) <= 32 and w not in seen:
            seen.add(w)
            words.append(w)
    path = tmp_path_factory.mktemp("hangman") / "words-300k.txt"
    path.write_text("\n".join(words) + "\n")
    return path


def test_length_all_300k(benchmark, big_list):
    def sweep_all():
        lists = load_hangman_words(big_list, "all")
        return sum(Hangman(words).sweep("min-miss").words for words in lists.values())

    assert benchmark.pedantic(sweep_all, rounds=3, warmup_rounds=1) == 300_000
