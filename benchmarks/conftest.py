import pytest

from tests.conftest import shared_data_dir


@pytest.fixture(scope="session")
def original_lists():
    """The original Wordle lists as WordLists (12,972 guesses, 2,315 answers), or skip."""
    from deductive import wordle

    base = shared_data_dir()
    if base is None:
        pytest.skip("the original Wordle lists are absent (set DEDUCTIVE_SHARED_DATA)")
    return (wordle.load_words(base / "wordle" / "guesses.txt"),
            wordle.load_words(base / "wordle" / "answers.txt"))
