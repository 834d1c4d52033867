"""The in-order pool loop of the opener proofs against a pool that ends its tasks in any
order: every place yielded once, in order, with its own result, never more running than
the pool's slots, and nothing left running when the loop ends or stops."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.feedback.search.order import SENT, in_order


class ShuffledPool:
    """``slots`` tasks at most; ``next()`` ends a running one drawn by ``rng``."""

    def __init__(self, slots, rng):
        self.slots, self.rng = slots, rng
        self.running: list = []
        self.most = 0

    def submit(self, place):
        self.running.append(place)
        assert len(self.running) <= self.slots
        self.most = max(self.most, len(self.running))

    def next(self):
        place = self.running.pop(self.rng.randrange(len(self.running)))
        return place, ("pool", place)


@settings(max_examples=200, deadline=None)
@given(count=st.integers(0, 30), slots=st.integers(1, 4), seed=st.integers(0, 2 ** 16),
       at_once=st.sets(st.integers(0, 29)), ahead=st.none() | st.integers(1, 5),
       stop_at=st.none() | st.integers(0, 30))
def test_in_order_yields_every_place_once_in_order(count, slots, seed, at_once, ahead,
                                                   stop_at):
    pool = ShuffledPool(slots, random.Random(seed))

    def start(place):
        if place in at_once:
            return ("now", place)
        pool.submit(place)
        return SENT

    more = None if ahead is None else (lambda sent, used: sent - used < ahead)
    got: list = []
    stop = None if stop_at is None else (lambda: len(got) >= stop_at)
    for place, result, fresh in in_order(pool, count, start, more, stop):
        got.append(place)
        assert result == (("now", place) if place in at_once else ("pool", place))
        assert fresh == (place not in at_once)
    wanted = count if stop_at is None else min(count, stop_at)
    assert got == list(range(wanted))
    assert pool.running == []                   # every task sent was collected
    assert pool.most <= slots


def test_in_order_refuses_to_wait_on_nothing():
    """A ``more`` that allows no place while none runs would wait for ever on an empty
    pool: a clear error instead."""
    pool = ShuffledPool(2, random.Random(0))

    def start(place):
        pool.submit(place)
        return SENT

    try:
        list(in_order(pool, 3, start, lambda sent, used: False))
    except RuntimeError as exc:
        assert "nothing runs" in str(exc)
    else:
        raise AssertionError("in_order waited on an empty pool")
