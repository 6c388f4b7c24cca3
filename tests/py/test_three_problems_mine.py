"""The companion page's [three-problems] with the reader's own hull model ([ptrnet-trainer]) beside ours: its answer
is the greedy decoding of the reader's weights (pointer.answers as the oracle), judged against the exact hull, and a
reader without a model gets a Korean note instead."""

from __future__ import annotations

import numpy as np
import pytest

from ptrnet import api
from ptrnet.geometry.notation import hull_sequence
from ptrnet.handlers.learning import READERS, Reader
from ptrnet.pointer import answers, trained, weights
from ptrnet.views.companion import NO_MINE


def _reader(name: str, params=None, iterations: int = 0) -> Reader:
    """A trainer demo instance as the page would leave it: trained a few updates, or given imported weights."""
    reader = Reader()
    if params is not None:
        reader.trainer.load(params)
    if iterations:
        reader.trainer.train(iterations)
    READERS[name] = reader
    return reader


def _solve(points, **params) -> dict:
    reply = api.call("three-problems", "solve", {"points": points, **params})
    assert reply["ok"], reply
    return reply["result"]


@pytest.mark.parametrize("seed", range(4))
def test_the_readers_hull_is_the_greedy_decoding_of_its_weights_and_judged_against_the_exact_hull(seed: int) -> None:
    reader = _reader("mine-trained", iterations=30)
    points = np.random.default_rng(seed).random((12, 2)).round(4).tolist()
    res = _solve(points, mine="mine-trained")
    assert res["model_mine"] == answers.decode(reader.trainer.params, "hull", [np.array(points)])[0]
    right = res["model_mine"] == hull_sequence(points)
    assert res["mine_correct"] is right
    edges = lambda seq: {frozenset(e) for e in zip(seq, seq[1:], strict=False) if e[0] != e[1]}  # noqa: E731
    assert {frozenset(e) for e in res["mine_wrong_edges"]} == edges(res["model_mine"]) - edges(res["hull"])
    verdict = res["text"]["mine_verdict"]
    assert verdict == "정답" if right else verdict.startswith("오답")
    assert res["text"]["model_mine"].startswith("⇒") and res["text"]["model_mine"].endswith("⇐")


def test_the_shipped_weights_imported_by_the_reader_answer_as_our_model_does() -> None:
    _reader("mine-shipped", params=weights.shipped("hull_ptrnet", trained.PAGE_DTYPE))
    points = np.random.default_rng(7).random((9, 2)).round(4).tolist()
    res = _solve(points, mine="mine-shipped")
    assert res["model_mine"] == res["model_hull"] == res["hull"]  # this set: our model is right, so is the copy
    assert res["mine_correct"] is True and res["text"]["mine_verdict"] == "정답" and res["mine_wrong_edges"] == []


def test_no_model_yet_is_a_korean_note_and_the_rest_still_answers() -> None:
    points = np.random.default_rng(3).random((6, 2)).round(4).tolist()
    plain = _solve(points)
    assert "model_mine" not in plain and "mine_note" not in plain["text"]  # toggle off: nothing of the reader's
    _reader("mine-untrained")  # opened, never trained
    for name in ("never-opened", "", "mine-untrained"):
        res = _solve(points, mine=name)
        assert res["model_mine"] is None and res["text"]["mine_note"] == NO_MINE
        assert res["model_hull"] == plain["model_hull"] and res["tsp"] == plain["tsp"]


def test_a_mine_that_names_no_instance_is_refused_in_korean() -> None:
    reply = api.call("three-problems", "solve", {"points": [[0.1, 0.1], [0.9, 0.2], [0.5, 0.9]], "mine": 3})
    assert not reply["ok"] and reply["error"]["kind"] == "input" and "instance" in reply["error"]["message"]
