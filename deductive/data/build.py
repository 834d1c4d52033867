"""Build the shipped English word lists from SCOWL (Debian package ``scowl``).

    python -m deductive.data.build [--scowl /usr/share/dict/scowl] [--out deductive/data]

Writes, by the rule of :func:`deductive.engine.words.builtin_words`:

``en-words.txt.gz``
    Every word of SCOWL's American lists up to size 70, once folded: ``word size
    [spellings]`` per line (size: the smallest SCOWL size it appears in; the spellings
    before folding, when they differ from the word), by length, then alphabetically.
``en-5.txt``
    The 5-letter words of it, alphabetically: the default guess list, read without
    decompressing the whole list.
``en-answers.txt``
    The answers of every length, most frequent first, at most 2,315 per length.

SCOWL is Copyright 2000-2011 Kevin Atkinson and others, under a permissive licence
(``SCOWL-COPYRIGHT.txt`` beside the lists). Frequencies: wordfreq, by Robyn Speer.
"""

from __future__ import annotations

import argparse
import gzip
from pathlib import Path

from ..engine.words import GUESS_SIZE

SCOWL_DIR = "/usr/share/dict/scowl"
#: SCOWL's American spelling categories (english: common to all; variant_1 and variant_2:
#: the variants "generally considered acceptable"): those of Debian's wamerican lists.
CATEGORIES = ("english", "american", "variant_1", "variant_2")
SIZES = tuple(size for size in (10, 20, 35, 40, 50, 55, 60, 70, 80) if size <= GUESS_SIZE)
#: Longest word kept (Hangman's limit).
LONGEST = 32


def read_scowl(directory=SCOWL_DIR) -> dict:
    """word -> (smallest size, spellings) over SCOWL's word lists up to :data:`GUESS_SIZE`.

    Only the ``*-words.*`` lists: SCOWL keeps abbreviations, contractions, capitalised
    words and proper names in other lists. Entries that do not start with a lowercase
    letter or are not a-z once folded are dropped, as in :func:`fold_entries`.
    """
    from ..engine.words.wordlist import _VALID, fold_word

    found: dict = {}
    for size in SIZES:
        for category in CATEGORIES:
            path = Path(directory) / f"{category}-words.{size}"
            for entry in path.read_text(encoding="utf-8").split():
                if not entry[:1].islower():
                    continue
                word = fold_word(entry)
                if not _VALID.fullmatch(word) or not 2 <= len(word) <= LONGEST:
                    continue
                old_size, forms = found.get(word, (size, ()))
                found[word] = (min(old_size, size), tuple(dict.fromkeys(forms + (entry,))))
    return found


def entries_of(scowl: dict) -> dict:
    """The :class:`DictionaryEntry` view of :func:`read_scowl`'s result."""
    from ..engine.words import COMMON_SIZE, DictionaryEntry

    return {w: DictionaryEntry(size <= COMMON_SIZE, forms) for w, (size, forms) in scowl.items()}


def main(argv=None):
    from ..engine.words import ANSWER_LIST_SIZE, common_words, rank_answers

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scowl", default=SCOWL_DIR, help="SCOWL's final/ word lists")
    parser.add_argument("--out", default=str(Path(__file__).parent), help="output directory")
    args = parser.parse_args(argv)
    scowl = read_scowl(args.scowl)
    out = Path(args.out)
    order = sorted(scowl, key=lambda w: (len(w), w))
    lines = []
    for word in order:
        size, forms = scowl[word]
        extra = "" if forms == (word,) else " " + " ".join(forms)
        lines.append(f"{word} {size}{extra}\n")
    # mtime 0: the same lists give the same bytes
    with gzip.GzipFile(out / "en-words.txt.gz", "wb", compresslevel=9, mtime=0) as fh:
        fh.write("".join(lines).encode("utf-8"))
    header = ("# Built by python -m deductive.data.build from SCOWL 2020.12.07 (see "
              "SCOWL-COPYRIGHT.txt)\n")
    five = [w for w in order if len(w) == 5]
    (out / "en-5.txt").write_text(header + f"# every 5-letter word up to size {GUESS_SIZE}, "
                                  "alphabetically\n" + "\n".join(five) + "\n", encoding="utf-8")
    entries = entries_of(scowl)
    common = common_words(entries)
    answers = []
    for length in sorted({len(w) for w in scowl}):
        answers += rank_answers(entries, common, length, "en", ANSWER_LIST_SIZE)
    (out / "en-answers.txt").write_text(
        header + "# answers of each length, most frequent (wordfreq) first\n"
        + "\n".join(answers) + "\n", encoding="utf-8")
    print(f"{len(scowl)} words, {len(five)} of 5 letters, {len(answers)} answers -> {out}")


if __name__ == "__main__":
    main()
