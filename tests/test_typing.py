"""The public API is typed: every public function and method reachable from the facades'
``__all__`` (:mod:`deductive.wordle`, ``mastermind``, ``bulls``, ``hangman``,
``minesweeper``) and from the engine packages' ``__all__`` has complete annotations (every
parameter and the return), and the results the facades export read as JSON
(``to_json()``). The check reads signatures, as a type checker's users see them; mypy
(``pyproject.toml``) checks that the annotations hold.
"""

import dataclasses
import importlib
import inspect
from pathlib import Path

import pytest

import deductive

PACKAGE = Path(deductive.__file__).parent
FACADES = ["deductive.wordle", "deductive.mastermind", "deductive.bulls", "deductive.hangman",
           "deductive.minesweeper"]
ENGINE = ["deductive.engine.feedback", "deductive.engine.wordle", "deductive.engine.hangman",
          "deductive.engine.words", "deductive.engine.render",
          "deductive.engine.mastermind", "deductive.engine.minesweeper"]

#: The result types the facades' verbs return.
RESULTS = {
    "deductive.wordle": ["Advice", "Entry", "GuessScore", "BenchResult", "SearchResult",
                         "TreeReport"],
    "deductive.hangman": ["SolveReport", "LetterStats", "SweepResult", "OptimalReport",
                          "EvilReport", "TreeReport"],
    "deductive.minesweeper": ["Minesweeper", "Analysis", "Move", "BenchResult", "Comparison",
                              "Step"],
}


def _ours(fn) -> bool:
    code = getattr(fn, "__code__", None)      # a dataclass's generated methods have none here
    return code is not None and Path(code.co_filename).is_relative_to(PACKAGE)


def _missing(fn, method: bool) -> list[str]:
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    if method and params and params[0].name in ("self", "cls"):
        params = params[1:]
    out = [p.name for p in params if p.annotation is inspect.Parameter.empty]
    if fn.__name__ != "__init__" and sig.return_annotation is inspect.Signature.empty:
        out.append("return")
    return out


def _public_functions():
    """``(file:qualified name, function, is a method)`` of everything the modules export."""
    seen = {}
    for name in FACADES + ENGINE:
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if inspect.isclass(obj):
                members = [(k, v) for k, v in vars(obj).items()
                           if not k.startswith("_") or k == "__init__"]
                for _, member in members:
                    if isinstance(member, (staticmethod, classmethod)):
                        member = member.__func__
                    if isinstance(member, property):
                        member = member.fget
                    if inspect.isfunction(member):
                        yield from _entry(member, True, seen)
            elif inspect.isfunction(obj):
                yield from _entry(obj, False, seen)


def _entry(fn, method, seen):
    fn = inspect.unwrap(fn)
    if not _ours(fn):
        return
    key = f"{Path(fn.__code__.co_filename).relative_to(PACKAGE.parent).as_posix()}:" \
          f"{fn.__qualname__}"
    if key not in seen:
        seen[key] = True
        yield key, fn, method


def test_every_public_function_is_annotated():
    found = {key: _missing(fn, method) for key, fn, method in _public_functions()}
    missing = sorted(f"{key} (no hint for: {', '.join(gaps)})"
                     for key, gaps in found.items() if gaps)
    assert not missing, "public functions without complete type hints:\n" + "\n".join(missing)


def test_the_walk_sees_the_facades_and_the_engine():
    keys = {key for key, _, _ in _public_functions()}
    for expected in ("deductive/wordle.py:search", "deductive/hangman.py:evil",
                     "deductive/engine/feedback/facade.py:bench",
                     "deductive/engine/minesweeper/game.py:Minesweeper.bench",
                     "deductive/engine/feedback/game.py:FeedbackGame.best_guesses"):
        assert expected in keys


@pytest.mark.parametrize("module", sorted(RESULTS))
def test_the_facades_results_read_as_json(module):
    facade = importlib.import_module(module)
    missing = []
    for name in RESULTS[module]:
        cls = getattr(facade, name)
        assert name in facade.__all__ and dataclasses.is_dataclass(cls), name
        full = f"{cls.__module__}.{cls.__qualname__}"
        if not callable(getattr(cls, "to_json", None)):
            missing.append(full)
    assert not missing, f"results without to_json(): {missing}"


def test_py_typed_ships():
    assert (PACKAGE / "py.typed").is_file()


def test_the_check_finds_missing_hints():
    def bare(a, b: int = 1, *rest, **options):
        return a

    def typed(a: int, *rest: int, **options: str) -> int:
        return a

    class Thing:
        def method(self, x: int):
            return x

    assert _missing(bare, False) == ["a", "rest", "options", "return"]
    assert _missing(typed, False) == []
    assert _missing(Thing.method, True) == ["return"]
