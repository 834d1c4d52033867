"""The results that gained ``to_json()`` for the typed API (issue 37): each reads as JSON
(through :func:`json.dumps` and back unchanged) and says what the object holds."""

import json

import numpy as np

from deductive import mastermind
from deductive.engine.minesweeper.base import Move
from deductive.engine.minesweeper.bench import new_game, run_bench
from deductive.engine.minesweeper.players import make_player


def _round_trip(doc):
    return json.loads(json.dumps(doc))


def test_a_search_result_reads_as_json():
    result = mastermind.search(mastermind.game(3, 3))
    doc = result.to_json()
    assert _round_trip(doc) == doc
    assert (doc["word"], doc["total"], doc["worst"]) == (result.opener, 73, 4)
    assert doc["exact"] is True and doc["lower"] == 73 and doc["beam"] is None
    assert doc["average"] == round(73 / 27, 6) and doc["nodes"] == result.nodes


def test_a_mines_bench_result_reads_as_json():
    result = run_bench("beginner8", make_player("least-risk"), 6, first_click="zero",
                       first_move="centre", seed=1000)
    doc = result.to_json()
    assert _round_trip(doc) == doc
    assert (doc["player"], doc["rows"], doc["cols"], doc["mines"]) == ("least-risk", 8, 8, 10)
    assert (doc["first_click"], doc["first_move"], doc["seed"]) == ("zero", "centre", 1000)
    assert doc["games"] == 6 and doc["wins"] == sum(r.won for r in result.records)
    assert doc["win_rate"] == round(result.wins / 6, 6)
    assert doc["decisions"] == {k: sum(r.decisions[k] for r in result.records)
                                for k in ("rules", "forced", "guess")}


def test_a_move_reads_as_json_with_plain_numbers():
    move = Move("guess", [np.int64(3)], [np.int64(7), 9], np.float32(0.25), "least risk",
                np.float64(0.5))
    doc = move.to_json()
    assert _round_trip(doc) == doc == {"kind": "guess", "reveal": [3], "flag": [7, 9],
                                       "probability": 0.25, "reason": "least risk",
                                       "win": 0.5}
    assert all(type(c) is int for c in doc["reveal"] + doc["flag"])
    assert Move("rules").to_json()["win"] is None


def test_a_players_move_reads_as_json():
    board, rng = new_game(8, 8, 10, 0, first_click="zero")
    board.click(27)
    move = make_player("least-risk").decide(board.position(), rng)
    doc = _round_trip(move.to_json())
    assert doc["kind"] == move.kind and doc["reason"] == move.reason
    assert doc["reveal"] == [int(c) for c in move.reveal] and doc["reveal"] + doc["flag"]
    assert doc["flag"] == [int(c) for c in move.flag]
    assert doc["probability"] == float(move.probability)
