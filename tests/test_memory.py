"""Memory budgets: the machine's available memory, capped by a cgroup limit."""

import sys

import pytest

from deductive.engine import _memory
from deductive.engine.words import frequency_languages, word_frequencies
from deductive.errors import ArgumentError


def _files(tmp_path, limit, usage):
    lim, use = tmp_path / "memory.max", tmp_path / "memory.current"
    lim.write_text(limit)
    use.write_text(usage)
    return ((str(lim), str(use)),)


def test_cgroup_limit_less_usage(tmp_path):
    assert _memory.cgroup_memory_left(_files(tmp_path, "1000000\n", "250000\n")) == 750_000
    assert _memory.cgroup_memory_left(_files(tmp_path, "100\n", "250\n")) == 0


@pytest.mark.parametrize("limit", ["max\n", str(1 << 62), "garbage"])
def test_no_cgroup_limit(tmp_path, limit):
    assert _memory.cgroup_memory_left(_files(tmp_path, limit, "5")) is None
    assert _memory.cgroup_memory_left((("/nonexistent/a", "/nonexistent/b"),)) is None


def test_available_memory_takes_the_lower_of_machine_and_cgroup(monkeypatch):
    monkeypatch.setattr(_memory, "_meminfo_available", lambda: 8 << 30)
    monkeypatch.setattr(_memory, "cgroup_memory_left", lambda: 1 << 30)
    assert _memory.available_memory() == 1 << 30
    monkeypatch.setattr(_memory, "cgroup_memory_left", lambda: None)
    assert _memory.available_memory() == 8 << 30
    monkeypatch.setattr(_memory, "_meminfo_available", lambda: None)
    assert _memory.available_memory() is None


def test_frequencies_without_wordfreq_name_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "wordfreq", None)      # import wordfreq fails
    with pytest.raises(ArgumentError, match=r"pip install 'deductive\[freq\]'"):
        word_frequencies(["crane"], "en")
    with pytest.raises(ArgumentError, match="wordfreq"):
        frequency_languages()


def test_frequencies_with_wordfreq():
    pytest.importorskip("wordfreq")
    freq = word_frequencies(["the", "crane", "qxzvj"], "en")
    assert freq[0] > freq[1] > 0 == freq[2]
    assert "en" in frequency_languages()
