"""What a --json document says apart from its provenance (the keys every document carries:
``deductive._common.provenance``), for tests that compare results."""

import json

KEYS = ("deductive", "command", "lists", "parameters", "elapsed_s")


def payload(text: str):
    """The result in a --json document: its list (``results``) or its dict without the
    provenance keys."""
    doc = json.loads(text)
    assert all(k in doc for k in KEYS), sorted(doc)
    if "results" in doc:
        return doc["results"]
    return {k: v for k, v in doc.items() if k not in KEYS}
