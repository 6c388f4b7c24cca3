"""Demo 4 [hull-steps] against the spec's decoding and the table renormalised by hand."""

import numpy as np
import pytest
from checks import assert_korean_error, raw_json

from ptrnet import explain
from ptrnet.api import dispatch
from ptrnet.geometry.notation import hull_sequence

HULL_DECODING = [3, 6, 4, 5, 3, 0]  # P3 P6 P4 P5 P3 ⇐; 0 stands for ⇐
INTERIOR = [1, 2, 7]  # P1, P2, P7 lie inside the example's hull
END = 7  # the slot of ⇐ in [P1..P7, ⇐]


def test_hull_steps_follow_the_spec_decoding(reference):
    outs = [dispatch("hull-steps", "solve", {"step": s, "mask": False}) for s in range(1, 7)]
    assert [o["choice"] for o in outs] == HULL_DECODING == hull_sequence(reference["points"]) + [0]
    assert [o["input"] for o in outs] == [0, 3, 6, 4, 5, 3]
    assert [o["output"] for o in outs] == [HULL_DECODING[:s] for s in range(1, 7)]
    assert [o["step"] for o in outs] == list(range(1, 7))
    assert all(o["points"] == reference["points"] and o["illustrative"] is True for o in outs)


@pytest.mark.parametrize("mask", [False, True])
@pytest.mark.parametrize("step", range(1, 7))
def test_hull_step_tables_are_distributions_won_clearly_by_the_choice(step, mask):
    out = dispatch("hull-steps", "solve", {"step": step, "mask": mask})
    p = np.array(out["probs"])
    assert p.shape == (8,) and np.all(p >= 0) and abs(p.sum() - 1) < 1e-12
    slot = END if out["choice"] == 0 else out["choice"] - 1
    assert int(np.argmax(p)) == slot
    assert p[slot] - np.sort(p)[-2] >= 0.25  # a clear margin
    assert all(0 < p[i - 1] < p[slot] for i in INTERIOR)  # P1, P2, P7 stay candidates and never win
    assert p[END] > 0 and p[2] > 0  # ⇐ and the first point P3 always stay available
    if step < 6:
        assert p[END] < 0.1  # ⇐ stays small until the polygon is closed


@pytest.mark.parametrize("step", range(1, 7))
def test_masked_probabilities_are_the_hand_renormalised_table(step):
    table = raw_json("hull_steps.json")
    raw = np.array([table["steps"][step - 1]["probs"][c] for c in ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "⇐"]])
    removed = {i for i in HULL_DECODING[: step - 1] if i != 3}  # chosen before, except the first point
    keep = np.array([i + 1 not in removed for i in range(7)] + [True])
    expected = np.where(keep, raw, 0.0) / raw[keep].sum()
    out = dispatch("hull-steps", "solve", {"step": step, "mask": True})
    assert np.allclose(out["probs"], expected, rtol=0, atol=1e-12)
    assert out["masked"] == (~keep).tolist()
    unmasked = dispatch("hull-steps", "solve", {"step": step, "mask": False})
    assert unmasked["probs"] == raw.tolist() and unmasked["masked"] == [False] * 8


def test_the_mask_removes_earlier_points_but_keeps_the_first():
    masks = {s: dispatch("hull-steps", "solve", {"step": s, "mask": True})["masked"] for s in range(1, 7)}
    removed = {s: [i + 1 for i, m in enumerate(masked) if m] for s, masked in masks.items()}
    assert removed == {1: [], 2: [], 3: [6], 4: [4, 6], 5: [4, 5, 6], 6: [4, 5, 6]}
    for s in range(3, 7):  # without the mask the earlier points keep some probability, so the mask visibly matters
        free = dispatch("hull-steps", "solve", {"step": s, "mask": False})["probs"]
        assert all(free[i - 1] > 0 for i in removed[s])


def test_hull_steps_data_is_labelled_illustrative():
    table = raw_json("hull_steps.json")
    assert "illustrative" in table["note"].lower()
    assert len(table["steps"]) == explain.HULL_STEPS == 6


@pytest.mark.parametrize(
    "params",
    [{"step": 0}, {"step": 7}, {"step": 2.5}, {"step": "1"}, {"step": 1, "mask": "yes"}, {"step": 1, "mask": 1}],
)
def test_hull_steps_rejects_bad_params_in_korean(params):
    assert_korean_error("hull-steps", params)
