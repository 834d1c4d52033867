import pytest


@pytest.fixture(scope="session")
def original_lists():
    """The original Wordle lists as WordLists (12,972 guesses, 2,315 answers): the
    built-in list ``wordle`` the package ships."""
    from deductive import wordle

    return (wordle.builtin_words("wordle", role="guesses"),
            wordle.builtin_words("wordle", role="answers"))
