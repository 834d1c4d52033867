"""Places of a run through a pool of searches, their results yielded in order whatever
order the pool finishes them in (:func:`in_order`): what makes a certificate the same
file on one process and on Dask."""

from __future__ import annotations

#: What a ``start`` of :func:`in_order` returns when it has submitted its place to the pool.
SENT = object()


def in_order(pool, count: int, start, more=None, stop=None):
    """Places ``0..count-1`` through ``pool``, their results in order: ``start(place)``
    returns the place's result at once or, having submitted it to ``pool``, :data:`SENT`
    (at most ``pool.slots`` running, and only while ``more(sent, used)`` allows, where
    ``used`` places have been yielded). Yields ``(place, result, fresh)``, ``fresh``
    when the pool gave it, until every place is yielded or ``stop()``; then none is left
    running. Where a place's result does not depend on when it ran, what is yielded is
    the same on any pool."""
    ready: dict = {}
    sent = used = running = 0
    while used < count and not (stop and stop()):
        while sent < count and running < pool.slots and (more is None or more(sent, used)):
            result = start(sent)
            if result is SENT:
                running += 1
            else:
                ready[sent] = (result, False)
            sent += 1
        if used not in ready:           # one result, then the freed slot is filled
            if not running:
                raise RuntimeError("in_order: nothing runs and the next place is not ready "
                                   "(`more` must allow a place while none runs)")
            place, result = pool.next()
            ready[place] = (result, True)
            running -= 1
            continue
        while used in ready and not (stop and stop()):
            result, fresh = ready.pop(used)
            yield used, result, fresh
            used += 1
    for _ in range(running):
        pool.next()
