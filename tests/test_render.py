"""One way to show a result (:mod:`deductive.engine.render`): every typed result a command
shows has its text registered by its game's text module and a ``to_json``; the old
``as_dict`` answers on every result that had it, with a warning."""

import importlib

import pytest

import deductive.engine.feedback
import deductive.engine.hangman
import deductive.engine.mastermind
import deductive.engine.minesweeper
import deductive.engine.wordle  # noqa: F401  (each package registers its wing's text forms)
from deductive._deprecated import OldAsDict
from deductive.engine.render import Result, render

#: Every type a command hands to ``show``: module, name.
SHOWN = [
    ("deductive.engine.feedback.scoring", "Ranking"),
    ("deductive.engine.feedback.bench", "BenchResult"),
    ("deductive.engine.feedback.tree", "TreeReport"),
    ("deductive.engine.feedback.search", "SearchResult"),
    ("deductive.engine.feedback.search", "OpenerRows"),
    ("deductive.engine.feedback.search", "OpenerProof"),
    ("deductive.engine.feedback.search", "ProofCheck"),
    ("deductive.engine.feedback.search", "ProofState"),
    ("deductive.engine.feedback.precompute", "SecondGuesses"),
    ("deductive.engine.wordle.patterns", "MatrixInfo"),
    ("deductive.engine.wordle.multi", "MultiResult"),
    ("deductive.engine.wordle.absurdle", "AbsurdleResult"),
    ("deductive.engine.mastermind", "PegRanking"),
    ("deductive.engine.mastermind", "TreeStats"),
    ("deductive.engine.hangman", "SolveReport"),
    ("deductive.engine.hangman", "EvilReport"),
    ("deductive.engine.hangman", "TreeReport"),
    ("deductive.engine.hangman", "SweepReport"),
    ("deductive.engine.minesweeper.analysis", "Analysis"),
    ("deductive.engine.minesweeper.analysis", "Deductions"),
    ("deductive.engine.minesweeper.bench", "BenchResult"),
    ("deductive.engine.minesweeper.bench", "ProtocolTable"),
    ("deductive.engine.minesweeper.compare", "Comparison"),
    ("deductive.engine.minesweeper.generate", "GenerateResult"),
    ("deductive.cache", "CacheSummary"),
    ("deductive.engine.words", "ListTable"),
]


@pytest.mark.parametrize("module, name", SHOWN, ids=lambda x: x.rsplit(".", 1)[-1])
def test_every_shown_result_has_its_text_and_json(module, name):
    cls = getattr(importlib.import_module(module), name)
    assert render.dispatch(cls) is not render.dispatch(object), f"{name}: no text registered"
    assert callable(getattr(cls, "to_json", None)), f"{name}: no to_json"
    assert issubclass(cls, Result)


def test_the_commands_show_only_listed_types():
    """A registered type the list above misses is a result nobody checked."""
    listed = {getattr(importlib.import_module(m), n) for m, n in SHOWN}
    registered = {t for t in render.registry if t is not object}
    assert registered == listed


def test_an_unregistered_result_names_the_fix():
    with pytest.raises(TypeError, match=r"no text form for int: register one in its game's "
                                        r"text module \(engine/<game>/text.py\)"):
        render(3)


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


@pytest.mark.parametrize("cls", sorted(set(_subclasses(OldAsDict)),
                                       key=lambda c: (c.__name__, c.__module__)),
                         ids=lambda c: f"{c.__module__.rsplit('.', 1)[-1]}.{c.__name__}")
def test_every_old_as_dict_is_to_json_with_a_warning(cls):
    assert "to_json" in {n for k in cls.__mro__ if k is not object for n in vars(k)}
    assert "as_dict" not in vars(cls), f"{cls.__name__} defines as_dict itself"

    class Probe(cls):                           # as_dict forwards its arguments to to_json
        def __init__(self):
            pass

        def to_json(self, *args, **kwargs):
            return ("json", args, kwargs)

    with pytest.warns(DeprecationWarning, match=rf"{Probe.__name__}.as_dict\(\) is deprecated"):
        assert Probe().as_dict(1, show=2) == ("json", (1,), {"show": 2})
