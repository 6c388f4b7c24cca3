"""The reader's Ptr-Net trainer (ptrnet.learn.hull_trainer) and its demo's handlers: chunks, snapshots, export and
import, and refused files."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from ptrnet.api import call
from ptrnet.learn.hull_trainer import Recipe, Trainer
from ptrnet.pointer import answers, weights


def test_chunks_and_a_snapshot_continue_one_run_bit_for_bit() -> None:
    whole, parts = Trainer(Recipe(seed=2)), Trainer(Recipe(seed=2))
    whole.train(6)
    parts.train(2)
    saved = json.loads(json.dumps(parts.snapshot()))  # as the page keeps it
    elsewhere = Trainer()
    elsewhere.restore(saved)
    elsewhere.train(4)
    assert elsewhere.iteration == whole.iteration == 6 and elsewhere.last_loss == whole.last_loss
    assert all(np.array_equal(elsewhere.params[k], whole.params[k]) for k in whole.params)
    assert all(np.array_equal(elsewhere.adam.v[k], whole.adam.v[k]) for k in whole.params)


def test_another_seed_is_another_run() -> None:
    a, b = Trainer(Recipe(seed=2)), Trainer(Recipe(seed=3))
    a.train(2)
    b.train(2)
    assert a.last_loss != b.last_loss


def test_an_export_reads_back_as_the_shipped_format_with_the_same_answers() -> None:
    t = Trainer(Recipe(seed=1))
    t.train(3)
    data = t.export()
    shipped_reader = weights.load(data)  # how the site reads its own weights
    back = Trainer()
    back.import_npz(data)
    points = [np.random.default_rng(k).random((7, 2)) for k in range(5)]
    assert answers.decode(back.params, "hull", points) == answers.decode(shipped_reader, "hull", points)
    assert back.imported and back.iteration == 0 and back.recipe.hidden == 32


def _npz(**arrays: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.savez(out, **arrays)
    return out.getvalue()


def _with(**changes: np.ndarray) -> bytes:
    """A hull Ptr-Net's .npz with some arrays changed."""
    return _npz(**(Trainer().params | changes))


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not a zip",
        _npz(x=np.zeros(3)),  # an .npz of something else
        _with(v=np.zeros(7)),  # a Ptr-Net whose shapes do not fit together
        _with(v=np.full(32, np.nan)),  # weights that are not numbers
    ],
)
def test_a_file_that_is_no_hull_ptrnet_is_refused_and_the_model_kept(data: bytes) -> None:
    t = Trainer()
    t.train(1)
    before = {k: v.copy() for k, v in t.params.items()}
    with pytest.raises(ValueError):
        t.import_npz(data)
    assert all(np.array_equal(t.params[k], before[k]) for k in before) and t.iteration == 1


def test_the_handler_refuses_what_is_no_npz_with_a_korean_message() -> None:
    reply = call("ptrnet-trainer", "import", {"npz": "bm90IGJhc2U2NA==", "instance": "refused"})
    assert reply["error"]["kind"] == "input" and "지금 모델은 그대로" in reply["error"]["message"]
    reply = call("ptrnet-trainer", "import", {"npz": "%%%", "instance": "refused"})
    assert reply["error"]["kind"] == "input"
