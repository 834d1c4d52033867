"""The memo of the tree search: entries keyed by a candidate set (and, in hard mode, the
mask of guesses still allowed) and the depth left, capped in bytes; and the hard-mode masks
the keys name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

#: Estimated bytes of one memo entry beside its key (the set's dict slot, its per-depth
#: dict and the entry), for ``memo_bytes``: measured as the process's resident memory
#: growth per entry over the exact salet search (``benchmarks/search_memo.py``).
MEMO_ENTRY_BYTES = 600

#: Bytes of hard-mode masks a search keeps (see :meth:`TreeSearch._allowed_after`); past
#: it they all go, and the next masks met are computed again.
RULES_CACHE_BYTES = 256 << 20


class _Allowed(np.ndarray):
    """A mask of allowed guesses as a search keeps it: one object per distinct mask, with
    ``key`` (a short id naming the mask in memo keys) and ``rows`` (its guesses)."""

    key: bytes
    rows: np.ndarray


@dataclass(slots=True)
class _Entry:
    value: int          # exact total, or a proven lower bound
    exact: bool
    worst: int = 0      # worst case of the tree found (exact entries)
    choice: int = -1    # its first guess (exact entries)


def costliest_entries(memo: dict, keep: int, cost) -> tuple[dict, int]:
    """The entries of ``memo`` whose keys cost the most (``cost(key)``, in bytes; ties: the
    older first), up to about ``keep`` bytes in all, as a new dict, and the bytes they take:
    what a capped memo keeps (a set's entry costs more to search again when it is larger)."""
    kept, used = {}, 0
    for key in sorted(memo, key=cost, reverse=True):
        size = cost(key)
        if used + size > keep:
            break
        kept[key] = memo[key]
        used += size
    return kept, used



class SearchMemo:
    """The memo and hard-mode mask cache of :class:`~.tree_search.TreeSearch` (which sets
    their state up: ``memo``, ``memo_bytes``, ``_memo_used``, ``evictions``, ``game`` and
    the ``_masks``/``_after``/``_rules`` caches).

    ``memo`` maps a set's key to ``{depth left (None: unlimited): _Entry}``.
    """

    memo: dict
    memo_bytes: int | None
    cache_rules: bool
    _memo_used: int
    evictions: int
    game: Any                       # the FeedbackGame searched
    _masks: dict[bytes, _Allowed]
    _after: dict[tuple, _Allowed]
    _rules: dict[tuple[int, int], Any]
    _masks_used: int
    _mask_ids: int

    # -- keys and splits -------------------------------------------------------------------
    def _key(self, cands, allowed):
        key = cands.tobytes()
        if allowed is not None:
            key += self._mask(allowed).key
        return key

    def _mask(self, allowed) -> _Allowed:
        """The search's own object for the mask ``allowed`` (made at its first sight)."""
        if isinstance(allowed, _Allowed) and getattr(allowed, "key", None) is not None:
            return allowed
        bits = np.packbits(allowed).tobytes()
        mask = self._masks.get(bits)
        if mask is None:
            if self._masks_used > RULES_CACHE_BYTES:
                self._masks.clear()
                self._after.clear()
                self._rules.clear()
                self._masks_used = 0
            mask = np.array(allowed, dtype=bool).view(_Allowed)
            mask.rows = np.flatnonzero(mask).astype(np.int64)
            mask.key = b"#" + self._mask_ids.to_bytes(8, "little")
            self._mask_ids += 1
            self._masks[bits] = mask
            self._masks_used += mask.nbytes + mask.rows.nbytes + 2 * len(bits) + 256
        return mask

    def _allowed_after(self, allowed, guess: int, code: int):
        """The game's :meth:`allowed_after`, remembered by the mask before and the turn's
        :meth:`rule_key`: the exact hard-mode salet search asks 61,362 times for 2,618
        distinct masks. Each mask is one object whose key and rows are made once; memo
        keys name masks by that key, so identical masks reached by different histories
        share entries, as before."""
        if allowed is None or not self.cache_rules:
            return self.game.allowed_after(allowed, guess, code)
        parent = self._mask(allowed)
        turn = (parent.key, guess, code)
        mask = self._after.get(turn)
        if mask is None:
            rule = self._rules.get((guess, code))
            if rule is None:
                rule = self._rules[(guess, code)] = self.game.rule_key(guess, code)
            step = (parent.key, rule)
            mask = self._after.get(step)
            if mask is None:
                mask = self._mask(self.game.allowed_after(parent, guess, code))
                self._after[step] = mask
            self._after[turn] = mask
            self._masks_used += 384
        return mask


    # -- memo ---------------------------------------------------------------------------------
    def _lookup(self, key, depth):
        """(best lower bound, exact entry or None) known for the set at ``depth`` left.

        A tree within d guesses is also one within more, so an entry searched with d >= depth
        left (or unlimited) bounds the set from below, and settles it when its tree fits."""
        bound = 0
        for d, entry in self.memo.get(key, {}).items():
            if d is None or (depth is not None and d >= depth):
                if entry.exact and (depth is None or entry.worst <= depth):
                    return entry.value, entry
                bound = max(bound, entry.value)
        return bound, None


    def _store(self, key, depth, entry):
        slot = self.memo.get(key)
        if slot is None:
            slot = self.memo[key] = {}
            self._memo_used += len(key) + MEMO_ENTRY_BYTES
        slot[depth] = entry
        if self.memo_bytes is not None and self._memo_used > self.memo_bytes:
            self._evict(self.memo_bytes // 2)
            if key not in self.memo:    # the set just searched stays: its caller may read
                self.memo[key] = {depth: entry}             # its guess next (best_guess)
                self._memo_used += len(key) + MEMO_ENTRY_BYTES

    def _evict(self, keep):
        """Drop the entries of the smallest sets (ties: the older) until about ``keep``
        bytes are left (:func:`costliest_entries`). A dropped set is searched again if it
        is met again: values stay exact, only time is lost."""
        kept, self._memo_used = costliest_entries(self.memo, keep,
                                                  lambda key: len(key) + MEMO_ENTRY_BYTES)
        self.memo.clear()
        self.memo.update(kept)
        self.evictions += 1

